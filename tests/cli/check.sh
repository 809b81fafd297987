# Assertions shared by the CLI test scripts (sourced, not run), and what finds their inputs. The script sets A (the
# binary), S (the shared folder) and T (its temporary folder), runs each command with stdout and stderr in $T/out and
# $T/err, and keeps the command line in `last`; every assertion counts itself in `checks` and each failure in
# `failures`, which the script reports at the end, with the parts it `skipped`.
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
# lines_of STREAM TEXT: each line of TEXT is a line of the last command's stdout/stderr (`line`, one check each).
lines_of() {
    printf '%s\n' "$2" >"$T/want"
    while IFS= read -r want; do line "$1" "$want"; done <"$T/want"
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

# need_strategies NAME...: unless this build has every NAME (`aplan list`), exit 77 (meson: skipped) saying which it
# leaves out: the script's cases name them.
need_strategies() {
    missing=""
    for s in "$@"; do
        "$A" list | cut -d' ' -f1 | grep -qx -- "$s" || missing="$missing $s"
    done
    [ -z "$missing" ] && return 0
    echo "skipped: this build leaves out the strategies$missing (meson -Dstrategies), which these cases name" >&2
    exit 77
}

# The shared folder ($S, ../shared beside the checkout unless meson's shared_dir says otherwise) holds the real
# models and traces; it is looked for now, at test time. have_shared FILE...: true when every FILE (relative to $S)
# is there; otherwise it says which are not, counts the part in `skipped` and is false, so the script leaves that
# part out and runs the rest.
skipped=0
have_shared() {
    missing=""
    for f in "$@"; do
        [ -e "$S/$f" ] || missing="$missing $S/$f"
    done
    [ -z "$missing" ] && return 0
    echo "skipped: needs$missing (not found)"
    skipped=$((skipped + 1))
    return 1
}

# made_inputs DIR: the inputs every clone has, written into DIR (a folder of the script's own, so $T lists only what
# the cases write): I12, MiniMalloc's 5-buffer example (the shared folder's input.12.csv, or else its committed copy
# of the same bytes, fuzz/corpus/csv/seed-input12.csv, under the same name), and the models of
# tests/cli/make_models.c, whose comment works out their figures: CHAIN (person_detect's stand-in), TIES
# (audio_preprocessor_int8's: TFLM's tie order costs 16 bytes), OFFLINE (person_detect_vela's: an offline plan that
# aliases on purpose), SCRATCH (keyword_scrambled's: its kernels ask for scratch buffers), NAMES (names no other input
# has), HUGE (a section just below 2^64, TFLM's arena past it), and
# the hostile models of issue 21 (tables, names and shapes shared many times over): SHARED_NAME, SHARED_CONTROL,
# FANIN, RANK, SHARED_CUSTOM and STEPS; and those of issue 32 (TFLM's arena model on counts the file only names):
# SIGNAL_ROWS, OVERLAP_ROWS, SIGNAL_HUGE, DETECTION, DETECTION_KEYS and CONCAT_RANK.
made_inputs() {
    I12=$S/benchmarks/minimalloc/input.12.csv
    if [ ! -e "$I12" ]; then
        echo "input.12.csv: the committed copy, fuzz/corpus/csv/seed-input12.csv ($I12 not found)"
        I12=$1/input.12.csv
        cp "$(dirname "$0")/../../fuzz/corpus/csv/seed-input12.csv" "$I12" || exit 1
    fi
    "${APLAN_MAKE_MODELS:?}" "$1" || exit 1
    CHAIN=$1/chain.tflite
    TIES=$1/ties.tflite
    OFFLINE=$1/offline.tflite
    SCRATCH=$1/scratch.tflite
    NAMES=$1/names.tflite
    BADNAMES=$1/badnames.tflite
    HUGE=$1/huge.tflite
    SHARED_NAME=$1/shared_name.tflite
    SHARED_CONTROL=$1/shared_control.tflite
    FANIN=$1/fanin.tflite
    RANK=$1/rank.tflite
    SHARED_CUSTOM=$1/shared_custom.tflite
    STEPS=$1/steps.tflite
    SIGNAL_ROWS=$1/signal_rows.tflite
    OVERLAP_ROWS=$1/overlap_rows.tflite
    SIGNAL_HUGE=$1/signal_huge.tflite
    DETECTION=$1/detection.tflite
    DETECTION_KEYS=$1/detection_keys.tflite
    CONCAT_RANK=$1/concat_rank.tflite
}
