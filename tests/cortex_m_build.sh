#!/bin/sh
# Cross-compiles the device side for a Cortex-M4 (arm-none-eabi-gcc, -Os, Thumb-2): the core with the strategies of
# this build, and the .tflite reader. Checks that what stays undefined is only memcpy/memset/memmove and the
# compiler's own helpers (__aeabi_*: 64-bit division in libgcc), and prints the code size of each part, which
# docs/design.md quotes. The strategy defines come from meson, so the check follows -Dstrategies=...; nm and size
# are the ones beside CC.
# Usage: cortex_m_build.sh CC SOURCE_ROOT DEFINES... -- CORE_FILE... -- READER_FILE...
set -eu
cc=$1 root=$2
shift 2
prefix=${cc%gcc}
defines=
while [ "$1" != "--" ]; do defines="$defines $1"; shift; done
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
part=core
core_objs=
reader_objs=
for f in "$@"; do
  if [ "$f" = "--" ]; then part=reader; continue; fi
  o="$tmp/$part-$(basename "$f" .c).o"
  # shellcheck disable=SC2086
  "$cc" -mcpu=cortex-m4 -mthumb -Os -std=c11 -ffreestanding -fno-common -ffunction-sections -Wall -Wextra -Werror \
    -DNDEBUG $defines -I"$root/include" -I"$root/src" -c "$f" -o "$o"
  if [ $part = core ]; then core_objs="$core_objs $o"; else reader_objs="$reader_objs $o"; fi
done
# shellcheck disable=SC2086
"$cc" -mcpu=cortex-m4 -mthumb -nostdlib -r -o "$tmp/core.o" $core_objs
# shellcheck disable=SC2086
"$cc" -mcpu=cortex-m4 -mthumb -nostdlib -r -o "$tmp/reader.o" $reader_objs
"$cc" -mcpu=cortex-m4 -mthumb -nostdlib -r -o "$tmp/device.o" "$tmp/core.o" "$tmp/reader.o"
bad=$("${prefix}nm" -u "$tmp/device.o" | awk '{print $NF}' | grep -v -E '^(memcpy|memset|memmove|__aeabi_.*)$' || true)
if [ -n "$bad" ]; then
  echo "the Cortex-M device side needs symbols it must not use:"
  echo "$bad"
  exit 1
fi
echo "strategies:$defines"
"${prefix}size" "$tmp/core.o" "$tmp/reader.o"
