#!/usr/bin/env python3
"""Every figure the documentation states about the code, checked against the code.

The figures come from programs of this build: tests/figures (the library's scratch needs, measured as
bench/footprint.py measures them, and its version), the TFLM adapter's test binary with --figures (its sizing
constants and object size) and, when ../shared is there, the aplan tool on the shared buffer lists (the arena table
in docs/design.md; docs/cli.md's example outputs, run as written, and the man page's example's figure).
docs/footprint.md's tables are bench/footprint.py's output and are held to it by the
device_build test; the prose around them, and the README's device figures, are held to those tables here.

Each rule names a file, a pattern whose groups are figures, and the values they must have; a pattern that matches
nowhere is a failure too (the sentence was reworded: update the rule with it). Comment leaders (` * `) and line
breaks are folded into single spaces first, so a sentence may wrap anywhere.

Usage: docs_test.py SOURCE_ROOT FIGURES [TFLM_FIGURES|-] [APLAN|-] [SHARED_DIR]
Exit 0 when every figure holds, 1 otherwise (each wrong figure printed with its file and the value it should have).
"""
import json
import os
import re
import subprocess
import sys

ROOT, FIGURES = sys.argv[1], sys.argv[2]
TFLM = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] != "-" else None
APLAN = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] != "-" else None
SHARED = sys.argv[5] if len(sys.argv) > 5 else ""
sys.path.insert(0, os.path.join(ROOT, "tests", "cli"))
from check import check, done  # noqa: E402  (the Python tests' shared assertions)


def figures_of(cmd):
    out = subprocess.run(cmd, stdout=subprocess.PIPE, check=True, text=True).stdout
    return dict(line.split(" ", 1) for line in out.strip().split("\n"))


fig = figures_of([FIGURES])
if TFLM:
    fig.update(figures_of([TFLM, "--figures"]))

_texts = {}


def text(rel):
    """The file with comment leaders and line breaks folded into single spaces."""
    if rel not in _texts:
        with open(os.path.join(ROOT, rel)) as f:
            raw = f.read()
        raw = re.sub(r"\n[ \t]*(\*(?!/)|//)?[ \t]*", " ", raw)
        _texts[rel] = re.sub(r"[ \t]+", " ", raw)
    return _texts[rel]


def expect(rel, pattern, *values):
    """Every match of pattern in rel has groups equal to values (strings; commas in numbers ignored)."""
    matches = list(re.finditer(pattern, text(rel)))
    if not check(matches != [], "%s: no text matches /%s/ (reworded? update tests/docs_test.py)" % (rel, pattern)):
        return
    want = [str(v) for v in values]
    for m in matches:
        got = [g.replace(",", "") for g in m.groups()]
        check(got == want, "%s: '%s' states %s; the code gives %s" % (rel, m.group(0), ", ".join(got),
                                                                     ", ".join(want)))


def tens(x):
    return str(int(round(float(x) / 10.0)) * 10)


def forbid(rel, pattern, why):
    found = [m.group(0) for m in re.finditer(pattern, text(rel))]
    check(found == [], "%s: %s: %s" % (rel, ", ".join("'%s'" % f for f in found), why))


built = [k.split(".", 1)[1] for k in fig if k.startswith("plan_scratch.")]
version = fig["version"]
major_minor = ".".join(version.split(".")[:2])

# --- scratch per buffer -------------------------------------------------------------------------------------------
design = "docs/design.md"
for name in built:
    if name == "exact":
        per_buffer, per_member = fig["scratch_per_buffer.exact"], fig["scratch_per_member.exact"]
        expect(design, r"\| `exact` \|[^|]*\|[^|]*\| (\d+) bytes \+ about (\d+) per member of the largest searchable "
               r"group \(at most 4,095\) \+ up to 48 n² \(at most 64 MiB\) \|", per_buffer, per_member)
        expect("src/strategies/exact.c", r"(\d+) bytes per buffer, about (\d+) per member of the largest group",
               per_buffer, tens(per_member))
        expect("src/strategies/exact.c", r"at most (\d+) n bytes \+ ([\d.]+) MiB", per_buffer,
               fig["scratch_past_members_mib.exact"])
        continue
    own = fig["scratch." + name]
    per_fixed = fig["scratch_per_fixed." + name]
    if name == "linear":
        expect(design, r"\| `linear` \|[^|]*\|[^|]*\| (\d+) bytes per fixed buffer, else (\d+) \|", per_fixed,
               int(float(own)))
        expect("src/strategies/linear.c", r"Scratch: (\d+) bytes per fixed buffer", per_fixed)
    elif name == "first_fit":
        expect(design, r"\| `first_fit` \|[^|]*\|[^|]*\| (\d+) bytes \+ (\d+) per fixed buffer \|", int(float(own)),
               per_fixed)
        expect("src/strategies/first_fit.c", r"Scratch: (\d+) bytes per buffer", int(float(own)))
    elif name == "offline":
        expect(design, r"\| `offline` \|[^|]*\|[^|]*\| (\d+) \|", int(float(own)))
    else:
        large = fig["scratch_large." + name]
        past = fig["scratch_past_dense." + name]
        expect(design, r"\| `%s` \|[^|]*\|[^|]*\| ([\d.]+) bytes, ([\d.]+) from 8,192 buffers, ([\d.]+) above 65,536 \|"
               % name, own, large, past)
        expect("src/strategies/%s.c" % name, r"[Ss]cratch: about ([\d.]+) bytes per buffer, ([\d.]+) from 8,192 buffers, "
               r"([\d.]+) above 65,536", own, large, past)
expect("src/strategies/greedy_by_breadth.c", r"the engine's ([\d.]+) \(([\d.]+); ([\d.]+) above 65,536\) plus",
       fig["scratch.greedy_by_size"], fig["scratch_large.greedy_by_size"], fig["scratch_past_dense.greedy_by_size"])
expect("src/strategies/region_banked.c", r"best_fit's ([\d.]+) bytes per buffer \(([\d.]+) from 8,192\)",
       fig["scratch.best_fit"], fig["scratch_large.best_fit"])
expect(design, r"is about ([\d.]+) bytes per buffer against TFLM's 40", fig["scratch.greedy_by_size"])
for doc in (design, "docs/footprint.md"):
    expect(doc, r"(\d+) bytes per buffer, about (\d+) per member of the largest group", fig["scratch_per_buffer.exact"],
           fig["scratch_per_member.exact"])
expect(design, r"the whole request is at most (\d+) n bytes \+ ([\d.]+) MiB", fig["scratch_per_buffer.exact"],
       fig["scratch_past_members_mib.exact"])
bound, verify, verify_max = fig["bound_per_buffer"], fig["verify_per_buffer_at_power_of_two"], fig[
    "verify_max_per_buffer"]
expect(design, r"in O\(n log n\) with (\d+) bytes of scratch per buffer", bound)
expect(design, r"at most (\d+) bytes of scratch per buffer", verify_max)
expect("include/aplan/aplan.h", r"aplan_lower_bound needs for its O\(n log n\) path: (\d+) per buffer", bound)
expect("include/aplan/aplan.h", r"aplan_verify needs for its O\(n log n\) path: (\d+) per buffer plus 8 per leaf of a "
       r"segment tree over the next power of two >= n, so at most (\d+) per buffer", verify, verify_max)
expect("include/aplan/aplan.h", r"the verifier's sweep's, at most (\d+) per buffer", verify_max)
expect("src/core/bound.c", r"\((\d+) bytes of scratch per buffer", bound)
expect("src/core/verify.c", r"Scratch: (\d+) bytes per buffer plus the segment tree \(2 x the next power of two >= n "
       r"entries of 4 bytes\), so at most (\d+) bytes per buffer", verify, verify_max)

expect("include/aplan/csv.h", r"the row arrays \((\d+) bytes a row on a 64-bit host, 8 more for each of a `region` and a",
       fig["csv_row_bytes"])
expect("src/host/host.h", r"the parsed table itself \((\d+) bytes a buffer and its ids' text\)", fig["csv_row_bytes"])

# --- the TFLM adapter ---------------------------------------------------------------------------------------------
tflm = "docs/tflm.md"
if TFLM:
    record = int(fig["tflm.record_bytes"])
    expect(tflm, r"\| a record per buffer \(`aplan_buffer32`[^|]*\| (\d+) \|", record - 8)
    expect(tflm, r"So a buffer holds `kRecordBytes` = (\d+) bytes, plus at most (\d+) while planning in the fast form",
           record, fig["tflm.plan_per_buffer"])
    expect(tflm, r"\(`kRecordBytes` \+ `kLeastPlanScratchPerBuffer`\) × n = (\d+) × n bytes", fig["tflm.least_per_buffer"])
    expect(tflm, r"it gets down to \*\*(\d+) bytes a buffer\*\*", fig["tflm.least_per_buffer"])
    expect(tflm, r"`kPlanScratchPerBuffer` = (\d+) per buffer, plus `kPlanScratchPerOfflineBuffer` = (\d+) per "
           r"offline buffer and `kPlanScratchExtra` = (\d+) bytes", fig["tflm.plan_per_buffer"],
           fig["tflm.plan_per_offline_buffer"], fig["tflm.plan_extra"])
    expect(tflm, r"the lower bound's (\d+) per buffer and the verifier's (\d+) per buffer \+ 8 per leaf", bound, verify)
    large = int(round(float(fig["plan_scratch_large.greedy_by_size"])))
    past = int(round(float(fig["plan_scratch_past_dense.greedy_by_size"])))
    expect(tflm, r"greedy_by_size's is at most \d+ per buffer below 8,192 buffers, about (\d+) from 8,192 to 65,536 and "
           r"(\d+) above", large, past)
    expect("integrations/tflm/aplan_micro_planner.h", r"ask 96 bytes a buffer more \(about (\d+) a buffer with "
           r"the copy; 48 more and about (\d+) above 65,536", large, past)
    expect(tflm, r"greedy_by_size's is at most (\d+) per buffer",
           max(int(verify_max), int(round(float(fig["plan_scratch.greedy_by_size"]) + 0.5))))
    expect("integrations/tflm/aplan_micro_planner.h", r"its aplan_buffer32 record \((\d+) bytes\) and its offset "
           r"\((\d+) bytes\)", record - 8, 8)
    expect("integrations/tflm/aplan_micro_planner.h", r"down to \(kRecordBytes \+ kLeastPlanScratchPerBuffer\) = (\d+) "
           r"bytes a buffer", fig["tflm.least_per_buffer"])
    if "tflm.person_detection_scratch.greedy_by_size" in fig:
        n = int(fig["tflm.person_detection_buffers"])
        expect(tflm, r"The (\d+) buffers of TFLM's own person-detection test list need ([\d,]+) bytes at least "
               r"\(([\d,]+) in greedy_by_size's fast form\)", n, n * int(fig["tflm.least_per_buffer"]),
               fig["tflm.person_detection_scratch.greedy_by_size"])
    if "tflm.object_bytes.64" in fig:
        expect(tflm, r"The object itself is (\d+) bytes on x86-64", fig["tflm.object_bytes.64"])

# --- versions in examples -----------------------------------------------------------------------------------------
for rel in ["README.md", "docs/cli.md", "docs/design.md", "docs/tflm.md", "docs/contributing.md"]:
    for m in re.finditer(r'"aplan_version": "([\d.]+)"', text(rel)):
        expect(rel, re.escape(m.group(0)).replace(re.escape(m.group(1)), r"([\d.]+)"), version)
expect("README.md", r"find_package\(aplan ([\d.]+) REQUIRED\)", major_minor)

# --- counts of the shared data: never written down, as ../shared may grow -----------------------------------------
for rel in ["README.md", design, tflm, "docs/fuzzing.md", "docs/cli.md", "docs/contributing.md"]:
    forbid(rel, r"\b(all )?\d+ (shared|real) (models|buffer lists)\b|\bthe \d+ shared\b",
           "a count of ../shared's files, which grows: say 'every shared model'")

# --- docs/footprint.md's prose and the README against its tables ------------------------------------------------
def footprint_table(title):
    """{group: {"m0plus": bytes, "m4": bytes, "scratch": text}} of the table under `### title`."""
    with open(os.path.join(ROOT, "docs/footprint.md")) as f:
        lines = f.read().split("\n")
    rows = {}
    start = [i for i, line in enumerate(lines) if line.startswith("### " + title)][0]
    for line in lines[start + 1:]:
        if line.startswith("### ") or line.startswith("## "):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and "(stack" in cells[2]:
            rows[cells[0]] = {"m0plus": int(cells[1].split()[0]), "m4": int(cells[2].split()[0]), "scratch": cells[5]}
    return rows


default = footprint_table("default configuration")
compact = footprint_table("compact (-Dcompact=true) configuration")
fp = "docs/footprint.md"
gbs_c, gbs_d = compact["greedy_by_size plan()"], default["greedy_by_size plan()"]
expect("README.md", r"freestanding \(no malloc, caller-provided scratch\) and about (\d+) KB of Cortex-M4 code",
       int(round(default["aplan_plan + greedy_by_size"]["m4"] / 1024.0)))
expect("README.md", r"greedy_by_size in ([\d,]+) bytes of Cortex-M4 code with (\d+) bytes of scratch per buffer",
       gbs_c["m4"], int(float(gbs_c["scratch"])))
expect(fp, r"\| aplan, compact build \| \*\*([\d,]+)\*\* \| \*\*([\d,]+)\*\* \| \*\*(\d+)\*\* \|", gbs_c["m4"],
       gbs_c["m0plus"], int(float(gbs_c["scratch"])))
expect(fp, r"On Cortex-M0\+ the compact greedy_by_size is (\d+) bytes smaller than TFLM's planner; on Cortex-M4 it is "
       r"\*\*(\d+) bytes \((\d+)%\) larger\*\*", 1200 - gbs_c["m0plus"], gbs_c["m4"] - 904,
       int(round(100.0 * (gbs_c["m4"] - 904) / 904)))
expect(fp, r"missed by (\d+) bytes on M4", gbs_c["m4"] - 904)
expect(fp, r"apart: ([\d,]+) and ([\d,]+) bytes on M4 in the compact build", compact["verifier"]["m4"],
       compact["lower bound"]["m4"])
expect(fp, r"is ([\d,]+) bytes on M4 \(([\d,]+) in the default build", compact["aplan_plan + greedy_by_size"]["m4"],
       default["aplan_plan + greedy_by_size"]["m4"])
expect(fp, r"([\d,]+) bytes on M4 over the greedy_by_size-only engine it replaced \(3,888\)", gbs_d["m4"] - 3888)
expect(fp, r"8 bytes of scratch per buffer \((\d+) for greedy_by_breadth; ([\d.]+) and ([\d.]+) in the default build\)",
       int(float(compact["greedy_by_breadth plan()"]["scratch"])), default["greedy_by_size plan()"]["scratch"],
       default["greedy_by_breadth plan()"]["scratch"])
expect(fp, r"no more scratch than its strategy: (\d+) bytes per buffer with greedy_by_size",
       int(float(compact["aplan_plan + greedy_by_size"]["scratch"])))
for name in built:
    if "scratch." + name in fig:
        row = default.get(name + " plan()")
        check(row is None or row["scratch"] == fig["scratch." + name], "%s: the default table's scratch for %s is "
              "%s; the code gives %s (run bench/footprint.py --write-doc)" % (fp, name, row and row["scratch"],
                                                                            fig["scratch." + name]))

# --- docs/design.md's arena table, against the tool on the shared buffer lists -----------------------------------
notes = []
lifetimes = os.path.join(SHARED, "models", "lifetimes") if SHARED else ""
if APLAN and lifetimes and os.path.isdir(lifetimes):
    t = text(design)
    head = re.search(r"\| model \| bound \| TFLM greedy \| TFLM linear \| ((?:[a-z_]+ \| )+)", t)
    columns = head.group(1).strip(" |").split(" | ")
    rows = dict((m.group(1), m.group(2)) for m in re.finditer(r"\| ([a-z0-9_]+) \| ((?:[^|]+ \| ){%d}[^|]+) \|" % (
        3 + len(columns) - 1), t[head.end():head.end() + 30000]))
    for csv in sorted(os.listdir(lifetimes)):
        model = csv[:-4]
        if not check(model in rows, "%s: the arena table has no row for %s (a shared buffer list)" % (design, model)):
            continue
        cells = [c.strip().split(" ")[0].replace("*", "") for c in rows[model].split("|")]
        run = subprocess.run([APLAN, "plan", "-f", "json", "-a", "16", "--round-sizes", "--allow-alias", "-s",
                              ",".join(c for c in columns if c in built), os.path.join(lifetimes, csv)],
                             stdout=subprocess.PIPE, text=True)
        got = json.loads(run.stdout)
        arenas = {r["name"]: r["arena_bytes"] for r in got["strategies"]}
        check(cells[0] == str(got["lower_bound"]["bytes"]), "%s: %s's bound is %s in the table; the tool gives %s" % (
            design, model, cells[0], got["lower_bound"]["bytes"]))
        for col, cell in zip(columns, cells[3:]):
            if col not in arenas:
                continue
            want = "–" if arenas[col] is None else str(arenas[col])
            check(cell == want, "%s: %s with %s is %s in the table; the tool gives %s" % (design, model, col, cell,
                                                                                        want))
else:
    notes.append("docs/design.md's arena table not checked: needs the aplan tool and %s" % (
        lifetimes or "../shared/models/lifetimes"))

# --- docs/cli.md's example outputs and the man page's example, run ----------------------------------------------
# A block of docs/cli.md that opens with `$ aplan ...` on a shared model (and writes no file) is run as written, from a
# folder beside ../shared, and what follows each command is its output, standard output then standard error: every
# line equal to the tool's, but for the table's time column (masked: it varies from run to run). A line `...` stands
# for lines left out: the parts between them appear in that order, the first at the output's start unless `...` opens
# the block, the last at its end unless `...` closes it.
TIME = re.compile(r" +\d+\.\d{3} ms\b")


def masked(line):
    return TIME.sub(" T ms", line)


def run_documented(shared, command):
    """Run command (the words after `$ `) from a folder whose ../shared is shared; stdout then stderr lines, exit."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        os.symlink(os.path.abspath(shared), os.path.join(tmp, "shared"))
        cwd = os.path.join(tmp, "cwd")
        os.mkdir(cwd)
        words = command.split()  # the documented commands quote nothing
        r = subprocess.run([os.path.abspath(APLAN)] + words[1:], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return r.stdout.splitlines() + r.stderr.splitlines(), r.returncode


def matches_documented(doc, real):
    """doc's lines (with `...` for lines left out) against real's: the first mismatch in words, or None."""
    parts, part = [], []
    for line in doc:
        if line == "...":
            parts.append(part)
            part = []
        else:
            part.append(line)
    parts.append(part)
    real = [masked(l) for l in real]
    at = 0
    for k, part in enumerate(parts):
        part = [masked(l) for l in part]
        if not part:
            continue
        anchored = k == 0  # the block does not open with `...`
        found = None
        for start in ([at] if anchored else range(at, len(real) - len(part) + 1)):
            if real[start:start + len(part)] == part:
                found = start
                break
        if found is None:
            best = next((l for l in part if l not in real), part[0])
            return "the documented line '%s' is not %s the output" % (best, "at its place in" if anchored else "in")
        at = found + len(part)
    if parts[-1] and at != len(real):
        return "the output goes on after the documented lines: '%s'" % real[at]
    return None


cli_md = "docs/cli.md"
shared_models = os.path.join(SHARED, "models") if SHARED else ""
if APLAN and shared_models and os.path.isdir(shared_models):
    with open(os.path.join(ROOT, cli_md)) as f:
        blocks = re.findall(r"^```\n(.*?)^```$", f.read(), re.S | re.M)
    ran = 0
    for block in blocks:
        lines = block.rstrip("\n").split("\n")
        if not lines[0].startswith("$ aplan ") or "../shared/models/" not in lines[0]:
            continue
        commands = [l for l in lines if l.startswith("$ ")]
        if any(" -o " in c or not c.startswith("$ aplan ") for c in commands) or len(commands) != 1:
            continue  # a block that writes files, or runs more than the tool
        real, rc = run_documented(SHARED, lines[0][2:])
        why = matches_documented(lines[1:], real)
        check(why is None, "%s: `%s` (exit %d): %s (run it and paste its output)" % (cli_md, lines[0][2:], rc, why))
        ran += 1
    check(ran >= 6, "%s: %d example blocks run; the person_detect, capacity and graph examples are gone?" % (cli_md, ran))
    # The man page's example: its figure and exit code, from the command it gives.
    man = "docs/aplan.1"
    m = re.search(r"then (\d+) KiB \(audio_preprocessor_int8's TFLM arena needs (\d+) bytes: exit (\d)\)", text(man))
    if check(m is not None, "%s: the example 'needs N bytes: exit 4' is reworded (update tests/docs_test.py)" % man):
        kib, needs, code = m.groups()
        check(("aplan plan \\-\\-capacity %sK audio_preprocessor_int8.tflite" % kib) in text(man),
              "%s: the example's command does not give --capacity %sK" % (man, kib))
        real, rc = run_documented(SHARED, "aplan plan --capacity %sK ../shared/models/audio_preprocessor_int8.tflite"
                                  % kib)
        smallest = [re.search(r"smallest arena (\d+)", l) for l in real if l.startswith("  TFLM's own planner:")]
        got = smallest[0].group(1) if smallest and smallest[0] else None
        check(str(rc) == code and got == needs, "%s: the example says audio_preprocessor_int8 needs %s bytes (exit %s); "
              "the tool gives %s (exit %d)" % (man, needs, code, got, rc))
else:
    notes.append("%s's example outputs and the man page's example not run: needs the aplan tool and %s" % (
        cli_md, shared_models or "../shared/models"))

for n in notes:
    print("docs_test: " + n)
print("docs_test: the figures of version %s, %d strategies" % (version, len(built)))
sys.exit(done())
