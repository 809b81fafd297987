#!/usr/bin/env python3
"""Counts test cases across meson builds and prints one line `N passed, N failed, N skipped`.

Each meson test that runs a CMocka group counts as its cases (read from its "[  PASSED  ] N test(s).",
"[  FAILED  ] N test(s)" and "[  SKIPPED ] N test(s)" lines: cases of strategies a build leaves out skip, and cases
on the shared folder's files where it is absent); any other test counts as one, and adds to the skipped the parts it
reports skipped in its last lines ("..., N parts skipped" from tests/cli, "N of M tests failed, N skipped, ..." from
the TFLM adapter's tests). A test that failed without CMocka's summary (a crash, a timeout) counts as one failure.
Usage: count.py [--extra PASSED FAILED] BUILD_DIR...  (--extra adds results that are not meson tests, such as fuzz
runs.) Exit status: 1 when anything failed.
"""
import json
import re
import sys

passed = failed = skipped = 0
args = sys.argv[1:]
if args[:1] == ["--extra"]:
    passed, failed = int(args[1]), int(args[2])
    args = args[3:]
for build in args:
    with open(f"{build}/meson-logs/testlog.json") as log:
        for line in log:
            t = json.loads(line)
            out = (t.get("stdout") or "") + (t.get("stderr") or "")
            if t["result"] == "SKIP":
                skipped += 1
                continue
            ok = t["result"] in ("OK", "EXPECTEDFAIL")
            p = re.search(r"^\[  PASSED  \] (\d+) test\(s\)\.", out, re.M)
            f = re.search(r"^\[  FAILED  \] (\d+) test\(s\)", out, re.M)
            s = re.search(r"^\[  SKIPPED \] (\d+) test\(s\)", out, re.M)
            skipped += int(s.group(1)) if s else 0
            if p or f:
                passed += int(p.group(1)) if p else 0
                failed += int(f.group(1)) if f else 0
                if not ok and not f:
                    failed += 1
            elif ok:
                passed += 1
            else:
                failed += 1
            if not (p or f):
                parts = re.search(r"(?:, (\d+) parts skipped|^\d+ of \d+ tests failed, (\d+) skipped,.*)$", out, re.M)
                skipped += int(parts.group(1) or parts.group(2)) if parts else 0
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
