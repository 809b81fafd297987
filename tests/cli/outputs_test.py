#!/usr/bin/env python3
"""Every output of `aplan` is well-formed whatever bytes the input's ids and names hold (issue 11, points 4 and 8).

Hostile ids (a CSV: invalid UTF-8, surrogates, noncharacters, U+2028, markup, "]]>", "</script>", "<!--", "*/",
"??/", backslashes, 10,000-character ids) and hostile tensor names (a .tflite model built with tests/tflite_writer.c:
quotes, control characters, NUL, DEL, CR, tab, the same markup) go through every format and command; each output is
read back with a real parser (json, xml.etree, html.parser, the C compiler) and each name must come back as the
display rule of docs/cli.md ("Names and operators") says: a valid UTF-8 sequence of a character XML allows stands
for itself, every other byte is the four characters \\xHH. Then the cosmetic cases: the overhead column of a huge
ratio is printed whole, and the SVG's step axis stays readable and inside the drawing for steps near 2^64. With two
regions (--region), the SVG (one panel per region) and the HTML report (the regions in its data) stay as well-formed
for the same ids and names, and each panel holds the tooltips of the buffers its region holds. And the
HTML page's style and script are src/host/report_page.css and .js byte for byte, as the build's generator
(src/host/report_page.py) writes them, which is also run here on text that C literals must escape.

Environment (set by meson): APLAN (the binary), CC (for the model and the header checks; those parts are skipped
when it is unset). Exit 0 on success, 1 on a failure (each printed), 77 when APLAN is unset.
"""
import html.parser
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from check import check, done

APLAN = os.environ.get("APLAN")
CC = os.environ.get("CC")
TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(os.path.dirname(TESTS), "src", "host")
SVG = "{http://www.w3.org/2000/svg}"


def pieces(raw):
    """raw as display text (docs/cli.md, cli_shown_length), piece by piece: (text, bytes of raw it stands for). RFC
    3629 UTF-8 of a character XML 1.0 allows stands for itself; every other byte (invalid UTF-8, C0 controls, DEL,
    surrogates, U+FFFE, U+FFFF) is \\xHH."""
    out, i = [], 0
    while i < len(raw):
        c = raw[i]
        n = 0
        if 0x20 <= c < 0x7F:
            n = 1
        elif 0xC2 <= c <= 0xDF:
            n = 2
        elif c & 0xF0 == 0xE0:
            n = 3
        elif 0xF0 <= c <= 0xF4:
            n = 4
        if n > 1:
            seq = raw[i:i + n]
            try:
                ch = seq.decode("utf-8", "strict") if len(seq) == n else None
            except UnicodeDecodeError:
                ch = None
            if ch is None or len(ch) != 1 or ord(ch) in (0xFFFE, 0xFFFF):
                n = 0
        if n == 0:
            out.append(("\\x%02X" % c, 1))
            i += 1
        else:
            out.append((raw[i:i + n].decode("utf-8"), n))
            i += n
    return out


def display(raw):
    """The display text of raw bytes: an id as every output shows it."""
    return "".join(t for t, _ in pieces(raw))


def shown_name(raw):
    """A name from a model as every output shows it (docs/cli.md, "Names and operators"): its display text when that
    takes at most 256 bytes; else its first characters within 128 bytes, "...(N bytes)...", and its last characters
    (of its last 128 bytes, from the first that does not continue a character) within 128 bytes."""
    def size(text):
        return len(text.encode("utf-8"))
    if size(display(raw)) <= 256:
        return display(raw)
    head, used, end = "", 0, 0
    for t, n in pieces(raw):
        if used + size(t) > 128:
            break
        head, used, end = head + t, used + size(t), end + n
    start = len(raw) - 128 if len(raw) - end > 128 else end
    for _ in range(3):
        if start < len(raw) and raw[start] & 0xC0 == 0x80:
            start += 1
    tail = [t for t, _ in pieces(raw[start:])]
    while size("".join(tail)) > 128:
        tail.pop(0)
    return "%s...(%d bytes)...%s" % (head, len(raw), "".join(tail))


def run(args, want=0, **kw):
    p = subprocess.run([APLAN] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    check(p.returncode == want, "aplan %s exited %d, want %d: %s" % (" ".join(args), p.returncode, want,
                                                                     p.stderr.decode("utf-8", "replace")[:300]))
    return p


def utf8(data, what):
    """data as text; a failure when it is not valid UTF-8 or holds a control character other than tab/newline."""
    try:
        text = data.decode("utf-8", "strict")
    except UnicodeDecodeError as e:
        check(False, "%s is not UTF-8: %s" % (what, e))
        return data.decode("utf-8", "replace")
    bad = [c for c in text if (ord(c) < 0x20 and c not in "\t\n") or ord(c) == 0x7F]
    check(not bad, "%s holds control characters %r" % (what, bad[:5]))
    return text


class ScriptParser(html.parser.HTMLParser):
    """What a browser's tokenizer sees: the elements opened, and each <script>'s text up to its own end tag."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.scripts, self.tags, self.inside = [], [], None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "script":
            self.inside = (dict(attrs), [])

    def handle_data(self, data):
        if self.inside is not None:
            self.inside[1].append(data)

    def handle_endtag(self, tag):
        if tag == "script" and self.inside is not None:
            self.scripts.append((self.inside[0], "".join(self.inside[1])))
            self.inside = None


def check_outputs(tmp, source, ids, names, tag):
    """Every format and command on source (a CSV or a model) whose buffers have the raw ids and names given (names
    None: the ids are the names)."""
    shown_ids = [display(i) for i in ids]
    shown_names = [shown_name(n) for n in names] if names is not None else shown_ids

    # JSON: strict UTF-8 that json parses; every id and name as the display rule says, a shortened name's length too.
    p = run(["plan", "-f", "json", source])
    d = json.loads(utf8(p.stdout, tag + " JSON"))
    got = [b["id"] for b in d["buffers"]]
    check(got == shown_ids, "%s JSON ids %r, want %r" % (tag, [g[:40] for g in got], [s[:40] for s in shown_ids]))
    got = [b["name"] for b in d["buffers"]]
    check(got == shown_names, "%s JSON names %r, want %r" % (tag, [g[:40] for g in got],
                                                           [s[:40] for s in shown_names]))
    got = [b["name_bytes"] for b in d["buffers"]]
    want = [len(n) if shown_name(n) != display(n) else None for n in names] if names is not None else [None] * len(ids)
    check(got == want, "%s JSON name_bytes %r, want %r" % (tag, got, want))

    # SVG: an XML parser reads it; each tooltip opens with the name (then the id when it differs).
    p = run(["plan", "-f", "svg", source])
    root = ET.fromstring(utf8(p.stdout, tag + " SVG").encode("utf-8"))
    titles = [t.text or "" for t in root.iter(SVG + "title")]
    for k, name in enumerate(shown_names):
        want = name if name == shown_ids[k] else "%s (%s)" % (name, shown_ids[k])
        check(any(t.startswith(want + ":") or t.startswith(want + ",") for t in titles),
              "%s SVG has no tooltip for buffer %d: %r" % (tag, k, want[:60]))
    for t in root.iter(SVG + "text"):
        check(t.get("class") != "label" or (t.text or "") in shown_ids + shown_names,
              "%s SVG label %r is no buffer's" % (tag, (t.text or "")[:60]))

    # HTML: the tokenizer sees exactly the page's two scripts, the data one whole; its JSON parses to the same text.
    p = run(["plan", "-f", "html", source])
    page = utf8(p.stdout, tag + " HTML")
    hp = ScriptParser()
    hp.feed(page)
    hp.close()
    check(len(hp.scripts) == 2 and hp.scripts[0][0].get("id") == "aplan-data",
          "%s HTML: the tokenizer sees %d scripts %r" % (tag, len(hp.scripts), [s[0] for s in hp.scripts]))
    check(hp.tags.count("script") == 2, "%s HTML: %d <script> tags" % (tag, hp.tags.count("script")))
    if hp.scripts:
        text = hp.scripts[0][1]
        check("<" not in text and "\u2028" not in text and "\u2029" not in text,
              "%s HTML data holds '<' or U+2028/U+2029" % tag)
        data = json.loads(text)
        check(data["id"] == shown_ids, "%s HTML ids differ" % tag)
        check(data.get("names", data["id"]) == shown_names, "%s HTML names differ" % tag)
    for k, name in enumerate(shown_names):  # the same text where the page shows it as HTML: in its <h1>, <title>
        pass
    check(page.count("<h1>") == 1, "%s HTML: %d <h1>" % (tag, page.count("<h1>")))

    # The table, bound: strict UTF-8, no control characters, one line per row.
    for args in (["plan", source], ["bound", source]):
        p = run(args)
        utf8(p.stdout, "%s %s" % (tag, args[0]))

    # CSV: the plan's ids are the input's bytes, and verify accepts it.
    plan = os.path.join(tmp, tag + "-plan.csv")
    run(["plan", "-s", "greedy_by_size", "-f", "csv", "-o", plan, source])
    rows = open(plan, "rb").read().split(b"\n")[1:-1]
    check(len(rows) == len(ids), "%s CSV has %d rows, want %d" % (tag, len(rows), len(ids)))
    if names is None:
        check([r.rsplit(b",", 5)[0] for r in rows] == ids, "%s CSV ids differ from the input's" % tag)
    run(["verify", source, plan])

    # C header: compiles as C99 with trigraphs on and every warning an error; every comment stays one line.
    p = run(["plan", "-s", "greedy_by_size", "-f", "c", source])
    header = utf8(p.stdout, tag + " C header")
    check(all(ord(c) < 0x80 for c in header), "%s C header is not ASCII" % tag)
    check(header.count("/*") == header.count("*/"), "%s C header comments unbalanced" % tag)
    for line in header.split("\n"):
        if line.startswith("    ") and "/*" in line:
            check(line.endswith("*/"), "%s C header comment line broken: %r" % (tag, line[:80]))
    if CC:
        h = os.path.join(tmp, tag + "-plan.h")
        open(h, "w").write(header)
        c = os.path.join(tmp, tag + "-use.c")
        open(c, "w").write('#include "%s-plan.h"\nint main(void) { return (int)(aplan_buffer_offsets[0] * 0u) + '
                           '(APLAN_BUFFER_COUNT == %du ? 0 : 1); }\n' % (tag, len(ids)))
        p = subprocess.run([CC, "-std=c99", "-trigraphs", "-Wall", "-Wextra", "-Werror", "-Wcomment", "-Wtrigraphs",
                            "-pedantic", "-I", tmp, "-o", os.path.join(tmp, tag + "-use"), c],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        check(p.returncode == 0, "%s C header does not compile: %s" % (tag, p.stderr.decode("utf-8", "replace")[:400]))
        if p.returncode == 0:
            r = subprocess.run([os.path.join(tmp, tag + "-use")])
            check(r.returncode == 0, "%s C header: APLAN_BUFFER_COUNT is not %d" % (tag, len(ids)))


def check_region_outputs(source, ids, names, tag, fast):
    """-f svg and -f html with two regions, fast (FAST bytes, so that both hold some buffers) and slow (64 KiB), on
    source (a CSV or a model whose buffers have the raw ids and names given): the SVG parses, has one panel per
    region in order, and each buffer's tooltip is in the panel of the region the JSON puts it in; the page's data
    parses, with the ids, names, regions and each run's regionOf."""
    REGIONS = ["--region", "fast:%d" % fast, "--region", "slow:64K"]
    shown_ids = [display(i) for i in ids]
    shown_names = [shown_name(n) for n in names] if names is not None else shown_ids
    p = run(["plan", "-s", "banked", "-f", "json"] + REGIONS + [source])
    plan = json.loads(p.stdout.decode("utf-8", "replace"))["strategies"][0]  # only its regions are read here
    where = [plan["region_of"][k] for k in range(len(ids))]
    check(sorted(set(where)) == [0, 1], "%s: banked puts the buffers in regions %r, not in both" % (tag, where))

    p = run(["plan", "-s", "banked", "-f", "svg"] + REGIONS + [source])
    root = ET.fromstring(utf8(p.stdout, tag + " region SVG").encode("utf-8"))
    panels = [g for g in root.iter(SVG + "g") if g.get("class") == "region"]
    check([g.get("data-region") for g in panels] == ["fast", "slow"],
          "%s region SVG panels %r" % (tag, [g.get("data-region") for g in panels]))
    check(root.get("data-regions") == "2", "%s region SVG: data-regions %r" % (tag, root.get("data-regions")))
    for r, g in enumerate(panels):
        titles = [t.text or "" for t in g.iter(SVG + "title")]
        rects = [e for e in g.iter(SVG + "rect") if e.get("class") == "buf"]
        check(str(len(rects)) == g.get("data-individual"), "%s region SVG %s: %d rect.buf, data-individual %s"
              % (tag, g.get("data-region"), len(rects), g.get("data-individual")))
        for k, name in enumerate(shown_names):
            want = name if name == shown_ids[k] else "%s (%s)" % (name, shown_ids[k])
            has = any(t.startswith(want + ":") or t.startswith(want + ",") for t in titles)
            check(has == (where[k] == r), "%s region SVG: buffer %d (%r) in panel %d: %s, its region %d"
                  % (tag, k, want[:40], r, has, where[k]))
        for t in titles:
            if t and " at offset " in t:
                check((" in %s, steps [" % g.get("data-region")) in t, "%s region SVG tooltip %r lacks its region"
                      % (tag, t[:80]))
    for t in root.iter(SVG + "text"):
        check(t.get("class") != "label" or (t.text or "") in shown_ids + shown_names,
              "%s region SVG label %r is no buffer's" % (tag, (t.text or "")[:60]))

    p = run(["plan", "-f", "html"] + REGIONS + [source])
    page = utf8(p.stdout, tag + " region HTML")
    hp = ScriptParser()
    hp.feed(page)
    hp.close()
    check(len(hp.scripts) == 2 and hp.scripts[0][0].get("id") == "aplan-data",
          "%s region HTML: the tokenizer sees %d scripts" % (tag, len(hp.scripts)))
    check(hp.tags.count("script") == 2, "%s region HTML: %d <script> tags" % (tag, hp.tags.count("script")))
    check(page.count("<h1>") == 1, "%s region HTML: %d <h1>" % (tag, page.count("<h1>")))
    if hp.scripts:
        text = hp.scripts[0][1]
        check("<" not in text and "\u2028" not in text and "\u2029" not in text,
              "%s region HTML data holds '<' or U+2028/U+2029" % tag)
        data = json.loads(text)
        check(data["id"] == shown_ids, "%s region HTML ids differ" % tag)
        check(data.get("names", data["id"]) == shown_names, "%s region HTML names differ" % tag)
        check([g["name"] for g in data["regions"]] == ["fast", "slow"] and
              [g["capacity"] for g in data["regions"]] == [fast, 65536], "%s region HTML regions %r"
              % (tag, data["regions"]))
        check(data["bound"] is None and data["capacity"] is None, "%s region HTML: one arena's bound or capacity" % tag)
        for k, r in enumerate(data["runs"]):
            got = data["regionOf"][k]
            check(r["planned"] == (got is not None) and (got is None or (len(got) == len(ids) and
                  len(data["offsets"][k]) == len(ids) and len(r["arenas"]) == 2)),
                  "%s region HTML run %s: regionOf %r" % (tag, r["name"], got))
        best = [r for r in data["runs"] if r["best"]]
        check(len(best) == 1 and best[0]["shown"], "%s region HTML: the best run is not the one shown" % tag)
        if best and best[0]["name"] == "banked":
            check(data["regionOf"][data["runs"].index(best[0])] == where, "%s region HTML: banked's regions differ "
                  "from the JSON's" % tag)


def csv_ids(tmp):
    ids = [b"<x>&", b"\xff\xfe", b"]]>", b"</script>", b"</SCRIPT >", b"<!--", b"-->", b"back\\slash", b"q'uote",
           b"\xe2\x80\xa8ls\xe2\x80\xa9ps", b"\xef\xbf\xbe", b"\xef\xbf\xbf", b"*/ ??/ ??= \\", b"\xc3\xa9t\xc3\xa9",
           b"\xed\xa0\x80surrogate", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\xe2\x82", b"\x80", b"&amp;", b"\\x41",
           b"A" * 10000, "\u00e9\u2603".encode("utf-8") * 2500, b"\xf0\x9f\x98\x80", b"{}[]:;", b"plain"]
    path = os.path.join(tmp, "hostile.csv")
    with open(path, "wb") as f:
        f.write(b"id,lower,upper,size\n")
        for k, i in enumerate(ids):
            f.write(i + b",%d,%d,%d\n" % (k, k + 3, 16 * (k + 1)))
    return path, ids


def model(tmp):
    """names.tflite: four tensors t0 -> ADD -> t1 -> ADD -> t2 -> ADD -> t3, named with what no CSV id can hold."""
    names = [b'q"uote\\ \n\r\t\x00\x01\x1f\x7f</script><!--]]>&', b"\xe2\x80\xa8\xed\xbf\xbf\xef\xbf\xbe\xff",
             b"x" * 5000 + b"\xff" * 100, b"*/ ??/\n#error x"]
    lits = ", ".join("{0, %d, \"%s\", %d}" % (k, "".join("\\x%02x" % b for b in n), len(n)) for k, n in
                     enumerate(names))
    src = r'''
#include <stdio.h>
#include <string.h>
#include "tflite_writer.h"
int main(int argc, char **argv) {
    static const int32_t shape[] = {1, 4}, i0[] = {0}, i1[] = {1}, i2[] = {2}, i3[] = {3};
    static const tw_opcode codes[] = {{0, 0}};
    static const tw_tensor t[] = {{shape, 2, 9, 0, false}, {shape, 2, 9, 0, false}, {shape, 2, 9, 0, false},
                                  {shape, 2, 9, 0, false}};
    static const tw_op ops[] = {{0, i0, 1, i1, 1, 0, {0, 0}, 0}, {0, i1, 1, i2, 1, 0, {0, 0}, 0},
                                {0, i2, 1, i3, 1, 0, {0, 0}, 0}};
    static const tw_subgraph sg[] = {{t, 4, i0, 1, i3, 1, ops, 3}};
    static const tw_buffer buffers[] = {{NULL, 0, 0, 0}};
    static const tw_string names[] = {%s};
    tw_model m = {3, codes, 1, sg, 1, buffers, 1, NULL, 0};
    tw_extra x;
    memset(&x, 0, sizeof x);
    x.tensor_names = names;
    x.n_tensor_names = 4;
    tw_file f = tw_build_ex(&m, &x);
    FILE *out = fopen(argv[1], "wb");
    int ok = argc > 1 && out != NULL && fwrite(f.data, 1, f.size, out) == f.size;
    if (out != NULL) ok = fclose(out) == 0 && ok;
    tw_free(&f);
    return ok ? 0 : 1;
}
''' % lits
    c = os.path.join(tmp, "names_model.c")
    open(c, "w").write(src)
    exe = os.path.join(tmp, "names_model")
    p = subprocess.run([CC, "-std=c11", "-I", TESTS, "-o", exe, c, os.path.join(TESTS, "tflite_writer.c")],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if not check(p.returncode == 0, "the model writer does not build: " + p.stderr.decode("utf-8", "replace")[:400]):
        return None, None, None
    path = os.path.join(tmp, "names.tflite")
    check(subprocess.run([exe, path]).returncode == 0, "the model writer failed")
    return path, [b"s0t%d" % k for k in range(4)], names


def whole_name(raw):
    """A name as JSON's "long_names" writes it (docs/cli.md, "JSON keys"): its display text, with a backslash also
    written \\x5C, so that every \\xHH stands for one byte."""
    return "".join("\\x5C" if t == "\\" else t for t, _ in pieces(raw))


def unwhole(text):
    """The bytes of a name from its "long_names" text: each \\xHH one byte, every other character its UTF-8."""
    out, i = bytearray(), 0
    while i < len(text):
        if text.startswith("\\x", i):
            out.append(int(text[i + 2:i + 4], 16))
            i += 4
        else:
            out += text[i].encode("utf-8")
            i += 1
    return bytes(out)


def long_names_model(tmp, tag, names, custom):
    """tag.tflite: t0 -> CUSTOM -> t1 -> ADD -> t2 -> ADD -> t3 with the tensor names given (None: unnamed) and the
    custom operator's code; returns its path and the first byte of each tensor's name and each tensor table in the
    file (tw_pos), or None when the writer does not build."""
    lit = lambda n: '"%s", %d' % ("".join("\\x%02x" % b for b in n), len(n))
    tensor_names = ", ".join("{0, %d, %s}" % (k, lit(n)) for k, n in enumerate(names) if n is not None)
    src = r"""
#include <stdio.h>
#include <string.h>
#include "tflite_writer.h"
int main(int argc, char **argv) {
    static const int32_t shape[] = {1, 4}, i0[] = {0}, i1[] = {1}, i2[] = {2}, i3[] = {3};
    static const tw_opcode codes[] = {{32, 32}, {0, 0}};
    static const tw_tensor t[] = {{shape, 2, 9, 0, false}, {shape, 2, 9, 0, false}, {shape, 2, 9, 0, false},
                                  {shape, 2, 9, 0, false}};
    static const tw_op ops[] = {{0, i0, 1, i1, 1, 0, {0, 0}, 0}, {1, i1, 1, i2, 1, 0, {0, 0}, 0},
                                {1, i2, 1, i3, 1, 0, {0, 0}, 0}};
    static const tw_subgraph sg[] = {{t, 4, i0, 1, i3, 1, ops, 3}};
    static const tw_buffer buffers[] = {{NULL, 0, 0, 0}};
    static const tw_string names[] = {%s};
    static const tw_string custom[] = {{0, 0, %s}};
    tw_model m = {3, codes, 2, sg, 1, buffers, 1, NULL, 0};
    tw_extra x;
    memset(&x, 0, sizeof x);
    x.tensor_names = names;
    x.n_tensor_names = sizeof names / sizeof names[0];
    x.custom_codes = custom;
    x.n_custom_codes = 1;
    tw_file f = tw_build_ex(&m, &x);
    for (unsigned k = 0; k < 4; k++) {
        char key[32];
        snprintf(key, sizeof key, "s0t%%u", k);
        printf("%%zu ", tw_pos(&f, key));
        snprintf(key, sizeof key, "s0t%%u.name", k);
        printf("%%zu\n", k < x.n_tensor_names ? tw_pos(&f, key) : 0);
    }
    FILE *out = fopen(argv[1], "wb");
    int ok = argc > 1 && out != NULL && fwrite(f.data, 1, f.size, out) == f.size;
    if (out != NULL) ok = fclose(out) == 0 && ok;
    tw_free(&f);
    return ok ? 0 : 1;
}
""" % (tensor_names, lit(custom))
    c = os.path.join(tmp, tag + ".c")
    open(c, "w").write(src)
    exe = os.path.join(tmp, tag)
    p = subprocess.run([CC, "-std=c11", "-I", TESTS, "-o", exe, c, os.path.join(TESTS, "tflite_writer.c")],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if not check(p.returncode == 0, "the model writer does not build: " + p.stderr.decode("utf-8", "replace")[:400]):
        return None, None
    path = os.path.join(tmp, tag + ".tflite")
    p = subprocess.run([exe, path], stdout=subprocess.PIPE)
    check(p.returncode == 0, "the model writer failed")
    return path, [tuple(int(x) for x in line.split()) for line in p.stdout.decode().split("\n") if line]


def long_names(tmp):
    """JSON keeps every name whole (issue 31, point 7): a 300-byte and a 5,000-byte tensor name (this one holding a
    backslash, a quote, a NUL, a byte that is not UTF-8 and a snowman) and a 400-byte custom code are each written
    whole once in "long_names", and every buffer and operator that shows one shortened refers to it; a 256-byte name
    is shown whole as ever. Then a model whose strings overlap: the names past the model's size are counted, not
    written."""
    n300 = bytes(b"abcdefghij/"[k % 11] for k in range(300))
    n5000 = bytearray(b"scope/" * 834)[:5000]
    n5000[100:101], n5000[200:201], n5000[300:301] = b"\\", b'"', b"\x00"
    n5000[400:401], n5000[500:503] = b"\xff", "\u2603".encode("utf-8")
    n5000 = bytes(n5000)
    n256 = b"m" * 256
    code = bytes(b"Kernel"[k % 6] for k in range(400))
    path, _ = long_names_model(tmp, "long_names", [n300, n5000, n256, None], code)
    if path is None:
        return
    p = run(["plan", "-s", "greedy_by_size", "-f", "json", path])
    d = json.loads(utf8(p.stdout, "long names JSON"))
    whole = d["long_names"]
    check(whole == [whole_name(code), whole_name(n300), whole_name(n5000)],
          "long_names: %r" % [w[:40] for w in whole])
    check([unwhole(w) for w in whole] == [code, n300, n5000], "long_names do not decode to the names' bytes")
    check(d["long_names_omitted"] == 0, "long_names_omitted: %r" % d["long_names_omitted"])
    text = p.stdout.decode("utf-8")
    for k, raw in enumerate((code, n300, n5000)):
        check(text.count(json.dumps(whole_name(raw), ensure_ascii=False)) == 1, "long name %d not exactly once" % k)
    b = d["buffers"]
    check([(x["name"], x["name_bytes"], x["long_name"]) for x in b] ==
          [(shown_name(n300), 300, 1), (shown_name(n5000), 5000, 2), (display(n256), None, None), ("s0t3", None, None)],
          "buffers' names: %r" % [(x["name"][:20], x["name_bytes"], x["long_name"]) for x in b])
    op = d["steps"][2]["operator"]
    check((op["name"], op["name_bytes"], op["long_name"]) == (shown_name(code), 400, 0), "step 2's operator: %r" % op)
    check(d["steps"][3]["operator"]["long_name"] is None, "ADD's long_name: %r" % d["steps"][3]["operator"])
    unknown = d["tflm"]["own_planner"]["first_unknown"]
    check((unknown["name_bytes"], unknown["long_name"]) == (400, 0), "first_unknown: %r" % unknown)
    # Overlapping strings: t1's 5,000-byte name holds, at its bytes 1000..1003, the length word 3,990 of a string
    # starting at its byte 1004, and t0's name is pointed there, so the two share 3,990 bytes (a FlatBuffer's offsets
    # point forward, and t0's table comes first). 3,990 + 5,000 bytes of names pass the model's size: t0's name,
    # met first, is written, and t1's is omitted (null, counted).
    big = bytearray(b"overlap/" * 625)
    big[1000:1004] = (3990).to_bytes(4, "little")
    big = bytes(big)
    path, pos = long_names_model(tmp, "overlap", [b"short", big], b"Op")
    if path is None:
        return
    data = bytearray(open(path, "rb").read())
    table, name = pos[0]
    target = pos[1][1] + 1000  # the new string's length word
    fields = [q for q in range(table, table + 64, 4) if q + int.from_bytes(data[q:q + 4], "little") == name - 4]
    if not check(len(fields) == 1, "t0's name field not found: %r" % fields):
        return
    data[fields[0]:fields[0] + 4] = (target - fields[0]).to_bytes(4, "little")
    open(path, "wb").write(bytes(data))
    check(len(data) < 8990, "the overlap model has %d bytes, not less than its names' 8,990" % len(data))
    p = run(["plan", "-s", "greedy_by_size", "-f", "json", path])
    d = json.loads(utf8(p.stdout, "overlap JSON"))
    b = d["buffers"]
    check(d["long_names"] == [whole_name(big[1004:4994])] and d["long_names_omitted"] == 1,
          "overlap: %d long names, %r omitted" % (len(d["long_names"]), d["long_names_omitted"]))
    check([(x["name_bytes"], x["long_name"]) for x in b[:2]] == [(3990, 0), (5000, None)],
          "overlap buffers: %r" % [(x["name_bytes"], x["long_name"]) for x in b[:2]])


def huge_ratio(tmp):
    """Bound 1, linear's arena 2^63 + 1: the overhead, 922337203685477580800.0%, is printed whole everywhere."""
    path = os.path.join(tmp, "ratio.csv")
    with open(path, "w") as f:
        f.write("id,lower,upper,size,alignment\n")
        for k in range(3):
            f.write("b%d,%d,%d,1,4611686018427387904\n" % (k, k, k + 1))
    want = "+922337203685477580800.0%"
    p = run(["plan", "-s", "linear,greedy_by_size", path])
    row = [line for line in p.stdout.decode().split("\n") if line.startswith("  linear")]
    check(len(row) == 1 and row[0].split()[3] == want and row[0].split()[-1] == "yes",
          "the table's overhead for a 2^63 ratio: %r, want %s" % (row, want))
    p = run(["plan", "-s", "linear", "-f", "json", path])
    check(json.loads(p.stdout)["strategies"][0]["overhead_percent"] == 922337203685477580800.0,
          "the JSON's overhead for a 2^63 ratio")
    p = run(["plan", "-s", "linear", "-f", "html", path])
    check(("<td>%s</td>" % want) in p.stdout.decode(), "the HTML's overhead for a 2^63 ratio")


def far_steps(tmp):
    """Steps near 2^64: the step labels are distinct, in order, inside the drawing and no closer than their width;
    the buffers are drawn as wide as their lifetimes (not collapsed onto one pixel)."""
    cases = {
        "top": [(18446744073709551400, 18446744073709551600, 32), (18446744073709551500, 18446744073709551614, 16)],
        "right": [(18446744073709551000, 18446744073709551600, 16), (18446744073709551400, 18446744073709551614, 32)],
        "whole": [(0, 1, 8), (18446744073709551400, 18446744073709551600, 32),
                  (18446744073709551500, 18446744073709551614, 16)],
        "wide": [(10000000000000000000, 10000000000000000080, 8), (10000000000000000040, 10000000000000000081, 8)],
    }
    for tag, rows in cases.items():
        path = os.path.join(tmp, "steps-%s.csv" % tag)
        with open(path, "w") as f:
            f.write("id,lower,upper,size\n")
            for k, (lo, hi, size) in enumerate(rows):
                f.write("b%d,%d,%d,%d\n" % (k, lo, hi, size))
        p = run(["plan", "-s", "greedy_by_size", "-f", "svg", path])
        root = ET.fromstring(p.stdout)
        width = float(root.get("width"))
        labels = []
        for t in root.iter(SVG + "text"):
            if t.get("fill") == "#555" and re.fullmatch(r"[0-9]+", t.text or "") and t.get("y") == "592":
                labels.append((int(t.text), float(t.get("x")), t.get("text-anchor")))
        check(len(labels) >= 2, "%s: %d step labels" % (tag, len(labels)))
        check([v for v, _, _ in labels] == sorted(set(v for v, _, _ in labels)), "%s: step labels out of order" % tag)
        ext = []
        for v, x, anchor in labels:
            w = 6.5 * len(str(v))  # the drawing's own estimate of a label's width at 11 px
            lo = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
            ext.append((lo, lo + w))
            check(lo >= 0 and lo + w <= width, "%s: step label %d at %.1f (%s) leaves the drawing" % (tag, v, x, anchor))
        for a, b in zip(ext, ext[1:]):
            check(a[1] <= b[0], "%s: step labels overlap: %r %r" % (tag, a, b))
        for r in root.iter(SVG + "rect"):  # steps 0 to 2^64 ("whole"): 200 steps are rightly a pixel
            if r.get("class") == "buf" and tag != "whole":
                check(float(r.get("width")) > 100.0, "%s: a buffer drawn %s px wide" % (tag, r.get("width")))
            if r.get("class") == "buf" and tag == "whole" and r.find(SVG + "title").text.startswith("b1"):
                check(abs(float(r.get("x")) - 1170.0) < 1.0, "%s: b1 drawn at x %s" % (tag, r.get("x")))


def report_page(tmp):
    """The page holds report_page.css and .js byte for byte; the generator keeps any text as it is in C literals
    (escapes, "??" that would start a trigraph, a line longer than a literal may be, no final newline) and refuses a
    control character."""
    p = run(["example", "-f", "html"])
    page = utf8(p.stdout, "the HTML report")
    style = page.split("<style>\n", 1)[1].split("</style>", 1)[0]
    script = page.rsplit("<script>\n", 1)[1].rsplit("</script>", 1)[0]
    check(style == open(os.path.join(SRC, "report_page.css"), encoding="utf-8").read(),
          "the page's style is not src/host/report_page.css")
    check(script == open(os.path.join(SRC, "report_page.js"), encoding="utf-8").read(),
          "the page's script is not src/host/report_page.js")
    gen = os.path.join(SRC, "report_page.py")
    css, js, out = (os.path.join(tmp, n) for n in ("page.css", "page.js", "page.c"))
    style = 'a::after{content:"\\\\?"}\n\tx{y:"???="}\n\n' + "z" * 9000 + "\n"
    script = "var s = '??/ ??= \\\\ \\\"\\n';\nvar t = '\u00e9\u2028';  // no final newline"
    open(css, "w", encoding="utf-8").write(style)
    open(js, "w", encoding="utf-8").write(script)
    r = subprocess.run([sys.executable, gen, css, js, out], stderr=subprocess.PIPE)
    check(r.returncode == 0, "report_page.py failed: %r" % r.stderr[:300])
    text = open(out, encoding="utf-8").read()
    check("??" not in text, "report_page.py left a \"??\" in a literal")
    check(max(len(line) for line in text.split("\n")) < 4095, "report_page.py wrote a literal too long")
    if CC:
        main_c = os.path.join(tmp, "page_main.c")
        open(main_c, "w").write('#include <stdio.h>\n#include "host.h"\nint main(void) {\n'
                                '    for (const char *const *l = aplan_host_report_style; *l; l++) fputs(*l, stdout);\n'
                                '    fputs("--\\n", stdout);\n'
                                '    for (const char *const *l = aplan_host_report_script; *l; l++) fputs(*l, stdout);\n'
                                '    return 0;\n}\n')
        exe = os.path.join(tmp, "page_main")
        include = os.path.join(os.path.dirname(TESTS), "include")
        r = subprocess.run([CC, "-std=c11", "-pedantic-errors", "-Wall", "-Werror", "-Wtrigraphs", "-I", SRC, "-I",
                            include, main_c, out, "-o", exe], stderr=subprocess.PIPE)
        if check(r.returncode == 0, "the generated page does not compile: %r" % r.stderr[:400]):
            got = subprocess.run([exe], stdout=subprocess.PIPE).stdout
            check(got == (style + "--\n" + script).encode("utf-8"), "the generated page does not hold its files: %r"
                  % got[:200])
    open(css, "w").write("a{}\x0c\n")
    r = subprocess.run([sys.executable, gen, css, js, out], stderr=subprocess.PIPE)
    check(r.returncode == 1 and b"page.css:1: control character 0x0c" in r.stderr,
          "report_page.py took a control character: %d %r" % (r.returncode, r.stderr[:200]))


def main():
    if not APLAN:
        print("APLAN is not set: skipped")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        path, ids = csv_ids(tmp)
        check_outputs(tmp, path, ids, None, "csv")
        check_region_outputs(path, ids, None, "csv", 256)
        # Ids a CSV cannot hold are refused with the line, not written into any output.
        for bad in (b'a"b', b"tab\there", b"nul\x00", b"cr\rx", b"bell\x07"):
            q = os.path.join(tmp, "bad.csv")
            open(q, "wb").write(b"id,lower,upper,size\n" + bad + b",0,1,4\n")
            p = run(["plan", "-f", "json", q], want=3)
            check(p.stdout == b"" and b"bad.csv:2:" in p.stderr, "the id %r: %r" % (bad, p.stderr[:200]))
        if CC:
            path, ids, names = model(tmp)
            if path is not None:
                check_outputs(tmp, path, ids, names, "tflite")
                check_region_outputs(path, ids, names, "tflite", 16)
                p = run(["graph", path])
                text = utf8(p.stdout, "graph")
                check(display(names[0]) in text, "graph lacks the first name as display text")
        # Ids in the table's own lines: the aliased pairs and bound's listing show them as display text too.
        q = os.path.join(tmp, "alias.csv")
        open(q, "wb").write(b"id,lower,upper,size,offset\n\xff,0,2,4,0\n<&>,1,3,4,2\n\xc0\xaf,1,2,64,\n")
        p = run(["plan", "--allow-alias", q])
        check("  \\xFF & <&> share bytes [2, 4)\n" in utf8(p.stdout, "aliased pairs"), "aliased pairs: %r" % p.stdout)
        p = run(["bound", "--allow-alias", q])
        check("\n  \\xC0\\xAF " in utf8(p.stdout, "bound"), "bound's listing: %r" % p.stdout)
        if CC:
            long_names(tmp)
        huge_ratio(tmp)
        far_steps(tmp)
        report_page(tmp)
    return done()


if __name__ == "__main__":
    sys.exit(main())
