#!/usr/bin/env python3
"""The tree agrees with its declarations: every list of built-in strategies is the one APLAN_BUILTIN_STRATEGIES
declares (include/aplan/strategies.h), every strategy has its file and every file its strategy, meson.build's
public_headers are include/aplan's headers, every fuzz target has its corpus folder (which registers it), and every
file docs/contributing.md says a change touches exists; the host layer (src/host) includes no src/cli header and
calls no cli_ function, and the headers of src/host and src/cli include each other in no circle. (The CLI's commands and formats are held to the helps, the
man page and docs/cli.md by tests/cli/help_test.py.) Needs nothing but python3 and the source tree.

Usage: tree_test.py [SOURCE_ROOT]. Prints each disagreement and exits 1, or prints a summary and exits 0.
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "tests", "cli"))
import declarations  # noqa: E402
from check import check, done  # noqa: E402  (the Python tests' shared assertions)


def read(rel):
    with open(os.path.join(ROOT, rel)) as f:
        return f.read()


def table_names(rel, heading):
    """The names in the first column (`name`) of the first table after the line `heading`, in order."""
    lines = read(rel).split("\n")
    try:
        at = lines.index(heading)
    except ValueError:
        check(False, "%s: no line '%s'" % (rel, heading))
        return []
    names, in_table = [], False
    for line in lines[at + 1:]:
        if line.startswith("|"):
            in_table = True
            m = re.match(r"^\| `([a-z0-9_]+)` \|", line)
            if m:
                names.append(m.group(1))
        elif in_table:
            break
    return names


def compare_lists(where, got, want):
    check(got == want, "%s lists %s; APLAN_BUILTIN_STRATEGIES declares %s (missing: %s; extra: %s)" % (
        where, ", ".join(got) or "nothing", ", ".join(want), ", ".join(w for w in want if w not in got) or "none",
        ", ".join(g for g in got if g not in want) or "none"))


# --- strategies ---------------------------------------------------------------------------------------------------
builtins = declarations.builtin_strategies(ROOT)
names = [b.name for b in builtins]
engines = sorted({b.engine for b in builtins if b.engine != "none"})
check(len(set(names)) == len(names), "APLAN_BUILTIN_STRATEGIES names a strategy twice")
for b in builtins:
    check(re.fullmatch(r"[a-z][a-z0-9_]*", b.name) is not None, "strategy name '%s' is not [a-z0-9_]" % b.name)
    check(b.auto in ("first", "yes", "no"), "%s: AUTO is '%s', not first, yes or no" % (b.name, b.auto))
    check(b.option in names, "%s: OPTION %s is no strategy's name" % (b.name, b.option.upper()))
    path = "src/strategies/%s.c" % b.name
    if not os.path.exists(os.path.join(ROOT, path)):
        check(False, "%s is declared but %s does not exist" % (b.name, path))
        continue
    text = read(path)
    defines = ("aplan_strategy_%s(void)" % b.name in text) or ("APLAN__GREEDY_STRATEGY(%s," % b.name in text)
    check(defines, "%s does not define aplan_strategy_%s()" % (path, b.name))
for e in engines:
    check(os.path.exists(os.path.join(ROOT, "src/strategies/%s.c" % e)), "engine src/strategies/%s.c is missing" % e)
regions = declarations.region_strategies(ROOT)
region_files = ["region_" + r.name for r in regions]
for r in regions:
    path = "src/strategies/region_%s.c" % r.name
    check(r.needs == "always" or r.needs in [b.option for b in builtins],
          "region strategy %s: NEEDS %s is neither ALWAYS nor a strategy option" % (r.name, r.needs.upper()))
    check(os.path.exists(os.path.join(ROOT, path)) and "aplan_region_strategy_%s(void)" % r.name in read(path),
          "region strategy %s: %s does not define aplan_region_strategy_%s()" % (r.name, path, r.name))
for f in sorted(os.listdir(os.path.join(ROOT, "src/strategies"))):
    if f.endswith(".c"):
        check(f[:-2] in names or f[:-2] in engines or f[:-2] in region_files,
              "src/strategies/%s is neither a declared strategy, a region strategy nor an engine one uses" % f)
compare_lists("README.md's strategy table", table_names("README.md", "## What is here"), names)
compare_lists("docs/design.md's strategy table", table_names("docs/design.md", "## The strategies"), names)
options = read("meson_options.txt")
m = re.search(r"option\('strategies'[^)]*\)", options, re.S)
check(m is not None and "choices" not in m.group(0),
      "meson_options.txt: the strategies option lists choices of its own (meson.build checks the names against "
      "APLAN_BUILTIN_STRATEGIES)")

# --- public headers and fuzz targets ------------------------------------------------------------------------------
m = re.search(r"^public_headers = \[([^\]]*)\]", read("meson.build"), re.M)
declared_headers = sorted(re.findall(r"'([a-z0-9_]+)'", m.group(1))) if m else []
actual_headers = sorted(f[:-2] for f in os.listdir(os.path.join(ROOT, "include", "aplan")) if f.endswith(".h"))
check(declared_headers == actual_headers, "meson.build's public_headers is %s; include/aplan holds %s" % (
    ", ".join(declared_headers), ", ".join(actual_headers)))
harnesses = sorted(f[5:-2] for f in os.listdir(os.path.join(ROOT, "fuzz")) if re.fullmatch(r"fuzz_[a-z0-9_]+\.c", f)
                   and f != "fuzz_common.c")
corpora = sorted(os.listdir(os.path.join(ROOT, "fuzz", "corpus")))
check(harnesses == corpora, "fuzz targets (fuzz/fuzz_NAME.c) %s and corpora (fuzz/corpus/NAME/) %s differ: each "
      "target has a seed corpus, which is what registers it" % (", ".join(harnesses), ", ".join(corpora)))

# --- the layers: library -> host -> CLI / Python (docs/design.md, "Layers") ---------------------------------------
def resolve_include(rel, name):
    """The file a quoted #include names from rel, as the build finds it (the file's folder, then src/, then
    include/), relative to ROOT; None when none of them holds it (a system header)."""
    for base in (os.path.dirname(rel), "src", "include"):
        if os.path.isfile(os.path.join(ROOT, base, name)):
            return os.path.normpath(os.path.join(base, name))
    return None


def code_only(text):
    """C text without its comments and string or character literals (so a comment naming cli_error is no call)."""
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', " ", text, flags=re.S)


def layer_files(room):
    folder = os.path.join(ROOT, "src", room)
    return sorted("src/%s/%s" % (room, f) for f in os.listdir(folder) if f.endswith((".c", ".h")))


includes = {}  # file -> the files of the tree it includes
for rel in layer_files("host") + layer_files("cli"):
    names = re.findall(r'^\s*#\s*include\s*"([^"]+)"', read(rel), re.M)
    includes[rel] = [r for r in (resolve_include(rel, n) for n in names) if r is not None]
for rel in layer_files("host"):
    for inc in includes[rel]:
        check(inc.startswith(("src/host/", "include/aplan/", "src/formats/")),
              "%s includes %s: the host layer includes only aplan's public headers, src/formats and src/host" % (
                  rel, inc))
    for call in sorted(set(re.findall(r"\b(cli_\w+)\s*\(", code_only(read(rel))))):
        check(False, "%s calls %s: the host layer never calls the CLI (errors come back as aplan_host_error)" % (
            rel, call))
# No circle among the headers of the two rooms: each includes only headers below it.
headers = [h for h in includes if h.endswith(".h")]
state = {}  # header -> 1 while on the path, 2 when done


def visit(h, path):
    state[h] = 1
    for inc in includes.get(h, []):
        if inc not in includes:
            continue
        if state.get(inc) == 1:
            cycle = path[path.index(inc):] + [inc] if inc in path else [h, inc]
            check(False, "#include circle: %s" % " -> ".join(cycle))
        elif state.get(inc) is None:
            visit(inc, path + [inc])
    state[h] = 2


for h in headers:
    if h not in state:
        visit(h, [h])

# --- what docs/contributing.md says a change touches -------------------------------------------------------------
contributing = read("docs/contributing.md")
section = contributing.split("## What a change touches", 1)[-1].split("\n## ", 1)[0]
for path in sorted(set(re.findall(r"`((?:src|include|tests|fuzz|docs|bench|tools|integrations|cmake|\.ci)/[^`*]+)`",
                                  section))):
    # A placeholder (NAME, <module>) stands for a new file: its folder must exist.
    where = os.path.dirname(path.rstrip("/")) if re.search(r"NAME|<", path) else path
    check(os.path.exists(os.path.join(ROOT, where)), "docs/contributing.md names %s, which does not exist" % path)

print("tree_test: %d strategies declared, each with its file, in every list" % len(names))
sys.exit(done())
