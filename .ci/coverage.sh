#!/bin/sh
# Coverage of a gcc build made with -Db_coverage=true whose tests have run: an HTML report of src/ (tests and fuzz
# sources removed) in BUILD/coverage/, and one line with the figures for src/core and src/strategies.
# With --gate, fails below 95% of lines or 90% of branches there.
#   .ci/coverage.sh BUILD [--gate]
set -eu
build=$1
gate=${2:-}
rc="--rc lcov_branch_coverage=1"
lcov --quiet $rc --capture --directory "$build" --output-file "$build/all.info" 2>/dev/null
lcov --quiet $rc --extract "$build/all.info" "*/src/*" --output-file "$build/src.info"
lcov --quiet $rc --remove "$build/src.info" "*/tests/*" "*/fuzz/*" --output-file "$build/src.info"
lcov --quiet $rc --extract "$build/src.info" "*/src/core/*" "*/src/strategies/*" --output-file "$build/core.info"
genhtml --quiet $rc --output-directory "$build/coverage" "$build/src.info" >/dev/null
lcov $rc --summary "$build/core.info" 2>&1 | awk -v gate="$gate" -v html="$build/coverage/index.html" '
  /lines\.\.\./    { gsub(/[%(]/, " "); lines = $2; lhit = $3; ltot = $5 }
  /branches\.\.\./ { gsub(/[%(]/, " "); branches = $2; bhit = $3; btot = $5 }
  END {
    printf "coverage: src/core+src/strategies lines %s%% (%s/%s), branches %s%% (%s/%s); report %s\n",
           lines, lhit, ltot, branches, bhit, btot, html
    if (gate == "--gate" && (lines + 0 < 95 || branches + 0 < 90)) {
      print "coverage below the gate: 95% of lines and 90% of branches"
      exit 1
    }
  }'
