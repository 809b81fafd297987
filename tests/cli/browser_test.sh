#!/bin/sh
# Renders aplan's SVG and HTML output in headless Chromium (Debian package `chromium`) and checks what it built:
#   SVG (-f svg): well-formed standalone XML; in the DOM one rect.buf with a <title> per buffer drawn one by one (every
#     buffer up to 4000, the rest at pixel resolution), the legend and the live-bytes curve; a screenshot that is not
#     blank; at 100,000 buffers the file stays under 2 MB.
#   HTML (-f html): the page's script writes what it drew into #selfcheck, which --dump-dom shows: state ok, no script
#     error, one panel per ticked strategy, every buffer in memory drawn, painted pixels read back from the canvas, and
#     the search the address asks for (#search=ID, or a tensor's name) found with the buffer listed; Chromium's log
#     (--enable-logging) holds no console message from the page; a driver script appended to one page hovers a buffer
#     (tooltip) and zooms (the view changes), another hovers a model's tensor (its name, id, type, shape and
#     operators in the tooltip) and the live panel (the step's operator); the page loads nothing from the network
#     (that it holds src/host/report_page.css and .js byte for byte needs no browser: tests/cli/outputs_test.py); a
#     100,000-buffer report is under 3 MB plus 1 MB per strategy (the page holds every strategy's offsets) and draws
#     in seconds.
#   Ids that are markup, "</script>", or invalid UTF-8 keep both outputs valid and searchable.
#   With several memories (--region), the same checks per region: the SVG has one panel (g.region) per region, in
#     order, each titled with its region's name, whose rectangles are its data-individual and all lie inside its own
#     plot as Chromium lays them out; the page draws one panel per region for each ticked strategy, every one painted,
#     and a driver hovers a buffer of the slow region (its region and traffic in the tooltip), zooms there and hovers
#     the fast region at the new view (the panels share the step axis). On the example, a CSV whose region and uses
#     columns pin buffers and weigh the traffic, the CSV of hostile ids, a CSV of 10,000 buffers (the pixel layer),
#     and a plan that passes a region's capacity (tinted, exit 4).
#   Layout at 1366 px wide (issue 31): a model's #tflm table and every #runs table fit without scrolling (a region
#     plan's in four memories too), each listed buffer's number stays beside the first line of its name (names of
#     about 290 characters), and a model's SVG heading lines lie inside the drawing above the legend.
# Inputs: MiniMalloc's 5-buffer example, tests/cli/make_models.c's chain.tflite, CSVs of 10,000 and 100,000 buffers
# generated here, and, when the shared folder has them, person_detect and two MediaPipe models (skipped otherwise,
# saying so). Set APLAN_BROWSER_SHOTS=DIR to keep the screenshots.
# Exit 77 (meson: skipped) when chromium or python3 is missing, so `.ci/run` can install it and run suite `browser`,
# or when the build leaves out a strategy the panels name.
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
IN=$(mktemp -d)
trap 'rm -rf "$T" "$IN"' EXIT
. "$(dirname "$0")/check.sh"
need_strategies linear greedy_by_size greedy_by_size_tflm first_fit offline
made_inputs "$IN"
failures=0
fail() { # this script's own: its checks look at files and pages, not at one command's $T/out and $T/err
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# gen N FILE: N buffers over N/5 steps with deterministic pseudo-random lifetimes (1-60 steps) and sizes (64 B to
# 256 KiB, spread over powers of two): an LCG in awk, using its high bits. Ids are t0 .. t(N-1).
gen() {
    awk -v n="$1" 'function rnd(m) { s = (s * 1103515245 + 12345) % 2147483648; return int(s / 65536) % m }
    BEGIN { s = 12345; steps = int(n / 5); print "id,lower,upper,size";
      for (i = 0; i < n; i++) { lo = rnd(steps); len = 1 + rnd(60); e = 6 + rnd(12);
        printf "t%d,%d,%d,%d\n", i, lo, lo + len, 2 ^ e + rnd(2 ^ e) } }' >"$2"
}

# chrome ARGS... URL: a private profile per run keeps runs independent; its log goes to $T/chromium.log.
chrome() {
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$T/profile" \
        --enable-logging=stderr --v=0 "$@" 2>"$T/chromium.log"
}

# no_console NAME: the page logged nothing (it never writes to the console: any message is an error or a warning).
no_console() {
    if grep -a ':CONSOLE' "$T/chromium.log" | grep -a 'file://' >"$T/console"; then
        fail "$1: the console holds: $(head -3 "$T/console")"
    fi
}

# attr NAME ATTRIBUTE: the value of data-ATTRIBUTE of #selfcheck in $T/NAME.dom.
attr() {
    grep -o '<p id="selfcheck"[^>]*>' "$T/$1.dom" | grep -o " data-$2=\"[^\"]*\"" | head -1 | sed 's/^[^"]*"//; s/"$//'
}

# not_blank NAME PNG: many painted pixels and many colours in a screenshot.
not_blank() {
    [ -n "${APLAN_BROWSER_SHOTS:-}" ] && mkdir -p "$APLAN_BROWSER_SHOTS" && cp "$2" "$APLAN_BROWSER_SHOTS/$1.png"
    "$PYTHON" - "$2" "$1" <<'EOF' || fail "$1: the screenshot looks blank"
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
}

# svg NAME FILE [RECTS [noshot]]: checks of an SVG; RECTS, when not empty, is the number of rect.buf wanted; noshot
# skips the screenshot (decoding one in Python takes seconds).
svg() {
    name=$1
    file=$2
    "$PYTHON" -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$file" ||
        fail "$name: not well-formed XML"
    chrome --dump-dom "file://$file" >"$T/$name.dom"
    no_console "$name"
    rects=$(grep -o '<rect class="buf"' "$T/$name.dom" | wc -l | tr -d ' ')
    individual=$(sed -n 's/.*data-individual="\([0-9]*\)".*/\1/p' "$T/$name.dom" | head -1)
    drawn=$(sed -n 's/.*data-drawn="\([0-9]*\)".*/\1/p' "$T/$name.dom" | head -1)
    [ "$rects" = "$individual" ] || fail "$name: $rects rect.buf in the DOM, the SVG says $individual"
    [ -z "${3:-}" ] || [ "$rects" = "$3" ] || fail "$name: $rects rect.buf in the DOM, want $3"
    [ "$rects" -le 4000 ] || fail "$name: $rects rectangles drawn one by one, more than 4000"
    if [ "$rects" != "$drawn" ]; then
        grep -q '<path class="pixels"' "$T/$name.dom" || fail "$name: $drawn buffers, $rects rectangles, no pixel layer"
    fi
    titles=$(grep -o '<rect class="buf"[^>]*><title>' "$T/$name.dom" | wc -l | tr -d ' ')
    [ "$titles" = "$rects" ] || fail "$name: $titles of $rects rectangles carry a <title> tooltip"
    grep -q '<path class="live-curve"' "$T/$name.dom" || fail "$name: no live-bytes curve"
    grep -q '<g class="legend">' "$T/$name.dom" || fail "$name: no legend"
    labels=$(grep -o 'class="label"' "$T/$name.dom" | wc -l | tr -d ' ')
    [ "$rects" -lt 100 ] || [ "$labels" -lt "$rects" ] || fail "$name: $labels labels for $rects crowded rectangles"
    [ "${4:-}" = noshot ] && return
    rm -f "$T/$name.png"
    chrome --screenshot="$T/$name.png" --window-size=1200,800 "file://$file" >/dev/null
    not_blank "$name" "$T/$name.png"
}

# html NAME FILE SEARCH FIRST: checks of a report opened at #search=SEARCH, whose best match must be FIRST.
html() {
    name=$1
    file=$2
    chrome --dump-dom "file://$file#search=$3" >"$T/$name.dom"
    no_console "$name"
    [ "$(attr "$name" state)" = ok ] || fail "$name: self-check '$(attr "$name" state)': $(grep -o '<p id="selfcheck".*' "$T/$name.dom")"
    [ "$(attr "$name" errors)" = 0 ] || fail "$name: $(attr "$name" errors) script errors"
    ticked=$(grep -o 'class="show" data-run="[0-9]*" checked' "$file" | wc -l | tr -d ' ')
    [ "$(attr "$name" panels)" = "$ticked" ] && [ "$ticked" -ge 1 ] ||
        fail "$name: $(attr "$name" panels) panels, $ticked strategies ticked"
    canvases=$(grep -o '<canvas class="base"' "$T/$name.dom" | wc -l | tr -d ' ')
    [ "$canvases" = $((ticked + 1)) ] || fail "$name: $canvases canvases, want $((ticked + 1)) (panels and the live curve)"
    painted=$(attr "$name" painted)
    [ "${painted:-0}" -gt 1000 ] || fail "$name: ${painted:-no} painted pixels in the first panel"
    [ "$(attr "$name" live-painted)" -gt 1000 ] 2>/dev/null || fail "$name: the live-bytes panel is blank"
    [ "$(attr "$name" first-match)" = "$4" ] || fail "$name: search '$3' found '$(attr "$name" first-match)' first, want '$4'"
    [ "$(attr "$name" matches)" -ge 1 ] || fail "$name: search '$3' matched nothing"
    grep -q "<li data-index=\"[0-9]*\"><button type=\"button\" class=\"name\">$4</button>" "$T/$name.dom" ||
        fail "$name: '$4' is not in the list of matches"
    grep -q '<div id="legend"><span>colour: size</span><span class="item">' "$T/$name.dom" || fail "$name: no legend"
    echo "$name: drew $(attr "$name" drawn) buffers in $(attr "$name" panels) panels in $(attr "$name" ms) ms"
    # Self-contained: nothing the browser would fetch (the ids of these inputs hold no URL).
    if grep -n -i -E '<link|<img|<iframe| src=|url\(|@import|https?://' "$file" | head -3 | grep .; then
        fail "$name: the page refers to something outside itself"
    fi
}

# --- 5 buffers ------------------------------------------------------------------------------------------------------
"$A" plan -f html -o "$T/small.html" "$I12" || fail "small.html: aplan failed"
"$A" plan -f svg -o "$T/small.svg" "$I12" || fail "small.svg: aplan failed"
svg small_svg "$T/small.svg" 5
html small_html "$T/small.html" b3 b3
rm -f "$T/small.png"
chrome --screenshot="$T/small.png" --window-size=700,1200 "file://$T/small.html" >/dev/null
not_blank small_html "$T/small.png"

# Hover and zoom, driven by a script after the page's: the pointer over the middle of greedy_by_size's plot (b5 there:
# steps [0, 21), bytes [8, 12) of 0..20), then the wheel there; the self-check records the hover and the views.
cat >"$T/drive.html" <<'EOF'
<script>
(function () {
  var out = document.getElementById('selfcheck');
  var before = out.dataset.view;
  var stage = document.querySelector('figure.panel[data-run="1"] .stage');
  var r = stage.getBoundingClientRect();
  var x = r.left + 74 + (r.width - 86) / 2, y = r.top + 8 + (r.height - 30) / 2;
  stage.dispatchEvent(new PointerEvent('pointermove', {clientX: x, clientY: y, bubbles: true}));
  var tip = document.getElementById('tip');
  out.dataset.tip = tip.hidden ? 'hidden' : tip.textContent;
  stage.dispatchEvent(new WheelEvent('wheel', {clientX: x, clientY: y, deltaY: -300, bubbles: true, cancelable: true}));
  var waited = 0;
  (function poll() {  /* the page redraws at the next frame, or after 100 ms without one */
    if (before !== out.dataset.view || waited >= 2000) out.dataset.zoom = before === out.dataset.view ? 'same' : 'changed';
    else setTimeout(poll, 50), waited += 50;
  })();
})();
</script>
EOF
sed '/^<\/body>$/,$d' "$T/small.html" >"$T/driven.html"
cat "$T/drive.html" >>"$T/driven.html"
printf '</body>\n</html>\n' >>"$T/driven.html"
chrome --virtual-time-budget=5000 --dump-dom "file://$T/driven.html" >"$T/driven.dom"
no_console driven
[ "$(attr driven hover)" = b5 ] || fail "driven: hovering the middle of greedy_by_size gave '$(attr driven hover)', want b5"
case "$(attr driven tip)" in
b5size\ 4\ bytesoffset\ 8\ bytes\ in\ greedy_by_sizesteps\ \[0,\ 21\)*) ;;
*) fail "driven: the tooltip says '$(attr driven tip)'" ;;
esac
[ "$(attr driven zoom)" = changed ] || fail "driven: the wheel did not zoom ($(attr driven zoom))"

# A model's tooltips: the tensor's name and id, type and shape, and the operators of its first and last step; the
# live-bytes panel names the operator of the step under the pointer. hover_model NAME MODEL STEP BYTES LIVE TIP
# LIVE_TIP: the pointer goes to greedy_by_size's STEP at byte BYTES, then to step LIVE of the live panel, from the view
# the page reports; the tooltips must say TIP and LIVE_TIP.
cat >"$T/drive_model.html" <<'EOF'
<script>
(function () {
  var out = document.getElementById('selfcheck');
  var v = out.dataset.view.split(' ').map(Number);
  var tip = document.getElementById('tip');
  function hover(stage, step, bytes) {
    var r = stage.getBoundingClientRect();
    var x = r.left + 74 + (r.width - 86) * (step + 0.5 - v[0]) / (v[1] - v[0]);
    var y = bytes === null ? r.top + r.height / 2 : r.top + 8 + (r.height - 30) * (bytes - v[2]) / (v[3] - v[2]);
    stage.dispatchEvent(new PointerEvent('pointermove', {clientX: x, clientY: y, bubbles: true}));
    return tip.hidden ? 'hidden' : Array.prototype.map.call(tip.childNodes, function (n) { return n.textContent; })
      .join(' | ');
  }
  out.dataset.tip = hover(document.querySelector('figure.panel[data-run="1"] .stage'), @STEP@, @BYTES@);
  out.dataset.liveTip = hover(document.querySelector('#live .stage'), @LIVE@, null);
})();
</script>
EOF
hover_model() {
    "$A" plan -f html -o "$T/$1.html" "$2" || fail "$1.html: aplan failed"
    sed '/^<\/body>$/,$d' "$T/$1.html" >"$T/$1_driven.html"
    sed "s/@STEP@/$3/; s/@BYTES@/$4/; s/@LIVE@/$5/" "$T/drive_model.html" >>"$T/$1_driven.html"
    printf '</body>\n</html>\n' >>"$T/$1_driven.html"
    chrome --virtual-time-budget=5000 --dump-dom "file://$T/$1_driven.html" >"$T/$1_driven.dom"
    no_console "$1_driven"
    [ "$(attr "$1_driven" tip)" = "$6" ] || fail "$1_driven: the tooltip says '$(attr "$1_driven" tip)'"
    [ "$(attr "$1_driven" live-tip)" = "$7" ] ||
        fail "$1_driven: the live panel's tooltip says '$(attr "$1_driven" live-tip)'"
}
# chain (make_models.c): greedy_by_size puts s0t2 at offset 0, 512 bytes, steps [2, 5).
hover_model chain "$CHAIN" 3 256 4 \
    'block/conv (s0t2) | INT8 [1x8x8x8] | size 512 bytes | offset 0 bytes in greedy_by_size | steps [2, 5): live for 3 steps | from CONV_2D (op 0 of subgraph 0) | to ADD (op 2 of subgraph 0)' \
    'step 4: ADD (op 2 of subgraph 0) | 1.5 KiB (1536 bytes) live'
# person_detect: s0t54 at greedy_by_size's step 5, byte 18432 (offset 0, 36864 bytes).
if have_shared models/person_detect.tflite; then
    hover_model pd "$S/models/person_detect.tflite" 5 18432 4 \
        'MobilenetV1/MobilenetV1/Conv2d_1_pointwise/Relu6 (s0t54) | INT8 [1x48x48x16] | size 36 KiB (36864 bytes) | offset 0 bytes in greedy_by_size | steps [4, 6): live for 2 steps | from CONV_2D (op 2 of subgraph 0) | to DEPTHWISE_CONV_2D (op 3 of subgraph 0)' \
        'step 4: CONV_2D (op 2 of subgraph 0) | 54 KiB (55296 bytes) live'
fi

# --- A model's buffers go by their tensors' names; the search matches a name or an id (any case), exact ones first --
"$A" plan -f svg -o "$T/chain.svg" "$CHAIN" || fail "chain.svg: aplan failed"
svg chain_svg "$T/chain.svg" 5
html chain_html "$T/chain.html" S0T5 block/add
html chain_name_html "$T/chain.html" block%2Fconv_dw block/conv_dw
[ "$(attr chain_name_html matches)" = 1 ] ||
    fail "chain_name_html: block/conv_dw matched $(attr chain_name_html matches) buffers"
grep -q '<li data-index="[0-9]*"><button type="button" class="name">block/conv_dw</button> (s0t4): ' \
    "$T/chain_name_html.dom" || fail "chain_name_html: the match is not listed with its id"
grep -q '<title>block/conv_dw (s0t4), INT8 \[1x8x8x8\]: 512 bytes at offset' "$T/chain.svg" ||
    fail "chain_svg: no tooltip with the tensor's name, type and shape"

# --- MediaPipe models: 165 and 713 buffers --------------------------------------------------------------------------
if have_shared models/mp_face_detection_short_range.tflite models/mp_face_landmark_with_attention.tflite; then
    for m in mp_face_detection_short_range mp_face_landmark_with_attention; do
        "$A" plan -f svg -o "$T/$m.svg" "$S/models/$m.tflite" || fail "$m.svg: aplan failed"
        "$A" plan -f html -o "$T/$m.html" "$S/models/$m.tflite" || fail "$m.html: aplan failed"
    done
    svg face_detection_svg "$T/mp_face_detection_short_range.svg" 165
    # A model's buffers go by their tensors' names; the search matches a name or an id (any case), exact ones first.
    html face_detection_html "$T/mp_face_detection_short_range.html" s0t3 conv2d
    svg face_landmark_svg "$T/mp_face_landmark_with_attention.svg" "" noshot
    html face_landmark_html "$T/mp_face_landmark_with_attention.html" S0T12 add__xeno_compat__1
    html face_landmark_name_html "$T/mp_face_landmark_with_attention.html" output_mesh%2FKernel_dequantize \
        output_mesh/Kernel_dequantize
    [ "$(attr face_landmark_name_html matches)" = 1 ] ||
        fail "face_landmark_name_html: output_mesh/Kernel_dequantize matched $(attr face_landmark_name_html matches) buffers"
    grep -q '<li data-index="[0-9]*"><button type="button" class="name">output_mesh/Kernel_dequantize</button> (s0t1008): ' \
        "$T/face_landmark_name_html.dom" || fail "face_landmark_name_html: the match is not listed with its id"
    grep -q '<title>output_mesh/Kernel_dequantize (s0t1008), FLOAT32 \[1404x3x3x32\]: 1.54 MiB (1617408 bytes) at offset' \
        "$T/mp_face_landmark_with_attention.svg" || fail "face_landmark_svg: no tooltip with the tensor's name, type and shape"
fi

# --- Ids from files: markup, "</script>", invalid UTF-8 -------------------------------------------------------------
printf 'id,lower,upper,size\n</script><script>alert(1)</script>,0,3,100\nbad\377\376utf,1,4,200\n<!--x,3,6,80\n' >"$T/ids.csv"
printf 'amp&amp;\047q,1,2,10\nsnow\342\230\203man,0,2,70\n' >>"$T/ids.csv"
"$A" plan -f svg -o "$T/ids.svg" "$T/ids.csv" || fail "ids.svg: aplan failed"
"$A" plan -f html -o "$T/ids.html" "$T/ids.csv" || fail "ids.html: aplan failed"
grep -q '<title>bad\\xFF\\xFEutf: 200 bytes' "$T/ids.svg" || fail "ids.svg: invalid UTF-8 is not shown as \\xHH"
grep -q '&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;: 100 bytes' "$T/ids.svg" || fail "ids.svg: markup not escaped"
grep -q '"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"' "$T/ids.html" ||
    fail "ids.html: '</script>' in an id is not escaped in the data"
"$PYTHON" -c 'import sys; [open(f, encoding="utf-8").read() for f in sys.argv[1:]]' "$T/ids.svg" "$T/ids.html" ||
    fail "ids: the output is not valid UTF-8"
svg ids_svg "$T/ids.svg" 5 noshot
html ids_html "$T/ids.html" '%3C%2Fscript' '&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;'
chrome --dump-dom "file://$T/ids.html#search=bad%5CxFF" >"$T/ids_bad.dom"
[ "$(attr ids_bad first-match)" = 'bad\xFF\xFEutf' ] || fail "ids: searching bad\\xFF found '$(attr ids_bad first-match)'"

# === Issue 17: frictions, on inputs written here ===================================================================
# No plan fits the capacity (exit 4): the smallest plan is drawn anyway, with what lies beyond the capacity tinted.
printf 'id,lower,upper,size\na,0,2,100\nb,1,3,50\nc,2,4,60\nd,3,5,30\n' >"$T/nofit.csv"
"$A" plan -s linear --capacity 200 -f svg -o "$T/nofit.svg" "$T/nofit.csv" 2>/dev/null
[ $? = 4 ] || fail "nofit.svg: aplan did not exit 4"
svg nofit_svg "$T/nofit.svg" 4 noshot
"$A" plan -s linear --capacity 200 -f html -o "$T/nofit.html" "$T/nofit.csv" 2>/dev/null
[ $? = 4 ] || fail "nofit.html: aplan did not exit 4"
html nofit_html "$T/nofit.html" c c
[ "$(attr nofit_html beyond)" = 1 ] || fail "nofit_html: $(attr nofit_html beyond) panels tinted beyond the capacity, want 1"
grep -qF '<span class="note">: arena 240 bytes, +60.0% over the lower bound, 40 bytes over the capacity (smallest)</span>' \
    "$T/nofit_html.dom" || fail "nofit_html: the panel's caption does not say how far over the capacity the plan is"

# The buffer list's numbers stay in their own column: the page lists the 200 largest of 300 buffers in columns, and a
# driver measures each item's number ("200. " in the list's font) against the text of the columns to its left.
awk 'BEGIN { print "id,lower,upper,size"
  for (i = 0; i < 300; i++) printf "buffer_with_a_long_name_%d,%d,%d,%d\n", i, i % 50, i % 50 + 3, 100 + i }' >"$T/list.csv"
"$A" plan -s greedy_by_size -f html -o "$T/list.html" "$T/list.csv" || fail "list.html: aplan failed"
cat >"$T/drive_list.html" <<'EOF'
<script>
(function () {
  var out = document.getElementById('selfcheck');
  var items = Array.prototype.slice.call(document.querySelectorAll('#matches li'));
  var probe = document.createElement('span');
  probe.style.font = getComputedStyle(items[0]).font;
  probe.style.position = 'absolute';
  probe.style.whiteSpace = 'pre';
  probe.textContent = items.length + '. ';
  document.body.appendChild(probe);
  var number = probe.getBoundingClientRect().width;
  var boxes = items.map(function (li) {
    var r = document.createRange();
    r.selectNodeContents(li);
    return {left: li.getBoundingClientRect().left, right: r.getBoundingClientRect().right};
  });
  var columns = {}, overlaps = 0;
  boxes.forEach(function (b) {
    columns[Math.round(b.left)] = true;
    var reach = -Infinity;
    boxes.forEach(function (o) { if (o.left < b.left - 1 && o.right > reach) reach = o.right; });
    if (b.left - number < reach) overlaps++;
  });
  out.dataset.items = String(items.length);
  out.dataset.columns = String(Object.keys(columns).length);
  out.dataset.overlaps = String(overlaps);
})();
</script>
EOF
sed '/^<\/body>$/,$d' "$T/list.html" >"$T/list_driven.html"
cat "$T/drive_list.html" >>"$T/list_driven.html"
printf '</body>\n</html>\n' >>"$T/list_driven.html"
chrome --window-size=1200,800 --virtual-time-budget=3000 --dump-dom "file://$T/list_driven.html" >"$T/list_driven.dom"
no_console list_driven
[ "$(attr list_driven items)" = 200 ] && [ "$(attr list_driven columns)" -ge 2 ] ||
    fail "list_driven: $(attr list_driven items) items in $(attr list_driven columns) columns, want 200 in 2 or more"
[ "$(attr list_driven overlaps)" = 0 ] ||
    fail "list_driven: $(attr list_driven overlaps) numbers of the buffer list overlap the column to their left"

# A long path keeps the SVG's heading inside the drawing: the heading starts from the file's name (issue 31, point 8c),
# and its text, measured by Chromium, ends before the right edge; the <title> names the file, then the whole path.
long="$T/a_rather_long_folder_name_that_goes_on_and_on/through_another_level_of_folders/and_a_third_one_to_be_sure"
mkdir -p "$long"
printf 'id,lower,upper,size\na,0,2,100\nb,1,3,50\n' >"$long/the_problem_with_a_long_file_name.csv"
"$A" plan -s greedy_by_size -f svg -o "$T/longpath.svg" "$long/the_problem_with_a_long_file_name.csv" ||
    fail "longpath.svg: aplan failed"
grep -qF "<title>the_problem_with_a_long_file_name.csv ($long/the_problem_with_a_long_file_name.csv): greedy_by_size," \
    "$T/longpath.svg" ||
    fail "longpath.svg: the title does not hold the whole path"
sed '/^<\/svg>$/d' "$T/longpath.svg" >"$T/longpath_driven.svg"
cat >>"$T/longpath_driven.svg" <<'EOF'
<script>
var h = document.querySelector('text[font-size="15"]'), b = h.getBBox();
h.setAttribute('data-right', String(Math.ceil(b.x + b.width)));
h.setAttribute('data-width', document.documentElement.getAttribute('width'));
</script>
</svg>
EOF
chrome --dump-dom "file://$T/longpath_driven.svg" >"$T/longpath.dom"
right=$(grep -o 'data-right="[0-9]*"' "$T/longpath.dom" | grep -o '[0-9]*')
[ -n "$right" ] && [ "$right" -le 1200 ] || fail "longpath.svg: the heading ends at x ${right:-?}, past the drawing's 1200 px"
grep -qF '>the_problem_with_a_long_file_name.csv: greedy_by_size, arena 150 bytes' "$T/longpath.dom" ||
    fail "longpath.svg: the heading does not start from the file's name"

# Plurals in the page's own text: one buffer that matches, live for one step.
printf 'id,lower,upper,size\na,0,1,1\nb,1,3,2\n' >"$T/one.csv"
"$A" plan -s greedy_by_size -f html -o "$T/one.html" "$T/one.csv" || fail "one.html: aplan failed"
html one_html "$T/one.html" a a
grep -qF '<p id="match-count">1 buffer matches “a”. Offsets are greedy_by_size’s.</p>' "$T/one_html.dom" ||
    fail "one_html: the match count is not singular: $(grep -o '<p id="match-count">[^<]*' "$T/one_html.dom")"
grep -qF 'Drawn in ' "$T/one_html.dom" && grep -qF ' ms: 1 plan, 2 buffers in memory.</p>' "$T/one_html.dom" ||
    fail "one_html: the self-check's text is not singular"

# --- Several memories (--region) ------------------------------------------------------------------------------------
# The probe appended to a region SVG: for each panel (g.region), how many of its rect.buf Chromium lays out with an
# area, and how many lie inside its plot's frame (the rect filled #f6f6f6), give or take the MIN_W / MIN_H a
# rectangle may be drawn past its steps and bytes. (CDATA: the script's "&&" in XML.)
cat >"$T/region_probe.svg" <<'EOF'
<script><![CDATA[
Array.prototype.forEach.call(document.querySelectorAll('g.region'), function (g) {
  var f = g.querySelector('rect[fill="#f6f6f6"]').getBBox(), inside = 0, visible = 0;
  Array.prototype.forEach.call(g.querySelectorAll('rect.buf'), function (r) {
    var b = r.getBBox();
    if (b.width > 0 && b.height > 0) visible++;
    if (b.x >= f.x - 0.01 && b.y >= f.y - 0.01 && b.x + b.width <= f.x + f.width + 1.01 &&
        b.y + b.height <= f.y + f.height + 2.01) inside++;
  });
  g.setAttribute('data-visible', String(visible));
  g.setAttribute('data-inside', String(inside));
});
]]></script>
</svg>
EOF

# region_svg NAME FILE [noshot] -- REGION...: checks of a region SVG: well-formed XML; in the DOM Chromium builds (with
# the probe above) one g.region per REGION, in that order, each titled with its name and holding buffers (the inputs
# here put some in every region), whose rect.buf each carry a <title>, are as many as its data-individual, are all laid
# out with an area and inside the panel's own plot, and are followed by a pixel layer when fewer than its data-drawn;
# the panels' counts add up to the SVG's; at most 4000 rectangles; the legend; a screenshot that is not blank (unless
# noshot).
region_svg() {
    name=$1
    file=$2
    shot=$3
    [ "$shot" = noshot ] && shift
    shift 3
    "$PYTHON" -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$file" ||
        fail "$name: not well-formed XML"
    sed '/^<\/svg>$/d' "$file" >"$T/${name}_probe.svg"
    cat "$T/region_probe.svg" >>"$T/${name}_probe.svg"
    chrome --dump-dom "file://$T/${name}_probe.svg" >"$T/$name.dom"
    no_console "$name"
    "$PYTHON" - "$T/$name.dom" "$@" >"$T/$name.why" <<'EOF' || fail "$name: $(tr '\n' ';' <"$T/$name.why")"
import html, re, sys
dom, want = open(sys.argv[1], encoding="utf-8").read(), sys.argv[2:]
bad = []
def attrs(tag):
    return {k: html.unescape(v) for k, v in re.findall(r' data-([a-z-]+)="([^"]*)"', tag)}
root = attrs(re.search(r'<svg[^>]*>', dom).group(0))
starts = list(re.finditer(r'<g class="region"[^>]*>', dom))
names = [attrs(m.group(0)).get("region") for m in starts]
if names != want:
    bad.append("panels %r, want %r" % (names, want))
total_rects = total_drawn = 0
for k, m in enumerate(starts):
    a = attrs(m.group(0))
    part = dom[m.end():starts[k + 1].start() if k + 1 < len(starts) else len(dom)]
    rects = part.count('<rect class="buf"')
    titled = len(re.findall(r'<rect class="buf"[^>]*><title>', part))
    total_rects += rects
    total_drawn += int(a["drawn"])
    n = a.get("region")
    if not re.search(r'<text class="region-title"[^>]*><tspan font-weight="bold">%s</tspan>: capacity ' %
                     re.escape(html.escape(n or "", quote=False)), part):
        bad.append("%s: no title naming it" % n)
    if int(a["drawn"]) == 0:
        bad.append("%s: no buffer drawn" % n)
    if not rects == titled == int(a["individual"]) == int(a["visible"]) == int(a["inside"]):
        bad.append("%s: %d rect.buf, %d with a title, data-individual %s, %s laid out, %s inside the plot" %
                   (n, rects, titled, a["individual"], a["visible"], a["inside"]))
    if rects < int(a["drawn"]) and '<path class="pixels"' not in part:
        bad.append("%s: %s buffers, %d rectangles, no pixel layer" % (n, a["drawn"], rects))
if str(total_rects) != root.get("individual") or str(total_drawn) != root.get("drawn"):
    bad.append("the panels draw %d of %d, the SVG says %s of %s" % (total_rects, total_drawn, root.get("individual"),
                                                                    root.get("drawn")))
if root.get("regions") != str(len(want)):
    bad.append("data-regions %s" % root.get("regions"))
if total_rects > 4000:
    bad.append("%d rectangles drawn one by one, more than 4000" % total_rects)
if '<g class="legend">' not in dom:
    bad.append("no legend")
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
    [ "$shot" = noshot ] && return
    rm -f "$T/$name.png"
    chrome --screenshot="$T/$name.png" --window-size=1200,800 "file://$file" >/dev/null
    not_blank "$name" "$T/$name.png"
}

# region_html NAME FILE SEARCH FIRST REGION...: checks of a region report opened at #search=SEARCH, whose best match
# must be FIRST: state ok, no script error, no console message; one figure per ticked strategy holding one panel per
# REGION, in order (a canvas each, and the live curve's); every panel of the first figure painted (the inputs here
# put buffers in every region) and the live curve too; the search found and listed; the legend; nothing outside the
# page.
region_html() {
    name=$1
    file=$2
    search=$3
    first=$4
    shift 4
    chrome --dump-dom "file://$file#search=$search" >"$T/$name.dom"
    no_console "$name"
    [ "$(attr "$name" state)" = ok ] || fail "$name: self-check '$(attr "$name" state)': $(grep -o '<p id="selfcheck".*' "$T/$name.dom")"
    [ "$(attr "$name" errors)" = 0 ] || fail "$name: $(attr "$name" errors) script errors"
    ticked=$(grep -o 'class="show" data-run="[0-9]*" checked' "$file" | wc -l | tr -d ' ')
    [ "$ticked" -ge 1 ] && [ "$(attr "$name" figures)" = "$ticked" ] ||
        fail "$name: $(attr "$name" figures) figures, $ticked strategies ticked"
    [ "$(attr "$name" regions)" = $# ] || fail "$name: $(attr "$name" regions) regions, want $#"
    [ "$(attr "$name" panels)" = $((ticked * $#)) ] || fail "$name: $(attr "$name" panels) panels, want $((ticked * $#))"
    canvases=$(grep -o '<canvas class="base"' "$T/$name.dom" | wc -l | tr -d ' ')
    [ "$canvases" = $((ticked * $# + 1)) ] || fail "$name: $canvases canvases, want $((ticked * $# + 1))"
    got=$(grep -o '<div class="region" data-region="[^"]*"' "$T/$name.dom" | head -n $# | sed 's/.*data-region="//; s/"$//' | tr '\n' ' ')
    [ "$got" = "$* " ] || fail "$name: the first figure's panels are '$got', want '$* '"
    for painted in $(attr "$name" region-painted); do
        [ "$painted" -gt 100 ] || fail "$name: a region's panel is blank (painted: $(attr "$name" region-painted))"
    done
    [ "$(attr "$name" region-painted | wc -w | tr -d ' ')" = $# ] ||
        fail "$name: painted pixels '$(attr "$name" region-painted)', want one count per region"
    [ "$(attr "$name" live-painted)" -gt 1000 ] 2>/dev/null || fail "$name: the live-bytes panel is blank"
    [ "$(attr "$name" first-match)" = "$first" ] ||
        fail "$name: search '$search' found '$(attr "$name" first-match)' first, want '$first'"
    grep -q "<li data-index=\"[0-9]*\"><button type=\"button\" class=\"name\">$first</button>" "$T/$name.dom" ||
        fail "$name: '$first' is not in the list of matches"
    grep -q '<div id="legend"><span>colour: size</span><span class="item">' "$T/$name.dom" || fail "$name: no legend"
    echo "$name: drew $(attr "$name" drawn) buffers in $(attr "$name" panels) panels in $(attr "$name" ms) ms"
    if grep -n -i -E '<link|<img|<iframe| src=|url\(|@import|https?://' "$file" | head -3 | grep .; then
        fail "$name: the page refers to something outside itself"
    fi
}

# The example in a fast and a slow memory: banked (the best, run 0) puts dw1 (steps [3, 5), 9216 bytes, 2 uses) at
# offset 0 of slow, whose scale is its arena, 13824 bytes (its capacity, 1 MiB, is far past it), and conv1 (steps
# [2, 4), 9216 bytes) at offset 0 of fast, whose scale is its capacity, 20480 bytes (within twice its arena).
"$A" example --region fast:20K --region slow:1M -f svg -o "$T/regions.svg" || fail "regions.svg: aplan failed"
"$A" example --region fast:20K --region slow:1M -f html -o "$T/regions.html" || fail "regions.html: aplan failed"
region_svg regions_svg "$T/regions.svg" -- fast slow
grep -q '<title>dw1, [^:]*: 9 KiB (9216 bytes) at offset 0 in slow, steps \[3, 5)[^<]*; 2 uses: 18 KiB (18432 bytes) of slow-memory traffic</title>' \
    "$T/regions.svg" || fail "regions_svg: dw1's tooltip does not name its region and traffic"
region_html regions_html "$T/regions.html" dw1 dw1 fast slow
# A driver hovers dw1 in slow, zooms there with the wheel, then hovers conv1 in fast at the view the page reports.
cat >"$T/drive_regions.html" <<'EOF'
<script>
(function () {
  var out = document.getElementById('selfcheck'), tip = document.getElementById('tip');
  function stage(region) {
    return document.querySelector('figure.panel[data-run="0"] .region[data-region="' + region + '"] .stage');
  }
  /* The pointer at a step and a share of the region's scale, from the view the page reports. */
  function at(region, step, share) {
    var v = out.dataset.view.split(' ').map(Number), r = stage(region).getBoundingClientRect();
    return {x: r.left + 74 + (r.width - 86) * (step + 0.5 - v[0]) / (v[1] - v[0]),
            y: r.top + 8 + (r.height - 30) * (share - v[2]) / (v[3] - v[2])};
  }
  function hover(region, p) {
    stage(region).dispatchEvent(new PointerEvent('pointermove', {clientX: p.x, clientY: p.y, bubbles: true}));
    return tip.hidden ? 'hidden' : Array.prototype.map.call(tip.childNodes, function (n) { return n.textContent; })
      .join(' | ');
  }
  var p = at('slow', 3, 1 / 3), before = out.dataset.view;
  out.dataset.tip = hover('slow', p);
  stage('slow').dispatchEvent(new WheelEvent('wheel', {clientX: p.x, clientY: p.y, deltaY: -300, bubbles: true,
    cancelable: true}));
  var waited = 0;
  (function poll() {  /* the page redraws at the next frame, or after 100 ms without one */
    if (before !== out.dataset.view || waited >= 2000) {
      out.dataset.zoom = before === out.dataset.view ? 'same' : 'changed';
      out.dataset.fastTip = hover('fast', at('fast', 2, 0.2));
    } else {
      setTimeout(poll, 50), waited += 50;
    }
  })();
})();
</script>
EOF
sed '/^<\/body>$/,$d' "$T/regions.html" >"$T/regions_driven.html"
cat "$T/drive_regions.html" >>"$T/regions_driven.html"
printf '</body>\n</html>\n' >>"$T/regions_driven.html"
chrome --virtual-time-budget=5000 --dump-dom "file://$T/regions_driven.html" >"$T/regions_driven.dom"
no_console regions_driven
case "$(attr regions_driven tip)" in
'dw1 | '*' | size 9 KiB (9216 bytes) | offset 0 bytes in slow (banked) | steps [3, 5): live for 2 steps | '*'2 uses: 18 KiB (18432 bytes) of slow-memory traffic') ;;
*) fail "regions_driven: the slow panel's tooltip says '$(attr regions_driven tip)'" ;;
esac
[ "$(attr regions_driven zoom)" = changed ] || fail "regions_driven: the wheel did not zoom ($(attr regions_driven zoom))"
case "$(attr regions_driven fast-tip)" in
'conv1 | '*' | offset 0 bytes in fast (banked) | steps [2, 4): '*) ;;
*) fail "regions_driven: after the zoom, the fast panel's tooltip says '$(attr regions_driven fast-tip)'" ;;
esac
rm -f "$T/regions.png"
chrome --screenshot="$T/regions.png" --window-size=1000,1400 "file://$T/regions.html" >/dev/null
not_blank regions_html "$T/regions.png"

# A CSV that names two regions itself: its region column pins in to fast and big to slow (out may use either, the
# others any), its uses column weighs the traffic; the best plan (select's) puts conv in slow, 12000 bytes used twice.
printf 'id,lower,upper,size,uses,region\nin,0,2,6000,4,fast\nconv,1,3,12000,2,\nact,2,5,8000,6,\nbig,3,6,40000,1,slow\nout,5,7,2000,3,fast|slow\n' \
    >"$T/pinned.csv"
"$A" plan --region fast:16K --region slow:256K -f svg -o "$T/pinned.svg" "$T/pinned.csv" || fail "pinned.svg: aplan failed"
"$A" plan --region fast:16K --region slow:256K -f html -o "$T/pinned.html" "$T/pinned.csv" || fail "pinned.html: aplan failed"
region_svg pinned_svg "$T/pinned.svg" noshot -- fast slow
grep -q '<title>conv: 11.7 KiB (12000 bytes) at offset 0 in slow, steps \[1, 3); 2 uses: 23.4 KiB (24000 bytes) of slow-memory traffic</title>' \
    "$T/pinned.svg" || fail "pinned_svg: conv's tooltip does not give its region, uses and traffic"
grep -q '<title>act: [^<]* in fast, steps \[2, 5); 6 uses</title>' "$T/pinned.svg" ||
    fail "pinned_svg: act's tooltip does not give the uses of the CSV"
grep -q '"uses":\[4,2,6,1,3\]' "$T/pinned.html" || fail "pinned.html: the data lacks the CSV's uses"
region_html pinned_html "$T/pinned.html" big big fast slow

# Hostile ids in two regions (banked puts two of the five in b).
"$A" plan --region a:150 --region b:1K -f svg -o "$T/ids_regions.svg" "$T/ids.csv" || fail "ids_regions.svg: aplan failed"
"$A" plan --region a:150 --region b:1K -f html -o "$T/ids_regions.html" "$T/ids.csv" || fail "ids_regions.html: aplan failed"
"$PYTHON" -c 'import sys; [open(f, encoding="utf-8").read() for f in sys.argv[1:]]' "$T/ids_regions.svg" \
    "$T/ids_regions.html" || fail "ids_regions: the output is not valid UTF-8"
grep -q '<title>bad\\xFF\\xFEutf: 200 bytes at offset 0 in b, ' "$T/ids_regions.svg" ||
    fail "ids_regions.svg: invalid UTF-8 is not shown as \\xHH, or the buffer is not in b"
region_svg ids_regions_svg "$T/ids_regions.svg" noshot -- a b
region_html ids_regions_html "$T/ids_regions.html" '%3C%2Fscript' '&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;' a b

# No region plan fits (exit 4): the best is drawn, slow's bytes past its capacity tinted, the verdict under it.
"$A" example --region fast:8K --region slow:20K -f svg -o "$T/regions_nofit.svg" 2>/dev/null
[ $? = 4 ] || fail "regions_nofit.svg: aplan did not exit 4"
"$A" example --region fast:8K --region slow:20K -f html -o "$T/regions_nofit.html" 2>/dev/null
[ $? = 4 ] || fail "regions_nofit.html: aplan did not exit 4"
region_svg regions_nofit_svg "$T/regions_nofit.svg" noshot -- fast slow
sed -n '/<g class="region" data-region="slow"/,$p' "$T/regions_nofit.svg" | grep -q '<g class="overflow"' ||
    fail "regions_nofit_svg: the slow panel does not tint what passes its capacity"
grep -q '<text class="verdict"[^>]*>does not fit: slow needs ' "$T/regions_nofit.svg" ||
    fail "regions_nofit_svg: no verdict"
region_html regions_nofit_html "$T/regions_nofit.html" pw2 pw2 fast slow
[ "$(attr regions_nofit_html beyond)" = 1 ] ||
    fail "regions_nofit_html: $(attr regions_nofit_html beyond) panels tinted beyond the capacity, want 1"

# --- 10,000 buffers -------------------------------------------------------------------------------------------------
gen 10000 "$T/10k.csv"
"$A" plan -f svg -o "$T/10k.svg" "$T/10k.csv" || fail "10k.svg: aplan failed"
"$A" plan -f html -o "$T/10k.html" "$T/10k.csv" || fail "10k.html: aplan failed"
svg 10k_svg "$T/10k.svg"
grep -q 'data-drawn="10000"' "$T/10k.svg" || fail "10k_svg: not every buffer is in the picture"
html 10k_html "$T/10k.html" t4242 t4242
[ "$(attr 10k_html drawn)" = 10000 ] || fail "10k_html: $(attr 10k_html drawn) buffers drawn, want 10000"
# In two regions: most of psram's buffers at pixel resolution, the 4000 drawn one by one shared by the panels.
"$A" plan -s banked,select --region sram:256K --region psram:16M -f svg -o "$T/10k_regions.svg" "$T/10k.csv" ||
    fail "10k_regions.svg: aplan failed"
"$A" plan -s banked,select --region sram:256K --region psram:16M -f html -o "$T/10k_regions.html" "$T/10k.csv" ||
    fail "10k_regions.html: aplan failed"
region_svg 10k_regions_svg "$T/10k_regions.svg" -- sram psram
region_html 10k_regions_html "$T/10k_regions.html" t4242 t4242 sram psram
[ "$(attr 10k_regions_html drawn)" = 10000 ] ||
    fail "10k_regions_html: $(attr 10k_regions_html drawn) buffers drawn, want 10000"

# === Issue 31: what a model's pictures cover, and the page at a laptop's width =====================================
# layout NAME HTML: HTML opened at 1366 px wide with a driver that measures, once the list is drawn: whether #runs and
# #tflm fit the width without scrolling (yes, no or none when absent), and whether each listed buffer's number (its
# <ol> marker, on the baseline of the item's first line, where an empty probe at the item's start sits) is beside the
# first line of its own name, however long. Sets LAYOUT_RUNS, LAYOUT_TFLM, LAYOUT_LISTED and LAYOUT_ALIGNED.
cat >"$T/drive_layout.html" <<'EOF'
<script>
(function () {
  var out = document.getElementById('selfcheck'), waited = 0;
  function fits(table) {
    if (table === null) return 'none';
    var box = table.parentNode, r = table.getBoundingClientRect();
    return box.scrollWidth <= box.clientWidth && r.right <= document.documentElement.clientWidth ? 'yes' : 'no';
  }
  (function measure() {
    var items = document.querySelectorAll('#matches li');
    if (items.length === 0 && waited < 3000) { waited += 50; setTimeout(measure, 50); return; }
    var aligned = 0;
    Array.prototype.forEach.call(items, function (li) {
      var name = li.querySelector('button.name'), probe = document.createElement('span');
      li.insertBefore(probe, li.firstChild);
      var p = probe.getBoundingClientRect(), b = name.getBoundingClientRect();
      var line = parseFloat(getComputedStyle(name).lineHeight) || 1.3 * parseFloat(getComputedStyle(name).fontSize);
      if (p.bottom >= b.top && p.bottom <= b.top + 1.5 * line) aligned++;
      li.removeChild(probe);
    });
    out.dataset.layoutRuns = fits(document.getElementById('runs'));
    out.dataset.layoutTflm = fits(document.getElementById('tflm'));
    out.dataset.layoutListed = String(items.length);
    out.dataset.layoutAligned = String(aligned);
  })();
})();
</script>
EOF
layout() {
    sed '/^<\/body>$/,$d' "$2" >"$T/$1_layout.html"
    cat "$T/drive_layout.html" >>"$T/$1_layout.html"
    printf '</body>\n</html>\n' >>"$T/$1_layout.html"
    chrome --window-size=1366,900 --virtual-time-budget=5000 --dump-dom "file://$T/$1_layout.html" >"$T/$1_layout.dom"
    no_console "$1_layout"
    LAYOUT_RUNS=$(attr "$1_layout" layout-runs)
    LAYOUT_TFLM=$(attr "$1_layout" layout-tflm)
    LAYOUT_LISTED=$(attr "$1_layout" layout-listed)
    LAYOUT_ALIGNED=$(attr "$1_layout" layout-aligned)
    echo "$1: at 1366 px, #runs fits: $LAYOUT_RUNS, #tflm fits: $LAYOUT_TFLM, $LAYOUT_ALIGNED of $LAYOUT_LISTED listed numbers beside their names"
}
# A model's page: the TFLM arena table fits beside the runs' table (scratch.tflite: kernels' scratch in its parts).
"$A" plan -f html -o "$T/scratch.html" "$SCRATCH" || fail "scratch.html: aplan failed"
layout scratch "$T/scratch.html"
[ "$LAYOUT_RUNS/$LAYOUT_TFLM" = yes/yes ] || fail "scratch_layout: at 1366 px #runs fits: $LAYOUT_RUNS, #tflm: $LAYOUT_TFLM"
[ "$LAYOUT_LISTED" -ge 1 ] && [ "$LAYOUT_ALIGNED" = "$LAYOUT_LISTED" ] ||
    fail "scratch_layout: $LAYOUT_ALIGNED of $LAYOUT_LISTED listed numbers beside their names"
# Names of about 290 characters (shared_name.tflite's 100,000-byte name, shortened): each number stays on its name's
# first line.
"$A" plan -s greedy_by_size -f html -o "$T/long_names.html" "$SHARED_NAME" || fail "long_names.html: aplan failed"
layout long_names "$T/long_names.html"
[ "$LAYOUT_LISTED" = 2 ] && [ "$LAYOUT_ALIGNED" = 2 ] ||
    fail "long_names_layout: $LAYOUT_ALIGNED of $LAYOUT_LISTED listed numbers beside their names, want 2 of 2"
[ "$LAYOUT_RUNS/$LAYOUT_TFLM" = yes/yes ] || fail "long_names_layout: at 1366 px #runs fits: $LAYOUT_RUNS, #tflm: $LAYOUT_TFLM"
# A region plan's table fits 1366 px (a column per region, each arena with its share under it): the example in four
# memories, and person_detect in two and in four when there.
"$A" example --region a:8K --region b:16K --region c:32K --region d:1M -f html -o "$T/four_regions.html" ||
    fail "four_regions.html: aplan failed"
layout four_regions "$T/four_regions.html"
[ "$LAYOUT_RUNS" = yes ] || fail "four_regions_layout: the region table does not fit 1366 px"
if have_shared models/person_detect.tflite; then
    "$A" plan "$S/models/person_detect.tflite" --region fast:32K --region slow:1M -f html -o "$T/pd_regions.html" ||
        fail "pd_regions.html: aplan failed"
    layout pd_regions "$T/pd_regions.html"
    [ "$LAYOUT_RUNS" = yes ] || fail "pd_regions_layout: the region table does not fit 1366 px"
    [ "$LAYOUT_ALIGNED" = "$LAYOUT_LISTED" ] ||
        fail "pd_regions_layout: $LAYOUT_ALIGNED of $LAYOUT_LISTED listed numbers beside their names"
    "$A" plan "$S/models/person_detect.tflite" --region fast:8K --region mid:16K --region slow:32K --region big:1M \
        -f html -o "$T/pd_four.html" || fail "pd_four.html: aplan failed"
    layout pd_four "$T/pd_four.html"
    [ "$LAYOUT_RUNS" = yes ] || fail "pd_four_layout: the region table does not fit 1366 px"
fi
# A model's SVG: the lines under its heading (what it covers, the TFLM arena) lie inside the drawing and above the
# legend, as Chromium lays them out: the SVG inline in a page whose script measures them.
"$A" plan -f svg -o "$T/scratch.svg" "$SCRATCH" || fail "scratch.svg: aplan failed"
{
    printf '<!DOCTYPE html>\n<html><body style="margin:0">\n'
    sed 1d "$T/scratch.svg"
    cat <<'EOF'
<p id="out"></p>
<script>
(function () {
  var lines = document.querySelectorAll('text.covers, text.tflm'), legend = document.querySelector('g.legend').getBBox();
  var inside = 0;
  Array.prototype.forEach.call(lines, function (t) {
    var b = t.getBBox();
    if (b.x >= 0 && b.x + b.width <= 1200 && b.y + b.height <= legend.y) inside++;
  });
  document.getElementById('out').dataset.lines = lines.length + ' ' + inside;
})();
</script>
</body></html>
EOF
} >"$T/scratch_svg.html"
chrome --window-size=1300,900 --dump-dom "file://$T/scratch_svg.html" >"$T/scratch_svg.dom"
no_console scratch_svg
got=$(grep -o 'data-lines="[^"]*"' "$T/scratch_svg.dom" | sed 's/.*="//; s/"$//')
[ "$got" = "6 6" ] || fail "scratch_svg: '$got' (heading lines, those inside the drawing above the legend), want '6 6'"

# --- 100,000 buffers: the files stay small and the report opens ------------------------------------------------------
# A compact build (-Dcompact=true) plans in O(n^2) by design, so planning 100k buffers there would time the test out;
# the pictures are the same code in every build, and the other builds check them at this size.
if [ "${APLAN_COMPACT:-0}" = 1 ]; then
  echo "100k: skipped in a compact build (its strategies are O(n^2) by design)"
  echo "browser: $failures failures, $skipped parts skipped"
  [ "$failures" = 0 ]
  exit
fi
gen 100000 "$T/100k.csv"
"$A" plan -f html -o "$T/100k.html" "$T/100k.csv" || fail "100k.html: aplan failed"
"$A" plan -s first_fit -f svg -o "$T/100k.svg" "$T/100k.csv" || fail "100k.svg: aplan failed"
html_bytes=$(wc -c <"$T/100k.html" | tr -d ' ')
svg_bytes=$(wc -c <"$T/100k.svg" | tr -d ' ')
echo "100k: HTML $html_bytes bytes, SVG $svg_bytes bytes"
# The buffers' columns take about 2.5 MB and each strategy's offsets about 0.8 MB: the page grows with the strategies
# the build has (every one runs by default, offline aside), never by more per buffer.
runs=$("$A" list | cut -d' ' -f1 | grep -v -x -e all -e auto -e offline | wc -l)
html_limit=$((3000000 + 1000000 * runs))
[ "$html_bytes" -lt "$html_limit" ] || fail "100k.html: $html_bytes bytes, not under $html_limit ($runs strategies)"
[ "$svg_bytes" -lt 2000000 ] || fail "100k.svg: $svg_bytes bytes, not under 2 MB"
started=$(date +%s)
html 100k_html "$T/100k.html" t99999 t99999
took=$(($(date +%s) - started))
echo "100k_html: loaded and drawn by headless Chromium in ${took} s"
[ "$(attr 100k_html drawn)" = 100000 ] || fail "100k_html: $(attr 100k_html drawn) buffers drawn, want 100000"

echo "browser: $failures failures, $skipped parts skipped"
[ "$failures" = 0 ]
