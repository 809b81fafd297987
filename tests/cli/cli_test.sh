#!/bin/sh
# End-to-end tests of the aplan tool: exit codes, exact figures in the table, exact CSV output, JSON content, a
# generated C header that must compile and agree with the plan, and every documented error path. Every command and
# output runs in any clone, on models tests/cli/make_models.c writes and CSVs written here; the exact figures of the
# shared folder's real models and traces (person_detect, audio_preprocessor_int8, person_detect_vela, MediaPipe's
# face landmark model, MiniMalloc's A) are checked when their files are there, and named as skipped when not.
# Environment (set by meson): APLAN (the binary), APLAN_SHARED_DIR, APLAN_MAKE_MODELS, CC, PYTHON (optional).
set -u
A=${APLAN:?}
S=${APLAN_SHARED_DIR:?}
CC=${CC:-cc}
T=$(mktemp -d)
IN=$(mktemp -d)
trap 'rm -rf "$T" "$IN"' EXIT
. "$(dirname "$0")/check.sh"
REPO=$(cd "$(dirname "$0")/../.." && pwd)
need_strategies linear greedy_by_size greedy_by_size_tflm first_fit offline
made_inputs "$IN"
# The built-in strategies as `aplan list` names them, in registry order: the suite runs in builds with more than the
# five it names (best_fit, exact, ...), so lists of every strategy are read from the tool.
BUILT=$("$A" list | cut -d' ' -f1 | grep -v -x -e all -e auto)
KNOWN="$(echo "$BUILT" | tr '\n' ',' | sed 's/,/, /g')all, auto" # as an unknown-strategy message lists them
HAS_EXACT=0
echo "$BUILT" | grep -qx exact && HAS_EXACT=1

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

# --- no arguments: the built-in example --------------------------------------------------------------------------
run 0 "$A"
has out "built-in example: 13 buffers, alignment 16, sizes rounded up"
has out "lower bound: 32256 bytes, reached at step 8"
hasre out '^\* greedy_by_size +32256 +32256 +\+0\.0% .* yes$'
hasre out '^  linear +89920 +32256 +\+178\.8% .* yes$'
has out "best: greedy_by_size, 32256 bytes: proven optimal (equals the lower bound)"
line out "covers: the planned (non-persistent) section of the example's 13 tensors, by TFLM's rules. TFLM's arena also holds"
line out "  the kernels' scratch buffers and TFLM's persistent data, as for a model (docs/tflm.md)"
lacks out "fits:" # no capacity, no verdict
lacks out "in TFLM:" # not a model file
empty err
# The heading names what runs at the bound's step; --graph lists every step as `aplan graph` lists a model's.
line out "lower bound: 32256 bytes, reached at step 8: DEPTHWISE_CONV_2D (op 6 of subgraph 0)"
run 0 "$A" example --graph
line out "built-in example (an int8 MobileNetV2-like network): 12 operators in 1 subgraph, 14 steps (the steps of the lifetimes)"
line out "   1  the inputs of subgraph 0 -> input 6912 B"
line out "   2  CONV_2D (op 0 of subgraph 0): input 6912 B + 1 constant -> conv1 9216 B"
line out "  10  ADD (op 8 of subgraph 0): pw2 4608 B, project 4608 B -> add 4608 B"
lines out 16 # two heading lines, one line per step
empty err

# --- help on every command ------------------------------------------------------------------------------------------
for c in "" plan verify bound graph list targets example embed; do
    run 0 "$A" $c --help
    has out "usage: aplan"
    empty err
done
run 0 "$A" --help
has out "5 verification failed, 6 I/O error"
has out "embed MODEL -o OUT"
has out "graph MODEL"

# --- usage errors: exit 2, message on stderr, nothing on stdout --------------------------------------------------
run 2 "$A" frob
line err "aplan: unknown command 'frob' (see \`aplan --help\`)"
empty out
# Did you mean: one suggestion when exactly one known name is a few edits away (case aside), none otherwise.
run 2 "$A" pln "$I12"
line err "aplan: unknown command 'pln' (did you mean 'plan'? see \`aplan --help\`)"
run 2 "$A" Bound "$I12"
line err "aplan: unknown command 'Bound' (did you mean 'bound'? see \`aplan --help\`)"
run 2 "$A" plan --capacty 5 "$I12"
line err "aplan: plan: unknown option '--capacty' (did you mean '--capacity'? see \`aplan plan --help\`)"
run 2 "$A" plan -s lienar "$I12"
line err "aplan: plan: unknown strategy 'lienar'; did you mean 'linear'? known: $KNOWN"
run 2 "$A" plan -s greedy_by_sise_tflm "$I12"
has err "unknown strategy 'greedy_by_sise_tflm'; did you mean 'greedy_by_size_tflm'? known:"
run 2 "$A" plan --target cortex-m44 "$I12"
line err "aplan: plan: unknown target 'cortex-m44' (did you mean 'cortex-m4'? see \`aplan targets\`)"
run 2 "$A" plan --target cortex-m5 "$I12" # as near to cortex-m4 as to cortex-m7: no guess
line err "aplan: plan: unknown target 'cortex-m5' (see \`aplan targets\`)"
# A piece of a preset's name names it (the nearest when several hold it); else the nearest within half its length.
for pair in m4:cortex-m4 M7:cortex-m7 esp32:esp32-s3 psram:esp32-s3-psram stm32:stm32h743 imxrt:imxrt1060; do
    run 2 "$A" plan --target "${pair%%:*}" "$I12"
    line err "aplan: plan: unknown target '${pair%%:*}' (did you mean '${pair#*:}'? see \`aplan targets\`)"
done
run 2 "$A" plan --target m "$I12" # like no preset
line err "aplan: plan: unknown target 'm' (see \`aplan targets\`)"
# Byte counts past 2^64 - 1 are too large (exit 2), whether the digits or the suffix take them there.
for c in 18446744073709551616 99999999999999999999999 17179869184G 18014398509481984K; do
    run 2 "$A" plan --capacity "$c" "$I12"
    line err "aplan: plan: --capacity '$c' is too large: more than 2^64 - 1 bytes (18446744073709551615); at most 18446744073709551614"
done
run 0 "$A" plan --capacity 17179869183G "$I12" # 2^64 - 2^30: within
run 2 "$A" plan --max-input-size 99999999999999999999 "$I12"
line err "aplan: plan: --max-input-size '99999999999999999999' is too large: more than 2^64 - 1 bytes (18446744073709551615)"
run 2 "$A" plan --region sram:16777216T "$I12"
has err "aplan: plan: --region 'sram:16777216T' has a size that is not a byte count"
run 2 "$A" plan --region sram:17179869184GiB "$I12"
line err "aplan: plan: --region 'sram:17179869184GiB' has a size that is too large: more than 2^64 - 1 bytes (18446744073709551615)"
run 2 "$A" plan -f jsn "$I12"
line err "aplan: plan: unknown format 'jsn' (did you mean 'json'? table, csv, json, svg, html or c)"
# Target names match without regard to case, and are shown in the preset's spelling.
run 0 "$A" plan --target Cortex-M4 "$I12"
has out "capacity 262144 (target cortex-m4)"
# `aplan FILE [options]` is `aplan plan [options] FILE`; a missing FILE is an I/O error, not an unknown command.
run 0 "$A" "$I12" -s greedy_by_size
hasre out '^\* greedy_by_size +12 +12 '
run 6 "$A" "$T/missing.tflite"
line err "aplan: cannot open $T/missing.tflite: No such file or directory"
run 2 "$A" plan
has err "plan: expected 1 argument, got 0"
run 2 "$A" plan "$I12" extra
has err "expected 1 argument, got 2"
run 2 "$A" plan --bogus "$I12"
has err "unknown option '--bogus'"
run 2 "$A" plan -s bogus "$I12"
line err "aplan: plan: unknown strategy 'bogus'; known: $KNOWN"
run 2 "$A" plan -s linear, "$I12"
has err "empty strategy name"
run 2 "$A" plan -a 3 "$I12"
has err "--align '3' is not a power of two"
run 2 "$A" plan --format xml "$I12"
line err "aplan: plan: unknown format 'xml' (table, csv, json, svg, html or c)"
run 2 "$A" plan --capacity 12x "$I12"
line err "aplan: plan: --capacity '12x' is not a byte count (digits, then optionally K, KB or KiB for 1024, M, MB or MiB for 1048576, G, GB or GiB for 1073741824)"
# 2^64 - 1 is the library's "no capacity": given, it is refused, not taken as none; one less is a capacity.
run 2 "$A" plan --capacity 18446744073709551615 "$I12"
line err "aplan: plan: --capacity '18446744073709551615' is 2^64 - 1, which means no capacity: leave --capacity out, or give at most 18446744073709551614"
lacks out "lower bound"
run 0 "$A" plan -s linear --capacity 18446744073709551614 "$I12"
has out "fits: 20 of 18446744073709551614 bytes"
# Standard input can be read once.
run 2 "$A" verify - - <"$I12"
line err "aplan: verify: standard input ('-') given twice: it can be read once; give one of them as a file"
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
hasre out '^  linear +20 +12 +\+66\.7% +plan +- +[0-9.]+ ms +yes$'
hasre out '^\* greedy_by_size +12 +12 +\+0\.0% +optimal +- +[0-9.]+ ms +yes$'
line out "covers: the input's 5 buffers, nothing else"
lacks out "  offline " # no fixed offsets: offline does not run
has out "best: greedy_by_size, 12 bytes: proven optimal"

# -s with a list, --option=value and -sVALUE spellings; auto keeps only the best row.
run 0 "$A" plan --strategy=linear,first_fit "$I12"
checks=$((checks + 1))
[ "$(grep -cE '^[ *] (linear|first_fit) ' "$T/out")" = 2 ] || fail "two rows expected"
run 0 "$A" plan -sauto "$I12"
checks=$((checks + 1))
[ "$(grep -cE '^[ *] [a-z_]+ +[0-9]+ ' "$T/out")" = 1 ] || fail "auto shows one row"
hasre out '^\* greedy_by_size_tflm ' # a tie goes to TFLM's own plan (aplan_strategy_auto_at)

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
line err "aplan: $T/bad_plan.csv: verification failed: buffers 0 and 2 overlap at steps [0, 3), bytes [0, 4): buffer 0 is 'b1' (line 2), buffer 2 is 'b3' (line 4)"
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
# Rows in another order are matched by id (through the index by id, past the first row out of place); a row not
# in the problem is named after one.
{ head -1 "$T/plan.csv"; tail -n +2 "$T/plan.csv" | sort -r; } >"$T/reversed.csv"
run 0 "$A" verify "$I12" "$T/reversed.csv"
has out "valid: 5 buffers, arena 12 bytes"
{ head -1 "$T/reversed.csv"; tail -n +2 "$T/reversed.csv" | sed 's/^b1,/b0,/'; } >"$T/other2.csv"
run 3 "$A" verify "$I12" "$T/other2.csv"
line err "aplan: $T/other2.csv: buffer 4 'b0' (line 6) is not in the problem $I12"
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
line err "aplan: $T/empty.csv: empty file (0 bytes): neither a .tflite model nor a CSV table"
empty out
# ... and blank lines alone are a CSV table without its header (the CSV reader says so).
printf '\n\n' >"$T/blank.csv"
run 3 "$A" plan "$T/blank.csv"
has err "blank.csv:1: empty input: no header line"
run 3 "$A" verify "$I12" "$T/empty.csv"
line err "aplan: $T/empty.csv: empty file (0 bytes): neither a .tflite model nor a CSV table"
run 3 "$A" plan - <"$T/empty.csv"
line err "aplan: -: empty file (0 bytes): neither a .tflite model nor a CSV table"
run 3 "$A" graph "$T/empty.csv"
line err "aplan: $T/empty.csv: empty file (0 bytes): not a .tflite model"
run 3 "$A" embed "$T/empty.csv" -o "$T/x.tflite"
line err "aplan: $T/empty.csv: empty file (0 bytes): not a .tflite model"
printf 'id,lower,upper,size,alignment\nx,0,1,4,8\ny,0,1,4,16\n' >"$T/aligned.csv"
run 0 "$A" plan -s greedy_by_size -f csv "$T/aligned.csv"
has out "id,lower,upper,size,alignment,offset"
printf 'id,lower,upper,size,offset\nx,0,1,4,3\n' >"$T/misaligned.csv"
run 3 "$A" plan -a 4 "$T/misaligned.csv"
has err "invalid problem:"
has err "buffer 0 is 'x' (line 2)"
run 6 "$A" plan "$T/does-not-exist.csv"
has err "cannot open $T/does-not-exist.csv: No such file or directory"
run 6 "$A" plan "$T"
line err "aplan: cannot read $T: Is a directory"
empty out
# Recognised by content: neither a model nor a CSV table is bad input, whatever the name says.
printf '\211PNG\r\n\032\n\000\000\000\rIHDR' >"$T/x.png"
run 3 "$A" plan "$T/x.png"
line err "aplan: $T/x.png: neither a .tflite model (no \"TFL3\" at bytes 4..7) nor a CSV table (its first line is not text)"
empty out
printf '\n# notes\nid lower upper size\n' >"$T/notes.csv"
run 3 "$A" plan "$T/notes.csv"
line err "aplan: $T/notes.csv: neither a .tflite model (no \"TFL3\" at bytes 4..7) nor a CSV table (its first line has no comma)"
printf '\357\273\277\r\nid,lower,upper,size\nx,0,1,4\n' >"$T/bom.csv" # a BOM and a blank line before the header
run 0 "$A" plan "$T/bom.csv"
has out ", 4 bytes: proven optimal"
run 6 "$A" plan -o "$T/no/such/dir/out.txt" "$I12"
line err "aplan: cannot create a temporary file beside $T/no/such/dir/out.txt: No such file or directory"
if [ -w /dev/full ]; then
    run 6 "$A" plan "$I12" -o /dev/full
    line err "aplan: cannot write /dev/full: No space left on device"
fi
# -o never replaces what it must not: the input (unless --force), a folder, a link loop, a file the user cannot
# write; each leaves what was there as it was.
cp "$I12" "$T/self.csv"
run 2 "$A" plan -s linear "$T/self.csv" -o "$T/self.csv"
line err "aplan: plan: $T/self.csv is the input: refusing to overwrite it (use --force to replace it)"
checks=$((checks + 1))
cmp -s "$T/self.csv" "$I12" || fail "a refused plan -o changed its input"
run 0 "$A" plan -s linear -f csv --force "$T/self.csv" -o "$T/self.csv"
run 0 "$A" verify "$I12" "$T/self.csv"
mkdir -p "$T/folder"
run 6 "$A" plan "$I12" -o "$T/folder/"
line err "aplan: cannot write $T/folder/: it is a folder (give a file name)"
run 6 "$A" plan "$I12" -o "$T/folder"
line err "aplan: cannot write $T/folder: it is a folder (give a file name)"
checks=$((checks + 1))
[ -z "$(ls -A "$T/folder")" ] || fail "a refused -o left files in the folder"
ln -sf loop_b "$T/loop_a"
ln -sf loop_a "$T/loop_b"
run 6 "$A" plan "$I12" -o "$T/loop_a"
line err "aplan: cannot write $T/loop_a: it is a symbolic link that cannot be followed: Too many levels of symbolic links"
checks=$((checks + 1))
[ -L "$T/loop_a" ] || fail "a link loop was replaced by a file"
# A file the user cannot write, in a folder they can: as an unprivileged user (root may write any file, so as root
# the run drops to uid 65534 with setpriv, in a folder that user can reach).
RO=$(mktemp -d /tmp/aplan_ro.XXXXXX)
chmod 0777 "$RO"
cp "$I12" "$RO/in.csv"
printf 'kept\n' >"$RO/readonly.txt"
chmod 0644 "$RO/in.csv" "$RO/readonly.txt"
as_user=
[ "$(id -u)" != 0 ] || as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
if [ "$(id -u)" != 0 ] || { command -v setpriv >/dev/null && $as_user "$A" list >/dev/null 2>&1; }; then
    [ "$(id -u)" != 0 ] || chown 0:0 "$RO/readonly.txt"
    [ "$(id -u)" = 0 ] || chmod 0444 "$RO/readonly.txt"
    run 6 $as_user "$A" plan -s linear "$RO/in.csv" -o "$RO/readonly.txt"
    line err "aplan: cannot write $RO/readonly.txt: Permission denied (it is not replaced)"
    checks=$((checks + 1))
    [ "$(cat "$RO/readonly.txt")" = kept ] || fail "a file the user cannot write was replaced"
else
    echo "skipped: -o over a file the user cannot write (as root without setpriv, or the tool unreachable as uid 65534)"
    skipped=$((skipped + 1))
fi
rm -rf "$RO"

# --- capacity ----------------------------------------------------------------------------------------------------------
# Without a plan that fits, the table still shows every strategy's size, then the verdict: by how much, and the
# largest buffers of the peak step. The exit code and the error line are as before.
run 4 "$A" plan --capacity 10 "$I12"
line err "aplan: $I12: no plan can fit: the lower bound is 12 bytes, 2 more than the capacity of 10 bytes"
hasre out '^  greedy_by_size +12 +12 .*\(needs 12 bytes, 2 more than the capacity of 10 bytes\)$'
line out "does not fit: the lower bound, 12 bytes, is 2 more than the capacity (10 bytes): no plan can fit"
line out "peak: step 0 holds 12 bytes in 3 buffers; the largest:"
line out "  b1                                  4 bytes  steps [0, 3)"
line out "  b3                                  4 bytes  steps [0, 9)"
line out "  b5                                  4 bytes  steps [0, 21)"
lacks out "best:"
run 4 "$A" plan --capacity 15 -s linear "$I12"
line err "aplan: $I12: nothing fits the capacity of 15 bytes: the smallest plan (linear) needs 20 bytes, 5 more"
hasre out '^  linear +20 .*\(needs 20 bytes, 5 more than the capacity of 15 bytes\)$'
line out "does not fit: the smallest plan (linear) needs 20 bytes, 5 more than the capacity (15 bytes); the lower bound, 12, would fit"
line out "peak: step 0 holds 12 bytes in 3 buffers; the largest:"
line out "  b5                                  4 bytes  steps [0, 21)"
run 0 "$A" plan --capacity 15 -s linear,greedy_by_size "$I12"
hasre out '^\* greedy_by_size +12 '
line out "fits: 12 of 15 bytes (80.0% of the capacity); 3 bytes free"
# A target's RAM as the capacity: 300000 + 100000 bytes live at step 1 are 137856 more than cortex-m4's 262144.
printf 'id,lower,upper,size\nbig,0,2,300000\nnext,1,3,100000\n' >"$T/big.csv"
run 4 "$A" plan --target cortex-m4 "$T/big.csv"
has err "the lower bound is 400000 bytes, 137856 more than the capacity of 262144 bytes"
line out "does not fit: the lower bound, 400000 bytes, is 137856 more than cortex-m4's RAM (262144 bytes): no plan can fit"
line out "peak: step 1 holds 400000 bytes in 2 buffers; the largest:"
if have_shared benchmarks/minimalloc/A.1048576.csv; then
    run 4 "$A" plan --target cortex-m4 "$S/benchmarks/minimalloc/A.1048576.csv"
    has err "the lower bound is 1048576 bytes, 786432 more than the capacity of 262144 bytes"
    line out "does not fit: the lower bound, 1048576 bytes, is 786432 more than cortex-m4's RAM (262144 bytes): no plan can fit"
    hasre out '^peak: step [0-9]+ holds 1048576 bytes in [0-9]+ buffers; the largest:$'
fi
# Byte counts: K, KB and KiB are 1024 and M, MB and MiB 1048576, in any case.
for c in 1K 1k 1KB 1kb 1KiB; do
    run 0 "$A" plan --capacity "$c" "$I12"
    has out "capacity 1024"
    line out "fits: 12 of 1024 bytes (1.2% of the capacity); 1012 bytes free"
done
for c in 2M 2MB 2mb 2MiB; do
    run 0 "$A" plan --capacity "$c" "$I12"
    has out "capacity 2097152"
done
run 2 "$A" plan --capacity 1KBB "$I12"
has err "--capacity '1KBB' is not a byte count"
# The JSON of a plan that does not fit: the verdict and the peak as data.
run 4 "$A" plan -f json --capacity 15 -s linear "$I12"
cp "$T/out" "$T/nofit.json"
if [ -n "${PYTHON:-}" ]; then
    run 0 "$PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["best"] is None
assert d["fit"] == {"fits": False, "capacity": 15, "capacity_from_target": False, "arena_bytes": 20,
                    "percent_of_capacity": 133.333, "free_bytes": None, "over_bytes": 5, "bound_fits": True,
                    "proven_no_fit": False, "whole_capacity": None, "tflm_arena_bytes": None,
                    "tflm_arena_fits": None, "tflm_setup": None}, d["fit"]
assert d["peak"] == {"step": 0, "live_bytes": 12, "live_buffers": 3, "largest": [0, 2, 4]}, d["peak"]
' "$T/nofit.json"
fi

# --- bound, list, targets -----------------------------------------------------------------------------------------------
# chain.tflite's buffers as a CSV (make_models.c): TFLM's settings give its bound, 1536 at step 4.
printf 'id,lower,upper,size\ns0t0,1,3,256\ns0t2,2,5,512\ns0t4,3,5,512\ns0t5,4,6,512\ns0t7,5,6,32\n' >"$T/chain.csv"
run 0 "$A" bound -a 16 --round-sizes "$T/chain.csv"
line out "lower bound: 1536 bytes, reached at step 4"
line out "covers: the input's 5 buffers, nothing else"
line out "at step 4: 3 buffers live, 1536 bytes, largest first"
line out "  s0t2                              512 bytes  steps [2, 5)"
line out "  s0t5                              512 bytes  steps [4, 6)"
if have_shared models/lifetimes/person_detect.csv; then
    run 0 "$A" bound -a 16 --round-sizes "$S/models/lifetimes/person_detect.csv"
    line out "lower bound: 55296 bytes, reached at step 4"
    line out "covers: the input's 32 buffers, nothing else"
    line out "at step 4: 2 buffers live, 55296 bytes, largest first"
    line out "  s0t54                           36864 bytes  steps [4, 6)"
    line out "  s0t51                           18432 bytes  steps [3, 5)"
fi
run 0 "$A" list
hasre out '^greedy_by_size +'
hasre out '^offline +'
has out "auto"
run 0 "$A" targets
hasre out '^cortex-m0plus +4 +270336 '
hasre out '^cortex-m55-ethos-u55 +16 +2097152 '
hasre out '^dsp64 +64 +1048576 '
hasre out '^imxrt1060 +32 +33554432 '
line out "                       regions, fastest first: dtcm:131072:16, ocram:786432:32, sdram:33554432:32"
line out "The RAM size is the capacity. The alignment is the default for CSV input (other runtimes): a .tflite"
line out "model keeps TFLM's 16-byte tensor alignment (MicroArenaBufferAlignment) on every target."

# --- JSON -------------------------------------------------------------------------------------------------------------------
run 0 "$A" plan -f json "$I12"
if [ -n "${PYTHON:-}" ]; then
    cp "$T/out" "$T/plan.json"
    run 0 "$PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["lower_bound"] == {"bytes": 12, "step": 0, "operator": None}, d["lower_bound"]
assert d["steps"] is None # a CSV has no operators
assert d["best"] == "greedy_by_size" and d["optimal"] is True and d["time_limit_seconds"] == 1
names = [s["name"] for s in d["strategies"]]
assert names == [n for n in sys.argv[2].split() if n != "offline"], names # every built-in but offline, in order
lin = d["strategies"][0]
assert lin["arena_bytes"] == 20 and lin["verified"] is True and lin["best"] is False and lin["status"] == "ok"
# What each plan proves: linear is above the bound, a plain plan; greedy_by_size reaches it, so it is optimal.
assert (lin["outcome"], lin["nodes"], lin["goal"]) == ("plan", 0, None), lin
gbs = d["strategies"][1]
assert (gbs["name"], gbs["outcome"], gbs["nodes"], gbs["goal"]) == ("greedy_by_size", "optimal", 0, None), gbs
assert d["covers"] == {"section": "input_buffers", "text": "the input\x27s 5 buffers, nothing else",
                       "not_included": None}, d["covers"]
assert d["fit"] is None and d["tflm"] is None
assert d["peak"] == {"step": 0, "live_bytes": 12, "live_buffers": 3, "largest": [0, 2, 4]}, d["peak"]
assert d["input"]["alignment_from"] == "default" and d["input"]["target_alignment"] is None
b = d["buffers"][2]
assert b == {"index": 2, "id": "b3", "line": 4, "size": 4, "planned_size": 4, "lower": 0, "upper": 9,
             "alignment": 1, "fixed_offset": None, "offset": 4, "name": "b3", "name_bytes": None, "long_name": None,
             "type": None, "shape": None}, b
assert d["strategies"][1]["offsets"] == [0, 0, 4, 0, 8]
assert d["input"]["kind"] == "csv" and d["input"]["capacity"] is None
' "$T/plan.json" "$BUILT"
fi

# An id that is not UTF-8 (the CSV reader takes any byte but controls, commas and quotes) keeps the JSON valid: the
# byte is the text \xHH, as in the picture.
printf 'id,lower,upper,size\nbad\377x,0,1,4\n' >"$T/latin.csv"
run 0 "$A" plan -f json "$T/latin.csv"
if [ -n "${PYTHON:-}" ]; then
    cp "$T/out" "$T/latin.json"
    run 0 "$PYTHON" -c '
import json, sys
b = json.load(open(sys.argv[1], encoding="utf-8"))["buffers"][0]
assert (b["id"], b["name"]) == ("bad\\xFFx", "bad\\xFFx"), b
' "$T/latin.json"
fi

# --- C header: compiles as C11 with warnings as errors and matches the plan -------------------------------------------
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
# header_of CSV WANT: the header of CSV's greedy_by_size plan with TFLM's settings compiles into a program that checks
# every offset's alignment and that the highest end is the arena, and prints WANT: arena, buffer count, highest end.
header_of() {
    run 0 "$A" plan -s greedy_by_size -a 16 --round-sizes -f c -o "$T/plan.h" "$1"
    run 0 "$CC" -std=c11 -Wall -Wextra -Werror -pedantic -I"$T" -o "$T/use" "$T/use.c"
    run 0 "$T/use"
    has out "$2"
}
header_of "$T/chain.csv" "1536 5 1536"
if have_shared models/lifetimes/person_detect.csv; then
    header_of "$S/models/lifetimes/person_detect.csv" "55296 32 55296"
fi
# Two models' headers in one program (--name), each with TFLM's BufferPlan: its layout (an int32 count, then one
# int32 per buffer) and its entries, which must be the plan's offsets in the model's buffer order.
cat >"$T/two.c" <<'EOF'
#include <stddef.h>
#include <stdio.h>
#include "m1.h"
#include "m2.h"
_Static_assert(offsetof(struct m1_buffer_plan_layout, buffer_plan_entries) == 4, "TFLM's BufferPlan layout");
_Static_assert(sizeof m1_buffer_plan.buffer_plan_entries[0] == 4, "a BufferDescriptor is one int32");
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
    SHOW(m1, M1);
    SHOW(m2, M2);
    printf("%lu %lu\n", (unsigned long)M1_ARENA_SIZE, (unsigned long)M2_ARENA_SIZE);
    return 0;
}
EOF
# two_headers MODEL1 MODEL2 LINE1 LINE2 ARENAS: MODEL1's greedy_by_size plan as m1 and MODEL2's greedy_by_size_tflm
# plan as m2 in one program, which prints LINE1 and LINE2 (name, count, the BufferPlan's entries) and ARENAS.
two_headers() {
    run 0 "$A" plan -s greedy_by_size -f c --name m1 -o "$T/m1.h" "$1"
    run 0 "$A" plan -s greedy_by_size_tflm -f c --name m2 -o "$T/m2.h" "$2"
    run 0 "$CC" -std=c11 -Wall -Wextra -Werror -pedantic -I"$T" -o "$T/two" "$T/two.c"
    run 0 "$T/two"
    has out "$3"
    has out "$4"
    has out "$5"
}
# The offsets make_models.c works out: greedy_by_size's on chain, TFLM's order's on ties.
two_headers "$CHAIN" "$TIES" "m1 5 512 0 512 1024 0 " "m2 5 80 0 0 48 80 " "1536 112"
if have_shared models/person_detect.tflite models/audio_preprocessor_int8.tflite; then
    PD=$S/models/person_detect.tflite
    AP=$S/models/audio_preprocessor_int8.tflite
    pd_offsets=$("$A" plan -s greedy_by_size -f csv "$PD" | tail -n +2 | cut -d, -f6 | tr '\n' ' ')
    audio_offsets=$("$A" plan -s greedy_by_size_tflm -f csv "$AP" | tail -n +2 | cut -d, -f6 | tr '\n' ' ')
    two_headers "$PD" "$AP" "m1 32 $pd_offsets" "m2 26 $audio_offsets" "55296 3040" # 25 tensors, 1 scratch buffer
fi
# A model's header holds every buffer TFLM adds for aplan_tflm::AplanCompiledPlanner (integrations/tflm): the
# planner's own test, compiled with the header (C++, TFLM's flags, against the test-only TFLM interface), feeds the
# header's buffers back and gets its offsets and arena; the plan passes the planner's check on the device.
run 0 "$A" plan -s greedy_by_size -f c -o "$T/plan.h" "$CHAIN"
cp "$T/plan.h" "$T/out"
has out "#define APLAN_TFLM_PLAN_BUFFERS 5u"
has out "static const int32_t aplan_tflm_plan[5][5] = {"
has out "    {256, 0, 1, 512, 0}," # s0t0, the input: TFLM steps 0..1 (aplan [1, 3))
compiled_plan() {
    [ -n "${CXX:-}" ] || { echo "compiled_plan: no C++ compiler, skipped"; return 0; }
    run 0 "$CXX" -std=c++17 -Wall -Wextra -Werror -fno-exceptions -fno-rtti -DTF_LITE_STATIC_MEMORY \
        "-DAPLAN_TEST_PLAN_HEADER=\"$1\"" -I"$REPO/integrations/tflm" -I"$REPO/integrations/tflm/test/tflm_stub" \
        -o "$T/compiled" "$REPO/integrations/tflm/aplan_compiled_planner.cc" \
        "$REPO/integrations/tflm/test/test_compiled_planner.cc" "$REPO/integrations/tflm/test/tflm_stub/micro_log_stub.cc"
    run 0 "$T/compiled"
    line out "0 checks failed"
}
compiled_plan "$T/plan.h"
if have_shared models/audio_preprocessor_int8.tflite; then
    run 0 "$A" plan -s auto -f c -o "$T/ap_plan.h" "$S/models/audio_preprocessor_int8.tflite"
    compiled_plan "$T/ap_plan.h" # with its kernel's scratch buffer, the last of 26
fi

# A model's header gives TFLM's whole arena beside the planned section, for the setup the report recommends, and says
# what each covers; the program compiled from it prints the planned section, the smallest arena and arena_used_bytes().
cat >"$T/tflm.c" <<'EOF'
#include <stdio.h>
#include "k.h"
int main(void) {
    printf("%lu %lu %lu\n", (unsigned long)K_ARENA_SIZE, (unsigned long)K_TFLM_ARENA_SIZE,
           (unsigned long)K_TFLM_ARENA_USED_BYTES);
    return K_TFLM_ARENA_SIZE > K_ARENA_SIZE ? 0 : 1;
}
EOF
# tflm_header MODEL WANT [OPTIONS...]: MODEL's header (--name k) compiles with -Werror into a program that prints WANT;
# the header is then in $T/out for the caller's checks.
tflm_header() {
    model=$1 expect=$2
    shift 2
    run 0 "$A" plan -s greedy_by_size -f c --name k -o "$T/k.h" "$@" "$model"
    run 0 "$CC" -std=c11 -Wall -Wextra -Werror -pedantic -I"$T" -o "$T/tflm" "$T/tflm.c"
    run 0 "$T/tflm"
    line out "$expect"
    cp "$T/k.h" "$T/out"
}
# The adapter's smallest arena: its records and the least scratch a candidate plans in (the low-memory form, the same
# in every build of aplan): scratch.tflite's and keyword_scrambled's (32-bit; 15304 measured in real TFLM).
scratch_adapter=796 kws_adapter=15304
# scratch.tflite (make_models.c): 80 bytes of section, 64 of tensors and 16 of the two ADD_N's scratch.
tflm_header "$SCRATCH" "80 904 536"
lines_of out "/*
 * K_ARENA_SIZE covers TFLM's planned (non-persistent) section: the model's 5 planned tensors and 2
 * kernel scratch buffers (32-bit ABI), not TFLM's persistent data: it is not the arena to give
 * TFLM.
 * TFLM's whole arena (tflite-micro 90b983c2, reference kernels, 32-bit ABI) with TFLM's own planner
 * (GreedyMemoryPlanner, TFLM as it comes), the setup the report recommends: K_TFLM_ARENA_SIZE is
 * the smallest arena AllocateTensors() accepts, the size to give MicroInterpreter (or
 * MicroAllocator::Create); K_TFLM_ARENA_USED_BYTES is what arena_used_bytes() then reports: planned
 * tensors 64 + kernels' scratch 16 + persistent 456.
 * Every setup:
 *   TFLM's own planner:   smallest arena 904; arena_used_bytes() 536 (the macros)
 *   this plan, embedded:  smallest arena 904; arena_used_bytes() 536
 *   this plan, adapter:   smallest arena $scratch_adapter; arena_used_bytes() 488
 */
#define K_TFLM_ARENA_SIZE 904u
#define K_TFLM_ARENA_USED_BYTES 536u"
tflm_header "$SCRATCH" "96 1264 912" --abi 64 # 24-byte requests (32 planned), 64-bit structs
line out " *   TFLM's own planner:   smallest arena 1264; arena_used_bytes() 912 (the macros)"
# An operator the model does not know: the figures are lower bounds, and the comment says so.
tflm_header "$NAMES" "64 1292 792"
lines_of out " * Lower bounds: 1 operator the model does not know, whose kernels' scratch and persistent data are
 * not counted: TFLM may need more."
# No TFLM figure (a model TFLM refuses, one whose arena passes 2^64 - 1, a CSV, the example): no TFLM macro, the
# comment says why, and the header still compiles.
cat >"$T/plain.c" <<'EOF'
#include "k.h"
#ifdef K_TFLM_ARENA_SIZE
#error "no TFLM figure is known"
#endif
int main(void) { return K_ARENA_SIZE > 0 ? 0 : 1; }
EOF
plain_header() {
    run 0 "$@" -f c --name k -o "$T/k.h"
    run 0 "$CC" -std=c11 -Wall -Wextra -Werror -pedantic -I"$T" -o "$T/plain" "$T/plain.c"
    run 0 "$T/plain"
    cp "$T/k.h" "$T/out"
    lacks out "_TFLM_ARENA"
}
plain_header "$A" plan "$IN/refuse.tflite"
lines_of out " * No TFLM arena macro: TFLM refuses this model: DEQUANTIZE (op 0 of subgraph 0) rejects tensor type
 * FLOAT16 (a type its kernel does not support) in its Prepare, so AllocateTensors() fails whatever
 * the arena; 1 more operator refused."
plain_header "$A" plan "$HUGE"
lines_of out " * No TFLM arena macro: TFLM's arena cannot be computed: TFLM's arena for this model and plan passes
 * 2^64 - 1 bytes."
plain_header "$A" plan "$T/chain.csv"
line out " * K_ARENA_SIZE covers the input's 5 buffers, nothing else: no runtime's own data is known for a CSV"
plain_header "$A" example
lines_of out " * K_ARENA_SIZE covers the planned (non-persistent) section of the example's 13 tensors, by TFLM's
 * rules. TFLM's arena also holds the kernels' scratch buffers and TFLM's persistent data, which the
 * example does not give: no TFLM arena macro."
if have_shared models/keyword_scrambled.tflite; then
    tflm_header "$S/models/keyword_scrambled.tflite" "672 15588 13260"
    line out " * tensors 288 + kernels' scratch 384 + persistent 12588."
    line out " *   this plan, adapter:   smallest arena $kws_adapter; arena_used_bytes() 13212"
fi

# --- SVG: one rectangle per buffer that occupies memory ---------------------------------------------------------------
run 0 "$A" plan -f svg "$I12"
checks=$((checks + 1))
[ "$(grep -o 'class="buf"' "$T/out" | wc -l)" = 5 ] || fail "SVG should hold 5 buffer rectangles"
has out "<title>b3: 4 bytes at offset 4, steps [0, 9)</title>" # half-open, as everywhere
has out "lower bound 12 bytes at step 0"

# --- .tflite models ------------------------------------------------------------------------------------------------------
# Each case runs on the models make_models.c writes (its comment works their figures out), then on the real models
# they stand for when the shared folder has them: chain and person_detect (the fast strategies reach the bound, and
# TFLM's planner too), ties and audio_preprocessor_int8 (TFLM's planner needs more), offline and person_detect_vela
# (an offline plan that aliases on purpose).

# report MODEL BUFFERS BOUND AT LINEAR OWN USED ADAPTER: the table of a model whose best plan, greedy_by_size's, is at
# the bound, as TFLM's planner's is; AT is the bound's step and operator. Then what the figure covers (the lines on
# stdin, as wrapped) and how to use the plan in TFLM: the arena to set with TFLM's own planner (its smallest, OWN, and
# arena_used_bytes() then, USED), then the plan compiled in and the adapter, last, since both need less (ADAPTER:
# their planner lives outside the arena; compiled in it needs no scratch either, and here no less than the adapter);
# no embed command, since embedded the plan needs what TFLM's own does.
report() {
    covers=$(cat)
    run 0 "$A" plan "$1"
    line out "$1: $2 buffers, alignment 16, sizes rounded up"
    line out "lower bound: $3 bytes, reached at step $4"
    hasre out "^  linear +$5 +$3 "
    hasre out "^\\* greedy_by_size +$3 +$3 +\\+0\\.0% "
    hasre out "^  greedy_by_size_tflm +$3 "
    lacks out "  offline " # no offline plan in the model: offline does not run
    line out "best: greedy_by_size, $3 bytes: proven optimal (equals the lower bound)"
    lines_of out "$covers"
    line out "in TFLM: with its own planner (GreedyMemoryPlanner) set the arena to $6 bytes (arena_used_bytes() then reports $7). This plan needs less:"
    line out "  compiled in, $8 bytes ($(($6 - $8)) less; arena_used_bytes() $9)"
    line out "  or with the adapter, $8 bytes ($(($6 - $8)) less; arena_used_bytes() $9)"
    checks=$((checks + 1))
    [ "$(tail -n 1 "$T/out")" = "    aplan_tflm::AplanMemoryPlanner planner(aplan_strategy_greedy_by_size());" ] ||
        fail "the report does not end with how to use the plan in TFLM"
    lacks out "aplan embed"
    empty err
}
report "$CHAIN" 5 1536 "4: ADD (op 2 of subgraph 0)" 1824 2444 2440 2400 2392 <<EOF
covers: TFLM's planned (non-persistent) section: the model's 5 planned tensors and 0 kernel scratch buffers (32-bit
  ABI). TFLM's arena also holds TFLM's persistent data (tensor, node and quantization structs, kernels' op data),
  counted in the "TFLM arena" lines: see docs/tflm.md
EOF
# ties: TFLM's planner plans a section of 112 bytes where greedy_by_size's plan needs 96, but the smallest arena is
# set by planning's working space, not by the section: embedded, the plan lowers arena_used_bytes() (600 -> 584) and
# not the arena to set (no embed command); compiled in, with no planning scratch, it needs 612 instead of 864. The
# plan still embeds, and the model then carries it; with -s naming TFLM's own planner, its plan compiled in needs
# less too.
run 0 "$A" plan "$TIES"
hasre out "^  greedy_by_size_tflm +112 +96 +\\+16\\.7% "
hasre out "^\\* greedy_by_size +96 +96 "
line out "  TFLM's own planner:   smallest arena 864 (at least); arena_used_bytes() 600 = planned tensors 112 + kernels' scratch 0 + persistent 488"
line out "  this plan, embedded:  smallest arena 864 (at least); arena_used_bytes() 584 = planned tensors 96 + kernels' scratch 0 + persistent 488"
line out "  this plan, compiled:  smallest arena 612 (at least); arena_used_bytes() 552 = planned tensors 96 + kernels' scratch 0 + persistent 456"
line out "in TFLM: with its own planner (GreedyMemoryPlanner) set the arena to at least 864 bytes (arena_used_bytes() then reports 600). This plan needs less:"
line out "  compiled in, 612 bytes (252 less; arena_used_bytes() 552)"
line out "    aplan plan -s greedy_by_size $TIES -f c -o ties_plan.h"
line out "    static aplan_tflm::AplanCompiledPlanner planner(aplan_tflm_plan, APLAN_TFLM_PLAN_BUFFERS);"
lacks out "aplan embed -s"
(cd "$T" && "$A" embed -s greedy_by_size "$TIES" -o ties_planned.tflite >/dev/null 2>&1)
run 0 "$A" plan "$T/ties_planned.tflite"
hasre out "^\\* offline +96 +96 "
line out "in TFLM: this is the model's own offline plan (OfflineMemoryAllocation), which TFLM follows as it loads the model"
run 0 "$A" plan -s greedy_by_size_tflm "$TIES"
line out "in TFLM: with its own planner (GreedyMemoryPlanner) set the arena to at least 864 bytes (arena_used_bytes() then reports 600). Its plan needs less:"
line out "  compiled in, 612 bytes (252 less; arena_used_bytes() 568)"
# The verdict: fits, with the bytes left and the share of RAM; or does not, by how much, and what dominates the peak.
# For a model the capacity is TFLM's whole arena's: the planned section gets what TFLM's persistent data leaves it
# (904 bytes on chain, 32-bit), and the verdict judges the smallest arena TFLM accepts for one setup, the one the advice
# names: TFLM's own planner (2444) where it fits; where only the adapter (2400: its planner's scratch is outside the
# persistent tail) or the plan compiled in (2400: no planning scratch either; named first on a tie) fits, that setup,
# said so, with the advice to use it.
run 0 "$A" plan --target cortex-m4 "$CHAIN"
line out "fits: TFLM's arena needs 2444 of 262144 bytes (0.9% of cortex-m4's RAM) with TFLM's own planner; 259700 bytes free"
run 0 "$A" plan --capacity 4K "$CHAIN"
line out "$CHAIN: 5 buffers, alignment 16, sizes rounded up, capacity 4096 (3192 for the planned section, after TFLM's persistent data)"
line out "fits: TFLM's arena needs 2444 of 4096 bytes (59.7% of the capacity) with TFLM's own planner; 1652 bytes free"
line out "  TFLM's own planner:   smallest arena 2444; arena_used_bytes() 2440 = planned tensors 1536 + kernels' scratch 0 + persistent 904"
line out "  this plan, adapter:   smallest arena 2400; arena_used_bytes() 2392 = planned tensors 1536 + kernels' scratch 0 + persistent 856"
# 2400 leaves the section 1496 bytes, less than the bound: exit 4; 2440 leaves it 1536, and the compiled plan's
# smallest arena, 2400, fits where TFLM's own planner's, 2444, does not: exit 0, the verdict, the figure and the
# advice all that setup's.
run 4 "$A" plan --capacity 2400 "$CHAIN"
has err "no plan can fit: the lower bound is 1536 bytes, 40 more than the 1496 bytes that a capacity of 2400 bytes leaves the planned section after TFLM's persistent data"
run 0 "$A" plan --capacity 2440 "$CHAIN"
line out "fits only with this plan compiled in: TFLM's arena needs 2400 of 2440 bytes (98.4% of the capacity); 40 bytes free; with its own planner it needs 2444, 4 more"
line out "in TFLM: its own planner needs 2444 bytes, more than the capacity; with this plan compiled in set the arena to 2400 bytes (arena_used_bytes() then reports 2392):"
line out "    aplan plan -s greedy_by_size $CHAIN -f c -o chain_plan.h"
# With TFLM's own planner's 2444 no other setup is named in the verdict.
run 0 "$A" plan --capacity 2444 "$CHAIN"
line out "fits: TFLM's arena needs 2444 of 2444 bytes (100.0% of the capacity) with TFLM's own planner; 0 bytes free"
# ties at 600 bytes: the section fits what TFLM's persistent data leaves it, no setup's whole arena fits: exit 4 with
# TFLM's own planner's figure and the smallest of any setup's (compiled in, 612).
run 4 "$A" plan --capacity 600 "$TIES"
line out "does not fit: TFLM's smallest arena is 864 bytes with TFLM's own planner, 264 more than the capacity (600 bytes); 612 with this plan compiled in, still 12 more"
line out "in TFLM: with its own planner (GreedyMemoryPlanner) the arena must be at least 864 bytes (arena_used_bytes() then reports 600), more than the capacity. This plan needs less:"
line err "aplan: $TIES: TFLM's smallest arena (TFLM's own planner) is 864 bytes, 264 more than the capacity of 600 bytes"
run 0 "$A" plan --capacity 700 "$TIES"
line out "fits only with this plan compiled in: TFLM's arena needs 612 of 700 bytes (87.4% of the capacity) (at least: see \"not modelled\"); 88 bytes free; with its own planner it needs 864, 164 more"
# no_fit MODEL CAPACITY BOUND STEP OPERATOR BUFFERS: no plan fits CAPACITY; the peak, at STEP, holds BUFFERS buffers,
# the largest of which are the lines on stdin.
# CAPACITY is what the planned section gets: the capacity given is it plus PERSISTENT, TFLM's persistent data ($7).
no_fit() {
    largest=$(cat)
    whole=$(($2 + $7))
    run 4 "$A" plan "$1" --capacity "$whole"
    line err "aplan: $1: no plan can fit: the lower bound is $3 bytes, $(($3 - $2)) more than the $2 bytes that a capacity of $whole bytes leaves the planned section after TFLM's persistent data"
    hasre out "^  greedy_by_size +$3 +$3 .*\\(needs $3 bytes, $(($3 - $2)) more than the capacity of $2 bytes\\)\$"
    line out "does not fit: the lower bound, $3 bytes, is $(($3 - $2)) more than the $2 bytes that the capacity ($whole bytes) leaves after TFLM's persistent data ($7 bytes): no plan can fit"
    line out "lower bound: $3 bytes, reached at step $4: $5"
    line out "peak: step $4 holds $3 bytes in $6 buffers; the largest:"
    lines_of out "$largest"
    lacks out "in TFLM:" # no plan to use
}
no_fit "$TIES" 64 96 5 "FULLY_CONNECTED (op 3 of subgraph 0)" 3 488 <<EOF
  energy (s0t2)                      48 bytes  steps [4, 6)  INT32 [12]
  spectrum (s0t3)                    32 bytes  steps [3, 6)  INT16 [16]
  features (s0t4)                    16 bytes  steps [5, 6)  INT64 []
EOF
# first_fit, step by step, also needs 112 (frame at 0, window at 32; spectrum at 32 once window is gone; energy at 64,
# the 32 bytes below spectrum too few; features at 0): the first of the smallest is named.
run 4 "$A" plan "$TIES" --capacity 588 -s greedy_by_size_tflm,first_fit
line out "does not fit: the smallest plan (greedy_by_size_tflm) needs 112 bytes, 12 more than the 100 bytes that the capacity (588 bytes) leaves after TFLM's persistent data (488 bytes); the lower bound, 96, would fit"
# model_json MODEL TENSORS ARENA PERCENT FREE STEP LIVE LARGEST TFLM SECTION SMALLEST SCRATCH: the JSON for cortex-m4
# says what the figure covers (TENSORS planned tensors, SCRATCH kernel scratch buffers), the verdict (the best plan,
# ARENA bytes, is at the bound: the peak's live bytes; SECTION what the RAM leaves it), the peak (at STEP, LIVE
# buffers, LARGEST a JSON list), TFLM's own planner's section (TFLM) and smallest whole arena (SMALLEST), and that
# the whole-arena verdict takes the smallest of the three ways.
model_json() {
    run 0 "$A" plan -f json --target cortex-m4 "$1"
    cp "$T/out" "$T/model.json"
    [ -n "${PYTHON:-}" ] || return 0
    run 0 "$PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
tensors, arena, percent, free, step, live, largest, tflm, section, smallest, scratch = sys.argv[2:]
c = d["covers"]
assert c["section"] == "tflm_planned", c
assert c["text"] == "TFLM\x27s planned (non-persistent) section: the model\x27s %s planned tensors and %s kernel scratch buffer%s (32-bit ABI)" % (tensors, scratch, "" if scratch == "1" else "s"), c
assert c["not_included"].startswith("TFLM\x27s persistent data"), c
assert d["fit"] == {"fits": True, "capacity": int(section), "capacity_from_target": True, "arena_bytes": int(arena),
                    "percent_of_capacity": float(percent), "free_bytes": int(free), "over_bytes": None,
                    "bound_fits": True, "proven_no_fit": False, "whole_capacity": 262144,
                    "tflm_arena_bytes": d["fit"]["tflm_arena_bytes"], "tflm_arena_fits": True,
                    "tflm_setup": "own_planner"}, d["fit"]
assert d["peak"] == {"step": int(step), "live_bytes": int(arena), "live_buffers": int(live), "largest": json.loads(largest)}, d["peak"]
t = d["tflm"]
assert t["greedy_planner_bytes"] == int(tflm) and t["best_is_offline_plan"] is False, t
assert t["version"] == "90b983c2" and t["kernels"] == "reference" and t["abi"] == 32, t
assert t["tensors"] == int(tensors) and t["scratch_buffers"] == int(scratch) and t["whole_capacity"] == 262144, t
o = t["own_planner"]
assert o["planned"] == int(tflm) and o["used"] == o["planned"] + o["persistent"], o
assert o["persistent"] == sum(o["parts"].values()), o
assert o["smallest"] == int(smallest), o
# TFLM\x27s own planner fits: the figure judged is its smallest arena, whatever the other setups need.
assert t["setup"] == "own_planner" and d["fit"]["tflm_arena_bytes"] == o["smallest"], t
i = d["input"]
assert i["alignment"] == 16 and i["alignment_from"] == "tflm" and i["target_alignment"] == 4, i
' "$T/model.json" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9" "${10}" "${11}" "${12}"
}
model_json "$TIES" 5 96 0.037 261560 5 3 "[2, 3, 4]" 112 261656 864 0
# rows MODEL ROWS ARENA: the CSV plan of a model names tensors s<subgraph>t<tensor>, rows as in ROWS (TFLM's lifetimes
# file); the plan verifies.
rows() {
    run 0 "$A" plan -f csv "$1"
    cut -d, -f1-4 "$T/out" >"$T/model_rows.csv"
    checks=$((checks + 1))
    cmp -s "$T/model_rows.csv" "$2" || fail "tflite CSV rows differ from lifetimes"
    has out "id,lower,upper,size,alignment,offset"
    cp "$T/out" "$T/model_plan.csv"
    run 0 "$A" verify "$1" "$T/model_plan.csv"
    has out "arena $3 bytes, lower bound $3 bytes (+0.0%), optimal"
}
rows "$CHAIN" "$T/chain.csv" 1536
# verify judges a model's --capacity as plan does: TFLM's whole arena with this section (its own planner in the
# arena), exit 4 when it does not fit, whether the section passes what the capacity leaves it or the whole arena
# passes the capacity.
run 0 "$A" verify --capacity 2444 "$CHAIN" "$T/model_plan.csv"
line out "TFLM arena (tflite-micro 90b983c2, reference kernels, 32-bit ABI, TFLM's own planner in the arena, this section): smallest arena 2444; arena_used_bytes() 2440 = planned section 1536 (tensors and kernels' scratch) + persistent 904"
line out "fits: TFLM's arena needs 2444 of 2444 bytes (100.0%); 0 bytes free"
run 4 "$A" verify --capacity 2443 "$CHAIN" "$T/model_plan.csv"
line out "does not fit: TFLM's smallest arena with this plan is 2444 bytes, 1 more than the capacity (2443 bytes)"
run 4 "$A" verify --capacity 2000 "$CHAIN" "$T/model_plan.csv"
line out "does not fit: the plan's arena, 1536 bytes, is 440 more than what the capacity leaves after TFLM's persistent data (1096)"
empty err
# whole_offline MODEL ARENA PAIRS: offline plans alias on purpose: allowed, shown (the first pairs are the lines on
# stdin); the model's own plan verifies. Every buffer is fixed: offline is the answer, alone, unless named.
whole_offline() {
    pairs=$(cat)
    run 0 "$A" plan "$1"
    hasre out "^\\* offline +$2 +$2 +\\+0\\.0% .* yes\$"
    checks=$((checks + 1))
    [ "$(grep -cE '^[ *] [a-z_]+ +[0-9-]+ ' "$T/out")" = 1 ] || fail "only offline runs on a whole offline plan"
    line out "every buffer has a fixed offset (an offline plan): only offline runs, since any strategy must keep them"
    line out "best: offline, $2 bytes: proven optimal (equals the lower bound)"
    has out "aliased fixed pairs (allowed: the offline plan shares them on purpose): $3"
    lines_of out "$pairs"
    run 0 "$A" plan -s linear,offline "$1" # named: run as asked, first on ties
    hasre out "^\\* linear +$2 "
    hasre out "^  offline +$2 "
    lacks out "only offline runs"
    run 0 "$A" verify "$1" "$1"
    has out "aliased fixed pairs (allowed): $3"
}
whole_offline "$OFFLINE" 1536 1 <<EOF
  s0t0 & s0t2 share bytes [0, 256)
EOF
# unplaced MODEL: a model without an offline plan as PLAN: said plainly, bad input (exit 3), nothing verified.
unplaced() {
    run 3 "$A" verify "$1" "$1"
    line err "aplan: $1: no offline plan in the model (no OfflineMemoryAllocation metadata): nothing to verify; aplan embed writes one"
    empty out
}
unplaced "$CHAIN"
# A strategy that cannot plan the input shows its error in its row; alone, the run fails as bad input, with no
# plan to write: each strategy's error on stderr, nothing on stdout.
run 3 "$A" plan -s offline "$CHAIN"
empty out
has err "no strategy could plan the input"
line err "  offline: the input has no fixed offsets (no offline plan)"
# each_preset MODEL BUFFERS TFLM BEST OVERHEAD: every preset keeps TFLM's 16-byte alignment for a model, so the TFLM
# row stays TFLM's figure; the preset's own alignment is for CSV input and says so (MODEL's BUFFERS at cortex-m0plus).
# The presets with a memory map plan regions (below, with --region).
presets=$("$A" targets | grep -E '^[a-z]' | grep -v -e '^target ' -e '^model ' | cut -d' ' -f1 |
    grep -v -x -e esp32-s3-psram -e stm32h743 -e imxrt1060)
checks=$((checks + 1))
[ "$(echo "$presets" | wc -l)" = 6 ] || fail "expected 6 presets of one RAM, got: $presets"
each_preset() {
    for t in $presets; do
        run 0 "$A" plan --target "$t" "$1"
        hasre out "^$1: $2 buffers, alignment 16, sizes rounded up, capacity [0-9]+ \\([0-9]+ for the planned section, after TFLM's persistent data\\) \\(target $t\\)\$"
        hasre out "^  greedy_by_size_tflm +$3 +$4 +\\+$5% "
        hasre out "^\\* greedy_by_size +$4 +$4 "
    done
}
each_preset "$TIES" 5 112 96 '16\.7'
# m0plus MODEL BUFFERS: the preset's alignment, 4, explained where it differs from TFLM's; bound takes the target too.
m0plus() {
    run 0 "$A" plan --target cortex-m0plus "$1"
    line out "$1: $2 buffers, alignment 16, sizes rounded up, capacity 270336 ($3 for the planned section, after TFLM's persistent data) (target cortex-m0plus)"
    line out "alignment 16 is TFLM's (MicroArenaBufferAlignment) on every target; cortex-m0plus's 4 is for CSV input (other runtimes)"
    run 0 "$A" bound --target cortex-m4 "$1"
    line out "$1: $2 buffers, alignment 16, sizes rounded up, capacity 262144 (target cortex-m4)"
}
m0plus "$CHAIN" 5 269432
run 0 "$A" plan --target esp32-s3 "$CHAIN" # the preset's alignment is TFLM's: nothing to explain
lacks out "is TFLM's (MicroArenaBufferAlignment)"
run 0 "$A" plan -s greedy_by_size -f c --target cortex-m4 "$CHAIN"
line out "#define APLAN_ARENA_ALIGNMENT 16u"
run 0 "$A" plan -a 4 --target cortex-m4 "$CHAIN" # -a still wins
has out "alignment 4, sizes rounded up"
if have_shared models/person_detect.tflite models/audio_preprocessor_int8.tflite models/person_detect_vela.tflite \
    models/lifetimes/person_detect.csv; then
    PD=$S/models/person_detect.tflite
    AP=$S/models/audio_preprocessor_int8.tflite
    report "$PD" 32 55296 "4: CONV_2D (op 2 of subgraph 0)" 241072 82296 82300 82252 82252 <<EOF
covers: TFLM's planned (non-persistent) section: the model's 32 planned tensors and 0 kernel scratch buffers (32-bit
  ABI). TFLM's arena also holds TFLM's persistent data (tensor, node and quantization structs, kernels' op data),
  counted in the "TFLM arena" lines: see docs/tflm.md
EOF
    # audio_preprocessor_int8's SignalRfft asks for a 1024-byte scratch buffer: with it TFLM's planner reaches the
    # bound (3040), which the tensors alone (2096) hid.
    run 0 "$A" plan --target cortex-m4 "$PD"
    line out "fits: TFLM's arena needs 82296 of 262144 bytes (31.4% of cortex-m4's RAM) with TFLM's own planner; 179848 bytes free"
    run 0 "$A" plan --capacity 96KB "$PD"
    line out "fits: TFLM's arena needs 82296 of 98304 bytes (83.7% of the capacity) with TFLM's own planner; 16008 bytes free"
    run 4 "$A" plan --capacity 64KB "$PD" # the section would fit 64 KB; the whole arena does not
    no_fit "$AP" 2048 3040 5 "SignalRfft (op 3 of subgraph 0)" 4 5448 <<EOF
  signal_rfft (s0t23)                   1040 bytes  steps [5, 7)  INT16 [514]
  s0o3r0                                1024 bytes  steps [5, 6)
  signal_fft_auto_scale (s0t21)          960 bytes  steps [4, 6)  INT16 [480]
EOF
    run 4 "$A" plan "$AP" --capacity 9348 -s first_fit
    line out "does not fit: the smallest plan (first_fit) needs 4000 bytes, 100 more than the 3900 bytes that the capacity (9348 bytes) leaves after TFLM's persistent data (5448 bytes); the lower bound, 3040, would fit"
    model_json "$AP" 25 3040 1.184 253656 5 4 "[5, 25, 3]" 3040 256696 8492 1
    rows "$PD" "$S/models/lifetimes/person_detect.csv" 55296
    whole_offline "$S/models/person_detect_vela.tflite" 74464 6 <<EOF
  s0t3 & s0t4 share bytes [0, 74464)
  s0t0 & s0t3 share bytes [0, 16)
EOF
    unplaced "$PD"
    each_preset "$AP" 26 3040 3040 '0\.0'
    m0plus "$PD" 32 243332
fi
# Fixed buffers that clash are bad input without --allow-alias: the pair met first in step order is named. With
# it, every pair is counted and the first 20 met in step order listed, in that order (at one step: by the later
# buffer's index, then by the other's offset and index).
printf 'id,lower,upper,size,offset\nq,5,9,8,0\nr,0,2,8,4\ns,1,3,4,8\nt,6,7,4,4\n' >"$T/clash.csv"
run 3 "$A" plan "$T/clash.csv"
line err "aplan: $T/clash.csv: fixed buffers 'r' (line 3) and 's' (line 4) share bytes while both are live (use --allow-alias if the offline plan shares them on purpose)"
empty out
run 0 "$A" plan --allow-alias "$T/clash.csv"
has out "aliased fixed pairs (allowed: the offline plan shares them on purpose): 2"
line out "  q & t share bytes [4, 8)"
line out "  r & s share bytes [8, 12)"
awk 'BEGIN { print "id,lower,upper,size,offset"; for (i = 0; i < 30; i++) printf "f%d,0,%d,16,0\n", i, 1 + i % 3 }' \
    >"$T/alias30.csv"
run 0 "$A" plan --allow-alias "$T/alias30.csv"
has out "aliased fixed pairs (allowed: the offline plan shares them on purpose): 435"
listed=$(grep -A21 '^aliased fixed pairs' "$T/out" | tail -n +2 | sed 's/ share bytes \[0, 16)$//' | tr -d ' ' | tr '\n' ' ')
checks=$((checks + 1))
[ "$listed" = "f0&f1 f0&f2 f1&f2 f0&f3 f1&f3 f2&f3 f0&f4 f1&f4 f2&f4 f3&f4 f0&f5 f1&f5 f2&f5 f3&f5 f4&f5 f0&f6 f1&f6 \
f2&f6 f3&f6 f4&f6 ...and415more " ] || fail "alias30's listing, in order: $listed"
lacks out "f5 & f6 "
# Some buffers fixed: the strategies place the rest around them; offline, which needs them all, does not run.
printf 'id,lower,upper,size,offset\na,0,2,16,0\nb,1,3,16,\nc,2,4,16,\n' >"$T/partial.csv"
run 0 "$A" plan "$T/partial.csv"
line out "1 of 3 buffers has a fixed offset (an offline plan): the strategies place the others around it; offline, which needs all, does not run"
lacks out "  offline "
run 0 "$A" plan --target cortex-m7 "$I12" # CSV: the preset's alignment
has out "alignment 32, sizes as given, capacity 327680 (target cortex-m7)"
# Truncated model: bad input that says so first, then the byte and what lies past the end.
head -c 200 "$CHAIN" >"$T/cut.tflite"
run 3 "$A" plan "$T/cut.tflite"
line err "aplan: $T/cut.tflite: truncated: the file has 200 bytes and the model points past them (byte 40: Model.subgraphs: offset points past the end)"
head -c $(($(wc -c <"$CHAIN") - 1)) "$CHAIN" >"$T/cut1.tflite" # one byte short: the last bytes are read (tflite_writer.h)
run 3 "$A" plan "$T/cut1.tflite"
has err "aplan: $T/cut1.tflite: truncated: the file has $(($(wc -c <"$CHAIN") - 1)) bytes and the model points past them (byte "

# --- names, types, shapes and operators -------------------------------------------------------------------------------
# A model's buffers keep their ids (s<subgraph>t<tensor>: the CSV key, what verify matches) and gain the tensors'
# names, types and shapes; each step is tied to the operator that runs at it.
run 0 "$A" bound "$CHAIN"
line out "lower bound: 1536 bytes, reached at step 4: ADD (op 2 of subgraph 0)"
line out "at step 4: 3 buffers live, 1536 bytes, largest first"
line out "  block/conv (s0t2)                 512 bytes  steps [2, 5)  INT8 [1x8x8x8]"
line out "  block/conv_dw (s0t4)              512 bytes  steps [3, 5)  INT8 [1x8x8x8]"
line out "  block/add (s0t5)                  512 bytes  steps [4, 6)  INT8 [1x8x8x8]"
run 0 "$A" bound "$TIES"
line out "  features (s0t4)                    16 bytes  steps [5, 6)  INT64 []" # a scalar
# graph: one line per step, each operator with its tensors (name, id, bytes); constants counted.
run 0 "$A" graph "$CHAIN"
line out "$CHAIN: 4 operators in 1 subgraph, 6 steps (the steps of the lifetimes)"
line out "step  what runs: inputs -> outputs, each tensor as name (id when planned) and bytes; constants counted"
line out "   0  start, before any operator"
line out "   1  the inputs of subgraph 0 -> input (s0t0) 256 B"
line out "   2  CONV_2D (op 0 of subgraph 0): input (s0t0) 256 B + 1 constant -> block/conv (s0t2) 512 B"
line out "   4  ADD (op 2 of subgraph 0): block/conv (s0t2) 512 B, block/conv_dw (s0t4) 512 B -> block/add (s0t5) 512 B"
line out "   5  FULLY_CONNECTED (op 3 of subgraph 0): block/add (s0t5) 512 B + 1 constant -> output (s0t7) 32 B"
lines out 8
empty err
run 0 "$A" graph "$TIES"
line out "   2  Window (op 0 of subgraph 0): frame (s0t0) 32 B -> window (s0t1) 32 B" # a custom operator
if have_shared models/person_detect.tflite models/audio_preprocessor_int8.tflite \
    models/mp_face_landmark_with_attention.tflite; then
    PD=$S/models/person_detect.tflite
    AP=$S/models/audio_preprocessor_int8.tflite
    MP=$S/models/mp_face_landmark_with_attention.tflite
    run 0 "$A" bound "$PD"
    line out "lower bound: 55296 bytes, reached at step 4: CONV_2D (op 2 of subgraph 0)"
    line out "at step 4: 2 buffers live, 55296 bytes, largest first"
    line out "  MobilenetV1/MobilenetV1/Conv2d_1_pointwise/Relu6 (s0t54)        36864 bytes  steps [4, 6)  INT8 [1x48x48x16]"
    line out "  MobilenetV1/MobilenetV1/Conv2d_1_depthwise/Relu6 (s0t51)        18432 bytes  steps [3, 5)  INT8 [1x48x48x8]"
    run 0 "$A" bound "$AP"
    line out "  signal_fft_auto_scale1 (s0t22)           16 bytes  steps [4, 13)  INT32 []" # a scalar
    run 0 "$A" graph "$PD"
    line out "$PD: 31 operators in 1 subgraph, 33 steps (the steps of the lifetimes)"
    line out "step  what runs: inputs -> outputs, each tensor as name (id when planned) and bytes; constants counted"
    line out "   0  start, before any operator"
    line out "   1  the inputs of subgraph 0 -> input (s0t88) 9216 B"
    line out "   4  CONV_2D (op 2 of subgraph 0): MobilenetV1/MobilenetV1/Conv2d_1_depthwise/Relu6 (s0t51) 18432 B + 2 constants -> MobilenetV1/MobilenetV1/Conv2d_1_pointwise/Relu6 (s0t54) 36864 B"
    line out "  20  CONV_2D (op 18 of subgraph 0): MobilenetV1/MobilenetV1/Conv2d_9_depthwise/Relu6 (s0t83) 4608 B + 2 constants -> MobilenetV1/MobilenetV1/Conv2d_9_pointwise/Relu6 (s0t86) 4608 B"
    lines out 35
    empty err
    run 0 "$A" graph "$MP"
    line out "$MP: 712 operators in 1 subgraph, 714 steps (the steps of the lifetimes)"
    line out "   2  DEQUANTIZE (op 0 of subgraph 0): 1 constant -> conv2d/Bias_dequantize (s0t750) 64 B"
    line out " 184  CONV_2D (op 182 of subgraph 0): p_re_lu_19 (s0t183) 1152 B, output_mesh/Kernel_dequantize (s0t1008) 1617408 B, output_mesh/Bias_dequantize (s0t837) 5616 B -> output_mesh (s0t186) 5616 B"
    lines out 716
    run 0 "$A" bound "$MP"
    line out "lower bound: 1924704 bytes, reached at step 184: CONV_2D (op 182 of subgraph 0)"
    line out "  output_mesh/Kernel_dequantize (s0t1008)      1617408 bytes  steps [183, 185)  FLOAT32 [1404x3x3x32]"
fi
# A CSV has no operators; graph takes no option and one model.
run 3 "$A" graph "$I12"
line err "aplan: $I12: not a .tflite model (no \"TFL3\" at bytes 4..7): a CSV problem has no operators, only buffers and their lifetimes"
empty out
run 3 "$A" graph "$T/cut.tflite"
has err "cut.tflite: truncated: the file has 200 bytes"
run 6 "$A" graph "$T/missing.tflite"
line err "aplan: cannot open $T/missing.tflite: No such file or directory"
run 2 "$A" graph
has err "graph: expected 1 argument, got 0"
run 2 "$A" graph -f json "$CHAIN"
has err "graph: option '-f' does not apply to this command"
# The picture's tooltips: name (id), type and shape, then the operators of the first and last step.
run 0 "$A" plan -f svg "$CHAIN"
has out "<title>block/conv_dw (s0t4), INT8 [1x8x8x8]: 512 bytes at offset 512, steps [3, 5): from DEPTHWISE_CONV_2D (op 1 of subgraph 0) to ADD (op 2 of subgraph 0)</title>"
has out "lower bound 1.5 KiB (1536 bytes) at step 4: ADD (op 2 of subgraph 0)</text>"
# JSON: names, types and shapes per buffer (keys only added), every step's operator and the bound's.
if [ -n "${PYTHON:-}" ]; then
    "$A" plan -f json "$CHAIN" >"$T/chain.json"
    "$A" plan -f json "$TIES" >"$T/ties_names.json"
    run 0 "$PYTHON" -c '
import json, sys
ch, ti = (json.load(open(f)) for f in sys.argv[1:3])
b = {x["id"]: x for x in ch["buffers"]}
assert b["s0t4"]["name"] == "block/conv_dw", b["s0t4"]
assert (b["s0t4"]["type"], b["s0t4"]["shape"], b["s0t4"]["size"]) == ("INT8", [1, 8, 8, 8], 512), b["s0t4"]
assert b["s0t0"]["name"] == "input" and b["s0t0"]["shape"] == [1, 8, 8, 4]
assert ch["lower_bound"] == {"bytes": 1536, "step": 4,
                             "operator": {"subgraph": 0, "index": 2, "name": "ADD", "builtin_code": 0,
                                          "name_bytes": None, "long_name": None}}
assert len(ch["steps"]) == 6, len(ch["steps"])
assert ch["steps"][0] == {"step": 0, "kind": "start", "operator": None, "entered": None, "depth": 0}
assert ch["steps"][1] == {"step": 1, "kind": "entry", "operator": None, "entered": 0, "depth": 0}
assert ch["steps"][4] == {"step": 4, "kind": "operator", "entered": None, "depth": 0,
                          "operator": {"subgraph": 0, "index": 2, "name": "ADD", "builtin_code": 0, "name_bytes": None,
                                       "long_name": None}}
assert [ch["buffers"][i]["name"] for i in ch["peak"]["largest"]] == ["block/conv", "block/conv_dw", "block/add"]
assert ti["lower_bound"]["operator"] == {"subgraph": 0, "index": 3, "name": "FULLY_CONNECTED", "builtin_code": 9,
                                         "name_bytes": None, "long_name": None}
assert ti["steps"][2]["operator"] == {"subgraph": 0, "index": 0, "name": "Window", "builtin_code": 32,
                                      "name_bytes": None, "long_name": None}
a = {x["id"]: x for x in ti["buffers"]}
assert (a["s0t3"]["name"], a["s0t3"]["type"], a["s0t3"]["shape"]) == ("spectrum", "INT16", [16]), a["s0t3"]
assert (a["s0t4"]["type"], a["s0t4"]["shape"], a["s0t4"]["size"], a["s0t4"]["planned_size"]) == ("INT64", [], 8, 16)
assert a["s0t0"]["name"] == "frame"
' "$T/chain.json" "$T/ties_names.json"
fi
if have_shared models/person_detect.tflite models/audio_preprocessor_int8.tflite \
    models/mp_face_landmark_with_attention.tflite; then
    run 0 "$A" plan -f svg "$PD"
    has out "<title>MobilenetV1/MobilenetV1/Conv2d_9_pointwise/Relu6 (s0t86), INT8 [1x6x6x128]: 4.5 KiB (4608 bytes) at offset 9 KiB (9216), steps [20, 22): from CONV_2D (op 18 of subgraph 0) to DEPTHWISE_CONV_2D (op 19 of subgraph 0)</title>"
    has out "lower bound 54 KiB (55296 bytes) at step 4: CONV_2D (op 2 of subgraph 0)</text>"
    # JSON: names, types and shapes per buffer (keys only added), every step's operator and the bound's.
    if [ -n "${PYTHON:-}" ]; then
        "$A" plan -f json "$PD" >"$T/pd.json"
        "$A" plan -f json "$AP" >"$T/ap_names.json"
        "$A" plan -f json "$MP" >"$T/mp.json"
        run 0 "$PYTHON" -c '
import json, sys
pd, ap, mp = (json.load(open(f)) for f in sys.argv[1:4])
b = {x["id"]: x for x in pd["buffers"]}
assert b["s0t86"]["name"] == "MobilenetV1/MobilenetV1/Conv2d_9_pointwise/Relu6", b["s0t86"]
assert (b["s0t86"]["type"], b["s0t86"]["shape"], b["s0t86"]["size"]) == ("INT8", [1, 6, 6, 128], 4608), b["s0t86"]
assert b["s0t88"]["name"] == "input" and b["s0t88"]["shape"] == [1, 96, 96, 1]
assert pd["lower_bound"] == {"bytes": 55296, "step": 4,
                             "operator": {"subgraph": 0, "index": 2, "name": "CONV_2D", "builtin_code": 3,
                                          "name_bytes": None, "long_name": None}}
assert len(pd["steps"]) == 33, len(pd["steps"])
assert pd["steps"][0] == {"step": 0, "kind": "start", "operator": None, "entered": None, "depth": 0}
assert pd["steps"][1] == {"step": 1, "kind": "entry", "operator": None, "entered": 0, "depth": 0}
assert pd["steps"][4] == {"step": 4, "kind": "operator", "entered": None, "depth": 0,
                          "operator": {"subgraph": 0, "index": 2, "name": "CONV_2D", "builtin_code": 3,
                                       "name_bytes": None, "long_name": None}}
assert [pd["buffers"][i]["name"] for i in pd["peak"]["largest"]] == [
    "MobilenetV1/MobilenetV1/Conv2d_1_pointwise/Relu6", "MobilenetV1/MobilenetV1/Conv2d_1_depthwise/Relu6"]
assert ap["lower_bound"]["operator"] == {"subgraph": 0, "index": 3, "name": "SignalRfft", "builtin_code": 32,
                                         "name_bytes": None, "long_name": None}
a = {x["id"]: x for x in ap["buffers"]}
assert (a["s0t23"]["name"], a["s0t23"]["type"], a["s0t23"]["shape"]) == ("signal_rfft", "INT16", [514]), a["s0t23"]
assert (a["s0t22"]["type"], a["s0t22"]["shape"]) == ("INT32", []), a["s0t22"]
assert a["s0t0"]["name"] == "serving_default_audio_frame:0"
assert len(mp["buffers"]) == 713 and len(mp["steps"]) == 714
assert all(x["name"] and x["name"] != x["id"] and x["type"] == "FLOAT32" and x["shape"] for x in mp["buffers"])
m = {x["id"]: x for x in mp["buffers"]}
assert (m["s0t0"]["name"], m["s0t0"]["shape"]) == ("input_1", [1, 192, 192, 3]), m["s0t0"]
assert m["s0t1008"]["name"] == "output_mesh/Kernel_dequantize" and m["s0t1008"]["shape"] == [1404, 3, 3, 32]
assert mp["lower_bound"]["operator"] == {"subgraph": 0, "index": 182, "name": "CONV_2D", "builtin_code": 3,
                                         "name_bytes": None, "long_name": None}
assert sum(s["kind"] == "operator" for s in mp["steps"]) == 712
    ' "$T/pd.json" "$T/ap_names.json" "$T/mp.json"
    fi
fi
# Names are bytes from the file: names.tflite (make_models.c) names tensors with a comma, quotes, a newline, a NUL, a
# byte that is not UTF-8, markup, a long scope path and UTF-8, and has a WHILE and a custom operator. Every output
# stays well-formed; the table shortens the long name; CSV keeps its columns.
# A tensor name and the subgraph's name whose strings run past the end (badnames.tflite, make_models.c): the reader
# never reads names, so every command plans it, and each shows block/conv by its id, s0t2, as it shows a tensor
# without a name; graph lists every step.
run 0 "$A" graph "$BADNAMES"
line out "   1  the inputs of subgraph 0 -> input (s0t0) 256 B"
line out "   2  CONV_2D (op 0 of subgraph 0): input (s0t0) 256 B + 1 constant -> s0t2 512 B"
line out "   4  ADD (op 2 of subgraph 0): s0t2 512 B, block/conv_dw (s0t4) 512 B -> block/add (s0t5) 512 B"
run 0 "$A" plan -s greedy_by_size -f csv "$BADNAMES"
line out "s0t2,2,5,512,16,0"
run 0 "$A" bound "$BADNAMES"
has out "lower bound: 1536 bytes, reached at step 4"
run 0 "$A" arena "$BADNAMES"
NM=$NAMES
SNOW=$(printf 'snow\342\230\203man') # UTF-8, shown as it is
run 0 "$A" graph "$NM"
line out "$NM: 5 operators in 3 subgraphs, 9 steps (the steps of the lifetimes)"
line out "   1  the inputs of subgraph 0 -> a,b \"q\"\\x0A\\x00\\xFF</x> (s0t0) 4 B"
line out "   3  WHILE (op 1 of subgraph 0): encoder/layer_11/attention/self/query_projection/MatMul;bias_add (s0t1) 4 B -> $SNOW (s0t2) 4 B"
line out "   4    entering subgraph 1 from WHILE (op 1 of subgraph 0) -> s1t0 4 B"
line out "   5    ADD (op 0 of subgraph 1): s1t0 4 B -> s1t1 4 B"
line out "   8  Scale,\"x\" (op 2 of subgraph 0): $SNOW (s0t2) 4 B -> s0t3 4 B"
run 0 "$A" bound "$NM"
line out "lower bound: 64 bytes, reached at step 5: ADD (op 0 of subgraph 1)"
line out "  .../self/query_projection/MatMul;bias_add (s0t1)           16 bytes  steps [2, 8)  INT8 [1x4]"
line out "  s1t0                                                       16 bytes  steps [4, 6)  INT8 [1x4]"
run 0 "$A" plan -s greedy_by_size -f csv -o "$T/names.csv" "$NM"
run 0 head -1 "$T/names.csv"
line out "id,lower,upper,size,alignment,offset"
run 0 "$A" verify "$NM" "$T/names.csv"
has out "valid: 8 buffers, arena 64 bytes"
"$A" plan -f svg -o "$T/names.svg" "$NM"
"$A" plan -f html -o "$T/names.html" "$NM"
run 0 grep -c '<title>a,b &quot;q&quot;\\x0A\\x00\\xFF&lt;/x&gt; (s0t0), INT8 \[1x4\]: 16 bytes at offset' "$T/names.svg"
if [ -n "${PYTHON:-}" ]; then
    "$A" plan -f json "$NM" >"$T/names.json"
    run 0 "$PYTHON" -c '
import json, sys, xml.dom.minidom
d = json.load(open(sys.argv[1]))
names = [b["name"] for b in d["buffers"]]
assert names == ["a,b \"q\"\\x0A\\x00\\xFF</x>", "encoder/layer_11/attention/self/query_projection/MatMul;bias_add",
                 "snow\u2603man", "s0t3", "s1t0", "s1t1", "s2t0", "s2t1"], names
assert [b["id"] for b in d["buffers"]][:4] == ["s0t0", "s0t1", "s0t2", "s0t3"]
assert d["steps"][8]["operator"] == {"subgraph": 0, "index": 2, "name": "Scale,\"x\"", "builtin_code": 32,
                                     "name_bytes": None, "long_name": None}
assert d["steps"][4] == {"step": 4, "kind": "entry", "entered": 1, "depth": 1,
                         "operator": {"subgraph": 0, "index": 1, "name": "WHILE", "builtin_code": 119,
                                      "name_bytes": None, "long_name": None}}
xml.dom.minidom.parse(sys.argv[2])
page = open(sys.argv[3], encoding="utf-8").read()
data = json.loads(page.split("<script type=\"application/json\" id=\"aplan-data\">", 1)[1].split("</script>", 1)[0])
assert data["names"][:3] == names[:3] and data["id"][0] == "s0t0", data["names"]
assert data["tensors"][0] == "INT8 [1x4]" and data["steps"][5] == "ADD (op 0 of subgraph 1)", data["steps"]
' "$T/names.json" "$T/names.svg" "$T/names.html"
fi

# --- TFLM's whole arena: `aplan arena`, --abi ------------------------------------------------------------------------
# chain's figures are the model's (tests/test_tflm.c checks the model against real TFLM builds on the shared models;
# TFLM itself refuses chain, whose int8 weights carry no quantization): the parts sum to the tail, the tail and the
# section to arena_used_bytes(); the operators' lines give what each adds.
run 0 "$A" arena "$CHAIN"
line out "$CHAIN: TFLM's arena (tflite-micro 90b983c2, reference kernels, 32-bit ABI, TFLM's own planner)"
line out "  arena_used_bytes()                                                    2440"
line out "  smallest arena AllocateTensors() accepts                              2444"
line out "  planned section (GreedyMemoryPlanner)                                 1536"
line out "    tensors (5), planned alone                                          1536"
line out "  persistent                                                             904"
line out "    kernels' op data (Init, Prepare)                                     364"
line out "  0         0      CONV_2D                                  28        124          0        0"
line out "  0         3      FULLY_CONNECTED                          16         48          0        0"
empty err
run 0 "$A" arena --abi 64 "$CHAIN"
has out "64-bit ABI"
run 4 "$A" arena --capacity 2K "$CHAIN"
line out "does not fit: the smallest arena, 2444 bytes, is 396 more than 2048"
run 0 "$A" arena --target cortex-m4 "$CHAIN"
line out "fits: the smallest arena, 2444 bytes, of 262144; 259700 bytes free"
run 2 "$A" arena --abi 48 "$CHAIN"
line err "aplan: arena: --abi '48' is not 32 or 64 (the target's pointer width in bits)"
run 2 "$A" plan --abi 48 "$CHAIN"
run 2 "$A" example --abi 64 # the example has no model to size
printf 'id,lower,upper,size\na,0,1,4\n' >"$T/one.csv"
run 3 "$A" arena "$T/one.csv"
line err "aplan: $T/one.csv: not a .tflite model (no \"TFL3\" at bytes 4..7): the arena is TFLM's, which runs models"
# ties' custom operators are not in the table: named, left out of the figures, which are lower bounds.
run 0 "$A" arena "$TIES"
has out "  smallest arena AllocateTensors() accepts                               864 (at least)"
has out "Window                           (not modelled: not counted)"
line out "  not modelled: 3 operators of 3 kinds, whose kernels' scratch and persistent data are not counted, so every TFLM figure is a lower bound: Energy (1: op 2 of subgraph 0), Spectrum (1: op 1 of subgraph 0), Window (1: op 0 of subgraph 0)"
run 0 "$A" plan "$TIES"
line out "  not modelled: 3 operators of 3 kinds, whose kernels' scratch and persistent data are not counted, so every TFLM figure is a lower bound: Energy (1: op 2 of subgraph 0), Spectrum (1: op 1 of subgraph 0), Window (1: op 0 of subgraph 0)"
# A section just below 2^64 plans, and TFLM's arena on top of it passes 2^64: said, not left out or taken for a
# lack of memory.
run 3 "$A" arena "$HUGE"
line err "aplan: $HUGE: cannot compute TFLM's arena: TFLM's arena for this model and plan passes 2^64 - 1 bytes"
empty out
run 0 "$A" plan -s greedy_by_size "$HUGE"
line out "TFLM arena (tflite-micro 90b983c2, reference kernels, 32-bit ABI): cannot be computed: TFLM's arena for this model and plan passes 2^64 - 1 bytes"
run 0 "$A" plan -s greedy_by_size -f json "$HUGE"
has out '"arena_error": "TFLM'"'"'s arena for this model and plan passes 2^64 - 1 bytes",'
has out '"own_planner": null'
if have_shared models/audio_preprocessor_int8.tflite models/person_detect.tflite; then
    AP=$S/models/audio_preprocessor_int8.tflite
    # SignalRfft's scratch request is a buffer of the problem, at its operator's step, on both ABIs (1024 bytes).
    run 0 "$A" plan -f csv -s greedy_by_size_tflm "$AP"
    has out "s0o3r0,5,6,1024,"
    run 0 "$A" plan "$AP"
    # The breakdown: TFLM's own plan of the tensors alone takes 3040 and the scratch adds nothing (it fits beside
    # them); the best plan packs the tensors alone into 2096, and the scratch then adds 944 (its section is 3040).
    line out "  TFLM's own planner:   smallest arena 8492; arena_used_bytes() 8488 = planned tensors 3040 + kernels' scratch 0 + persistent 5448"
    line out "  this plan, embedded:  smallest arena 8492; arena_used_bytes() 8488 = planned tensors 2096 + kernels' scratch 944 + persistent 5448"
    # The adapter's smallest arena (measured in real TFLM: 8448, below its own planner's 8492).
    line out "  this plan, adapter:   smallest arena 8448; arena_used_bytes() 8440 = planned tensors 2096 + kernels' scratch 944 + persistent 5400"
    run 0 "$A" plan --abi 64 "$AP"
    line out "  TFLM's own planner:   smallest arena 9944; arena_used_bytes() 9952 = planned tensors 3040 + kernels' scratch 0 + persistent 6912"
    run 0 "$A" arena "$S/models/person_detect.tflite"
    line out "  arena_used_bytes()                                                   82300"
    line out "  smallest arena AllocateTensors() accepts                             82296"
fi

# --kernels cmsis-nn: CMSIS-NN's kernels for the target's instruction set (tests/test_tflm.c checks them against
# real CMSIS-NN builds). chain's CONV_2D asks CMSIS-NN for an im2col buffer of its 3x3x4 patch (144 bytes) that the
# reference kernel does not need: a buffer of the problem, at the operator's step.
run 0 "$A" arena --kernels cmsis-nn "$CHAIN"
line out "$CHAIN: TFLM's arena (tflite-micro 90b983c2, CMSIS-NN kernels (portable C), 32-bit ABI, TFLM's own planner)"
line out "  arena_used_bytes()                                                    2472"
line out "    what the kernels' scratch adds (1 request, 144 bytes)                  0"
run 0 "$A" plan --kernels cmsis-nn -f csv -s greedy_by_size_tflm "$CHAIN"
has out "s0o0r0,2,3,144,16,256"
run 0 "$A" plan --kernels CMSIS-NN --target cortex-m4 "$CHAIN"
line out "TFLM arena (tflite-micro 90b983c2, CMSIS-NN kernels (DSP), 32-bit ABI):"
run 2 "$A" plan --kernels cmsis-nn --target esp32-s3 "$CHAIN"
line err "aplan: --kernels cmsis-nn: not modelled for target esp32-s3 (not an Arm core: TFLM there uses ESP-NN, not CMSIS-NN)"
run 2 "$A" plan --kernels cmsis-nn --target cortex-m55-ethos-u55 "$CHAIN"
has err "not modelled for target cortex-m55-ethos-u55 (CMSIS-NN builds its Helium (MVE) code there"
run 2 "$A" arena --kernels esp-nn "$CHAIN"
line err "aplan: arena: --kernels 'esp-nn' is not reference or cmsis-nn"
if have_shared models/dtln_noise_suppression.tflite; then
    # dtln's LSTMs keep CMSIS-NN's kernel sums: 14,364 bytes where the reference kernels need 4,652 (armhf, DSP)
    run 0 "$A" arena --kernels cmsis-nn --target cortex-m4 "$S/models/dtln_noise_suppression.tflite"
    line out "  arena_used_bytes()                                                   14364"
    line out "  smallest arena AllocateTensors() accepts                             14368"
    run 0 "$A" arena --kernels cmsis-nn --abi 64 "$S/models/dtln_noise_suppression.tflite"
    line out "  arena_used_bytes()                                                   15472"
fi

# --- embed: the plan as the model's offline plan ----------------------------------------------------------------------
# On ties, chain and offline (make_models.c), then on audio_preprocessor_int8, person_detect and person_detect_vela.
# embedded MODEL OUT WHAT BUFFERS ARENA: embed MODEL's plan into $T/OUT, which says WHAT (arena, strategy, tensors),
# verifies (BUFFERS buffers, ARENA bytes, optimal) and holds the same buffers as the input, but for the offsets.
embedded() {
    run 0 "$A" embed "$1" -o "$T/$2"
    has out "$T/$2: $3"
    empty err
    run 0 "$A" verify "$T/$2" "$T/$2"
    # The problem is plan's, the kernels' scratch included: TFLM's planner places it around the offline tensors.
    if [ "${6:-}" = scratch ]; then
        line out "$T/$2: valid: $(($4 + 1)) buffers ($4 tensors at the offline plan's offsets, 1 kernel scratch buffer where TFLM's planner places them), arena $5 bytes, lower bound $5 bytes (+0.0%), optimal"
    else
        has out "valid: $4 buffers, arena $5 bytes, lower bound $5 bytes (+0.0%), optimal"
    fi
    # With no kernel scratch every buffer is fixed and offline plans alone; with scratch the others place it.
    run 0 "$A" plan "$T/$2"
    if [ "${6:-}" = scratch ]; then hasre out "^\\* [a-z_]+ +$5 +$5 "; else hasre out "^\\* offline +$5 +$5 "; fi
    run 0 "$A" plan -s linear -f csv "$T/$2"
    cut -d, -f1-4 "$T/out" >"$T/embedded_rows.csv"
    "$A" plan -s linear -f csv "$1" | cut -d, -f1-4 >"$T/input_rows.csv"
    checks=$((checks + 1))
    cmp -s "$T/embedded_rows.csv" "$T/input_rows.csv" || fail "the embedded model's buffers differ from the input's"
}
# for_target MODEL OUT WHAT BUFFERS ARENA: TFLM's own order for cortex-m4 is planned with TFLM's 16-byte alignment.
for_target() {
    run 0 "$A" embed -s greedy_by_size_tflm --target cortex-m4 "$1" -o "$T/$2"
    has out "$2: $3"
    run 0 "$A" verify "$T/$2" "$T/$2" # planned with TFLM's 16-byte alignment, whatever the target
    has out "valid: $4 buffers, arena $5 bytes"
    run 0 "$A" verify --target cortex-m4 "$T/$2" "$T/$2"
    has out "valid: $4 buffers, arena $5 bytes"
}
# replanned EMBEDDED ARENA LINEAR WHAT: an existing plan is kept as fixed offsets and its metadata replaced, with a
# warning; --replan plans afresh (linear: LINEAR bytes; WHAT: the rest of the summary).
replanned() {
    run 0 "$A" embed -s linear "$1" -o "$T/replanned.tflite"
    has err "aplan: warning: $1 already had an offline plan (OfflineMemoryAllocation); $T/replanned.tflite holds the new plan in its place"
    has out "planned section $2 -> $2 bytes (TFLM's greedy planner -> linear; TFLM places the kernels' scratch around its tensors"
    # Linear's fresh plan makes TFLM's arena larger: refused, nothing written, unless --force.
    rm -f "$T/replanned.tflite"
    run 4 "$A" embed -s linear --replan "$1" -o "$T/replanned.tflite"
    has err "not written: with this plan embedded TFLM's arena would be"
    checks=$((checks + 1))
    [ ! -e "$T/replanned.tflite" ] || fail "a refused embed wrote its output"
    run 0 "$A" embed -s linear --replan --force "$1" -o "$T/replanned.tflite"
    has err "already had an offline plan"
    has err "(--force)"
    has out "replanned.tflite: planned section $2 -> $3 bytes (TFLM's greedy planner -> linear; TFLM places the kernels' scratch around its tensors"
    has out "lower bound $2 bytes; $4"
    run 0 "$A" verify "$T/replanned.tflite" "$T/replanned.tflite"
    has out "arena $3 bytes"
}
# offline_kept MODEL ARENA PAIRS: a model's own aliasing plan stays (offline), aliased pairs and all.
offline_kept() {
    run 0 "$A" embed "$1" -o "$T/kept.tflite"
    has err "already had an offline plan"
    has out "planned section $2 -> $2 bytes (TFLM's greedy planner -> offline;"
    run 0 "$A" verify "$T/kept.tflite" "$T/kept.tflite"
    has out "aliased fixed pairs (allowed): $3"
}
# own_input EMBEDDED ARENA LINEAR: never the input itself (by name or through a link) unless --force; the input stays
# as it was.
own_input() {
    rm -f "$T/own.tflite" "$T/link.tflite"
    cp "$1" "$T/own.tflite"
    run 2 "$A" embed "$T/own.tflite" -o "$T/own.tflite"
    has err "embed: $T/own.tflite is the input: refusing to overwrite it (use --force to replace it)"
    ln -s own.tflite "$T/link.tflite"
    run 2 "$A" embed "$T/own.tflite" -o "$T/link.tflite"
    has err "is the input: refusing to overwrite it"
    checks=$((checks + 1))
    cmp -s "$T/own.tflite" "$1" || fail "a refused embed changed its input"
    run 0 "$A" embed --force --replan -s linear "$T/own.tflite" -o "$T/own.tflite"
    has out "planned section $2 -> $3 bytes"
    run 0 "$A" verify "$T/own.tflite" "$T/own.tflite"
    has out "arena $3 bytes"
}
# no_room MODEL CAPACITY BOUND SECTION: nothing is written when no plan fits (SECTION: what CAPACITY leaves the
# planned section after TFLM's persistent data).
no_room() {
    rm -f "$T/x.tflite"
    run 4 "$A" embed --capacity "$2" "$1" -o "$T/x.tflite"
    has err "no plan can fit: the lower bound is $3 bytes, $(($3 - $4)) more than the $4 bytes that a capacity of $2 bytes leaves the planned section after TFLM's persistent data"
    checks=$((checks + 1))
    [ ! -e "$T/x.tflite" ] || fail "a failed embed wrote its output"
}
embedded "$TIES" ties.tflite "planned section 112 -> 96 bytes (TFLM's greedy planner -> greedy_by_size; TFLM places the kernels' scratch around its tensors), lower bound 96 bytes, optimal; 5 of 5 tensors planned offline" 5 96
run 0 "$A" embed "$TIES" -o "$T/ties_again.tflite"
line out "TFLM arena (tflite-micro 90b983c2, reference kernels, 32-bit ABI): 600 -> 584 bytes used, smallest arena 864 -> 864 (lower bounds)"
line out "  not modelled: 3 operators of 3 kinds, whose kernels' scratch and persistent data are not counted, so every TFLM figure is a lower bound: Energy (1: op 2 of subgraph 0), Spectrum (1: op 1 of subgraph 0), Window (1: op 0 of subgraph 0)"
for_target "$CHAIN" chain.tflite "planned section 1536 -> 1536 bytes (TFLM's greedy planner -> greedy_by_size_tflm; TFLM places the kernels' scratch around its tensors), lower bound 1536 bytes, optimal; 5 of 8 tensors planned offline" 5 1536
replanned "$T/ties.tflite" 96 160 "5 of 5 tensors planned offline"
offline_kept "$OFFLINE" 1536 1
own_input "$T/ties.tflite" 96 160
no_room "$CHAIN" 1000 1536 96
if have_shared models/audio_preprocessor_int8.tflite models/person_detect.tflite models/person_detect_vela.tflite; then
    embedded "$S/models/audio_preprocessor_int8.tflite" ap.tflite "planned section 3040 -> 3040 bytes (TFLM's greedy planner -> greedy_by_size_tflm; TFLM places the kernels' scratch around its tensors), lower bound 3040 bytes, optimal; 25 of 43 tensors planned offline" 25 3040 scratch
    run 0 "$A" embed "$S/models/audio_preprocessor_int8.tflite" -o "$T/ap_again.tflite"
    line out "TFLM arena (tflite-micro 90b983c2, reference kernels, 32-bit ABI): 8488 -> 8488 bytes used, smallest arena 8492 -> 8492"
    for_target "$S/models/person_detect.tflite" pd.tflite "planned section 55296 -> 55296 bytes (TFLM's greedy planner -> greedy_by_size_tflm; TFLM places the kernels' scratch around its tensors), lower bound 55296 bytes, optimal; 32 of 89 tensors planned offline" 32 55296
    replanned "$T/ap.tflite" 3040 12208 "25 of 43 tensors planned offline"
    offline_kept "$S/models/person_detect_vela.tflite" 74464 6
    own_input "$T/ap.tflite" 3040 12208
    no_room "$S/models/person_detect.tflite" 50000 55296 22996
fi
# Usage and input errors; nothing is written.
run 2 "$A" embed "$CHAIN"
has err "embed: -o OUT is required"
run 2 "$A" embed -f c "$CHAIN" -o "$T/x.tflite"
has err "option '-f' does not apply to this command"
run 3 "$A" embed "$I12" -o "$T/x.tflite"
has err "input.12.csv: not a .tflite model"
run 3 "$A" embed "$T/cut.tflite" -o "$T/x.tflite"
has err "cut.tflite: truncated: the file has 200 bytes"
run 6 "$A" embed "$CHAIN" -o "$T/no/such/dir/x.tflite"
has err "cannot create a temporary file beside $T/no/such/dir/x.tflite: No such file or directory"
# A write that fails half-way (a file size limit of 8 KiB; chain.tflite is above 16 KiB): the old OUT stays, and no
# temporary file is left.
mkdir "$T/full"
printf 'old' >"$T/full/keep.tflite"
run 6 sh -c 'trap "" XFSZ; ulimit -f 16; exec "$0" "$@"' "$A" embed "$CHAIN" -o "$T/full/keep.tflite"
has err "cannot write $T/full/keep.tflite: File too large"
checks=$((checks + 1))
[ "$(cat "$T/full/keep.tflite")" = old ] || fail "a failed embed changed the old output"
checks=$((checks + 1))
[ "$(ls -A "$T/full")" = keep.tflite ] || fail "a failed embed left files behind: $(ls -A "$T/full")"

# --- searches: --time-limit, what each plan proves, exact and auto ------------------------------------------------
# --time-limit is a non-negative decimal number of seconds, checked before the input is read (the input is missing).
NOT_SECONDS="is not a number of seconds (a decimal such as 0, 0.5 or 10, at most 1000000)"
for v in -1 -0.5 +1 "" abc nan inf 1e3 0x10 " 1" "1 " 1,5 . 1.2.3 1000001 1000000.5 99999999999999999999999; do
    run 2 "$A" plan --time-limit "$v" "$T/missing.csv"
    line err "aplan: plan: --time-limit '$v' $NOT_SECONDS"
    empty out
done
run 2 "$A" embed --time-limit=-2 "$T/missing.tflite" -o "$T/x.tflite"
line err "aplan: embed: --time-limit '-2' $NOT_SECONDS"
run 2 "$A" example --time-limit x
line err "aplan: example: --time-limit 'x' $NOT_SECONDS"
run 2 "$A" plan "$I12" --time-limit
line err "aplan: plan: option '--time-limit' needs a value"
run 2 "$A" bound --time-limit 1 "$I12"
line err "aplan: bound: option '--time-limit' does not apply to this command"
run 2 "$A" verify --time-limit 1 "$I12" "$I12"
line err "aplan: verify: option '--time-limit' does not apply to this command"
for v in 0 0.5 .25 5. 10 000.000 1000000 1000000.000; do
    run 0 "$A" plan --time-limit "$v" -s linear "$I12"
done
run 0 "$A" plan --help
has out "--time-limit SECONDS"
run 0 "$A" embed --help
has out "--time-limit SECONDS"
# The JSON gives the limit in seconds (digits past the ninth decimal are dropped) and every run's outcome and nodes.
run 0 "$A" plan -f json --time-limit 2.25 -s linear "$I12"
has out '"time_limit_seconds": 2.25,'
run 0 "$A" plan -f json --time-limit 0.0000000019 -s linear "$I12"
has out '"time_limit_seconds": 0.000000001,'

# One deadline for the whole run: the greedy family stops its rule there, the rest stacked above (a valid plan,
# "best found"); linear and first_fit cannot be stopped and run first. With 1 ns the deadline has passed at the first
# look at the clock, which the tool asks for every 65536 / 1000 = 65 placements on 1,000 buffers: so the rule places
# exactly 65, whatever the machine; and a strategy whose turn comes after the deadline, once there is a plan, is not
# run at all. Compact builds have no such stop (their greedy family has no search member).
if [ "${APLAN_COMPACT:-0}" = 1 ]; then
    echo "skipped: the time limit cutting the greedy family short (compact builds leave the stop out)"
    skipped=$((skipped + 1))
else
    awk 'BEGIN { print "id,lower,upper,size"; for (i = 0; i < 1000; i++) printf "b%d,%d,%d,%d\n", i, i % 50, i % 50 + 5, 16 + (i % 7) * 8 }' >"$T/thousand.csv"
    run 0 "$A" plan -s greedy_by_size --time-limit 0.000000001 "$T/thousand.csv"
    # The row says its rule was cut (issue 31, point 8b), not "best found" beside an arena that looks like its result.
    hasre out '^\* greedy_by_size +[0-9]+ +[0-9]+ +\+[0-9.]+% +cut +- +[0-9.]+ ms +yes  \(time limit: stopped after 65 of 1000 buffers; the rest stacked above\)$'
    lacks out "best found"
    has out "not proven optimal (the time limit, 0.000000001 s, stopped its rule after 65 buffers; the rest are stacked above)"
    run 0 "$A" plan -s greedy_by_size --time-limit 0.000000001 -f csv -o "$T/cut.csv" "$T/thousand.csv"
    run 0 "$A" verify "$T/thousand.csv" "$T/cut.csv"
    has out "valid: 1000 buffers"
    run 0 "$A" plan -s greedy_by_size --time-limit 0.000000001 -f json "$T/thousand.csv"
    has out '"outcome": "best_found", "nodes": 65,'
    has out '"out_of_time": true'
    # 0 is no search: the fast strategies run to the end, as with all the time in the world.
    run 0 "$A" plan -s greedy_by_size --time-limit 0 "$T/thousand.csv"
    grep '^\* greedy_by_size' "$T/out" | awk '{ print $3, $6 }' >"$T/whole0"
    run 0 "$A" plan -s greedy_by_size --time-limit 60 "$T/thousand.csv"
    grep '^\* greedy_by_size' "$T/out" | awk '{ print $3, $6 }' >"$T/whole60"
    checks=$((checks + 1))
    cmp -s "$T/whole0" "$T/whole60" && [ "$(cut -d' ' -f2 "$T/whole0")" = plan ] ||
        fail "--time-limit 0 did not let greedy_by_size finish: $(cat "$T/whole0") against $(cat "$T/whole60")"
    # ... and a search keeps its start (greedy_by_size's plan) whole, stopping once it searches.
    if [ "$HAS_EXACT" = 1 ]; then
        run 0 "$A" plan -s exact --time-limit 0 "$T/thousand.csv"
        grep -E '^[* ] exact' "$T/out" | awk '{ print $3 }' >"$T/exact0"
        checks=$((checks + 1))
        [ "$(cat "$T/exact0")" -le "$(cut -d' ' -f1 "$T/whole60")" ] ||
            fail "--time-limit 0: exact's plan ($(cat "$T/exact0")) is above its whole start ($(cat "$T/whole60"))"
    fi
    # A list: the strategies no deadline stops run first and finish; the others come too late to start.
    run 0 "$A" plan -s linear,greedy_by_size,first_fit,best_fit --time-limit 0.000000001 "$T/thousand.csv"
    hasre out '^  linear +[0-9]+ +[0-9]+ +\+[0-9.]+% +plan +- '
    hasre out '^\* first_fit +[0-9]+ +[0-9]+ +\+[0-9.]+% +(plan|optimal) +- '
    for s in greedy_by_size best_fit; do
        hasre out "^  $s +- +[0-9]+ +- +- +- +0\\.000 ms +no  \\(not run: the time limit, 0\\.000000001 s, had run out before its turn\\)\$"
    done
    run 0 "$A" plan -s linear,greedy_by_size --time-limit 0.000000001 -f json "$T/thousand.csv"
    has out '"status": "strategy failed", "error": "not run: the time limit, 0.000000001 s, had run out before its turn"'
fi

# The table's outcome column: a plan at the lower bound is proven optimal whoever made it; one above it is a plain
# plan. Strategies that do not search have no nodes ("-").
run 0 "$A" plan -s linear,greedy_by_size "$I12"
line out "  strategy                arena bytes  lower bound  overhead  outcome           nodes        time  verified"
hasre out '^  linear +20 +12 +\+66\.7% +plan +- +[0-9.]+ ms +yes$'
hasre out '^\* greedy_by_size +12 +12 +\+0\.0% +optimal +- +[0-9.]+ ms +yes$'
# The HTML page's table has the column too.
run 0 "$A" plan -s linear,greedy_by_size -f html "$I12"
has out "<th>overhead</th><th>outcome</th><th>time</th>"
has out "<td>+66.7%</td><td>plan</td>"
has out "<td>+0.0%</td><td>optimal</td>"

if [ "$HAS_EXACT" = 1 ]; then
    # A problem whose optimum, 7 bytes, is above its lower bound, 6 (every step holds exactly 6 bytes of live
    # buffers). By hand: in 6 bytes, a and b (3 each, live at step 0) fill the two halves [0, 3) and [3, 6); at step
    # 1 a keeps its half and c (2) and d (1) fill the other, H. At step 5 f and g (3 each) fill the two halves, so at
    # step 3, where c, e and f are live, c and e (2 + 1) fill one half: H, as c lies in H. Then e takes the byte of H
    # that c leaves, which is d's, yet d and e are both live at step 2. So no plan has 6 bytes; greedy_by_size's has
    # 7. (A brute force over every order of placement, each buffer on top of the placed ones it meets, agrees.)
    printf 'id,lower,upper,size\na,0,2,3\nb,0,1,3\nc,1,5,2\nd,1,3,1\ne,2,5,1\nf,3,6,3\ng,5,9,3\n' >"$T/gap.csv"
    # exact minimises without a capacity: it proves 7 optimal. Limits are generous: it takes well under 1 ms.
    run 0 "$A" plan -s exact --time-limit 60 "$T/gap.csv"
    line out "$T/gap.csv: 7 buffers, alignment 1, sizes as given"
    hasre out '^\* exact +7 +6 +\+16\.7% +optimal +[0-9]+ +[0-9.]+ ms +yes$'
    line out "best: exact, 7 bytes: proven optimal by a complete search, 1 byte above the lower bound (+16.7%)"
    run 0 "$A" plan -s exact --time-limit 60 -f csv -o "$T/gap_plan.csv" "$T/gap.csv"
    run 0 "$A" verify "$T/gap.csv" "$T/gap_plan.csv"
    has out "valid: 7 buffers, arena 7 bytes, lower bound 6 bytes (+16.7%)"
    run 0 "$A" plan -s exact --time-limit 60 -f json "$T/gap.csv"
    cp "$T/out" "$T/gap.json"
    if [ -n "${PYTHON:-}" ]; then
        run 0 "$PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["best"] == "exact" and d["optimal"] is True and d["time_limit_seconds"] == 60, d
(r,) = d["strategies"]
assert (r["arena_bytes"], r["outcome"], r["goal"], r["status"]) == (7, "optimal", "minimise", "ok"), r
assert r["nodes"] > 0, r # the proof took a search: 6 bytes was worth trying
' "$T/gap.json"
    fi
    # With a capacity exact looks for a plan within it (goal FIT): 7 fits; 6 is proven impossible (exit 4, the plan it
    # has above it shown); 5 is below the bound, which proves it alone.
    run 0 "$A" plan -s exact --capacity 7 --time-limit 60 "$T/gap.csv"
    hasre out '^\* exact +7 +6 +\+16\.7% +fits +[0-9]+ +[0-9.]+ ms +yes$'
    line out "fits: 7 of 7 bytes (100.0% of the capacity); 0 bytes free"
    line out "best: exact, 7 bytes: 1 byte above the lower bound (+16.7%), not proven optimal (the search stopped at its first plan within the capacity)"
    empty err
    run 4 "$A" plan -s exact --capacity 6 --time-limit 60 "$T/gap.csv"
    hasre out '^  exact +7 +6 +\+16\.7% +infeasible +[0-9]+ +[0-9.]+ ms +yes  \(proven: no plan fits 6 bytes \(this plan needs 7, 1 more\)\)$'
    hasre out '^does not fit: the smallest plan \(exact\) needs 7 bytes, 1 more than the capacity \(6 bytes\); exact proved that no plan fits it \([0-9]+ nodes searched\), though the lower bound, 6, does$'
    lacks out "best:"
    hasre err "^aplan: $T/gap.csv: proven: no plan fits 6 bytes \\(exact searched [0-9]+ nodes\\): the smallest plan \\(exact\\) needs 7 bytes, 1 more\$"
    run 4 "$A" plan -s exact --capacity 6 --time-limit 60 -f json "$T/gap.csv"
    cp "$T/out" "$T/gap6.json"
    if [ -n "${PYTHON:-}" ]; then
        run 0 "$PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["best"] is None and d["optimal"] is False
assert d["fit"] == {"fits": False, "capacity": 6, "capacity_from_target": False, "arena_bytes": 7,
                    "percent_of_capacity": 116.667, "free_bytes": None, "over_bytes": 1, "bound_fits": True,
                    "proven_no_fit": True, "whole_capacity": None, "tflm_arena_bytes": None,
                    "tflm_arena_fits": None, "tflm_setup": None}, d["fit"]
(r,) = d["strategies"]
assert (r["arena_bytes"], r["outcome"], r["goal"]) == (7, "infeasible", "fit"), r
assert r["error"] == "proven: no plan fits 6 bytes (this plan needs 7, 1 more)", r
' "$T/gap6.json"
    fi
    run 4 "$A" plan -s exact --capacity 5 "$T/gap.csv"
    hasre out '^  exact +- +6 +- +infeasible +0 +[0-9.]+ ms +no  \(proven: no plan fits 5 bytes: the lower bound is 6\)$'
    line out "does not fit: the lower bound, 6 bytes, is 1 more than the capacity (5 bytes): no plan can fit"
    line err "aplan: $T/gap.csv: no plan can fit: the lower bound is 6 bytes, 1 more than the capacity of 5 bytes"
    # A capacity below a single buffer (the library's validation refuses the problem): proven the same way.
    run 4 "$A" plan -s exact,linear --capacity 2 "$T/gap.csv"
    hasre out '^  exact +- +6 +- +infeasible +0 +[0-9.]+ ms +no  \(proven: no plan fits 2 bytes: the lower bound is 6\)$'
    hasre out '^  linear +16 +6 .*\(needs 16 bytes, 14 more than the capacity of 2 bytes\)$'
    line err "aplan: $T/gap.csv: no plan can fit: the lower bound is 6 bytes, 4 more than the capacity of 2 bytes"

    # auto: the strategies that do not search, then, as the best of them (7) is above the bound, exact from that plan
    # for what is left of the time limit: it proves 7 optimal, and its run is the one shown. --time-limit 0 leaves
    # auto to the fast strategies: the first of the smallest in auto's order, greedy_by_size_tflm, unproven.
    run 0 "$A" plan -s auto --time-limit 60 "$T/gap.csv"
    count out " ms  " 1
    hasre out '^\* exact +7 +6 +\+16\.7% +optimal +[0-9]+ +[0-9.]+ ms +yes$'
    line out "best: exact, 7 bytes: proven optimal by a complete search, 1 byte above the lower bound (+16.7%)"
    run 0 "$A" plan -s auto "$T/gap.csv" # the default limit, 1 s, is plenty here: the same
    hasre out '^\* exact +7 +6 +\+16\.7% +optimal +[0-9]+ '
    run 0 "$A" plan -s auto --time-limit 60 -f json "$T/gap.csv"
    cp "$T/out" "$T/gap_auto.json"
    if [ -n "${PYTHON:-}" ]; then
        run 0 "$PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["best"] == "exact" and d["optimal"] is True, d
(r,) = d["strategies"] # auto shows its best run only: the search, started from the best fast plan
assert (r["outcome"], r["goal"], r["start"], r["arena_bytes"]) == ("optimal", "minimise", "greedy_by_size_tflm", 7), r
' "$T/gap_auto.json"
        run 0 "$PYTHON" -c '
import json, sys
assert all(r["start"] is None for r in json.load(open(sys.argv[1]))["strategies"]) # -s exact: its own start
' "$T/gap.json"
    fi
    run 0 "$A" plan -s auto --time-limit 0 "$T/gap.csv"
    count out " ms  " 1
    hasre out '^\* greedy_by_size_tflm +7 +6 +\+16\.7% +plan +- +[0-9.]+ ms +yes$'
    line out "best: greedy_by_size_tflm, 7 bytes: 1 byte above the lower bound (+16.7%), not proven optimal"
    # A capacity that a fast plan fits: no search. One that none fits but the bound does: a search for a fit, which
    # proves there is none; every run is shown (exit 4), exact's last.
    run 0 "$A" plan -s auto --capacity 7 --time-limit 60 "$T/gap.csv"
    hasre out '^\* greedy_by_size_tflm +7 +6 +\+16\.7% +plan +- '
    lacks out "exact"
    run 4 "$A" plan -s auto --capacity 6 --time-limit 60 "$T/gap.csv"
    hasre out '^  greedy_by_size_tflm +7 +6 .*\(needs 7 bytes, 1 more than the capacity of 6 bytes\)$'
    hasre out '^  exact +7 +6 +\+16\.7% +infeasible +[0-9]+ .*\(proven: no plan fits 6 bytes \(this plan needs 7, 1 more\)\)$'
    checks=$((checks + 1))
    [ "$(grep -E ' ms  ' "$T/out" | tail -n 1 | cut -c3-7)" = exact ] || fail "auto's search is not its last row"
    hasre err "^aplan: $T/gap.csv: proven: no plan fits 6 bytes \\(exact searched [0-9]+ nodes\\): the smallest plan \\(greedy_by_size_tflm\\) needs 7 bytes, 1 more\$"
    # all: one row per built-in, exact among them with its proof; the first of the smallest stays the best, and
    # exact's proof makes its arena proven optimal.
    run 0 "$A" plan --time-limit 60 "$T/gap.csv"
    count out " ms  " "$(echo "$BUILT" | grep -cvx offline)"
    hasre out '^  exact +7 +6 +\+16\.7% +optimal +[0-9]+ '
    hasre out '^\* greedy_by_size +7 +6 +\+16\.7% +plan +- '
    line out "best: greedy_by_size, 7 bytes: proven optimal by a complete search, 1 byte above the lower bound (+16.7%)"
    # Where the figures mention the arena: the C header and the picture say it is proven.
    run 0 "$A" plan -s auto --time-limit 60 -f c "$T/gap.csv"
    line out " * 7 buffers, alignment 1, sizes as given; lower bound 6 bytes (this plan is proven optimal by a complete search)."
    run 0 "$A" plan -s auto --time-limit 60 -f svg "$T/gap.csv"
    has out ": exact, arena 7 bytes, lower bound 6 bytes (+16.7%), proven optimal</text>"
    run 0 "$A" plan -s auto --time-limit 0 -f c "$T/gap.csv"
    line out " * 7 buffers, alignment 1, sizes as given; lower bound 6 bytes."

    # input.12.csv: greedy_by_size reaches the bound, so auto does not search and exact proves it at once.
    run 0 "$A" plan -s auto "$I12"
    hasre out '^\* greedy_by_size_tflm +12 +12 +\+0\.0% +optimal +- '
    run 0 "$A" plan -s exact "$I12"
    hasre out '^\* exact +12 +12 +\+0\.0% +optimal +[0-9]+ +[0-9.]+ ms +yes$'
    line out "best: exact, 12 bytes: proven optimal (equals the lower bound)"
    run 0 "$A" plan -s exact --capacity 12 "$I12"
    hasre out '^\* exact +12 +12 +\+0\.0% +optimal +[0-9]+ '
    line out "fits: 12 of 12 bytes (100.0% of the capacity); 0 bytes free"
    run 4 "$A" plan -s exact --capacity 11 "$I12"
    hasre out '^  exact +- +12 +- +infeasible +0 '
    line err "aplan: $I12: no plan can fit: the lower bound is 12 bytes, 1 more than the capacity of 11 bytes"

    # A budget that runs out: with --time-limit 0 the search stops at its first look at the clock, long before it can
    # settle either instance (timing plays no part: the deadline has passed by then). hard.csv: 200 buffers from a
    # Park-Miller generator, lower bound 66498 bytes, within which exact finds no plan in 10 s (11 million nodes); it
    # first looks at the clock after 65536 / 200 = 327 nodes. MiniMalloc's A packs perfectly, but not that soon.
    awk 'function r(m) { s = (s * 16807) % 2147483647; return s % m }
         BEGIN { s = 4; print "id,lower,upper,size"
                 for (i = 0; i < 200; i++) { lo = r(60); printf "h%d,%d,%d,%d\n", i, lo, lo + 1 + r(12), 1 + r(5000) } }' \
        >"$T/hard.csv"
    # budget_runs_out FILE BOUND: the search's best plan above the bound, for a capacity and without one.
    budget_runs_out() {
        run 4 "$A" plan -s exact --capacity "$2" --time-limit 0 "$1"
        hasre out "^  exact +[0-9]+ +$2 +\\+[0-9.]+% +best found +[0-9]+ .*\\(no plan within $2 bytes found in the time limit \\(best: [0-9]+ bytes\\)\\)\$"
        hasre out "^does not fit: the smallest plan \\(exact\\) needs [0-9]+ bytes, [0-9]+ more than the capacity \\($2 bytes\\); the lower bound, $2, would fit, but exact found no plan within it in the time limit \\(0 s\\)\$"
        hasre err "^aplan: $1: no plan within $2 bytes found in the time limit \\(exact, best: [0-9]+ bytes\\): the smallest plan \\(exact\\) needs [0-9]+ bytes, [0-9]+ more\$"
        run 0 "$A" plan -s exact --time-limit 0 "$1"
        hasre out "^\\* exact +[0-9]+ +$2 +\\+[0-9.]+% +best found +[0-9]+ "
        hasre out "^best: exact, [0-9]+ bytes: [0-9]+ bytes above the lower bound \\(\\+[0-9.]+%\\), not proven optimal \\(the search's time limit, 0 s, ran out\\)\$"
        run 0 "$A" plan -s exact --time-limit 0 -f c "$1"
        has out "lower bound $2 bytes (the best plan a search found; not proven optimal)."
    }
    budget_runs_out "$T/hard.csv" 66498
    if have_shared benchmarks/minimalloc/A.1048576.csv; then
        budget_runs_out "$S/benchmarks/minimalloc/A.1048576.csv" 1048576
    fi
    # A group too large to search (the gap case scaled by two, chained to 4,088 one-byte buffers: 4,096 in one group,
    # more than exact's region holds): exact slides greedy_by_size's plan down and up, which does not lower it here, and
    # says so, without blaming the time limit.
    awk 'BEGIN { print "id,lower,upper,size"; split("6 2 4|8 2 6|4 3 6|12 6 10|10 5 7|6 0 3|10 0 1|2 1 5", g, "|")
                 for (i = 1; i <= 8; i++) { split(g[i], f, " "); printf "g%d,%d,%d,%d\n", i, f[2], f[3], f[1] }
                 for (k = 0; k < 4088; k++) printf "c%d,%d,%d,1\n", k, 9 + k, 11 + k }' >"$T/big_group.csv"
    run 0 "$A" plan -s exact --time-limit 60 "$T/big_group.csv"
    hasre out '^\* exact +26 +22 +\+18\.2% +best found +[0-9]+ '
    line out "best: exact, 26 bytes: 4 bytes above the lower bound (+18.2%), not proven optimal (a group of 4096 buffers is too large to search, more than the search's memory holds: its plan was slid down and up until that lowered it no more; a longer time limit changes nothing)"
    run 4 "$A" plan -s exact --capacity 24 --time-limit 60 "$T/big_group.csv"
    line err "aplan: $T/big_group.csv: no plan within 24 bytes found by sliding a group too large to search (exact, best: 26 bytes): the smallest plan (exact) needs 26 bytes, 2 more"
    line out "does not fit: the smallest plan (exact) needs 26 bytes, 2 more than the capacity (24 bytes); the lower bound, 22, would fit, but exact found no plan within it: a group of 4096 buffers was too large to search"
    run 0 "$A" plan -s exact --time-limit 60 -f json "$T/big_group.csv"
    has out '"outcome": "best_found", "nodes": 12288, "unsearched": 4096, "out_of_time": false, "goal": "minimise"'
    # A search's plan of ties: embedded it needs no smaller arena (see ties above), compiled in it does, and the
    # command repeats the search (its limit, and the capacity it fitted); no adapter, which does not search.
    run 0 "$A" plan -s exact --time-limit 5 --target cortex-m4 "$TIES"
    hasre out "^\\* exact +96 +96 +\\+0\\.0% +optimal +[0-9]+ "
    line out "  compiled in, 612 bytes (252 less; arena_used_bytes() 552)"
    line out "  write it as a C header for aplan_tflm::AplanCompiledPlanner (integrations/tflm/), which needs no planning scratch (the search finished, so this command repeats it):"
    line out "    aplan plan -s exact --time-limit 5 --capacity 262144 $TIES -f c -o ties_plan.h"
    lacks out "aplan embed -s"
    lacks out "AplanMemoryPlanner"
    # embed takes the limit too (its default strategy list is auto).
    run 0 "$A" embed --time-limit 0.5 "$TIES" -o "$T/ties_tl.tflite"
    has out "planned section 112 -> 96 bytes (TFLM's greedy planner -> greedy_by_size; TFLM places the kernels' scratch around its tensors), lower bound 96 bytes, optimal;"
    if have_shared models/person_detect.tflite models/audio_preprocessor_int8.tflite; then
        # With its kernel's scratch, TFLM's own plan of audio_preprocessor_int8 is optimal: no advice to embed.
        run 0 "$A" plan -s exact --time-limit 5 --target cortex-m4 "$S/models/audio_preprocessor_int8.tflite"
        hasre out "^\\* exact +3040 +3040 +\\+0\\.0% +optimal +[0-9]+ "
        line out "in TFLM: with its own planner (GreedyMemoryPlanner) set the arena to 8492 bytes (arena_used_bytes() then reports 8488). This plan needs less:"
        line out "  compiled in, 8448 bytes (44 less; arena_used_bytes() 8440)"
        lacks out "aplan embed -s"
        run 0 "$A" embed --time-limit 0.5 "$S/models/audio_preprocessor_int8.tflite" -o "$T/ap_tl.tflite"
        has out "planned section 3040 -> 3040 bytes (TFLM's greedy planner -> greedy_by_size_tflm; TFLM places the kernels' scratch around its tensors), lower bound 3040 bytes, optimal;"
    fi
fi

# --- the progress line ------------------------------------------------------------------------------------------
# Only on a terminal: with stderr a file, nothing extra is written, even when every phase would show it.
run 0 "$A" plan -s linear,greedy_by_size -f csv "$I12"
cp "$T/out" "$T/quiet.csv"
APLAN_PROGRESS_AFTER_MS=0 run 0 "$A" plan -s linear,greedy_by_size -f csv "$I12"
empty err
checks=$((checks + 1))
cmp -s "$T/out" "$T/quiet.csv" || fail "the progress knob changed the CSV"
APLAN_PROGRESS_AFTER_MS=0 run 0 "$A" bound "$I12"
empty err
APLAN_PROGRESS_AFTER_MS=0 run 0 "$A" verify "$I12" "$T/quiet.csv"
empty err
if [ -n "${PYTHON:-}" ]; then
    # tty.py WHERE OUT TTY COMMAND...: run COMMAND with stderr (WHERE=err) or both streams (WHERE=both) on a new
    # terminal; the terminal's bytes go to TTY, stdout (WHERE=err) to OUT; the exit code is the command's.
    cat >"$T/tty.py" <<'PY'
import os, subprocess, sys
where, out, tty, cmd = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
master, slave = os.openpty()
with open(out, "wb") as o:
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=slave if where == "both" else o, stderr=slave)
    os.close(slave)
    got = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError: # EIO: every copy of the terminal's other end is closed
            break
        if not chunk:
            break
        got += chunk
    rc = p.wait()
open(tty, "wb").write(got)
sys.exit(rc)
PY
    # tty_is TEXT: the terminal received exactly TEXT (a Python bytes literal).
    tty_is() {
        checks=$((checks + 1))
        "$PYTHON" -c 'import sys; got = open(sys.argv[1], "rb").read(); want = eval(sys.argv[2])
sys.exit(0 if got == want else "got  %r\nwant %r" % (got, want))' "$T/tty" "$1" || fail "'$last': the terminal's bytes"
    }
    E='\r\x1b[K' # what starts every new text of the line, and clears it at the end
    # Threshold 0: every phase replaces the line, which is cleared at the end; stdout is the same CSV.
    APLAN_PROGRESS_AFTER_MS=0 run 0 "$PYTHON" "$T/tty.py" err "$T/out" "$T/tty" "$A" plan -s linear,greedy_by_size \
        -f csv "$I12"
    tty_is "b'${E}aplan: reading $I12...${E}aplan: checking the problem...${E}aplan: computing the lower bound...\
${E}aplan: planning linear (1 of 2)...${E}aplan: verifying linear (1 of 2)...\
${E}aplan: planning greedy_by_size (2 of 2)...${E}aplan: verifying greedy_by_size (2 of 2)...\
${E}aplan: writing the plan as CSV...${E}'"
    checks=$((checks + 1))
    cmp -s "$T/out" "$T/quiet.csv" || fail "the progress line changed the CSV"
    # The default threshold (about a second): a small input shows nothing.
    run 0 "$PYTHON" "$T/tty.py" err "$T/out" "$T/tty" "$A" plan -s linear,greedy_by_size -f csv "$I12"
    tty_is "b''"
    APLAN_PROGRESS_AFTER_MS=x run 0 "$PYTHON" "$T/tty.py" err "$T/out" "$T/tty" "$A" plan -f csv "$I12"
    tty_is "b''" # a knob that is not a number is ignored
    # An error clears the line first, so it starts its own line (the terminal turns LF into CR LF).
    APLAN_PROGRESS_AFTER_MS=0 run 6 "$PYTHON" "$T/tty.py" err "$T/out" "$T/tty" "$A" plan "$T/missing.csv"
    tty_is "b'${E}aplan: reading $T/missing.csv...${E}aplan: cannot open $T/missing.csv: No such file or directory\r\n'"
    # A search says how far it got from its stop callback, within its phase: with --time-limit 0 it looks at the
    # clock once, so there is one such text, between planning and verifying.
    # search_progress FILE BOUND: that text, for a search with that lower bound.
    search_progress() {
        APLAN_PROGRESS_AFTER_MS=0 run 0 "$PYTHON" "$T/tty.py" err "$T/out" "$T/tty" "$A" plan -s exact --time-limit 0 \
            -f csv "$1"
        checks=$((checks + 1))
        "$PYTHON" -c 'import re, sys; got = open(sys.argv[1], "rb").read()
sys.exit(0 if re.search(rb"\.\.\.\r\x1b\[Kaplan: planning exact \(1 of 1\)\.\.\.\r\x1b\[Kaplan: searching exact \(1 of 1\): "
                        rb"[0-9]+ nodes, lower bound " + sys.argv[2].encode() +
                        rb"\.\.\.\r\x1b\[Kaplan: verifying exact \(1 of 1\)\.\.\.", got)
         else repr(got))' "$T/tty" "$2" || fail "'$last': no search progress on the terminal"
    }
    if [ "$HAS_EXACT" = 1 ]; then
        search_progress "$T/hard.csv" 66498
        if have_shared benchmarks/minimalloc/A.1048576.csv; then
            search_progress "$S/benchmarks/minimalloc/A.1048576.csv" 1048576
        fi
    fi
    # The output on the same terminal: the line is cleared, then the table follows.
    APLAN_PROGRESS_AFTER_MS=0 run 0 "$PYTHON" "$T/tty.py" both "$T/out" "$T/tty" "$A" plan -s linear "$I12"
    checks=$((checks + 1))
    "$PYTHON" -c 'import sys; got = open(sys.argv[1], "rb").read()
sys.exit(0 if got.startswith(b"\r\x1b[Kaplan: reading ") and got.count(b"\x1b[K") == 6 and
         b"verifying linear (1 of 1)...\r\x1b[K" + sys.argv[2].encode() + b": 5 buffers," in got else repr(got[:300]))' \
        "$T/tty" "$I12" || fail "'$last': the line is not cleared before the table"
fi

# Sizes near 2^64 (issue 17): big (2^63 + 1 bytes) and q (2^62, aligned to 2^62) are live together, late (2^62)
# after them. Largest first puts big at 0 and q aligned above it, at 2^63 + 2^62, where it would end at 2^64: every
# strategy that does not search passes 2^64 - 1 by its own rule (q named). q at 0 and big above it end at
# 2^63 + 2^62 + 1, the lower bound: exact searches from the bound and the capacity when its start overflows, and
# so does auto's search when no cheap strategy planned.
printf 'id,lower,upper,size,alignment\nbig,0,2,9223372036854775809,1\nq,0,2,4611686018427387904,4611686018427387904\nlate,2,3,4611686018427387904,1\n' >"$T/big.csv"
if [ "$HAS_EXACT" = 1 ]; then
    run 0 "$A" plan -s greedy_by_size,exact "$T/big.csv"
    line out "lower bound: 13835058055282163713 bytes, reached at step 0"
    hasre out "^  greedy_by_size +- +13835058055282163713 +- +- +- +[0-9.]+ ms +no  \\(buffer 1: size or offset overflows 64 bits: buffer 1 is 'q' \\(line 3\\)\\)\$"
    hasre out '^\* exact +13835058055282163713 +13835058055282163713 +\+0\.0% +optimal +[0-9]+ +[0-9.]+ ms +yes$'
    line out "best: exact, 13835058055282163713 bytes: proven optimal (equals the lower bound)"
    run 0 "$A" plan -s exact -f csv -o "$T/big_plan.csv" "$T/big.csv"
    checks=$((checks + 1))
    printf 'id,lower,upper,size,alignment,offset\nbig,0,2,9223372036854775809,1,4611686018427387904\nq,0,2,4611686018427387904,4611686018427387904,0\nlate,2,3,4611686018427387904,1,0\n' |
        cmp -s - "$T/big_plan.csv" || fail "exact's plan of big.csv: $(cat "$T/big_plan.csv")"
    run 0 "$A" verify "$T/big.csv" "$T/big_plan.csv"
    line out "$T/big_plan.csv: valid: 3 buffers, arena 13835058055282163713 bytes, lower bound 13835058055282163713 bytes (+0.0%), optimal"
    run 0 "$A" plan -s auto "$T/big.csv"
    hasre out '^\* exact +13835058055282163713 +13835058055282163713 +\+0\.0% +optimal +[0-9]+ +[0-9.]+ ms +yes$'
    lines out 8 # auto keeps only the best plan's row
    run 0 "$A" plan -s auto --capacity 13835058055282163713 "$T/big.csv"
    line out "fits: 13835058055282163713 of 13835058055282163713 bytes (100.0% of the capacity); 0 bytes free"
fi
run 3 "$A" plan -s auto --time-limit 0 "$T/big.csv" # no search: nothing plans
line err "  greedy_by_size: buffer 1: size or offset overflows 64 bits: buffer 1 is 'q' (line 3)"
# Aligned to 2^63 and 2^62, a and b fit in no order: exact proves it and says so as the others do.
printf 'id,lower,upper,size,alignment\na,0,2,9223372036854775809,9223372036854775808\nb,1,3,4611686018427387904,4611686018427387904\n' >"$T/none.csv"
run 3 "$A" plan "$T/none.csv"
line err "aplan: $T/none.csv: no strategy could plan the input"
line err "  greedy_by_size: buffer 1: size or offset overflows 64 bits: buffer 1 is 'b' (line 3)"
[ "$HAS_EXACT" = 0 ] || line err "  exact: buffer 1: size or offset overflows 64 bits: buffer 1 is 'b' (line 3)"

# === Issue 17: formats and commands declared once, and the frictions =================================================
# Only inputs written here, the built-in example and the committed fuzz corpus: no shared data.

# --- Format names, any case: the formats' table serves -f, the help and the unknown-format message ------------------
run 0 "$A" -f SVG
has out '<svg xmlns="http://www.w3.org/2000/svg" class="aplan-layout"'
empty err
run 0 "$A" example -f Json
has out '"aplan_version": '
run 0 "$A" example -f C --name Net
line out "#define NET_ARENA_SIZE 32256u"
run 2 "$A" example -f SVG --name net
line err "aplan: example: --name applies to -f c only"
empty out
run 2 "$A" example -f svgg
line err "aplan: example: unknown format 'svgg' (did you mean 'svg'? table, csv, json, svg, html or c)"
run 0 "$A" plan --help
line out "  -f, --format FMT      table (default), csv, json, svg, html or c, any case:"
line out "                        svg    the best plan drawn (or, when none fits, the smallest with its overflow)"
line out "                        c      the best plan as a C header, with TFLM's BufferPlan (and each buffer's region)"
# The main help lists the commands from the command table, in its order.
run 0 "$A" --help
line out "       aplan INPUT [options]   (the same as aplan plan [options] INPUT)"
line out "  verify PROBLEM PLAN   check a plan (CSV with offsets, or a .tflite offline plan)"
line out "  embed MODEL -o OUT    write a copy of a .tflite model with the plan as its offline plan"

# --- No plan fits: the pictures draw the smallest plan with its overflow and the verdict (exit 4) -------------------
printf 'id,lower,upper,size\na,0,2,100\nb,1,3,50\nc,2,4,60\nd,3,5,30\n' >"$T/nofit.csv"
# linear puts a, b, c, d at 0, 100, 150 and 210: c and d pass the capacity of 200; the bound, 150, would fit.
run 4 "$A" plan -s linear --capacity 200 -f svg -o "$T/nofit.svg" "$T/nofit.csv"
line err "aplan: $T/nofit.csv: nothing fits the capacity of 200 bytes: the smallest plan (linear) needs 240 bytes, 40 more"
empty out
has nofit.svg "<title>nofit.csv ($T/nofit.csv): linear, arena 240 bytes, lower bound 150 bytes, 40 bytes over the capacity</title>"
has nofit.svg '<line class="capacity" x1="84" y1="492.67" x2="1170.0" y2="492.67" stroke="#e66100"'
has nofit.svg '<g class="overflow" pointer-events="none"><rect x="84" y="492.67" width="1086" height="83.33" fill="#e66100" fill-opacity="0.16"/><text x="88" y="505.67" fill="#a33d00">beyond the capacity</text></g>'
count nofit.svg 'stroke="#d7191c" stroke-width="1.5" data-over="1"><title>' 2
has nofit.svg 'data-over="1"><title>c: 60 bytes at offset 150, steps [2, 4)</title>'
has nofit.svg 'data-over="1"><title>d: 30 bytes at offset 210, steps [3, 5)</title>'
has nofit.svg '<text class="verdict" x="84" y="796" fill="#c00" font-weight="bold">does not fit: the smallest plan (linear) needs 240 bytes, 40 more than the capacity (200 bytes); the lower bound, 150, would fit</text>'
has nofit.svg 'width="1200" height="804" viewBox="0 0 1200 804"'
run 4 "$A" plan -s linear --capacity 200 -f HTML -o "$T/nofit.html" "$T/nofit.csv"
has nofit.html '<p class="verdict">does not fit: the smallest plan (linear) needs 240 bytes, 40 more than the capacity (200 bytes); the lower bound, 150, would fit</p>'
has nofit.html '<td>linear (smallest; does not fit)</td>'
# A model's pictures say what they draw and give TFLM's whole arena, the recommended setup marked; the capacity line
# says it is what TFLM's persistent data leaves the planned section. scratch.tflite at 500 bytes: its persistent data
# (456) leaves the section 44, below the bound (80), so the smallest plan is drawn over that line (exit 4).
run 4 "$A" plan -s greedy_by_size --capacity 500 -f svg -o "$T/scratch.svg" "$SCRATCH"
has scratch.svg '<text class="covers" x="84" y="56" fill="#333">drawn: TFLM&#39;s planned (non-persistent) section: the model&#39;s 5 planned tensors and 2 kernel scratch buffers (32-bit ABI); TFLM&#39;s persistent data is not drawn</text>'
has scratch.svg '<text class="tflm" x="84" y="71" fill="#333">TFLM arena (tflite-micro 90b983c2, reference kernels, 32-bit ABI), the setup the report recommends marked:</text>'
has scratch.svg '<text class="tflm recommended" x="84" y="86" fill="#333">TFLM&#39;s own planner (recommended): smallest arena 904; arena_used_bytes() 536 = planned tensors 64 + kernels&#39; scratch 16 + persistent 456</text>'
has scratch.svg '<text class="tflm" x="84" y="101" fill="#333">this plan, embedded: smallest arena 904; arena_used_bytes() 536 = planned tensors 64 + kernels&#39; scratch 16 + persistent 456</text>'
has scratch.svg '<text class="tflm" x="84" y="116" fill="#333">this plan, compiled: smallest arena 572; arena_used_bytes() 488 = planned tensors 64 + kernels&#39; scratch 16 + persistent 408</text>'
has scratch.svg '<text class="tflm" x="84" y="131" fill="#333">this plan, adapter: smallest arena '"$scratch_adapter"'; arena_used_bytes() 488 = planned tensors 64 + kernels&#39; scratch 16 + persistent 408</text>'
has scratch.svg '<text x="84" y="150" fill="#333">colour: size</text>' # the legend under the 6 lines (15 px each)
has scratch.svg ">capacity for the planned section: 44 B of 500 B, after TFLM's persistent data</text>"
has scratch.svg 'width="1200" height="894" viewBox="0 0 1200 894"' # 804 + 90
run 4 "$A" plan -s greedy_by_size --capacity 500 -f html -o "$T/scratch.html" "$SCRATCH"
has scratch.html '<p class="covers">Drawn, and the arenas of the table: TFLM&#39;s planned (non-persistent) section: the model&#39;s 5 planned tensors and 2 kernel scratch buffers (32-bit ABI); TFLM&#39;s persistent data is not drawn: the TFLM arena below counts it.</p>'
has scratch.html '<caption>TFLM arena (tflite-micro 90b983c2, reference kernels, 32-bit ABI): the setup the report recommends is marked</caption>'
has scratch.html '<tr class="recommended"><td>TFLM&#39;s own planner (recommended)</td><td>904</td><td>536</td><td>planned tensors 64 + kernels&#39; scratch 16 + persistent 456</td></tr>'
has scratch.html '<tr><td>this plan, embedded</td><td>904</td><td>536</td><td>planned tensors 64 + kernels&#39; scratch 16 + persistent 456</td></tr>'
has scratch.html '<tr><td>this plan, compiled</td><td>572</td><td>488</td><td>planned tensors 64 + kernels&#39; scratch 16 + persistent 408</td></tr>'
has scratch.html '<tr><td>this plan, adapter</td><td>'"$scratch_adapter"'</td><td>488</td><td>planned tensors 64 + kernels&#39; scratch 16 + persistent 408</td></tr>'
has scratch.html '"capacity":44,"wholeCapacity":500,'
# Lower bounds (an operator names.tflite's model does not know) and a model TFLM refuses say so in both pictures.
run 0 "$A" plan -s greedy_by_size -f svg -o "$T/names_tflm.svg" "$NAMES"
has names_tflm.svg '<text class="tflm recommended" x="84" y="86" fill="#333">TFLM&#39;s own planner (recommended): smallest arena 1292 (at least); arena_used_bytes() 792 = planned tensors 64 + kernels&#39; scratch 0 + persistent 728</text>'
has names_tflm.svg '<text class="tflm" x="84" y="146" fill="#333">not modelled: 1 operator the model does not know: every figure above is a lower bound</text>'
run 0 "$A" plan -s greedy_by_size -f html -o "$T/names_tflm.html" "$NAMES"
has names_tflm.html '<tr class="recommended"><td>TFLM&#39;s own planner (recommended)</td><td>1292 (at least)</td><td>792</td>'
has names_tflm.html '<p class="tflm">Not modelled: 1 operator the model does not know: every figure above is a lower bound.</p>'
run 0 "$A" plan -f svg -o "$T/refuse.svg" "$IN/refuse.tflite"
has refuse.svg '<text class="tflm" x="84" y="71" fill="#333">TFLM arena (tflite-micro 90b983c2, reference kernels, 32-bit ABI): TFLM refuses this model: DEQUANTIZE (op 0 of subgraph 0) rejects tensor type FLOAT16 (a type its kernel does</text>'
has refuse.svg '<text class="tflm" x="84" y="86" fill="#333">    not support) in its Prepare, so AllocateTensors() fails whatever the arena; 1 more operator refused</text>'
run 0 "$A" plan -f html -o "$T/refuse.html" "$IN/refuse.tflite"
has refuse.html '<p class="tflm">TFLM arena (tflite-micro 90b983c2, reference kernels, 32-bit ABI): TFLM refuses this model: DEQUANTIZE (op 0 of subgraph 0) rejects tensor type FLOAT16 (a type its kernel does not support) in its Prepare, so AllocateTensors() fails whatever the arena; 1 more operator refused</p>'
lacks refuse.html '<table id="tflm">'
# A CSV's pictures have no TFLM lines: they draw the input's buffers, as the table says.
lacks nofit.svg 'class="tflm'
lacks nofit.html 'id="tflm"'
if have_shared models/keyword_scrambled.tflite; then
    run 0 "$A" plan -f svg -o "$T/kws.svg" "$S/models/keyword_scrambled.tflite"
    has kws.svg '>TFLM&#39;s own planner (recommended): smallest arena 15588; arena_used_bytes() 13260 = planned tensors 288 + kernels&#39; scratch 384 + persistent 12588</text>'
    has kws.svg '>drawn: TFLM&#39;s planned (non-persistent) section: the model&#39;s 16 planned tensors and 14 kernel scratch buffers (32-bit ABI); TFLM&#39;s persistent data is not drawn</text>'
    run 4 "$A" plan --capacity 13100 -f svg -o "$T/kws_over.svg" "$S/models/keyword_scrambled.tflite"
    has kws_over.svg ">capacity for the planned section: 512 B of 12.8 KiB, after TFLM's persistent data</text>"
    run 0 "$A" plan -f html -o "$T/kws.html" "$S/models/keyword_scrambled.tflite"
    has kws.html '<tr><td>this plan, adapter</td><td>'"$kws_adapter"'</td><td>13212</td><td>planned tensors 288 + kernels&#39; scratch 384 + persistent 12540</td></tr>'
fi
# The bound above the capacity: every plan misses, the verdict says so; a plan for other tools is still not written.
run 4 "$A" plan --capacity 120 -f svg -o "$T/nobound.svg" "$T/nofit.csv"
has nobound.svg '<title>nofit.csv ('"$T"'/nofit.csv): greedy_by_size, arena 150 bytes, lower bound 150 bytes, 30 bytes over the capacity</title>'
has nobound.svg '>does not fit: the lower bound, 150 bytes, is 30 more than the capacity (120 bytes): no plan can fit</text>'
for fmt in csv c; do
    run 4 "$A" plan --capacity 120 -f $fmt -o "$T/nobound.$fmt" "$T/nofit.csv"
    checks=$((checks + 1))
    [ ! -e "$T/nobound.$fmt" ] || fail "'$last' wrote $T/nobound.$fmt"
done
# A verdict too long for one line is broken after a "; ", under the drawing: gap.csv (above) at 300000 times its sizes,
# which no plan packs into the target's 2 MiB although every step holds 1800000 bytes.
if [ "$HAS_EXACT" = 1 ]; then
    printf 'id,lower,upper,size\na,0,2,900000\nb,0,1,900000\nc,1,5,600000\nd,1,3,300000\ne,2,5,300000\n' >"$T/gapx.csv"
    printf 'f,3,6,900000\ng,5,9,900000\n' >>"$T/gapx.csv"
    run 4 "$A" plan -s exact --target cortex-m55-ethos-u55 -f svg -o "$T/gapx.svg" "$T/gapx.csv"
    has gapx.svg '<text class="verdict" x="84" y="796" fill="#c00" font-weight="bold">does not fit: the smallest plan (exact) needs 2100000 bytes, 2848 more than cortex-m55-ethos-u55&#39;s RAM (2097152 bytes);</text>'
    has gapx.svg '<text class="verdict" x="96" y="812" fill="#c00" font-weight="bold">exact proved that no plan fits it (57 nodes searched), though the lower bound, 1800000, does</text>'
    has gapx.svg 'width="1200" height="820" viewBox="0 0 1200 820"'
fi

# --- A long path: the SVG's heading and the page's start from the file's name (issue 31, point 8c), not from a path
# cut from the left; the <title>s name the file first, then keep the whole path. A file name too long for the heading
# is shortened from its start to stay inside the drawing.
long="$T/a_rather_long_folder_name_that_goes_on_and_on/through_another_level_of_folders/and_a_third_one_to_be_sure"
mkdir -p "$long"
printf 'id,lower,upper,size\na,0,2,100\nb,1,3,50\n' >"$long/problem.csv"
run 0 "$A" plan -s greedy_by_size -f svg -o "$T/longpath.svg" "$long/problem.csv"
has longpath.svg '<text x="84" y="22" font-size="15" font-weight="bold">problem.csv: greedy_by_size, arena 150 bytes, lower bound 150 bytes (+0.0%)</text>'
has longpath.svg "<title>problem.csv ($long/problem.csv): greedy_by_size, arena 150 bytes, lower bound 150 bytes</title>"
run 0 "$A" plan -s greedy_by_size -f html -o "$T/longpath.html" "$long/problem.csv"
line longpath.html "<h1>problem.csv</h1>"
line longpath.html "<p class=\"path\">$long/problem.csv</p>"
has longpath.html "<title>aplan: problem.csv ($long/problem.csv)</title>"
run 0 "$A" plan -s banked -f svg --region sram:1K -o "$T/longpath_regions.svg" "$long/problem.csv"
has longpath_regions.svg "<title>problem.csv ($long/problem.csv): "
has longpath_regions.svg '<text x="84" y="22" font-size="15" font-weight="bold">problem.csv: '
name=the_problem_with_a_file_name_so_long_that_it_cannot_fit_beside_the_figures_of_the_plan_in_the_heading.csv
cp "$long/problem.csv" "$T/$name"
run 0 "$A" plan -s greedy_by_size -f svg -o "$T/longname.svg" "$T/$name"
has longname.svg '<text x="84" y="22" font-size="15" font-weight="bold">...cannot_fit_beside_the_figures_of_the_plan_in_the_heading.csv: greedy_by_size,'
# A name without a folder is shown as it is, in the heading, the title and the page.
(cd "$T" && "$A" plan -s greedy_by_size -f html -o short.html nofit.csv) || fail "plan nofit.csv from its folder"
line short.html "<h1>nofit.csv</h1>"
lacks short.html '<p class="path">'
run 0 "$A" plan -s greedy_by_size -f svg -o "$T/short.svg" "$T/nofit.csv"
has short.svg "<text x=\"84\" y=\"22\" font-size=\"15\" font-weight=\"bold\">nofit.csv: greedy_by_size, arena"

# --- The helps: the G suffix documented where it is taken, example's help only with its own options ---------------
# (tests/cli/docs_test.py checks the helps against docs/aplan.1 and docs/cli.md.)
run 0 "$A" plan -s greedy_by_size --capacity 1g "$T/nofit.csv"
line out "fits: 150 of 1073741824 bytes (0.0% of the capacity); 1073741674 bytes free"
run 0 "$A" plan --help
line out "      --capacity BYTES  largest arena allowed; K, KB, KiB = 1024, M, MB, MiB = 1048576, G, GB, GiB ="
line out "                        1073741824 (any case); a verdict line says whether the plan fits; exit 4 when"
run 0 "$A" embed --help
line out "      --capacity BYTES  largest arena allowed (K, KB, KiB = 1024; M, MB, MiB = 1048576; G, GB, GiB ="
run 0 "$A" example --help
lacks out "--allow-alias"
lacks out "--max-input-size"
run 2 "$A" example --allow-alias
line err "aplan: example: option '--allow-alias' does not apply to this command"

# --- Plurals: a count of one takes the singular, in every output that prints counts ---------------------------------
printf 'id,lower,upper,size\na,0,1,1\n' >"$T/one.csv"
run 0 "$A" plan -s greedy_by_size "$T/one.csv"
line out "$T/one.csv: 1 buffer, alignment 1, sizes as given"
line out "lower bound: 1 byte, reached at step 0"
line out "covers: the input's 1 buffer, nothing else"
line out "best: greedy_by_size, 1 byte: proven optimal (equals the lower bound)"
run 0 "$A" plan -s greedy_by_size --capacity 2 "$T/one.csv"
line out "fits: 1 of 2 bytes (50.0% of the capacity); 1 byte free"
run 4 "$A" plan -s greedy_by_size --capacity 0 "$T/one.csv"
line out "does not fit: the lower bound, 1 byte, is 1 more than the capacity (0 bytes): no plan can fit"
line out "peak: step 0 holds 1 byte in 1 buffer; the largest:"
line out "  a                                   1 byte   steps [0, 1)"
line err "aplan: $T/one.csv: no plan can fit: the lower bound is 1 byte, 1 more than the capacity of 0 bytes"
printf 'id,lower,upper,size\na,0,1,1\nb,1,2,1\n' >"$T/two.csv"
run 4 "$A" plan -s linear --capacity 1 "$T/two.csv"
has out "  (needs 2 bytes, 1 more than the capacity of 1 byte)"
line err "aplan: $T/two.csv: nothing fits the capacity of 1 byte: the smallest plan (linear) needs 2 bytes, 1 more"
run 0 "$A" bound "$T/one.csv"
line out "at step 0: 1 buffer live, 1 byte"
run 0 "$A" plan -s greedy_by_size -f csv -o "$T/one_plan.csv" "$T/one.csv"
run 0 "$A" verify "$T/one.csv" "$T/one_plan.csv"
line out "$T/one_plan.csv: valid: 1 buffer, arena 1 byte, lower bound 1 byte (+0.0%), optimal"
run 0 "$A" plan -s greedy_by_size -f c "$T/one.csv"
line out " * 1 buffer, alignment 1, sizes as given; lower bound 1 byte (this plan is optimal)."
run 0 "$A" plan -s greedy_by_size -f svg "$T/one.csv"
has out "; 1 buffer in memory; hover a rectangle"
has out ": greedy_by_size, arena 1 byte, lower bound 1 byte</title>"
has out "<title>a: 1 byte at offset 0, steps [0, 1)</title>"
run 0 "$A" plan -s greedy_by_size -f html "$T/one.csv"
has out "<p>1 buffer, alignment 1, sizes as given. Lower bound 1 byte (no plan can be smaller)"
has out '<td title="1 byte">1 B <small>1</small></td><td title="1 byte">1 B</td>'
has out "function countOf(k, noun) { return k + ' ' + noun + (k === 1 ? '' : 's'); }"
run 7 "$A" plan --max-input-size 1 "$T/one.csv"
has err "bytes, more than the maximum input size of 1 byte (see --max-input-size)"

# --- "in TFLM:": the embed and adapter advice only where it gains over TFLM's own planner ---------------------------
SEED=$REPO/fuzz/corpus/tflite/seed-names.tflite
# TFLM's planner reaches the same 64 bytes: embedded nothing is gained, no command for it; compiled in, with no
# planning scratch, the arena to set drops from 960 to 756 bytes; with the adapter, whose planner and 32 bytes a buffer
# of planning scratch need less than TFLM's greedy planner in the arena with its 40, to 884, named second.
run 0 "$A" plan "$SEED"
checks=$((checks + 1))
[ "$(tail -n 1 "$T/out")" = "    aplan_tflm::AplanMemoryPlanner planner(aplan_strategy_greedy_by_size());" ] ||
    fail "'$last': the report does not end with the adapter"
line out "  compiled in, 756 bytes (204 less; arena_used_bytes() 536)"
line out "  or with the adapter, 884 bytes (76 less; arena_used_bytes() 536)"
lacks out "aplan embed"
# A plan larger than TFLM's planner's (80 bytes against 64): embedded it gains nothing; compiled in it still does.
run 0 "$A" plan -s linear "$SEED"
hasre out '^\* linear +80 '
line out "  compiled in, 756 bytes (204 less; arena_used_bytes() 552)"
lacks out "aplan embed"
# A model where TFLM's planner needs 32000 bytes and greedy_by_size 30400: six tensors written and last read by ADDs
# (tests/tflite_writer.c), whose lifetimes make TFLM's tie order lose 1600 bytes, large enough beside TFLM's working
# space that the smallest arena drops too. The advice follows, and it is right: the embed command it prints writes
# the 30400-byte plan.
cat >"$T/gain_model.c" <<'EOF'
#include <stdio.h>
#include "tflite_writer.h"
int main(void) {
    static const int32_t s0[] = {4800}, s1[] = {1600}, s2[] = {9600}, s3[] = {12800}, s4[] = {3200}, s5[] = {12800};
    static const int32_t t0[] = {0}, t1[] = {1}, t2[] = {2}, t3[] = {3}, t4[] = {4}, t5[] = {5};
    static const tw_opcode codes[] = {{0, 0}};
    static const tw_tensor t[] = {{s0, 1, 9, 0, false}, {s1, 1, 9, 0, false}, {s2, 1, 9, 0, false},
                                  {s3, 1, 9, 0, false}, {s4, 1, 9, 0, false}, {s5, 1, 9, 0, false}};
    static const tw_op ops[] = {{0, NULL, 0, t5, 1, 0, {0, 0}, 0}, {0, NULL, 0, t0, 1, 0, {0, 0}, 0},
                                {0, t5, 1, t3, 1, 0, {0, 0}, 0},   {0, t0, 1, t1, 1, 0, {0, 0}, 0},
                                {0, t3, 1, t4, 1, 0, {0, 0}, 0},   {0, NULL, 0, t2, 1, 0, {0, 0}, 0},
                                {0, t1, 1, NULL, 0, 0, {0, 0}, 0}, {0, t4, 1, NULL, 0, 0, {0, 0}, 0}};
    static const tw_subgraph sg[] = {{t, 6, NULL, 0, NULL, 0, ops, 8}};
    static const tw_buffer buffers[] = {{NULL, 0, 0, 0}};
    tw_model m = {3, codes, 1, sg, 1, buffers, 1, NULL, 0};
    tw_file f = tw_build(&m);
    int ok = fwrite(f.data, 1, f.size, stdout) == f.size && fflush(stdout) == 0;
    tw_free(&f);
    return ok ? 0 : 1;
}
EOF
run 0 "$CC" -std=c11 -Wall -Wextra -Werror -I"$REPO/tests" -o "$T/gain_model" "$T/gain_model.c" "$REPO/tests/tflite_writer.c"
run 0 "$T/gain_model"
cp "$T/out" "$T/gain.tflite"
run 0 "$A" plan -s greedy_by_size,greedy_by_size_tflm "$T/gain.tflite"
hasre out '^\* greedy_by_size +30400 +30400 '
hasre out '^  greedy_by_size_tflm +32000 +30400 '
line out "in TFLM: with its own planner (GreedyMemoryPlanner) set the arena to 33032 bytes (arena_used_bytes() then reports 33040). This plan needs less:"
line out "  embedded, 31432 bytes (1600 less; arena_used_bytes() 31440)"
line out "    aplan embed -s greedy_by_size $T/gain.tflite -o gain_planned.tflite"
line out "  or compiled in, 31388 bytes (1644 less; arena_used_bytes() 31392)"
line out "    aplan plan -s greedy_by_size $T/gain.tflite -f c -o gain_plan.h"
line out "  or with the adapter, 31388 bytes (1644 less; arena_used_bytes() 31392)"
line out "    aplan_tflm::AplanMemoryPlanner planner(aplan_strategy_greedy_by_size());"
(cd "$T" && "$A" embed -s greedy_by_size "$T/gain.tflite" -o gain_planned.tflite >/dev/null 2>&1)
run 0 "$A" plan "$T/gain_planned.tflite"
hasre out '^\* offline +30400 +30400 '
# At 31440 bytes TFLM's own planner (33032) does not fit and this plan does: the verdict, the exit code and the advice
# are one setup's, the one with the smallest arena that fits: compiled in (31388; the adapter's is the same, named
# second), for a search's plan too (the adapter would not make it).
run 0 "$A" plan -s greedy_by_size,greedy_by_size_tflm --capacity 31440 "$T/gain.tflite"
line out "fits only with this plan compiled in: TFLM's arena needs 31388 of 31440 bytes (99.8% of the capacity); 52 bytes free; with its own planner it needs 33032, 1592 more"
line out "in TFLM: its own planner needs 33032 bytes, more than the capacity; with this plan compiled in set the arena to 31388 bytes (arena_used_bytes() then reports 31392):"
line out "    aplan plan -s greedy_by_size $T/gain.tflite -f c -o gain_plan.h"
lacks out "aplan embed -s"
run 0 "$A" plan -s exact --time-limit 5 --capacity 31440 "$T/gain.tflite"
line out "fits only with this plan compiled in: TFLM's arena needs 31388 of 31440 bytes (99.8% of the capacity); 52 bytes free; with its own planner it needs 33032, 1592 more"
line out "    aplan plan -s exact --time-limit 5 --capacity 31440 $T/gain.tflite -f c -o gain_plan.h"
lacks out "AplanMemoryPlanner"
run 0 "$A" plan -s exact --time-limit 5 --capacity 31440 -f json "$T/gain.tflite"
has out '"tflm_arena_bytes": 31388, "tflm_arena_fits": true, "tflm_setup": "compiled"}'
has out '"setup": "compiled"'
# A search's plan that needs less: the embed command repeats the search (with the limit and, for a fit, the
# capacity), and no run-time adapter, which would search again.
run 0 "$A" plan -s exact --time-limit 5 --target cortex-m4 "$T/gain.tflite"
hasre out "^\\* exact +30400 +30400 +\\+0\\.0% +optimal +[0-9]+ "
line out "  write it into the model as its offline plan (the search finished, so this command repeats it):"
line out "    aplan embed -s exact --time-limit 5 --capacity 262144 $T/gain.tflite -o gain_planned.tflite"
lacks out "AplanMemoryPlanner"

# --- models TFLM refuses: no figure, the operator and why, exit 8 from arena (and from plan with a capacity) --------
# refuse.tflite and refuse_fc.tflite (make_models.c): a DEQUANTIZE of FLOAT16 and a hybrid FULLY_CONNECTED.
cp "$IN/refuse.tflite" "$IN/refuse_fc.tflite" "$T/"
DQ_REFUSED="TFLM refuses this model: DEQUANTIZE (op 0 of subgraph 0) rejects tensor type FLOAT16 (a type its kernel does not support) in its Prepare, so AllocateTensors() fails whatever the arena; 1 more operator refused"
run 8 "$A" arena "$T/refuse.tflite"
line err "aplan: $T/refuse.tflite: $DQ_REFUSED"
empty out
run 8 "$A" arena --abi 64 "$T/refuse_fc.tflite"
line err "aplan: $T/refuse_fc.tflite: TFLM refuses this model: FULLY_CONNECTED (op 0 of subgraph 0) rejects input FLOAT32 with weights INT8 (a hybrid model: TFLM pairs float32 with float32, int8 with int8 or int4, int16 with int8) in its Prepare, so AllocateTensors() fails whatever the arena; 1 more operator refused"
# plan: the plan is made (exit 0) and the TFLM line says why no arena runs it, with no figure and no advice to set one.
run 0 "$A" plan "$T/refuse.tflite"
line out "TFLM arena (tflite-micro 90b983c2, reference kernels, 32-bit ABI): $DQ_REFUSED"
line out "in TFLM: no arena runs this model (TFLM refuses it, above): no plan changes that"
lacks out "smallest arena"
lacks out "arena_used_bytes()"
# With a capacity the question is whether it runs there: it does not (exit 8), whatever the section.
run 8 "$A" plan --capacity 64K "$T/refuse.tflite"
line out "does not fit: TFLM refuses this model (above), so no arena of the capacity runs it"
line err "aplan: $T/refuse.tflite: $DQ_REFUSED"
run 0 "$A" plan -f json "$T/refuse.tflite"
has out "\"arena_error\": \"$DQ_REFUSED\", \"setup\": null,"
has out '"own_planner": null'

# --- CSV lifetimes that look inclusive or empty: a warning on stderr, the plan and exit code as they were -----------
printf 'id,lower,upper,size\na,0,1,100\nb,1,2,100\nc,2,2,100\nd,3,4,100\n' >"$T/incl.csv"
run 0 "$A" plan -s greedy_by_size -f csv "$T/incl.csv"
line out "a,0,1,100,0"
line out "b,1,2,100,0"
line out "c,2,2,100,0"
line out "d,3,4,100,0"
line err "aplan: warning: $T/incl.csv: the lifetimes look inclusive or empty (the plan is made as they are):"
line err "  1 row has lower equal to upper, never live (an empty lifetime holds no bytes): 'c' (line 4)"
line err "  no two of the 3 live buffers share a step: every plan may put them all at offset 0"
line err "  upper is exclusive: a buffer is live at steps [lower, upper), lower to upper - 1;"
line err "  for inclusive ends, name the columns start,end (id,start,end,size: live from start to end)"
lines err 5
# The same rows with inclusive ends, as start,end: no warning, and the buffers that share a step get their own bytes.
printf 'id,start,end,size\na,0,1,100\nb,1,2,100\nc,2,2,100\nd,3,4,100\n' >"$T/incl_se.csv"
run 0 "$A" plan -s greedy_by_size "$T/incl_se.csv"
empty err
line out "best: greedy_by_size, 200 bytes: proven optimal (equals the lower bound)"
# Every command that reads a problem warns: bound, verify (its PROBLEM, not its PLAN); the exit code stays.
run 0 "$A" bound "$T/incl.csv"
lines err 5
run 0 "$A" plan -s greedy_by_size -f csv -o "$T/incl_plan.csv" "$T/incl.csv"
run 0 "$A" verify "$T/incl.csv" "$T/incl_plan.csv"
lines err 5
line out "$T/incl_plan.csv: valid: 4 buffers, arena 100 bytes, lower bound 100 bytes (+0.0%), optimal"
run 4 "$A" plan -s greedy_by_size --capacity 50 "$T/incl.csv"
line err "  no two of the 3 live buffers share a step: every plan may put them all at offset 0"
# Empty rows only (the live ones share steps): their count, the first three by id and line, no word about sharing.
printf 'id,lower,upper,size\ne1,4,4,8\ne2,0,0,8\nx,0,5,8\ne3,9,9,8\ny,2,6,8\ne4,1,1,8\ne5,7,7,8\n' >"$T/empties.csv"
run 0 "$A" plan -s greedy_by_size "$T/empties.csv"
line err "  5 rows have lower equal to upper, never live (an empty lifetime holds no bytes): 'e1' (line 2), 'e2' (line 3), 'e3' (line 5) and 2 more"
lacks err "share a step"
lines err 4
# Rows out of order whose lifetimes never meet (the sorted sweep): the word about sharing only.
printf 'id,lower,upper,size\nc,20,30,8\na,0,10,8\nb,10,20,8\n' >"$T/apart.csv"
run 0 "$A" plan -s greedy_by_size "$T/apart.csv"
line err "aplan: warning: $T/apart.csv: the lifetimes look inclusive or empty (the plan is made as they are):"
line err "  no two of the 3 live buffers share a step: every plan may put them all at offset 0"
lines err 4
# Some rows, not all (issue 31, point 8f): a row that shares a step with no other live buffer yet touches one end to
# start (c starts where b ends) is what inclusive ends of a producer and its consumer look like: counted, the first
# named. Rows out of order are sorted (c before a and b in the file).
printf 'id,lower,upper,size\nc,20,30,8\na,0,10,8\nb,9,20,8\n' >"$T/meet.csv"
run 0 "$A" plan -s greedy_by_size "$T/meet.csv"
line err "aplan: warning: $T/meet.csv: the lifetimes look inclusive or empty (the plan is made as they are):"
line err "  1 of the 3 live rows shares a step with no other, yet touches one end to start, as inclusive ends would: the first is 'c' (line 2)"
lacks err "no two of"
lines err 4
# A chain where some operators' inputs and outputs touch and others share: 3 of 5 rows, the first in file order.
printf 'id,lower,upper,size\nin,0,1,8\nx,1,3,8\ny,1,3,8\nw,3,4,8\nz,4,5,8\n' >"$T/part.csv"
run 0 "$A" bound "$T/part.csv"
line err "  3 of the 5 live rows share a step with no other, yet touch one end to start, as inclusive ends would: the first is 'in' (line 2)"
lines err 4
# Two that share a step, or a single live buffer: nothing to warn about; neighbouring rows (a, b) or rows apart,
# out of order, that the sorted sweep finds (a, b again, d between them, touching none).
printf 'id,lower,upper,size\nc,20,30,8\na,0,10,8\nb,9,21,8\n' >"$T/meet2.csv"
run 0 "$A" plan -s greedy_by_size "$T/meet2.csv"
empty err
printf 'id,lower,upper,size\nc,20,30,8\na,0,10,8\nd,40,50,8\nb,9,21,8\n' >"$T/meet_apart.csv"
run 0 "$A" plan -s greedy_by_size "$T/meet_apart.csv"
empty err
run 0 "$A" plan -s greedy_by_size "$T/one.csv"
empty err
# Not for models: the example's and a model's lifetimes are TFLM's.
run 0 "$A" plan "$SEED"
empty err

# --- Several memories: --region -------------------------------------------------------------------------------------
# docs/design.md's case: SRAM 100 bytes. a (64 B, steps 0-1, 1 use) and b (64 B, steps 1-2, 3 uses) are live together,
# so one leaves SRAM; c (32 B, steps 2-3, 5 uses) fits beside b. banked takes a (equal sizes: input order) and sends
# b, the busier, to PSRAM: 192 bytes of traffic; select leaves a out (1 use per busy step against b's 3): 64, which
# exact proves least (the bound: 28 bytes must leave at step 1, a's at 1 use each).
printf 'id,lower,upper,size,uses\na,0,2,64,1\nb,1,3,64,3\nc,2,4,32,5\n' >"$T/abc.csv"
run 0 "$A" plan "$T/abc.csv" --region sram:100 --region psram:1K
line out "$T/abc.csv: 3 buffers, alignment 1, sizes as given; 2 regions, fastest first: sram 100 bytes, psram 1024 bytes"
line out "lower bounds: sram 0, psram 0 bytes (what is pinned to each); traffic at least 28 bytes"
line out "traffic: the bytes of the buffers outside sram times the operators that read or write them (uses: the uses column)"
hasre out "^  banked +64 +64 +192 +\+585\.7% plan "
hasre out "^\* select +96 +64 +64 +\+128\.6% plan "
hasre out "^  exact +96 +64 +64 +\+128\.6% optimal "
line out "best: select, traffic 64 bytes: proven least (exact)"
line out "  sram           2 buffers, 96 of 100 bytes (96.0%), 4 free"
line out "fits: every region within its capacity"
empty err
# -f csv: uses, then offset, then the region's name; read back, the region column pins every buffer where it is.
run 0 "$A" plan -s select -f csv -o "$T/abc_plan.csv" "$T/abc.csv" --region sram:100 --region psram:1K
run 0 cat "$T/abc_plan.csv"
lines_of out "id,lower,upper,size,uses,offset,region
a,0,2,64,1,0,psram
b,1,3,64,3,0,sram
c,2,4,32,5,64,sram"
run 0 "$A" plan -s banked "$T/abc_plan.csv" --region sram:100 --region psram:1K
line out "lower bounds: sram 96, psram 64 bytes (what is pinned to each); traffic at least 64 bytes"
hasre out "^\* banked +96 +64 +64 +\+0\.0% optimal "
# verify --region (issue 32, point 6): the plan -f csv wrote checks region by region (aplan_region_verify); before,
# verify took no --region, read every buffer into one arena and called this valid plan's a and b an overlap (exit 5).
run 0 "$A" verify "$T/abc.csv" "$T/abc_plan.csv" --region sram:100 --region psram:1K
line out "$T/abc_plan.csv: valid: 3 buffers in 2 regions: sram 96 of 100, psram 64 of 1024 bytes; traffic 64 bytes, lower bound 28 bytes (+128.6%)"
empty err
run 0 "$A" verify "$T/abc_plan.csv" "$T/abc_plan.csv" --region sram:100 --region psram:1K # PROBLEM's column pins
line out "$T/abc_plan.csv: valid: 3 buffers in 2 regions: sram 96 of 100, psram 64 of 1024 bytes; traffic 64 bytes, lower bound 64 bytes, least"
# Tampered: c moved onto b in sram; a moved into sram beside b; a pinned to psram by PROBLEM but put in sram.
sed 's/^c,2,4,32,5,64,sram$/c,2,4,32,5,32,sram/' "$T/abc_plan.csv" >"$T/tampered.csv"
run 5 "$A" verify "$T/abc.csv" "$T/tampered.csv" --region sram:100 --region psram:1K
line err "aplan: $T/tampered.csv: verification failed: buffers 1 and 2 overlap at steps [2, 3), bytes [32, 64): buffer 1 is 'b' (line 3), buffer 2 is 'c' (line 4) in sram"
empty out
sed 's/^a,0,2,64,1,0,psram$/a,0,2,64,1,0,sram/' "$T/abc_plan.csv" >"$T/tampered.csv"
run 5 "$A" verify "$T/abc.csv" "$T/tampered.csv" --region sram:100 --region psram:1K
line err "aplan: $T/tampered.csv: verification failed: buffers 0 and 1 overlap at steps [1, 2), bytes [0, 64): buffer 0 is 'a' (line 2), buffer 1 is 'b' (line 3) in sram"
run 5 "$A" verify "$T/abc_plan.csv" "$T/tampered.csv" --region sram:100 --region psram:1K
line err "aplan: $T/tampered.csv: verification failed: buffer 0 is in region 0, which it may not use: buffer 0 is 'a' (line 2)"
# A region the plan's row names that is none of them, or none; a buffer it omits is unplaced.
sed 's/^a,0,2,64,1,0,psram$/a,0,2,64,1,0,dram/' "$T/abc_plan.csv" >"$T/tampered.csv"
run 3 "$A" verify "$T/abc.csv" "$T/tampered.csv" --region sram:100 --region psram:1K
line err "aplan: $T/tampered.csv: line 2: region 'dram' is not one of the regions (sram, psram)"
sed 's/^a,0,2,64,1,0,psram$/a,0,2,64,1,0,/' "$T/abc_plan.csv" >"$T/tampered.csv"
run 3 "$A" verify "$T/abc.csv" "$T/tampered.csv" --region sram:100 --region psram:1K
line err "aplan: $T/tampered.csv: line 2: no region: a plan puts each buffer in one of the regions (sram, psram)"
head -n 3 "$T/abc_plan.csv" >"$T/tampered.csv"
run 5 "$A" verify "$T/abc.csv" "$T/tampered.csv" --region sram:100 --region psram:1K
line err "aplan: $T/tampered.csv: verification failed: buffer 2 is not placed (region 0): buffer 2 is 'c' (line 4) in sram"
# Valid, but past a region's capacity: exit 4, as plan says it.
run 4 "$A" verify "$T/abc.csv" "$T/abc_plan.csv" --region sram:90 --region psram:1K
line out "does not fit: sram's arena, 96 bytes, is 6 more than its capacity (90)"
# With regions the plan must say them; without, a region column is an error, not ignored (plan and verify).
run 3 "$A" verify "$T/abc.csv" "$T/abc.csv" --region sram:100 --region psram:1K
line err "aplan: $T/abc.csv: it has no 'region' column: with regions, the plan is a CSV with 'offset' and 'region' columns (\`aplan plan -f csv --region ...\` writes one)"
run 3 "$A" verify "$T/abc.csv" "$T/abc_plan.csv"
line err "aplan: $T/abc_plan.csv: it has a 'region' column, which only --region (or a --target with a memory map) reads: give the regions (--region NAME:SIZE, repeated, fastest first), or leave the column out"
run 3 "$A" verify "$T/abc_plan.csv" "$T/abc_plan.csv"
line err "aplan: $T/abc_plan.csv: it has a 'region' column, which only --region (or a --target with a memory map) reads: give the regions (--region NAME:SIZE, repeated, fastest first), or leave the column out"
run 3 "$A" plan "$T/abc_plan.csv"
line err "aplan: $T/abc_plan.csv: it has a 'region' column, which only --region (or a --target with a memory map) reads: give the regions (--region NAME:SIZE, repeated, fastest first), or leave the column out"
empty out
# A model's region plan, TFLM's persistent data counted in psram as plan counts it; a target's memory map.
run 0 "$A" plan --region sram:1K --region psram:64K -f csv -o "$T/chain_regions.csv" "$CHAIN"
run 0 "$A" verify --region sram:1K --region psram:64K "$CHAIN" "$T/chain_regions.csv"
line out "$T/chain_regions.csv: valid: 5 buffers in 2 regions: sram 1024 of 1024, psram 512 of 64608 bytes; traffic 1024 bytes, lower bound 1024 bytes, least"
line out "psram holds TFLM's persistent data too (928 bytes): the plan had 64608 of its 65536 bytes"
run 0 "$A" plan --target stm32h743 -f csv -o "$T/chain_h7.csv" "$CHAIN"
run 0 "$A" verify --target stm32h743 "$CHAIN" "$T/chain_h7.csv"
has out "$T/chain_h7.csv: valid: 5 buffers in 2 regions: dtcm 1536 of 131072, axi 0 of "
run 3 "$A" verify --target stm32h743 "$CHAIN" "$CHAIN"
line err "aplan: $CHAIN: a model's offline plan is one arena: with regions, the plan is a CSV with 'offset' and 'region' columns (\`aplan plan -f csv --region ...\` writes one)"
# Pins no plan keeps: a and b both in SRAM need 128 of its 100 bytes at step 1 (exit 4, the table still written).
printf 'id,lower,upper,size,region\na,0,2,64,sram\nb,1,3,64,sram\n' >"$T/pinned.csv"
run 4 "$A" plan "$T/pinned.csv" --region sram:100 --region psram:1K
line err "aplan: $T/pinned.csv: no plan can fit every region: the buffers pinned to sram need at least 128 bytes, 28 more than its 100"
line out "  banked: sram needs 128 bytes, 28 more than its 100 (proven: no plan fits every region)"
run 3 "$A" plan "$T/pinned.csv" --region fast:100 --region slow:1K
line err "aplan: $T/pinned.csv: line 2: region 'sram' is not one of the regions (fast, slow)"
# A fixed offset is in one region: the input must say which.
printf 'id,lower,upper,size,offset\na,0,2,64,0\n' >"$T/fixed_any.csv"
run 3 "$A" plan "$T/fixed_any.csv" --region a:100 --region b:1K
line err "aplan: $T/fixed_any.csv: buffer 0 'a' (line 2) has a fixed offset (its offset column) but may go to more than one region: a fixed offset is in one region; pin it with a region column"
printf 'id,lower,upper,size,offset,region\na,0,2,64,0,b\n' >"$T/fixed_pinned.csv"
run 0 "$A" plan -s banked -f csv "$T/fixed_pinned.csv" --region a:100 --region b:1K
line out "a,0,2,64,0,b"
# -f c: each region's arena and alignment, each buffer's region and offset in it.
run 0 "$A" plan -s select -f c --name m "$T/abc.csv" --region sram:100 --region psram:1K:32
line out "#define M_REGION_SRAM 0u"
line out "#define M_REGION_PSRAM_SIZE 64u /* the arena it needs, of 1024 */"
line out "#define M_REGION_PSRAM_ALIGNMENT 32u"
line out "static const char *const m_region_names[M_REGION_COUNT] = {\"sram\", \"psram\"};"
line out "    1, /* 0 psram */"
line out "    64u, /* 2 c: steps [2, 4) */"
# Every region header compiles as C11 with -Wall -Wextra -Werror -pedantic (issue 32, point 4) and means what it
# says: each region's index macro is its place in PREFIX_region_names, each buffer's region is one of them and its
# offset a multiple of that region's alignment; the program prints each region's size macro.
# region_header NAMES PRINTED ARGS...: `aplan ARGS -f c --name Rh` (a prefix not in lower case: macros RH_, arrays Rh_),
# whose regions are NAMES (space-separated, fastest first), compiled into a program that prints PRINTED.
region_header() {
    names=$1 printed=$2
    shift 2
    run 0 "$A" "$@" -f c --name Rh -o "$T/rh.h"
    {
        printf '#include <stdio.h>\n#include <string.h>\n#include "rh.h"\n#include "rh.h" /* the guard */\n'
        printf 'static const unsigned long long size[RH_REGION_COUNT] = {'
        for n in $names; do printf 'RH_REGION_%s_SIZE, ' "$(echo "$n" | tr 'a-z.-' 'A-Z__')"; done
        printf '};\nstatic const unsigned long long align[RH_REGION_COUNT] = {'
        for n in $names; do printf 'RH_REGION_%s_ALIGNMENT, ' "$(echo "$n" | tr 'a-z.-' 'A-Z__')"; done
        printf '};\nstatic const unsigned index_of[RH_REGION_COUNT] = {'
        for n in $names; do printf 'RH_REGION_%s, ' "$(echo "$n" | tr 'a-z.-' 'A-Z__')"; done
        printf '};\nstatic const char *const name[RH_REGION_COUNT] = {'
        for n in $names; do printf '"%s", ' "$n"; done
        cat <<'EOF'
};
int main(void) {
    for (unsigned k = 0; k < RH_REGION_COUNT; k++)
        if (index_of[k] != k || strcmp(Rh_region_names[k], name[k]) != 0) return 1;
    for (unsigned i = 0; i < RH_BUFFER_COUNT; i++) {
        if (Rh_buffer_regions[i] >= RH_REGION_COUNT) return 2;
        if (Rh_buffer_offsets[i] % align[Rh_buffer_regions[i]] != 0) return 3;
    }
    for (unsigned k = 0; k < RH_REGION_COUNT; k++) printf("%llu ", size[k]);
    printf("%u\n", (unsigned)RH_BUFFER_COUNT);
    return 0;
}
EOF
    } >"$T/rh.c"
    run 0 "$CC" -std=c11 -Wall -Wextra -Werror -pedantic -I"$T" -o "$T/rh" "$T/rh.c"
    run 0 "$T/rh"
    line out "$printed"
}
region_header "sram psram" "96 64 3" plan -s select "$T/abc.csv" --region sram:100 --region psram:1K:32
region_header "s.r-a_m p-s.ram" "96 64 3" plan -s select "$T/abc.csv" --region s.r-a_m:100 --region p-s.ram:1K
region_header "fast slow" "1024 512 5" plan -s banked "$CHAIN" --region fast:1K --region slow:64K
region_header "sram psram" "32256 0 13" example -s banked --target esp32-s3-psram
region_header "dtcm axi" "32256 0 13" example -s banked --target stm32h743
region_header "dtcm ocram sdram" "32256 0 0 13" example -s banked --target imxrt1060
# Region names whose macros collide are refused, naming both, before any input is read (exit 2, nothing written):
# one that the header would define twice with different values, which a compiler only warns about (the second
# region's index made APLAN_REGION_A_SIZE 1, so a program sizing region a from it reserved 1 byte).
run 2 "$A" plan -f c -o "$T/collide.h" "$T/abc.csv" --region a:100 --region a_size:1K
line err "aplan: plan: -f c: regions a and a_size would both define APLAN_REGION_A_SIZE (the size of a, the index of a_size); rename one (in a macro, letters and digits are kept, case aside, and any other character is '_')"
empty out
checks=$((checks + 1))
[ ! -e "$T/collide.h" ] || fail "a refused header was written"
run 2 "$A" plan -o "$T/collide.h" "$T/abc.csv" --region a.b:100 --region a-b:1K
line err "aplan: plan: -f c: regions a.b and a-b would both define APLAN_REGION_A_B (the index of a.b, the index of a-b); rename one (in a macro, letters and digits are kept, case aside, and any other character is '_')"
run 2 "$A" plan -f c "$T/abc.csv" --region x_alignment:100 --region x:1K
line err "aplan: plan: -f c: regions x_alignment and x would both define APLAN_REGION_X_ALIGNMENT (the index of x_alignment, the alignment of x); rename one (in a macro, letters and digits are kept, case aside, and any other character is '_')"
run 2 "$A" plan -f c "$T/abc.csv" --region count:100 --region psram:1K
line err "aplan: plan: -f c: region count would define APLAN_REGION_COUNT, which the header defines as the number of regions; rename the region (in a macro, letters and digits are kept, case aside, and any other character is '_')"
run 2 "$A" example -f c --name fw --region sram:100K --region Plan.H:1M
line err "aplan: example: -f c: region Plan.H would define FW_REGION_PLAN_H, which the header defines as the include guard; rename the region (in a macro, letters and digits are kept, case aside, and any other character is '_')"
# The same names are fine in every other format, where nothing is a macro.
run 0 "$A" plan -s banked -f csv "$T/abc.csv" --region a:100 --region a_size:1K
line out "a,0,2,64,1,0,a"
# JSON: the regions, the traffic and its bound, each run's regions and offsets.
if [ -n "${PYTHON:-}" ]; then
    run 0 "$A" plan -f json "$T/abc.csv" --region sram:100 --region psram:1K
    "$PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert [r["name"] for r in d["regions"]] == ["sram", "psram"] and d["regions"][0]["capacity"] == 100, d["regions"]
assert d["traffic_bound"] == 28 and d["uses_from"] == "csv" and d["best"] == "select" and d["fits"] is True, d
s = {x["name"]: x for x in d["strategies"]}
assert s["banked"]["traffic"] == 192 and s["banked"]["region_of"] == [0, 1, 0] and s["banked"]["arenas"] == [64, 64]
assert s["select"]["region_of"] == [1, 0, 0] and s["select"]["offsets"] == [0, 0, 64], s["select"]
assert s["exact"]["outcome"] == "optimal" and d["buffers"][2]["uses"] == 5 and d["buffers"][0]["allowed"] is None
' "$T/out" || fail "region JSON"
fi
# A model: uses from its graph; the example too; a target's memory map.
run 0 "$A" plan -s banked --region fast:1K --region slow:1M "$CHAIN"
has out "uses: the operators that read or write each tensor, from the graph"
# TFLM's two arenas (docs/tflm.md, "Several memories"): the planned section in the fastest region that holds it, the
# persistent data in the slowest; chain's figures are the model's (TFLM refuses chain at Prepare), keyword_scrambled's
# were measured in real TFLM builds.
run 0 "$A" plan --region sram:4K --region psram:64K "$CHAIN"
lines_of out "TFLM, two arenas (tflite-micro 90b983c2, reference kernels, 32-bit ABI, TFLM's own planner):
  non-persistent arena:     1536 bytes in sram (the planned section, TFLM's own plan)
  persistent arena:          928 bytes in psram (920 used)
  MicroAllocator::Create(persistent, 928, non_persistent, 1536): arena_used_bytes() 2456; one arena: 2444
  placed: the persistent data in the slowest region that holds it (counted there while planning), the planned section in the fastest beside it"
run 0 "$A" plan --region sram:1K --region psram:64K "$CHAIN"
line out "  persistent arena:          928 bytes in psram too (920 used; both arenas: 2464 of its 65536 bytes)"
has out "  the plan above spans regions: TFLM follows it only as one address range"
# TFLM's persistent data is counted in the region it goes to: psram then leaves the plan 96 bytes, and no plan fits
# (exit 4, where it was exit 0 with "does not fit" printed below the table).
run 4 "$A" plan --region sram:1K --region psram:1K "$CHAIN"
line out "  psram          1 buffer and TFLM's persistent data (928 bytes), 1440 of 1024 bytes: 416 over"
line err "aplan: $CHAIN: no plan fits every region: the best (banked): psram needs 512 bytes, 416 more than its 96"
run 4 "$A" plan --region sram:1K --region psram:1K -f json "$CHAIN"
has out '{"name": "psram", "capacity": 1024, "alignment": 0, "lower_bound": 0, "tflm_persistent": 928}'
# No region holds the persistent data: exit 4 before planning; a buffer larger than every region: exit 4 too.
run 4 "$A" plan --region sram:512 --region psram:900 "$CHAIN"
line err "aplan: $CHAIN: does not fit: TFLM's persistent data (its persistent arena, 928 bytes) fits no region; the largest, psram, has 900 bytes"
empty out
run 4 "$A" plan --region sram:16 --region psram:48 "$T/abc.csv"
line err "aplan: $T/abc.csv: does not fit with these regions: buffer 0 needs 64 bytes, capacity is 48 (region 1): buffer 0 is 'a' (line 2) in psram"
empty out
run 0 "$A" plan --abi 64 --region sram:4K --region psram:64K "$CHAIN"
line out "  MicroAllocator::Create(persistent, 1360, non_persistent, 1536): arena_used_bytes() 2896; one arena: 2880"
if have_shared models/keyword_scrambled.tflite; then
    run 0 "$A" plan --target stm32h743 "$S/models/keyword_scrambled.tflite"
    line out "  non-persistent arena:     3152 bytes in dtcm (planned section 672; AllocateTensors needs 3152)"
    line out "  persistent arena:        12592 bytes in axi (12588 used)"
fi
run 0 "$A" example -s banked --target stm32h743
has out "2 regions, fastest first: dtcm 131072 bytes, axi 524288 bytes (offsets aligned to 32)"
# Traffic past 2^64 - 1 (issue 32, point 9): bad input naming the traffic and the buffer where the sum passes (it
# said "size or offset overflows 64 bits"): a's 2^62 x 3 uses fit, b's 2^62 more do not.
printf 'id,lower,upper,size,uses\na,0,1,4611686018427387904,3\nb,1,2,4611686018427387904,1\n' >"$T/traffic.csv"
run 3 "$A" plan "$T/traffic.csv" --region f:1 --region s:9223372036854775808
line err "aplan: $T/traffic.csv: invalid problem with these regions: the slow-memory traffic (each buffer's size times its uses, summed) passes 2^64 - 1 bytes at buffer 1 'b' (line 3): size 4611686018427387904, 1 use"
lacks err "size or offset overflows 64 bits"
empty out
# Usage errors, before any input is read.
run 2 "$A" plan --region sram "$T/abc.csv"
line err "aplan: plan: --region 'sram' is not NAME:SIZE[:ALIGN] (for example sram:128K or psram:8M:32)"
run 2 "$A" plan --region 'sr am:1K' "$T/abc.csv"
line err "aplan: plan: --region 'sr am:1K' has ' ' in its name (letters, digits, '_', '.', '-')"
run 2 "$A" plan --region sram:1Q "$T/abc.csv"
has err "aplan: plan: --region 'sram:1Q' has a size that is not a byte count"
run 2 "$A" plan --region sram:1K:3 "$T/abc.csv"
line err "aplan: plan: --region 'sram:1K:3' has an alignment that is not a power of two"
run 2 "$A" plan --region sram:1K --region SRAM:2K "$T/abc.csv"
line err "aplan: plan: --region 'SRAM:2K': region SRAM is given twice"
run 2 "$A" plan --region sram:1K --capacity 2K "$T/abc.csv"
line err "aplan: plan: --capacity and --region: with regions each has its own (NAME:SIZE)"
run 2 "$A" plan -s greedy_by_size --region sram:1K "$T/abc.csv"
line err "aplan: plan: 'greedy_by_size' is not a region strategy (it plans one arena); with --region: banked, select, exact, all, auto"
run 2 "$A" plan -s banked "$T/abc.csv"
has err "aplan: plan: unknown strategy 'banked'"
run 2 "$A" plan -f svg --region sram:1K "$T/abc.csv" --name x
has err "applies to -f c only"

# --- issue 31, point 8: frictions ------------------------------------------------------------------------------------
# a. -o FILE chooses the format by its extension when -f is not given (.svg, .html, .json, .csv, .h, any case); an
# explicit -f wins, with a warning when the extension names another format; any other extension keeps the table.
for pair in svg:'<?xml version="1.0" encoding="UTF-8"?>' html:'<!DOCTYPE html>' json:'{' \
    csv:'id,lower,upper,size,offset' h:'/* Generated by aplan'; do
    ext=${pair%%:*} head=${pair#*:}
    run 0 "$A" plan -s greedy_by_size "$I12" -o "$T/by_ext.$ext"
    empty out
    empty err
    checks=$((checks + 1))
    first=$(head -n 1 "$T/by_ext.$ext")
    case "$first" in "$head"*) ;; *) fail "-o by_ext.$ext: its first line is $first" ;; esac
done
run 0 "$A" plan -s greedy_by_size "$I12" -o "$T/by_ext.JSON"
checks=$((checks + 1))
[ "$(head -c 1 "$T/by_ext.JSON")" = "{" ] || fail "-o by_ext.JSON is not JSON"
run 0 "$A" plan -s greedy_by_size "$I12" -o "$T/plan.h" --name arena1
grep -q "arena1_buffer_offsets" "$T/plan.h" || fail "-o plan.h --name: no arena1_buffer_offsets"
run 0 "$A" plan -s greedy_by_size -f csv "$I12" -o "$T/by_ext.svg"
line err "aplan: warning: plan: -o $T/by_ext.svg has the extension of -f svg; writing -f csv as given"
line "by_ext.svg" "id,lower,upper,size,offset"
run 0 "$A" plan -s greedy_by_size -f svg "$I12" -o "$T/agree.SVG"
empty err
run 0 "$A" plan -s greedy_by_size "$I12" -o "$T/by_ext.txt"
has "by_ext.txt" "best: greedy_by_size, 12 bytes: proven optimal (equals the lower bound)"
run 0 "$A" plan -s greedy_by_size "$I12" -o "$T/.svg"
has ".svg" "best: greedy_by_size, 12 bytes"
run 0 "$A" example -o "$T/example.json"
has "example.json" '"kind": "example"'

echo "$checks checks, $failures failures, $skipped parts skipped"
[ "$failures" = 0 ]
