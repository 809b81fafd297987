#!/bin/sh
# Writes a CSV problem of a hostile class to stdout (issue 32): the same classes are hostile_test.sh's cases and,
# written small, the seeds fuzz/corpus/csv/seed-hostile-{live,overlap,fixed,fixed-late}.csv. Deterministic: the
# sizes come from a fixed linear congruential sequence, so a class and a count always give the same bytes.
#
#   tests/cli/hostile_csv.sh CLASS ROWS >FILE
#
# CLASS:
#   live        ROWS buffers all live at step 0 ([0, 1)), sizes 1 to 65536: the dense class of the region strategies
#               (select, exact and banked walked every placed buffer of a region for each new one; 20,000 rows,
#               about 300 KB, took 2.7 s with --time-limit 0.1 and a region alignment seven times more).
#   overlap     ROWS buffers, buffer i live over [i, i + ROWS / 2 + r), r below ROWS / 2: every two of them but a few
#               live together, yet no step holds them all (no shortcut applies: the engines' dense case).
#   fixed       ROWS / 2 fixed buffers live over every step, one above the other, then ROWS / 2 buffers to place,
#               each live over 4 steps: first_fit's fixed-buffer path (it listed and sorted every fixed buffer for
#               each buffer it placed: O(n^2 log n)).
#   fixed-late  ROWS / 2 buffers to place live over [0, ROWS), then ROWS / 2 fixed buffers that each start later, at
#               step k + 1 for k below ROWS / 2, and live one step: every buffer placed is live with every fixed one.
set -eu
[ $# = 2 ] || { echo "usage: $0 live|overlap|fixed|fixed-late ROWS" >&2; exit 2; }
case $1 in
live | overlap | fixed | fixed-late) ;;
*) echo "$0: unknown class '$1' (live, overlap, fixed, fixed-late)" >&2; exit 2 ;;
esac
awk -v class="$1" -v n="$2" 'BEGIN {
    x = 12345
    half = int(n / 2)
    if (class == "live" || class == "overlap") print "id,lower,upper,size"
    else print "id,lower,upper,size,offset"
    for (i = 0; i < n; i++) {
        x = (x * 69069 + 1) % 4294967296 # below 2^53 throughout: exact in doubles
        size = 1 + int(x / 65536) % 65536
        if (class == "live") {
            printf "b%d,0,1,%d\n", i, size
        } else if (class == "overlap") {
            printf "b%d,%d,%d,%d\n", i, i, i + half + 1 + int(x / 256) % (half + 1), size
        } else if (class == "fixed") {
            if (i < half) printf "f%d,0,%d,16,%d\n", i, n, 16 * i
            else printf "b%d,%d,%d,%d,\n", i, i - half, i - half + 4, 16 + size % 64
        } else if (i < half) {
            printf "b%d,0,%d,%d,\n", i, n, 16 + size % 64
        } else {
            printf "f%d,%d,%d,16,%d\n", i, i - half + 1, i - half + 2, 16 * (i - half)
        }
    }
}'
