#!/bin/sh
# Cross-compiles the freestanding core for a Cortex-M4 (arm-none-eabi-gcc, -Os, Thumb-2) and checks that what stays
# undefined is only memcpy/memset/memmove and the compiler's own helpers (__aeabi_*: 64-bit division in libgcc).
# Prints the code size, which docs/design.md quotes.
# Usage: cortex_m_build.sh CC SIZE SOURCE_ROOT FILE...
set -eu
cc=$1 size=$2 root=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
objs=
for f in "$@"; do
  o="$tmp/$(basename "$f" .c).o"
  "$cc" -mcpu=cortex-m4 -mthumb -Os -std=c11 -ffreestanding -fno-common -ffunction-sections -Wall -Wextra -Werror \
    -DNDEBUG -DAPLAN_WITH_LINEAR=1 -DAPLAN_WITH_GREEDY_BY_SIZE=1 -DAPLAN_WITH_FIRST_FIT=1 -DAPLAN_WITH_OFFLINE=1 \
    -I"$root/include" -I"$root/src" -c "$f" -o "$o"
  objs="$objs $o"
done
# shellcheck disable=SC2086
"$cc" -mcpu=cortex-m4 -mthumb -nostdlib -r -o "$tmp/core.o" $objs
bad=$(arm-none-eabi-nm -u "$tmp/core.o" | awk '{print $NF}' | grep -v -E '^(memcpy|memset|memmove|__aeabi_.*)$' || true)
if [ -n "$bad" ]; then
  echo "the Cortex-M core needs symbols it must not use:"
  echo "$bad"
  exit 1
fi
"$size" "$tmp/core.o"
