#!/bin/sh
# The freestanding core (src/core + src/strategies) may call nothing outside itself but memcpy, memset and memmove:
# no allocator, no stdio, no assert. Links the archive's objects into one relocatable object and lists what stays
# undefined (works with meson's thin archives). Usage: check_symbols.sh NM LD ARCHIVE
set -eu
nm=$1 ld=$2 archive=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
"$ld" -r -o core.o --whole-archive "$archive"
undefined=$("$nm" -u core.o | awk '{print $NF}' | grep -v -E '^(memcpy|memset|memmove|_GLOBAL_OFFSET_TABLE_)$' || true)
if [ -n "$undefined" ]; then
  echo "the core needs symbols it must not use:"
  echo "$undefined"
  exit 1
fi
exported=$("$nm" -g --defined-only core.o | awk '{print $NF}' | grep -v -E '^aplan_' || true)
if [ -n "$exported" ]; then
  echo "the core exports symbols without the aplan_ prefix:"
  echo "$exported"
  exit 1
fi
echo "core: undefined symbols within memcpy/memset/memmove; every export starts with aplan_"
