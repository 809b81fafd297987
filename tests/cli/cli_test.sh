#!/bin/sh
# End-to-end tests of the aplan tool: exit codes, exact figures in the table, exact CSV output, JSON content, a
# generated C header that must compile and agree with the plan, and every documented error path.
# Environment (set by meson): APLAN (the binary), APLAN_SHARED_DIR, CC, PYTHON (optional).
set -u
A=${APLAN:?}
S=${APLAN_SHARED_DIR:?}
CC=${CC:-cc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
failures=0
checks=0
I12=$S/benchmarks/minimalloc/input.12.csv

fail() {
    echo "FAIL: $*"
    sed 's/^/    stdout: /' "$T/out" | head -40
    sed 's/^/    stderr: /' "$T/err" | head -20
    failures=$((failures + 1))
}

# run EXPECTED_EXIT COMMAND...: run, keep stdout/stderr in $T/out and $T/err.
run() {
    want=$1
    shift
    last="$*"
    "$@" >"$T/out" 2>"$T/err"
    rc=$?
    checks=$((checks + 1))
    [ "$rc" = "$want" ] || fail "'$last' exited $rc, want $want"
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
empty() {
    checks=$((checks + 1))
    [ ! -s "$T/$1" ] || fail "'$last': $1 is not empty"
}

# --- no arguments: the built-in example --------------------------------------------------------------------------
run 0 "$A"
has out "built-in example: 13 buffers, alignment 16, sizes rounded up"
has out "lower bound: 32256 bytes, reached at step 8"
hasre out '^\* greedy_by_size +32256 +32256 +\+0\.0% .* yes$'
hasre out '^  linear +89920 +32256 +\+178\.8% .* yes$'
has out "best: greedy_by_size, 32256 bytes: proven optimal (equals the lower bound)"
empty err
run 0 "$A" example --graph
has out "ADD"
has out "pw2, project -> add [1x12x12x32] 4608 bytes"

# --- help on every command ------------------------------------------------------------------------------------------
for c in "" plan verify bound list targets example embed; do
    run 0 "$A" $c --help
    has out "usage: aplan"
    empty err
done
run 0 "$A" --help
has out "5 verification failed, 6 I/O error"
has out "embed MODEL -o OUT"

# --- usage errors: exit 2, message on stderr, nothing on stdout --------------------------------------------------
run 2 "$A" frob
has err "unknown command 'frob'"
empty out
run 2 "$A" plan
has err "plan: expected 1 argument, got 0"
run 2 "$A" plan "$I12" extra
has err "expected 1 argument, got 2"
run 2 "$A" plan --bogus "$I12"
has err "unknown option '--bogus'"
run 2 "$A" plan -s bogus "$I12"
has err "unknown strategy 'bogus'; known: linear"
run 2 "$A" plan -s linear, "$I12"
has err "empty strategy name"
run 2 "$A" plan -a 3 "$I12"
has err "--align '3' is not a power of two"
run 2 "$A" plan --format xml "$I12"
has err "unknown format 'xml'"
run 2 "$A" plan --capacity 12x "$I12"
has err "--capacity '12x' is not a byte count"
run 2 "$A" plan --target z80 "$I12"
has err "unknown target 'z80'"
run 2 "$A" bound -f json "$I12"
has err "option '-f' does not apply to this command"
run 2 "$A" plan -s
has err "option '-s' needs a value"
run 2 "$A" plan --round-sizes=1 "$I12"
has err "takes no value"
run 2 "$A" plan -f c --name 9lives "$I12"
has err "--name '9lives' is not a C identifier (a letter, then letters, digits, '_')"
run 2 "$A" plan --name pd "$I12"
has err "plan: --name applies to -f c only"
run 2 "$A" bound --name pd "$I12"
has err "option '--name' does not apply to this command"

# --- plan a CSV ----------------------------------------------------------------------------------------------------
run 0 "$A" plan "$I12"
has out "input.12.csv: 5 buffers, alignment 1, sizes as given"
has out "lower bound: 12 bytes, reached at step 0"
hasre out '^  linear +20 +12 +\+66\.7% +[0-9.]+ ms +yes$'
hasre out '^\* greedy_by_size +12 +12 +\+0\.0% +[0-9.]+ ms +yes$'
hasre out '^  offline +- +12 +- +[0-9.]+ ms +no  \(buffer 0 has no fixed offset: buffer 0 is .b1. \(line 2\)\)$'
has out "best: greedy_by_size, 12 bytes: proven optimal"

# -s with a list, --option=value and -sVALUE spellings; auto keeps only the best row.
run 0 "$A" plan --strategy=linear,first_fit "$I12"
checks=$((checks + 1))
[ "$(grep -cE '^[ *] (linear|first_fit) ' "$T/out")" = 2 ] || fail "two rows expected"
run 0 "$A" plan -sauto "$I12"
checks=$((checks + 1))
[ "$(grep -cE '^[ *] [a-z_]+ +[0-9]+ ' "$T/out")" = 1 ] || fail "auto shows one row"
hasre out '^\* greedy_by_size '

# --- the plan as CSV: exact text, then checked by `aplan verify` ------------------------------------------------
run 0 "$A" plan -s greedy_by_size -f csv "$I12"
printf 'id,lower,upper,size,offset\nb1,0,3,4,0\nb2,3,9,4,0\nb3,0,9,4,4\nb4,9,21,4,0\nb5,0,21,4,8\n' >"$T/want.csv"
checks=$((checks + 1))
cmp -s "$T/out" "$T/want.csv" || fail "CSV plan differs from the expected text"
run 0 "$A" plan -f csv -o "$T/plan.csv" "$I12"
empty out
run 0 "$A" verify "$I12" "$T/plan.csv"
has out "valid: 5 buffers, arena 12 bytes, lower bound 12 bytes (+0.0%), optimal"
# Move b3 onto b1: the first violation is named in words, with ids and lines.
sed 's/^b3,0,9,4,4$/b3,0,9,4,0/' "$T/plan.csv" >"$T/bad_plan.csv"
run 5 "$A" verify "$I12" "$T/bad_plan.csv"
has err "verification failed: buffers 0 and 2 overlap at steps 0-2, bytes 0-3: buffer 0 is 'b1' (line 2), buffer 2 is 'b3' (line 4)"
empty out
# A plan row that is not in the problem, a changed size, and a plan without offsets are bad input.
sed 's/^b5,/zz,/' "$T/plan.csv" >"$T/other.csv"
run 3 "$A" verify "$I12" "$T/other.csv"
has err "buffer 4 'zz' (line 6) is not in the problem"
sed 's/^b5,0,21,4,8$/b5,0,21,5,8/' "$T/plan.csv" >"$T/resized.csv"
run 3 "$A" verify "$I12" "$T/resized.csv"
has err "has size 5, steps [0, 21); the problem says size 4, steps [0, 21)"
run 3 "$A" verify "$I12" "$I12"
has err "the plan has no 'offset' column"
# A row missing from the plan is unplaced: a verification failure.
grep -v '^b4,' "$T/plan.csv" >"$T/short.csv"
run 5 "$A" verify "$I12" "$T/short.csv"
has err "buffer 3 is 'b4' (line 5)"

# --- bad input and I/O -----------------------------------------------------------------------------------------------
printf 'id,lower,upper,size\r\nx,0,1,4\r\ny,1,2,-4\r\n' >"$T/bad.csv"
run 3 "$A" plan "$T/bad.csv"
has err "bad.csv:3:4: 'size' is negative: \"-4\""
empty out
printf 'id,lower,upper,size\r\nx,0,1,4\r\ny,1,2,4\r\n' >"$T/crlf.csv"
run 0 "$A" plan "$T/crlf.csv"
has out "best: greedy_by_size, 4 bytes: proven optimal"
printf '' >"$T/empty.csv"
run 3 "$A" plan "$T/empty.csv"
has err "empty.csv:1: empty input: no header line"
printf 'id,lower,upper,size,alignment\nx,0,1,4,8\ny,0,1,4,16\n' >"$T/aligned.csv"
run 0 "$A" plan -s greedy_by_size -f csv "$T/aligned.csv"
has out "id,lower,upper,size,alignment,offset"
printf 'id,lower,upper,size,offset\nx,0,1,4,3\n' >"$T/misaligned.csv"
run 3 "$A" plan -a 4 "$T/misaligned.csv"
has err "invalid problem:"
has err "buffer 0 is 'x' (line 2)"
run 6 "$A" plan "$T/does-not-exist.csv"
has err "cannot open $T/does-not-exist.csv: No such file or directory"
run 6 "$A" plan -o "$T/no/such/dir/out.txt" "$I12"
has err "cannot open $T/no/such/dir/out.txt for writing"
if [ -w /dev/full ]; then
    run 6 "$A" plan "$I12" -o /dev/full
    has err "cannot write /dev/full"
fi

# --- capacity ----------------------------------------------------------------------------------------------------------
run 4 "$A" plan --capacity 10 "$I12"
has err "no plan can fit: the lower bound is 12 bytes, 2 more than the capacity 10"
run 4 "$A" plan --capacity 15 -s linear "$I12"
has err "nothing fits the capacity of 15 bytes: the smallest plan (linear) needs 20 bytes, 5 more"
hasre out '^  linear +20 .*\(needs 20 bytes, 5 more than the capacity 15\)$'
run 0 "$A" plan --capacity 15 -s linear,greedy_by_size "$I12"
hasre out '^\* greedy_by_size +12 '
run 4 "$A" plan --target cortex-m4 "$S/benchmarks/minimalloc/A.1048576.csv"
has err "the lower bound is 1048576 bytes, 786432 more than the capacity 262144"
run 0 "$A" plan --capacity 1K "$I12"
has out "capacity 1024"

# --- bound, list, targets -----------------------------------------------------------------------------------------------
run 0 "$A" bound -a 16 --round-sizes "$S/models/lifetimes/person_detect.csv"
has out "lower bound: 55296 bytes"
has out "reached at step 4: 2 buffers live, 55296 bytes"
run 0 "$A" list
hasre out '^greedy_by_size +'
hasre out '^offline +'
has out "auto"
run 0 "$A" targets
hasre out '^cortex-m0plus +4 +270336 '
hasre out '^cortex-m55-ethos-u55 +16 +2097152 '
hasre out '^dsp64 +64 +1048576 '

# --- JSON -------------------------------------------------------------------------------------------------------------------
run 0 "$A" plan -f json "$I12"
if [ -n "${PYTHON:-}" ]; then
    cp "$T/out" "$T/plan.json"
    run 0 "$PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["lower_bound"] == {"bytes": 12, "step": 0}, d["lower_bound"]
assert d["best"] == "greedy_by_size" and d["optimal"] is True
names = [s["name"] for s in d["strategies"]]
assert names == ["linear", "greedy_by_size", "greedy_by_size_tflm", "first_fit", "offline"], names
lin = d["strategies"][0]
assert lin["arena_bytes"] == 20 and lin["verified"] is True and lin["best"] is False and lin["status"] == "ok"
off = d["strategies"][4]
assert off["arena_bytes"] is None and off["offsets"] is None and off["verified"] is False and off["error"]
b = d["buffers"][2]
assert b == {"index": 2, "id": "b3", "line": 4, "size": 4, "planned_size": 4, "lower": 0, "upper": 9,
             "alignment": 1, "fixed_offset": None, "offset": 4}, b
assert d["strategies"][1]["offsets"] == [0, 0, 4, 0, 8]
assert d["input"]["kind"] == "csv" and d["input"]["capacity"] is None
' "$T/plan.json"
fi

# --- C header: compiles as C11 with warnings as errors and matches the plan -------------------------------------------
run 0 "$A" plan -s greedy_by_size -a 16 --round-sizes -f c -o "$T/plan.h" "$S/models/lifetimes/person_detect.csv"
cat >"$T/use.c" <<'EOF'
#include <stdio.h>
#include "plan.h"
int main(void) {
    unsigned long long highest = 0;
    for (unsigned i = 0; i < APLAN_BUFFER_COUNT; i++) {
        unsigned long long end = (unsigned long long)aplan_buffer_offsets[i] + aplan_buffer_sizes[i];
        if (aplan_buffer_offsets[i] % APLAN_ARENA_ALIGNMENT != 0) return 1;
        if (end > highest) highest = end;
    }
    printf("%llu %u %llu\n", (unsigned long long)APLAN_ARENA_SIZE, (unsigned)APLAN_BUFFER_COUNT, highest);
    if (aplan_buffer_plan.buffer_count != APLAN_BUFFER_COUNT) return 3;
    return highest == APLAN_ARENA_SIZE ? 0 : 2;
}
EOF
run 0 "$CC" -std=c11 -Wall -Wextra -Werror -pedantic -I"$T" -o "$T/use" "$T/use.c"
run 0 "$T/use"
has out "55296 32 55296"
# Two models' headers in one program (--name), each with TFLM's BufferPlan: its layout (an int32 count, then one
# int32 per buffer) and its entries, which must be the plan's offsets in the model's buffer order.
run 0 "$A" plan -s greedy_by_size -f c --name pd -o "$T/pd.h" "$S/models/person_detect.tflite"
run 0 "$A" plan -s greedy_by_size_tflm -f c --name audio -o "$T/audio.h" "$S/models/audio_preprocessor_int8.tflite"
pd_offsets=$("$A" plan -s greedy_by_size -f csv "$S/models/person_detect.tflite" | tail -n +2 | cut -d, -f6 | tr '\n' ' ')
audio_offsets=$("$A" plan -s greedy_by_size_tflm -f csv "$S/models/audio_preprocessor_int8.tflite" |
    tail -n +2 | cut -d, -f6 | tr '\n' ' ')
cat >"$T/two.c" <<'EOF'
#include <stddef.h>
#include <stdio.h>
#include "pd.h"
#include "audio.h"
_Static_assert(offsetof(struct pd_buffer_plan_layout, buffer_plan_entries) == 4, "TFLM's BufferPlan layout");
_Static_assert(sizeof pd_buffer_plan.buffer_plan_entries[0] == 4, "a BufferDescriptor is one int32");
#define SHOW(p, P)                                                                                                  \
    do {                                                                                                            \
        printf(#p " %d ", (int)p##_buffer_plan.buffer_count);                                                       \
        for (unsigned i = 0; i < P##_BUFFER_COUNT; i++) {                                                           \
            if ((unsigned long)p##_buffer_plan.buffer_plan_entries[i] != p##_buffer_offsets[i]) return 1;           \
            printf("%d ", (int)p##_buffer_plan.buffer_plan_entries[i]);                                             \
        }                                                                                                           \
        printf("\n");                                                                                               \
    } while (0)
int main(void) {
    SHOW(pd, PD);
    SHOW(audio, AUDIO);
    printf("%lu %lu\n", (unsigned long)PD_ARENA_SIZE, (unsigned long)AUDIO_ARENA_SIZE);
    return 0;
}
EOF
run 0 "$CC" -std=c11 -Wall -Wextra -Werror -pedantic -I"$T" -o "$T/two" "$T/two.c"
run 0 "$T/two"
has out "pd 32 $pd_offsets"
has out "audio 25 $audio_offsets"
has out "55296 3040"

# --- SVG: one rectangle per buffer that occupies memory ---------------------------------------------------------------
run 0 "$A" plan -f svg "$I12"
checks=$((checks + 1))
[ "$(grep -o 'class="buf"' "$T/out" | wc -l)" = 5 ] || fail "SVG should hold 5 buffer rectangles"
has out "<title>b3: 4 bytes at offset 4, steps 0-8</title>"
has out "lower bound 12 bytes at step 0"

# --- .tflite models ------------------------------------------------------------------------------------------------------
run 0 "$A" plan "$S/models/person_detect.tflite"
has out "person_detect.tflite: 32 buffers, alignment 16, sizes rounded up"
has out "lower bound: 55296 bytes"
hasre out '^  linear +241072 +55296 '
hasre out '^\* greedy_by_size +55296 +55296 +\+0\.0% '
hasre out '^  greedy_by_size_tflm +55296 '
hasre out '^  offline +- .*no fixed offset'
has out "proven optimal"
run 0 "$A" plan "$S/models/audio_preprocessor_int8.tflite"
hasre out '^  greedy_by_size_tflm +3040 +2096 +\+45\.0% '
hasre out '^\* greedy_by_size +2096 +2096 '
# The CSV plan of a model names tensors s<subgraph>t<tensor>, rows as in TFLM's lifetimes file.
run 0 "$A" plan -f csv "$S/models/person_detect.tflite"
cut -d, -f1-4 "$T/out" >"$T/model_rows.csv"
checks=$((checks + 1))
cmp -s "$T/model_rows.csv" "$S/models/lifetimes/person_detect.csv" || fail "tflite CSV rows differ from lifetimes"
has out "id,lower,upper,size,alignment,offset"
cp "$T/out" "$T/pd_plan.csv"
run 0 "$A" verify "$S/models/person_detect.tflite" "$T/pd_plan.csv"
has out "arena 55296 bytes, lower bound 55296 bytes (+0.0%), optimal"
# Offline plans alias on purpose: allowed, shown; the model's own plan verifies.
run 0 "$A" plan "$S/models/person_detect_vela.tflite"
hasre out '^  offline +74464 +74464 +\+0\.0% .* yes$'
has out "aliased fixed pairs (allowed: the offline plan shares them on purpose): 6"
has out "s0t3 & s0t4 share bytes 0-74463"
run 0 "$A" verify "$S/models/person_detect_vela.tflite" "$S/models/person_detect_vela.tflite"
has out "aliased fixed pairs (allowed): 6"
# A model without an offline plan as PLAN: every buffer is unplaced.
run 5 "$A" verify "$S/models/person_detect.tflite" "$S/models/person_detect.tflite"
has err "verification failed:"
has err "buffer 0 is 's0t27'"
# A strategy that cannot plan the input shows its error in its row; alone, the run fails as bad input.
run 3 "$A" plan -s offline "$S/models/person_detect.tflite"
hasre out '^  offline +- .*no fixed offset'
has err "no strategy could plan the input"
run 0 "$A" plan --target cortex-m0plus "$S/models/person_detect.tflite"
has out "alignment 4, sizes rounded up, capacity 270336 (target cortex-m0plus)"
# Truncated model: bad input naming the byte.
head -c 200 "$S/models/person_detect.tflite" >"$T/cut.tflite"
run 3 "$A" plan "$T/cut.tflite"
has err "cut.tflite: byte "

# --- embed: the plan as the model's offline plan ----------------------------------------------------------------------
run 0 "$A" embed "$S/models/audio_preprocessor_int8.tflite" -o "$T/ap.tflite"
has out "$T/ap.tflite: arena 3040 -> 2096 bytes (TFLM's greedy planner -> greedy_by_size), lower bound 2096 bytes, optimal; 25 of 43 tensors planned offline"
empty err
run 0 "$A" verify "$T/ap.tflite" "$T/ap.tflite"
has out "valid: 25 buffers, arena 2096 bytes, lower bound 2096 bytes (+0.0%), optimal"
run 0 "$A" plan -s offline "$T/ap.tflite"
hasre out '^\* offline +2096 +2096 '
# The same buffers as the input: rows equal but for the offset column.
run 0 "$A" plan -s linear -f csv "$T/ap.tflite"
cut -d, -f1-4 "$T/out" >"$T/ap_rows.csv"
"$A" plan -s linear -f csv "$S/models/audio_preprocessor_int8.tflite" | cut -d, -f1-4 >"$T/ap_in_rows.csv"
checks=$((checks + 1))
cmp -s "$T/ap_rows.csv" "$T/ap_in_rows.csv" || fail "the embedded model's buffers differ from the input's"
run 0 "$A" embed -s greedy_by_size_tflm --target cortex-m4 "$S/models/person_detect.tflite" -o "$T/pd.tflite"
has out "pd.tflite: arena 55296 -> 55296 bytes (TFLM's greedy planner -> greedy_by_size_tflm), lower bound 55296 bytes, optimal; 32 of 89 tensors planned offline"
run 3 "$A" verify "$T/pd.tflite" "$T/pd.tflite"
has err "offset 4 is not a multiple of its alignment 16" # planned for the target's 4 bytes, not TFLM's 16
run 0 "$A" verify --target cortex-m4 "$T/pd.tflite" "$T/pd.tflite"
has out "valid: 32 buffers, arena 55296 bytes"
# An existing plan: kept as fixed offsets and its metadata replaced, with a warning; --replan plans afresh.
run 0 "$A" embed -s linear "$T/ap.tflite" -o "$T/ap2.tflite"
has err "aplan: warning: $T/ap.tflite already had an offline plan (OfflineMemoryAllocation); $T/ap2.tflite holds the new plan in its place"
has out "arena 2096 -> 2096 bytes (TFLM's greedy planner -> linear)"
run 0 "$A" embed -s linear --replan "$T/ap.tflite" -o "$T/ap2.tflite"
has err "already had an offline plan"
has out "ap2.tflite: arena 2096 -> 12208 bytes (TFLM's greedy planner -> linear), lower bound 2096 bytes; 25 of 43 tensors planned offline"
run 0 "$A" verify "$T/ap2.tflite" "$T/ap2.tflite"
has out "arena 12208 bytes"
run 0 "$A" embed "$S/models/person_detect_vela.tflite" -o "$T/vela.tflite"
has err "already had an offline plan"
has out "arena 74464 -> 74464 bytes"
run 0 "$A" verify "$T/vela.tflite" "$T/vela.tflite"
has out "aliased fixed pairs (allowed): 6"
# Never the input itself (by name or through a link) unless --force; the input stays as it was.
cp "$T/ap.tflite" "$T/own.tflite"
run 2 "$A" embed "$T/own.tflite" -o "$T/own.tflite"
has err "embed: $T/own.tflite is the input: refusing to overwrite it (use --force to replace it)"
ln -s own.tflite "$T/link.tflite"
run 2 "$A" embed "$T/own.tflite" -o "$T/link.tflite"
has err "is the input: refusing to overwrite it"
checks=$((checks + 1))
cmp -s "$T/own.tflite" "$T/ap.tflite" || fail "a refused embed changed its input"
run 0 "$A" embed --force --replan -s linear "$T/own.tflite" -o "$T/own.tflite"
has out "arena 2096 -> 12208 bytes"
run 0 "$A" verify "$T/own.tflite" "$T/own.tflite"
has out "arena 12208 bytes"
# Usage, input and capacity errors; nothing is written.
run 2 "$A" embed "$S/models/person_detect.tflite"
has err "embed: -o OUT is required"
run 2 "$A" embed -f c "$S/models/person_detect.tflite" -o "$T/x.tflite"
has err "option '-f' does not apply to this command"
run 3 "$A" embed "$I12" -o "$T/x.tflite"
has err "input.12.csv: not a .tflite model"
run 3 "$A" embed "$T/cut.tflite" -o "$T/x.tflite"
has err "cut.tflite: byte "
run 4 "$A" embed --capacity 50000 "$S/models/person_detect.tflite" -o "$T/x.tflite"
has err "no plan can fit: the lower bound is 55296 bytes, 5296 more than the capacity 50000"
checks=$((checks + 1))
[ ! -e "$T/x.tflite" ] || fail "a failed embed wrote its output"
run 6 "$A" embed "$S/models/person_detect.tflite" -o "$T/no/such/dir/x.tflite"
has err "cannot create a temporary file beside $T/no/such/dir/x.tflite: No such file or directory"
# A write that fails half-way (a file size limit of 8 KiB): the old OUT stays, and no temporary file is left.
mkdir "$T/full"
printf 'old' >"$T/full/keep.tflite"
run 6 sh -c 'trap "" XFSZ; ulimit -f 16; exec "$0" "$@"' "$A" embed "$S/models/person_detect.tflite" -o "$T/full/keep.tflite"
has err "cannot write $T/full/keep.tflite: File too large"
checks=$((checks + 1))
[ "$(cat "$T/full/keep.tflite")" = old ] || fail "a failed embed changed the old output"
checks=$((checks + 1))
[ "$(ls -A "$T/full")" = keep.tflite ] || fail "a failed embed left files behind: $(ls -A "$T/full")"

echo "$checks checks, $failures failures"
[ "$failures" = 0 ]
