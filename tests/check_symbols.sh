#!/bin/sh
# What the library shows its users, and what its device side needs from the platform.
#   1. The shared library exports exactly the APLAN_API functions the public headers declare (less the getters of
#      strategies this build leaves out: any getter may be missing): every export is an aplan_[a-z] name, no aplan__ internal, nothing else.
#   2. Each device-side archive (core + strategies; the .tflite reader), linked into one relocatable object, leaves
#      nothing undefined but memcpy, memset and memmove, and its global symbols are either public (aplan_[a-z],
#      default visibility) or internal (aplan__, hidden).
# Works with meson's thin archives. Usage: check_symbols.sh NM LD READELF INCLUDE_DIR SHARED_LIB DEVICE_ARCHIVE...
set -eu
nm=$1 ld=$2 readelf=$3 include=$4 shared=$5
shift 5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# The getters are declared by expanding APLAN_BUILTIN_STRATEGIES: one aplan_strategy_NAME per X(NAME, ...) row.
sed -n 's/^ *X(\([a-z0-9_]*\),.*/aplan_strategy_\1/p' "$include/aplan/strategies.h" | sort -u >"$tmp/getters"
# And the region strategies' getters from the one line of APLAN_BUILTIN_REGION_STRATEGIES.
grep '^#define APLAN_BUILTIN_REGION_STRATEGIES(X)' "$include/aplan/regions.h" | grep -o 'X([a-z0-9_]*,' |
  sed 's/X(\(.*\),/aplan_region_strategy_\1/' >>"$tmp/getters"
sort -u -o "$tmp/getters" "$tmp/getters"
{ grep -ho '^APLAN_API[^(]*(' "$include"/aplan/*.h | sed 's/.*[ *]\(aplan_[a-z0-9_]*\)($/\1/'; cat "$tmp/getters"; } |
  sort -u >"$tmp/declared"
"$nm" -D --defined-only "$shared" | awk '{print $NF}' | sort -u >"$tmp/exported"
extra=$(comm -13 "$tmp/declared" "$tmp/exported")
if [ -n "$extra" ]; then
  echo "$shared exports symbols no public header declares with APLAN_API:"
  echo "$extra"
  status=1
fi
missing=$(comm -23 "$tmp/declared" "$tmp/exported" | comm -23 - "$tmp/getters")
if [ -n "$missing" ]; then
  echo "$shared does not export functions the headers declare:"
  echo "$missing"
  status=1
fi
bad_names=$(grep -v -E '^aplan_[a-z][a-z0-9_]*$' "$tmp/exported" || true)
if [ -n "$bad_names" ]; then
  echo "$shared exports names outside aplan_[a-z]:"
  echo "$bad_names"
  status=1
fi
[ $status -ne 0 ] || echo "$(basename "$shared"): $(wc -l <"$tmp/exported") exports, exactly the APLAN_API declarations"

# The reader uses the core's helpers, so the device side is checked as one object.
# LD_EMULATION (optional): ld's -m for a build whose objects are not ld's default format (elf_i386 for -m32).
"$ld" ${LD_EMULATION:+-m "$LD_EMULATION"} -r -o "$tmp/device.o" --whole-archive "$@"
undefined=$("$nm" -u "$tmp/device.o" | awk '{print $NF}' |
  grep -v -E '^(memcpy|memset|memmove|_GLOBAL_OFFSET_TABLE_)$' || true)
if [ -n "$undefined" ]; then
  echo "the device side needs symbols it must not use:"
  echo "$undefined"
  status=1
fi
# readelf -s: Num Value Size Type Bind Vis Ndx Name; defined globals only.
wrong=$("$readelf" -s --wide "$tmp/device.o" | awk '$5 == "GLOBAL" && $7 != "UND" {print $6, $8}' |
  grep -v -E '^(DEFAULT aplan_[a-z]|HIDDEN aplan__[a-z]|HIDDEN __x86\.get_pc_thunk\.)' || true) # i386 PIC: the compiler's
if [ -n "$wrong" ]; then
  echo "the device side defines globals that are neither public aplan_[a-z] nor hidden aplan__ (visibility, name):"
  echo "$wrong"
  status=1
fi
[ $status -ne 0 ] || echo "device side ($(for a in "$@"; do basename "$a"; done | tr '\n' ' ')): undefined symbols within" \
  "memcpy/memset/memmove; globals public aplan_ or hidden aplan__"
exit $status
