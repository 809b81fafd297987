#!/usr/bin/env python3
"""Write report_page.c: the HTML report's style sheet and script as C data (meson runs this at build time).

usage: report_page.py STYLE.css SCRIPT.js OUT.c

Each file becomes a NULL-terminated array of string literals, one per line with its "\\n" (aplan_host_report_style,
aplan_host_report_script), which svg.c writes into the page verbatim, so the page holds the files byte for byte. A line
longer than ISO C's 4095-character minimum for a literal is split into several (their concatenation is the line).
Backslashes, quotes and "??" (a trigraph's start) are escaped. Fails (exit 1) on a file that is not UTF-8 or holds a
control character other than tab, which a literal would have to escape and the page does not need.
"""
import re
import sys

CHUNK = 4000  # characters of text per literal: under the 4095 that ISO C promises (an escape is one character)


def literal(text):
    """A C string literal holding text (one line or part of one)."""
    out = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    out = re.sub(r"(?<=\?)\?", r"\\?", out)  # no "??" is left to start a trigraph
    return '    "' + out + '",\n'


def array(name, path):
    with open(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        sys.exit(f"{path}: not UTF-8: {e}")
    for number, line in enumerate(text.split("\n"), 1):
        bad = [c for c in line if (ord(c) < 0x20 and c != "\t") or ord(c) == 0x7F]
        if bad:
            sys.exit(f"{path}:{number}: control character {ord(bad[0]):#04x}")
    parts = text.split("\n")
    lines = [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    body = "".join(literal(line[k:k + CHUNK]) for line in lines for k in range(0, len(line), CHUNK))
    return f"const char *const {name}[] = {{\n{body}    NULL}};\n"


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.split("\n\n")[1])
    style, script, out = sys.argv[1:]
    text = (
        "/*\n"
        " * Generated at build time by src/host/report_page.py from report_page.css and report_page.js: the HTML\n"
        " * report's style sheet and script as C data, one string per line, NULL-terminated. svg.c writes them into the\n"
        " * page verbatim. Edit the .css and .js files, not this one.\n"
        " */\n"
        "#include <stddef.h>\n\n"
        '#include "host.h"\n\n'
        + array("aplan_host_report_style", style)
        + "\n"
        + array("aplan_host_report_script", script)
    )
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


if __name__ == "__main__":
    main()
