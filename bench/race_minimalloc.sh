#!/usr/bin/env bash
# race_minimalloc.sh: MiniMalloc against `aplan plan -s exact` on the same instances, in the same run, in CPU seconds.
#
#   bench/race_minimalloc.sh [options] MINIMALLOC [FILE[:CAPACITY] ...]
#
# MINIMALLOC is a MiniMalloc binary (github google/minimalloc, built outside this repository: docs/benchmarks.md).
# Each FILE is a problem in MiniMalloc's CSV format; CAPACITY (bytes) defaults to the number before .csv in its name
# (A.1048576.csv: 1048576). Without FILEs: A.1048576.csv and B.1048576.csv from benchmarks/minimalloc/ in the shared
# folder. For each instance and run the two tools run one after the other (MiniMalloc first), so both see the same
# machine load:
#   minimalloc --capacity=C --input=FILE --output=OUT --timeout=<limit>s
#   aplan plan -s exact --capacity C [--time-limit <limit>] -f csv -o OUT FILE
# and each is timed by /usr/bin/time (user + system CPU seconds, and wall seconds). "fits" is the tool's own verdict:
# yes (exit 0), no (aplan's exit 4, MiniMalloc's exit 1: nothing found within the capacity and the time), killed (at
# the limit plus 30 s), or the exit code; runs that disagree are counted ("yes 2, no 1"). MiniMalloc's plan is checked
# with `aplan verify --capacity C`, so one that breaks a rule shows as "INVALID". Times are medians over the runs.
# Exit 0 once every run has been made, whatever the tools answered.
#
# Options:
#   -r N              runs per tool and instance (default 3; the median is printed)
#   --aplan PATH      the aplan tool (default: build/src/cli/aplan beside this script, else `aplan` on PATH)
#   --time-limit S    what each tool may spend per run, in whole seconds (default 60): MiniMalloc's --timeout, and
#                     aplan's --time-limit when this aplan has one (older builds search with their own default);
#                     both are killed 30 s past it
#   --shared DIR      the shared folder for the default instances (default: ../shared beside the repository)
#   --markdown        print the table as markdown
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
runs=3
limit=60
shared="$repo/../shared"
markdown=0
aplan=""
if [ -x "$repo/build/src/cli/aplan" ]; then aplan="$repo/build/src/cli/aplan"; fi

usage() { sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//'; }
die() { echo "race_minimalloc.sh: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
    case "$1" in
    -r) [ $# -ge 2 ] || die "-r needs a number"; runs=$2; shift 2 ;;
    --aplan) [ $# -ge 2 ] || die "--aplan needs a path"; aplan=$2; shift 2 ;;
    --time-limit) [ $# -ge 2 ] || die "--time-limit needs seconds"; limit=$2; shift 2 ;;
    --shared) [ $# -ge 2 ] || die "--shared needs a folder"; shared=$2; shift 2 ;;
    --markdown) markdown=1; shift ;;
    -h | --help) usage; exit 0 ;;
    --) shift; break ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) break ;;
    esac
done
case "$runs" in '' | *[!0-9]* | 0) die "-r needs a positive whole number" ;; esac
case "$limit" in '' | *[!0-9]* | 0) die "--time-limit needs a positive whole number of seconds" ;; esac
[ $# -ge 1 ] || { usage >&2; exit 2; }
minimalloc=$1
shift
[ -x "$minimalloc" ] || die "$minimalloc: not an executable MiniMalloc binary"
if [ -z "$aplan" ]; then aplan=$(command -v aplan || true); fi
if [ -z "$aplan" ] || [ ! -x "$aplan" ]; then die "no aplan tool: build it (ninja -C build) or pass --aplan PATH"; fi
[ -x /usr/bin/time ] || die "/usr/bin/time is needed for CPU times (apt-get install time)"

instances=("$@")
if [ ${#instances[@]} -eq 0 ]; then
    instances=("$shared/benchmarks/minimalloc/A.1048576.csv" "$shared/benchmarks/minimalloc/B.1048576.csv")
fi

aplan_limit=()
if "$aplan" plan --help 2>&1 | grep -q -- '--time-limit'; then aplan_limit=(--time-limit "$limit"); fi

work=$(mktemp -d "${TMPDIR:-/tmp}/race_minimalloc.XXXXXX")
trap 'rm -rf "$work"' EXIT

# median of the numbers on stdin, printed with 2 decimals
median() {
    sort -g | awk '{ v[NR] = $1 }
        END { if (NR == 0) print "-"
              else if (NR % 2) printf "%.2f\n", v[(NR + 1) / 2]
              else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# run TAG CMD...: one timed run, appending "cpu wall exit" to $work/TAG
run() {
    local tag=$1 status=0
    shift
    /usr/bin/time -f '%U %S %e' -o "$work/time" timeout $((limit + 30)) "$@" >"$work/out.log" 2>&1 || status=$?
    awk -v s="$status" '{ printf "%.3f %.3f %d\n", $1 + $2, $3, s }' "$work/time" | tail -n 1 >>"$work/$tag"
}

if [ "$markdown" = 1 ]; then
    printf '| instance | buffers | capacity | tool | fits | CPU s | wall s | runs |\n'
    printf '|---|---:|---:|---|---|---:|---:|---:|\n'
    row() { printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$@"; }
else
    printf '%-16s %8s %10s  %-12s %-12s %8s %8s %5s\n' instance buffers capacity tool fits 'CPU s' 'wall s' runs
    row() { printf '%-16s %8s %10s  %-12s %-12s %8s %8s %5s\n' "$@"; }
fi

for spec in "${instances[@]}"; do
    file=$spec
    capacity=""
    case "$spec" in *:*[0-9]) file=${spec%:*}; capacity=${spec##*:} ;; esac
    name=$(basename "$file")
    if [ -z "$capacity" ]; then
        stem=${name%.csv}
        capacity=${stem##*.}
    fi
    case "$capacity" in '' | *[!0-9]*) die "$spec: no capacity (FILE:CAPACITY, or a name like A.1048576.csv)" ;; esac
    [ -r "$file" ] || die "$file: not readable"
    buffers=$(($(grep -c . "$file") - 1))
    rm -f "$work/mm" "$work/ap"
    mm_valid=yes
    for _ in $(seq "$runs"); do
        rm -f "$work/mm.csv"
        run mm "$minimalloc" --capacity="$capacity" --input="$file" --output="$work/mm.csv" --timeout="${limit}s"
        if [ "$(tail -n 1 "$work/mm" | cut -d' ' -f3)" = 0 ] &&
            ! "$aplan" verify --capacity "$capacity" "$file" "$work/mm.csv" >/dev/null 2>&1; then
            mm_valid=no
        fi
        run ap "$aplan" plan -s exact --capacity "$capacity" "${aplan_limit[@]}" -f csv -o "$work/ap.csv" "$file"
    done
    for tag in mm ap; do
        tool=$([ $tag = mm ] && echo MiniMalloc || echo "aplan exact")
        # aplan says "does not fit" with exit 4, MiniMalloc with exit 1; timeout(1) kills with 124 (or 137)
        fit=$(awk -v tag=$tag '
            { no = ($3 == 4 && tag == "ap") || ($3 == 1 && tag == "mm")
              v = $3 == 0 ? "yes" : $3 == 124 || $3 == 137 ? "killed" : no ? "no" : "exit " $3
              if (!(v in n)) order[++k] = v
              n[v]++ }
            END { if (k == 1) print order[1]
                  else for (i = 1; i <= k; i++) printf "%s%s %d", (i > 1 ? ", " : ""), order[i], n[order[i]] }' \
            "$work/$tag")
        if [ $tag = mm ] && [ "$mm_valid" = no ]; then fit="INVALID"; fi
        row "$name" "$buffers" "$capacity" "$tool" "$fit" "$(cut -d' ' -f1 "$work/$tag" | median)" \
            "$(cut -d' ' -f2 "$work/$tag" | median)" "$runs"
    done
done
echo
echo "CPU s: user + system seconds (/usr/bin/time), wall s: elapsed, both medians of $runs runs; fits: yes = exit" \
    "0 (MiniMalloc: its plan also passed aplan verify --capacity), no = nothing within the capacity; time limit" \
    "${limit} s (aplan: ${aplan_limit[*]:-its own default}). MiniMalloc: $minimalloc;" \
    "aplan: $aplan ($("$aplan" --version 2>&1 | head -n 1))."
