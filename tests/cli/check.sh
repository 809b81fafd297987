# Assertions shared by the CLI test scripts (sourced, not run). The script sets T (its temporary folder), runs each
# command with stdout and stderr in $T/out and $T/err, and keeps the command line in `last`; every assertion counts
# itself in `checks` and each failure in `failures`, which the script reports at the end.
failures=0
checks=0

fail() {
    echo "FAIL: $*"
    sed 's/^/    stdout: /' "$T/out" | head -40
    sed 's/^/    stderr: /' "$T/err" | head -20
    failures=$((failures + 1))
}
# has STREAM TEXT: the last command's stdout/stderr holds TEXT (fixed string).
has() {
    checks=$((checks + 1))
    grep -qF -- "$2" "$T/$1" || fail "'$last': $1 lacks: $2"
}
# hasre STREAM REGEX
hasre() {
    checks=$((checks + 1))
    grep -qE -- "$2" "$T/$1" || fail "'$last': $1 does not match: $2"
}
# lacks STREAM TEXT: the last command's stdout/stderr does not hold TEXT.
lacks() {
    checks=$((checks + 1))
    ! grep -qF -- "$2" "$T/$1" || fail "'$last': $1 holds: $2"
}
empty() {
    checks=$((checks + 1))
    [ ! -s "$T/$1" ] || fail "'$last': $1 is not empty"
}
# line STREAM TEXT: the last command's stdout/stderr has a line that is exactly TEXT.
line() {
    checks=$((checks + 1))
    grep -qxF -- "$2" "$T/$1" || fail "'$last': $1 lacks the line: $2"
}
# lines STREAM N: the last command's stdout/stderr has exactly N lines.
lines() {
    checks=$((checks + 1))
    [ "$(wc -l <"$T/$1")" = "$2" ] || fail "'$last': $1 has $(wc -l <"$T/$1") lines, want $2"
}
# count STREAM TEXT N: TEXT (fixed string) is on exactly N lines.
count() {
    checks=$((checks + 1))
    n=$(grep -cF -- "$2" "$T/$1")
    [ "$n" = "$3" ] || fail "'$last': $1 has '$2' on $n lines, want $3"
}
