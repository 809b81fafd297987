#!/bin/sh
# Renders aplan's SVG and HTML output in headless Chromium (Debian package `chromium`) and checks that
#   - the DOM Chromium built holds exactly one rect.buf per buffer that occupies memory (5, 154 and 1000 buffers);
#   - a screenshot is not blank: many non-background pixels and many distinct colours.
# Exit 77 (meson: skipped) when chromium or python3 is missing, so `.ci/run` can install it and run suite `browser`.
set -u
A=${APLAN:?}
S=${APLAN_SHARED_DIR:?}
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
PYTHON=${PYTHON:-$(command -v python3 || true)}
if [ -z "$CHROMIUM" ] || [ -z "$PYTHON" ]; then
    echo "chromium or python3 not installed: skipped"
    exit 77
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
failures=0

# 1000 buffers with deterministic pseudo-random lifetimes and sizes (an LCG in awk; no external data).
awk 'BEGIN { s = 12345; print "id,lower,upper,size";
  for (i = 0; i < 1000; i++) {
    s = (s * 1103515245 + 12345) % 2147483648; lo = s % 400;
    s = (s * 1103515245 + 12345) % 2147483648; len = 1 + s % 40;
    s = (s * 1103515245 + 12345) % 2147483648; size = 64 + s % 4096;
    printf "t%d,%d,%d,%d\n", i, lo, lo + len, size } }' >"$T/many.csv"

chrome() {
    # A private profile per call keeps runs independent; stderr carries harmless dbus noise.
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --user-data-dir="$T/profile" "$@" 2>>"$T/chromium.log"
}

# check NAME FILE EXPECTED_RECTS
check() {
    name=$1
    file=$2
    want=$3
    chrome --dump-dom "file://$file" >"$T/$name.dom"
    got=$(grep -o '<rect class="buf"' "$T/$name.dom" | wc -l | tr -d ' ')
    if [ "$got" != "$want" ]; then
        echo "FAIL: $name: the DOM holds $got buffer rectangles, want $want"
        failures=$((failures + 1))
    fi
    titles=$(grep -o '<title>' "$T/$name.dom" | wc -l | tr -d ' ')
    if [ "$titles" -lt "$want" ]; then
        echo "FAIL: $name: $titles titles for $want rectangles (every rectangle needs a tooltip)"
        failures=$((failures + 1))
    fi
    rm -f "$T/$name.png"
    chrome --screenshot="$T/$name.png" --window-size=1280,1000 "file://$file" >/dev/null
    if ! "$PYTHON" - "$T/$name.png" "$name" <<'EOF'
import struct, sys, zlib

def pixels(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), "unexpected PNG format"
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    out = []
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        out.extend(tuple(line[i:i + 3]) for i in range(0, stride, bpp))
    return out

px = pixels(sys.argv[1])
background = max(set(px[::97]), key=px[::97].count)
drawn = sum(1 for p in px if p != background)
colours = len(set(px))
share = drawn / len(px)
print(f"{sys.argv[2]}: {len(px)} pixels, {share:.1%} drawn, {colours} colours")
sys.exit(0 if share > 0.05 and colours >= 5 else 1)
EOF
    then
        echo "FAIL: $name: the screenshot looks blank"
        failures=$((failures + 1))
    fi
}

"$A" plan -f svg -o "$T/small.svg" "$S/benchmarks/minimalloc/input.12.csv" || failures=$((failures + 1))
check small_svg "$T/small.svg" 5
"$A" plan -f html -o "$T/small.html" "$S/benchmarks/minimalloc/input.12.csv" || failures=$((failures + 1))
check small_html "$T/small.html" 5
"$A" plan -f html -o "$T/a.html" "$S/benchmarks/minimalloc/A.1048576.csv" || failures=$((failures + 1))
check minimalloc_a_html "$T/a.html" 154
"$A" plan -f svg -o "$T/many.svg" "$T/many.csv" || failures=$((failures + 1))
check many_svg "$T/many.svg" 1000
# Labels only where they fit: some on MiniMalloc's A (154 buffers), never one per rectangle when they are crowded.
labels=$(grep -o 'class="label"' "$T/a.html" | wc -l | tr -d ' ')
if [ "$labels" -ge 154 ] || [ "$labels" -lt 1 ]; then
    echo "FAIL: minimalloc_a_html: $labels labels for 154 buffers"
    failures=$((failures + 1))
fi
labels=$(grep -o 'class="label"' "$T/many.svg" | wc -l | tr -d ' ')
if [ "$labels" -ge 1000 ]; then
    echo "FAIL: many_svg: $labels labels for 1000 buffers"
    failures=$((failures + 1))
fi

echo "browser: $failures failures"
[ "$failures" = 0 ]
