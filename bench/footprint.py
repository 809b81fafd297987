#!/usr/bin/env python3
"""The device side's footprint, per target: code + data of each function group, scratch per buffer, worst stack.

Each group is measured as what it adds to a program: every group is linked (-Os, -ffunction-sections,
--gc-sections, status strings off, assertions off) into a tiny freestanding program that sets up one fixed problem
and calls the group's entry point; its text + data minus that of the same program calling a do-nothing strategy is
the group's figure. memcpy/memset/memmove are supplied by the program (as by any libc) and counted in neither.

Worst-case stack comes from GCC's -fcallgraph-info=su: the deepest chain of static frames below the group's entry
point (the measuring program's own frame left out).
Calls through a function pointer (a strategy's plan) are charged the largest frame among the functions that can be
called that way; the .tflite reader's one recursion (mark(), at most APLAN_TFLITE_MAX_NESTING deep) is charged that
many frames. Any other cycle makes the stack "unbounded", which --check refuses.

Usage:
  bench/footprint.py                 the table for every target, default and compact configurations (markdown)
  bench/footprint.py --check         CI: link a planning program for every target whose compiler is installed and
                                     fail if it needs anything beyond memcpy/memset/memmove and libgcc, or recurses
                                     without bound; prints the table for the build's configuration
  bench/footprint.py --write-doc     both tables, written into docs/footprint.md in place of the ones there
  options: --targets m0plus,m4,m33,rv32imc  --compact
           --doc docs/footprint.md  (with --check: the table of the build's configuration must be the one in that
                                     file, when every strategy and every target is in; docs/footprint.md's tables
                                     can then only come from this script)
           --strategies NAME,...  (-Dstrategies names; default: every one in APLAN_BUILTIN_STRATEGIES)
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import declarations  # noqa: E402  (the built-in strategies, as include/aplan/strategies.h declares them)

BUILTINS = declarations.builtin_strategies()
ALL_STRATEGIES = declarations.strategy_options()
# The recursions the device side has, and their documented depth bounds (frames): tflite.c's mark() is at most
# APLAN_TFLITE_MAX_NESTING (32) calls deep below subgraph 0.
BOUNDED_RECURSION = {"tflite.c:mark": 33}

TARGETS = {
    "m0plus": ("arm-none-eabi-", ["-mcpu=cortex-m0plus", "-mthumb"]),
    "m4": ("arm-none-eabi-", ["-mcpu=cortex-m4", "-mthumb"]),
    "m33": ("arm-none-eabi-", ["-mcpu=cortex-m33", "-mthumb"]),
    # No rv32imc multilib ships with Debian's riscv64-unknown-elf: libgcc comes from the ABI-compatible rv32imac one.
    "rv32imc": ("riscv64-unknown-elf-", ["-march=rv32imc", "-mabi=ilp32"]),
}
LIBGCC_FLAGS = {"rv32imc": ["-march=rv32imac", "-mabi=ilp32"]}

PRELUDE = r"""
#include <stddef.h>
#include "aplan/regions.h"
#include "aplan/strategies.h"
#include "aplan/tflite.h"
/* What a libc would give; the core needs nothing else. */
void *memcpy(void *d, const void *s, size_t n) {
    unsigned char *a = d; const unsigned char *b = s; while (n--) *a++ = *b++; return d;
}
void *memset(void *d, int c, size_t n) { unsigned char *a = d; while (n--) *a++ = (unsigned char)c; return d; }
void *memmove(void *d, const void *s, size_t n) {
    unsigned char *a = d; const unsigned char *b = s;
    if (a < b) { while (n--) *a++ = *b++; } else { a += n; b += n; while (n--) *--a = *--b; }
    return d;
}
aplan_buffer buffers[4] = {{12288, 0, 2, 0, APLAN_NO_OFFSET}, {32768, 1, 3, 0, APLAN_NO_OFFSET},
                           {16384, 1, 5, 0, APLAN_NO_OFFSET}, {4096, 3, 5, 16, 0}};
/* Globals, not statics, so that no group's program warns about the ones it does not use. */
uint64_t scratch[64];
uint64_t offsets[4];
const unsigned char *volatile model = 0;
volatile size_t model_size = 0;
static aplan_status nothing(const aplan_strategy *self, const aplan_problem *p, void *s, size_t n, uint64_t *o,
                            aplan_report *r) {
    (void)self; (void)p; (void)s; (void)n; (void)r; o[0] = 0; return APLAN_OK;
}
static aplan_status no_scratch(const aplan_strategy *self, const aplan_problem *p, size_t *bytes) {
    (void)self; (void)p; *bytes = 0; return APLAN_OK;
}
static const aplan_strategy noop = {APLAN_STRATEGY_ABI_VERSION, "noop", "", no_scratch, nothing, 0, 0};
int aplan_fp_entry(void);
int aplan_fp_entry(void) {
    aplan_problem p;
    aplan_problem_init(&p, buffers, 4);
    p.alignment = 16;
    p.flags = APLAN_ROUND_SIZES;
    aplan_report report;
    aplan_result result;
    uint64_t bound;
    (void)report; (void)result; (void)bound;
    const aplan_strategy *s = &noop;
    (void)s;
"""

# group name -> (body, needs); needs: None, a strategy name, or "tflite"
def groups(strategies):
    g = [
        ("base", "return (int)noop.plan(&noop, &p, scratch, sizeof scratch, offsets, &report);", None),
        ("validation", "return (int)aplan_problem_validate(&p, &report);", None),
        ("lower bound", "return (int)aplan_lower_bound(&p, scratch, sizeof scratch, &bound, NULL);", None),
        ("verifier", "return (int)aplan_verify(&p, offsets, 0, scratch, sizeof scratch, &report);", None),
        ("aplan_plan (validate, bound, verify)",
         "return (int)aplan_plan(&noop, &p, scratch, sizeof scratch, offsets, &result);", None),
    ]
    for getter in [b.name for b in BUILTINS if b.option in strategies]:
        g.append((getter + " plan()",
                  "s = aplan_strategy_%s(); return (int)s->plan(s, &p, scratch, sizeof scratch, offsets, "
                  "&report);" % getter, getter))
    if "greedy_by_size" in strategies:
        g.append(("aplan_plan + greedy_by_size",
                  "return (int)aplan_plan(aplan_strategy_greedy_by_size(), &p, scratch, sizeof scratch, offsets, "
                  "&result);", "greedy_by_size"))
    g.append(("aplan_region_plan + banked (two regions)",
              "const aplan_region g2[2] = {{\"fast\", 1024, 0, {0, 0}}, {\"slow\", APLAN_UNLIMITED, 0, {0, 0}}};\n"
              "    const aplan_regions rg = {g2, 2, NULL, NULL, {0}}; uint32_t region_of[4]; uint64_t arenas[2];\n"
              "    aplan_region_result rr;\n"
              "    return (int)aplan_region_plan(aplan_region_strategy_banked(), &p, &rg, NULL, scratch, sizeof scratch, "
              "region_of, offsets, arenas, NULL, &rr);", None))
    g.append((".tflite reader (query + read)",
              "aplan_tflite_info info; size_t count; aplan_tflite_id ids[4];\n"
              "    if (aplan_tflite_query((const void *)model, model_size, &info, NULL) != APLAN_OK) return 1;\n"
              "    return (int)aplan_tflite_read((const void *)model, model_size, scratch, sizeof scratch, buffers, "
              "ids, 4, &count, NULL);", "tflite"))
    g.append((".tflite lookups (tensor, operator, subgraph)",
              "aplan_tflite_tensor_info t; aplan_tflite_operator_info o; aplan_tflite_subgraph_info g;\n"
              "    if (aplan_tflite_tensor((const void *)model, model_size, (aplan_tflite_id){0, 0}, &t, NULL) != "
              "APLAN_OK) return 1;\n"
              "    if (aplan_tflite_operator((const void *)model, model_size, 0, 0, &o, NULL) != APLAN_OK) return 2;\n"
              "    return (int)aplan_tflite_subgraph((const void *)model, model_size, 0, &g, NULL);", "tflite"))
    g.append((".tflite steps (the operator at each step; includes the reader)",
              "aplan_tflite_step steps[4]; size_t count;\n"
              "    return (int)aplan_tflite_steps((const void *)model, model_size, scratch, sizeof scratch, steps, 4, "
              "&count, NULL);", "tflite"))
    g.append((".tflite writer (embed; includes the reader and the verifier)",
              "aplan_tflite_id ids[1] = {{0, 0}}; size_t size;\n"
              "    return (int)aplan_tflite_embed((const void *)model, model_size, ids, offsets, 1, scratch, "
              "sizeof scratch, NULL, 0, &size, NULL, NULL);", "tflite"))
    return g


def run(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if r.returncode != 0:
        raise RuntimeError("%s\n%s%s" % (" ".join(cmd), r.stdout, r.stderr))
    return r.stdout


def sources(strategies):
    core = sorted(glob.glob(os.path.join(ROOT, "src/core/*.c")))
    built = [b for b in BUILTINS if b.option in strategies]  # as meson.build: each engine needed once, each file
    strat = []
    for f in [b.engine for b in built if b.engine != "none"] + [b.name for b in built]:
        path = os.path.join(ROOT, "src/strategies/%s.c" % f)
        if path not in strat:
            strat.append(path)
    greedy = os.path.join(ROOT, "src/strategies/greedy.c")  # the region strategies run on it in every build
    if greedy not in strat:
        strat.append(greedy)
    for r in declarations.region_strategies():
        if r.needs == "always" or r.needs in strategies:
            strat.append(os.path.join(ROOT, "src/strategies/region_%s.c" % r.name))
    reader = [os.path.join(ROOT, "src/formats/%s.c" % f) for f in ("flatbuf", "tflite", "tflite_write")]
    return core + strat + reader


def defines(strategies, compact):
    d = ["-DAPLAN_WITH_%s=%d" % (s.upper(), 1 if s in strategies else 0) for s in ALL_STRATEGIES]
    return d + ["-DAPLAN_COMPACT=%d" % (1 if compact else 0), "-DAPLAN_NO_STATUS_STRINGS", "-DNDEBUG"]


class Callgraph:
    """Static frames and call edges from the .ci files of one build."""

    def __init__(self, ci_files):
        self.frame, self.edges, self.short = {}, {}, {}
        node = re.compile(r'node: \{ title: "([^"]+)" label: "([^"\\]+)\\n[^"]*?(?:\\n(\d+) bytes[^"]*)?"')
        edge = re.compile(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"')
        for path in ci_files:
            with open(path) as f:
                for line in f:
                    m = node.match(line)
                    if m and m.group(3) is not None:
                        self.frame[m.group(1)] = int(m.group(3))
                        self.short[m.group(1)] = m.group(2)
                    m = edge.match(line)
                    if m:
                        self.edges.setdefault(m.group(1), []).append(m.group(2))

    def resolve(self, name):
        """An edge names a global by its name and a static by file:name; both are keys of frame."""
        return name if name in self.frame else None

    STRATEGY_CALLERS = {"aplan_plan", "aplan_plan_search", "aplan_plan_scratch_size", "needs", "aplan_fp_entry"}
    ORDERS = re.compile(r"^(placed|less_.*|aplan__less_.*)$")
    # A strategy's entry points: plan, search (ABI 2) and scratch_size, alone or with a prefix (greedy_by_size_plan,
    # exact_search: APLAN__GREEDY_STRATEGY names them so), and the measuring program's do-nothing ones.
    ENTRIES = re.compile(r"^((\w+_)?(plan|search|scratch_size)|nothing|no_scratch)$")
    # What the greedy engine (strategies/greedy.c) calls through its rule: the strategy's order function and, in
    # compact builds, the gap walk the rule names.
    ENGINE = re.compile(r"^(order_.*|aplan__greedy_lowest|aplan__greedy_smallest)$")

    def callbacks(self, caller, strategy):
        """What a call through a pointer in caller can reach: the core (plan.c) and the measuring program call the
        measured strategy's entry points (ENTRIES of file strategies/<strategy>.c, or the program's do-nothing
        ones); the greedy engine's plan calls its rule's functions (ENGINE) and comparators; everything else calls
        comparators and filters (ORDERS), which call nothing back."""
        if self.short.get(caller) in self.STRATEGY_CALLERS:
            where = "/strategies/%s.c:" % strategy if strategy else "/prog_"
            return [t for t, s in self.short.items() if where in t and self.ENTRIES.match(s)]
        engine = self.short.get(caller) == "aplan__greedy_plan"
        return [t for t, s in self.short.items() if self.ORDERS.match(s) or (engine and self.ENGINE.match(s))]

    def worst(self, root, strategy):
        """Deepest stack from root in bytes, or None when a recursion without a known bound is reachable."""
        memo, active = {}, set()

        def visit(n):
            if n in memo:
                return memo[n]
            if n in active:
                raise ValueError(n)
            active.add(n)
            own = self.frame.get(n, 0)
            deepest, recursive = 0, False
            for t in self.edges.get(n, []):
                if t == n:
                    recursive = True
                    continue
                if t == "__indirect_call":
                    deepest = max([deepest] + [visit(c) for c in self.callbacks(n, strategy)])
                    continue
                r = self.resolve(t)
                if r is not None:
                    deepest = max(deepest, visit(r))
            active.discard(n)
            if recursive:
                depth = [d for suffix, d in BOUNDED_RECURSION.items() if n.endswith("/" + suffix)]
                if not depth:
                    raise ValueError(n)
                own *= depth[0]
            memo[n] = own + deepest
            return memo[n]

        try:
            return visit(root)
        except ValueError:
            return None


def measure(target, strategies, compact, work):
    prefix, cpu = TARGETS[target]
    cc = prefix + "gcc"
    flags = cpu + ["-Os", "-std=c11", "-ffreestanding", "-fno-common", "-ffunction-sections", "-fdata-sections",
                   "-Wall", "-Wextra", "-Werror", "-fcallgraph-info=su", "-I" + os.path.join(ROOT, "include"),
                   "-I" + os.path.join(ROOT, "src")] + defines(strategies, compact)
    objdir = os.path.join(work, "%s-%s" % (target, "compact" if compact else "default"))
    os.makedirs(objdir)
    objs = []
    for src in sources(strategies):
        rel = os.path.relpath(src, ROOT).replace("/", "_")
        obj = os.path.join(objdir, rel[:-2] + ".o")
        run([cc] + flags + ["-c", src, "-o", obj], cwd=objdir)
        objs.append(obj)
    libgcc = run([cc] + LIBGCC_FLAGS.get(target, cpu) + ["-print-libgcc-file-name"]).strip()
    sizes = {}
    stacks = {}
    for name, body, needs in groups(strategies):
        strategy = needs if needs not in (None, "tflite") else None
        tag = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
        prog = os.path.join(objdir, "prog_%s.c" % tag)
        with open(prog, "w") as f:
            f.write(PRELUDE + "    " + body + "\n}\n")
        pobj = prog[:-2] + ".o"
        run([cc] + flags + ["-c", prog, "-o", pobj], cwd=objdir)
        elf = prog[:-2] + ".elf"
        # -nostdlib: nothing but the objects and libgcc, so any other symbol the code needs fails the link.
        run([cc] + cpu + ["-nostdlib", "-Wl,--gc-sections", "-Wl,-e,aplan_fp_entry", "-o", elf, pobj] + objs +
            [libgcc])
        out = run([prefix + "size", elf]).splitlines()[1].split()
        sizes[name] = int(out[0]) + int(out[1])
        # The library's graph and this program's, not the other programs' (they share the entry's name); the
        # entry's own frame is the measuring program's, not the group's.
        graph = Callgraph([c for c in glob.glob(os.path.join(objdir, "*.ci"))
                           if not os.path.basename(c).startswith("prog_")] + [prog[:-2] + ".ci"])
        worst = graph.worst("aplan_fp_entry", strategy)
        stacks[name] = None if worst is None else worst - graph.frame.get("aplan_fp_entry", 0)
    base = sizes["base"]
    return {n: (sizes[n] - base, stacks[n]) for n in sizes if n != "base"}


def scratch_per_buffer(strategies, compact, work):
    """Bytes per buffer each strategy's plan() and the whole aplan_plan ask for, from a host build at n = 4096."""
    host = os.path.join(work, "host-%s" % ("compact" if compact else "default"))
    os.makedirs(host)
    prog = os.path.join(host, "scratch.c")
    with open(prog, "w") as f:
        f.write(r"""
#include <stdio.h>
#include <stdlib.h>
#include "aplan/strategies.h"
int main(void) {
    enum { N = 4096 };
    static aplan_buffer b[N];
    for (size_t i = 0; i < N; i++) { b[i].size = 64 + i; b[i].lower = i; b[i].upper = i + 3;
        b[i].alignment = 0; b[i].offset = APLAN_NO_OFFSET; }
    aplan_problem p; aplan_problem_init(&p, b, N);
    for (size_t k = 0; k < aplan_strategy_count(); k++) {
        const aplan_strategy *s = aplan_strategy_at(k);
        size_t own = 0, all = 0;
        s->scratch_size(s, &p, &own);
        aplan_plan_scratch_size(s, &p, &all);
        printf("%s %.1f %.1f\n", s->name, (double)own / N, (double)all / N);
    }
    return 0;
}
""")
    exe = os.path.join(host, "scratch")
    srcs = [s for s in sources(strategies) if "/formats/" not in s]
    run(["cc", "-std=c11", "-O1", "-I" + os.path.join(ROOT, "include"), "-I" + os.path.join(ROOT, "src")] +
        defines(strategies, compact) + [prog] + srcs + ["-o", exe])
    result = {}
    for line in run([exe]).splitlines():
        name, own, total = line.split()
        result[name] = (own, total)
    return result


def table(results, scratch, targets, title):
    lines = ["### " + title, "", "| group | " + " | ".join(targets) + " | scratch bytes/buffer |",
             "|---|" + "---:|" * len(targets) + "---:|"]
    names = list(next(iter(results.values())).keys())
    for name in names:
        cells = []
        for t in targets:
            size, stack = results[t][name]
            cells.append("%d (stack %s)" % (size, "unbounded" if stack is None else stack))
        sc = ""
        m = re.match(r"(\S+) plan\(\)$", name)
        if m and m.group(1) in scratch:
            sc = scratch[m.group(1)][0]
        elif name == "aplan_plan + greedy_by_size" and "greedy_by_size" in scratch:
            sc = scratch["greedy_by_size"][1]
        cells.append(sc)
        lines.append("| %s | %s |" % (name, " | ".join(cells)))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--targets", default=",".join(TARGETS))
    ap.add_argument("--strategies", default=",".join(ALL_STRATEGIES))
    ap.add_argument("--compact", action="store_true", help="with --check: the compact configuration")
    ap.add_argument("--doc", help="with --check: the markdown file whose table must match")
    ap.add_argument("--write-doc", action="store_true", help="write both tables into docs/footprint.md")
    args = ap.parse_args()
    strategies = [s for s in args.strategies.split(",") if s]
    targets = []
    for t in args.targets.split(","):
        if shutil.which(TARGETS[t][0] + "gcc") is None:
            print("footprint: %sgcc not installed: %s skipped" % (TARGETS[t][0], t), file=sys.stderr)
            continue
        targets.append(t)
    if not targets:
        print("footprint: no cross compiler installed", file=sys.stderr)
        return 77 if args.check else 1
    configs = [args.compact] if args.check else [False, True]
    status = 0
    tables = []
    with tempfile.TemporaryDirectory() as work:
        for compact in configs:
            results = {}
            for t in targets:
                try:
                    results[t] = measure(t, strategies, compact, work)
                except RuntimeError as e:
                    print("footprint: %s: %s" % (t, e), file=sys.stderr)
                    return 1
                unbounded = [n for n, (_, st) in results[t].items() if st is None]
                if unbounded:
                    print("footprint: %s: unbounded recursion under %s" % (t, ", ".join(unbounded)),
                          file=sys.stderr)
                    status = 1
            scratch = scratch_per_buffer(strategies, compact, work)
            title = "%s configuration (bytes of text + data, -Os, status strings off; worst-case stack in bytes)" % (
                "compact (-Dcompact=true)" if compact else "default")
            tables.append(table(results, scratch, targets, title))
            print(tables[-1])
            print()
    if args.check and status == 0:
        print("footprint: every target links with nothing beyond memcpy/memset/memmove and libgcc; stack bounded")
    complete = strategies == ALL_STRATEGIES and targets == list(TARGETS)
    if args.write_doc and status == 0:
        if not complete:
            print("footprint: --write-doc needs every strategy and every target", file=sys.stderr)
            return 1
        doc = os.path.join(ROOT, "docs", "footprint.md")
        with open(doc) as f:
            text = f.read()
        for t in tables:
            text = replace_table(text, t)
        with open(doc, "w") as f:
            f.write(text)
        print("footprint: wrote both tables into %s" % os.path.relpath(doc, ROOT))
    if args.check and args.doc and status == 0:
        if not complete:
            print("footprint: %s not compared: this build has %s and %s (the doc's tables have every strategy and "
                  "every target)" % (args.doc, ",".join(strategies), ",".join(targets)))
        elif replace_table(open(args.doc).read(), tables[0]) != open(args.doc).read():
            print("footprint: %s's table differs from this measurement (run bench/footprint.py --write-doc):"
                  % args.doc, file=sys.stderr)
            status = 1
        else:
            print("footprint: %s's table is this measurement" % args.doc)
    return status


def replace_table(text, new):
    """text with the table titled as new's first line replaced by new (the title line up to the blank line after
    the table). RuntimeError when text has no such title."""
    title = new.split("\n", 1)[0]
    at = text.find(title + "\n")
    if at < 0:
        raise RuntimeError("no table titled '%s'" % title)
    end = text.find("\n\n", text.find("\n|", at))
    end = len(text) if end < 0 else end
    return text[:at] + new + text[end:]


if __name__ == "__main__":
    sys.exit(main())
