#!/usr/bin/env python3
"""The tool's documentation says what the tool's help says (issue 17): docs/aplan.1 and docs/cli.md against `aplan
--help` and each `aplan COMMAND --help`, so that neither can drift from the command and format tables again.

- Commands: every command of the main help is in the man page's SYNOPSIS and COMMANDS, and in docs/cli.md's synopsis
  block; nothing else is.
- Options: each command's help lists exactly the options the command takes (the parser refuses any other with "does
  not apply to this command"); the options of all the helps (a short form counted as its long one) are exactly the
  man page's OPTIONS; each command's options (but --help) are exactly those its COMMANDS entry lists after
  "Options:" (none: no such list), and each is named in the command's section of docs/cli.md (or anywhere in it, for
  a command without one).
- Formats: the formats that `aplan plan --help` lists under -f are the man page's OUTPUT FORMATS and docs/cli.md's
  "Output formats".
- Exit codes: the main help's are the man page's EXIT STATUS and docs/cli.md's "Exit codes".
- Byte counts: every suffix the parser's message names (K, KB, KiB, ...) is in each help's, the man page's and
  docs/cli.md's description of --capacity.
- docs/contributing.md's lists of what a new CLI command and a new output format touch name the files that hold the
  command table and the formats' table, and src/cli/cli.h (tests/tree_test.py checks that every file it names exists).
- The man page renders without a warning (groff -ww), and every quoted argument of a font macro keeps its spaces
  when rendered (a `\\%"...` argument is not quoted, and loses them); needs groff, else that part is skipped.

Environment (set by meson): APLAN (the binary). Exit 0 on success, 1 on a failure (each printed), 77 when APLAN is
unset.
"""
import os
import re
import shutil
import subprocess
import sys

from check import check, done

APLAN = os.environ.get("APLAN")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAN = os.path.join(ROOT, "docs", "aplan.1")
CLI_MD = os.path.join(ROOT, "docs", "cli.md")
CONTRIBUTING = os.path.join(ROOT, "docs", "contributing.md")
OPTION = re.compile(r"(?<![\w`-])(--[a-z][a-z-]*|-[a-zA-Z])(?![\w-])")


def same(got, want, what):
    """got == want as sets, naming what is missing and what is extra."""
    got, want = set(got), set(want)
    return check(got == want, "%s: missing %s, extra %s" % (what, sorted(want - got) or "nothing",
                                                            sorted(got - want) or "nothing"))


def aplan(*args):
    p = subprocess.run([APLAN] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


# ---- The help ----------------------------------------------------------------------------------------------------

def main_help():
    """(commands, exit codes, options) of `aplan --help`."""
    rc, out, _ = aplan("--help")
    check(rc == 0, "aplan --help exited %d" % rc)
    commands = re.findall(r"^  ([a-z]+)\b.*  \S", out.split("commands:\n", 1)[1].split("\n\n", 1)[0], re.M)
    codes = re.findall(r"\b([0-9]) [a-zA-Z]", out.split("exit codes:", 1)[1])
    return commands, codes, set(OPTION.findall(out.split("commands:", 1)[1].split("\n\n", 1)[1]))


def option_lines(text):
    """The options a help text describes: the part before the description column of each line that starts with an
    option (a line such as "  -a, --align N, --round-sizes, ..." names several)."""
    found = []
    for line in text.split("\n"):
        if re.match(r"^ {2,6}-", line):
            found += OPTION.findall(re.split(r"\s{2,}", line.strip())[0])
    return found


def command_help(name):
    rc, out, _ = aplan(name, "--help")
    check(rc == 0 and out.startswith("usage: aplan"), "aplan %s --help exited %d" % (name, rc))
    return out


def described(text, option):
    """The description of option in a help text: its line and the lines under it, to the next option."""
    lines = text.split("\n")
    for k, line in enumerate(lines):
        if re.match(r"^ {2,6}-", line) and option in OPTION.findall(re.split(r"\s{2,}", line.strip())[0]):
            rest = [line]
            for more in lines[k + 1:]:
                if re.match(r"^ {2,6}-", more) or not more.strip():
                    break
                rest.append(more)
            return "\n".join(rest)
    return None


# ---- The man page ------------------------------------------------------------------------------------------------

def roff_plain(text):
    """Roff source as plain text, roughly: requests' names dropped, quotes and font escapes removed, \\- as -."""
    out = []
    for line in text.split("\n"):
        if line.startswith(".\\\"") or line.startswith("'\\\""):
            continue
        if line.startswith("."):
            parts = line.split(None, 1)
            line = parts[1] if len(parts) > 1 else ""
            line = line.replace('"', "")
        line = re.sub(r"\\f[BIRP]", "", line)
        line = line.replace("\\-", "-").replace("\\%", "").replace("\\&", "").replace("\\(rs", "\\")
        out.append(line)
    return "\n".join(out)


def man_sections(source):
    sections = {}
    for part in re.split(r"^\.SH ", source, flags=re.M)[1:]:
        title, body = part.split("\n", 1)
        sections[title.strip().strip('"')] = body
    return sections


def tp_entries(body):
    """(tag line, rest) of each .TP entry of a section's roff source."""
    entries = []
    for part in re.split(r"^\.TP\n", body, flags=re.M)[1:]:
        tag, _, rest = part.partition("\n")
        entries.append((tag, rest))
    return entries


def check_man_rendering(source):
    groff = shutil.which("groff")
    if groff is None:
        print("groff not installed: the man page's rendering is not checked")
        return
    p = subprocess.run([groff, "-man", "-Tutf8", "-ww", "-P-cbou", MAN], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0 and p.stderr == "", "groff -ww warns about docs/aplan.1: %s" % p.stderr[:400])
    rendered = re.sub(r"\s+", " ", re.sub("\u2010\n\\s*", "", p.stdout))
    for number, line in enumerate(source.split("\n"), 1):
        if not re.match(r"^\.(B|I|BR|RB|BI|IB|IR|RI)\s", line):
            continue
        check('\\%"' not in line, "docs/aplan.1:%d: \\%%\" does not open a quoted argument: %s" % (number, line))
        for arg in re.findall(r'"([^"]*)"', line):
            text = arg.replace("\\%", "").replace("\\-", "-").replace("\\&", "")
            if " " not in text.strip() or "\\" in text:
                continue
            check(re.sub(r"\s+", " ", text.strip()) in rendered,
                  "docs/aplan.1:%d: %r is not in the rendered page with its spaces" % (number, text))


# ---- docs/cli.md -------------------------------------------------------------------------------------------------

def md_sections(text):
    """The level-2 sections of docs/cli.md by heading, subsections included."""
    sections = {}
    for part in re.split(r"^## ", text, flags=re.M)[1:]:
        title, _, body = part.partition("\n")
        sections[title.strip()] = body
    return sections


def md_options(text):
    return set(re.findall(r"`(--[a-z][a-z-]*|-[a-zA-Z])\b", text))


def main():
    if not APLAN:
        print("APLAN is not set: skipped")
        return 77
    commands, codes, main_options = main_help()
    check(len(commands) >= 8 and "plan" in commands, "the main help lists the commands %r" % commands)
    helps = {c: command_help(c) for c in commands}
    # Short options and their long names, from the helps' "-x, --long" pairs.
    long_of = {}
    for text in helps.values():
        for short, long in re.findall(r"(?<![\w-])(-[a-zA-Z]), (--[a-z][a-z-]*)", text):
            long_of[short] = long
    for short, long in re.findall(r"(?<![\w-])(-[a-zA-Z])\s*,\s*(--[a-z][a-z-]*)", roff_plain(open(MAN).read())):
        long_of.setdefault(short, long)
    norm = lambda options: {long_of.get(o, o) for o in options}
    options = {c: norm(option_lines(t)) for c, t in helps.items()}
    every = set().union(*options.values()) | norm(main_options)
    for c in commands:
        for o in sorted(set().union(*options.values()) - {"--help"}):
            _, _, err = aplan(c, o + "=1", "--help")
            taken = "does not apply to this command" not in err
            check(taken == (o in options[c]), "aplan %s %s the option %s" % (
                c, "takes but its help does not list" if taken else "refuses but its help lists", o))

    source = open(MAN).read()
    man = man_sections(source)
    synopsis = roff_plain(man["SYNOPSIS"])
    same(re.findall(r"^aplan\n([a-z]+)$", synopsis, re.M), commands, "docs/aplan.1 SYNOPSIS: the commands")
    entries = {}
    for tag, rest in tp_entries(man["COMMANDS"]):
        name = roff_plain(tag).split()[0]
        entries[name] = roff_plain(rest)
    same(entries, commands, "docs/aplan.1 COMMANDS: the commands")
    for c in commands:
        if c not in entries:
            continue
        listed = norm(OPTION.findall(entries[c].split("Options:", 1)[1])) if "Options:" in entries[c] else set()
        same(listed, options[c] - {"--help"}, "docs/aplan.1 COMMANDS %s: its options" % c)
    man_options = set()
    for tag, _ in tp_entries(man["OPTIONS"]):
        man_options |= norm(OPTION.findall(roff_plain(tag)))
    same(man_options, every, "docs/aplan.1 OPTIONS: the options of the helps")
    exit_codes = [roff_plain(tag).strip() for tag, _ in tp_entries(man["EXIT STATUS"])]
    same(exit_codes, codes, "docs/aplan.1 EXIT STATUS: the exit codes of the main help")

    md = open(CLI_MD).read()
    block = md.split("```\n", 2)[1]
    same(re.findall(r"^aplan ([a-z]+)\b", block, re.M), commands, "docs/cli.md's synopsis: the commands")
    sections = md_sections(md)
    by_command = {}
    for title, body in sections.items():
        for c in re.findall(r"`aplan ([a-z]+)", title):
            by_command[c] = body
    for c in commands:
        where = by_command.get(c, md)
        missing = sorted(options[c] - {"--help"} - norm(md_options(where)))
        check(not missing, "docs/cli.md%s does not name %s" % (" (aplan %s)" % c if c in by_command else "", missing))
    same(norm(md_options(md)) & every, every, "docs/cli.md: the options of the helps")
    table = sections.get("Exit codes", "")
    same(re.findall(r"^\| ([0-9]+) \|", table, re.M), codes, "docs/cli.md's exit codes")

    plan_help = helps["plan"]
    listing = plan_help.split("  -f, --format FMT", 1)[1].split("\n", 1)[1]
    formats = re.findall(r"^ {24}([a-z0-9]+) +\S", listing.split("\n      --", 1)[0], re.M)
    check(len(formats) >= 6 and formats[0] == "table", "aplan plan --help lists the formats %r" % formats)
    same([roff_plain(tag).strip() for tag, _ in tp_entries(man["OUTPUT FORMATS"])], formats,
         "docs/aplan.1 OUTPUT FORMATS: the formats of -f")
    output_formats = md.split("### Output formats\n", 1)[1].split("\n#", 1)[0]
    same(re.findall(r"^- `([a-z0-9]+)`:", output_formats, re.M), formats, "docs/cli.md's output formats")

    rc, _, err = aplan("plan", "--capacity", "12Q", "-")
    suffixes = re.findall(r"\b([KMG]i?B?)\b", err.split("not a byte count", 1)[-1])
    check(rc == 2 and len(suffixes) == 9, "the byte count message names the suffixes %r: %s" % (suffixes, err))
    texts = {"aplan %s --help" % c: described(t, "--capacity") for c, t in helps.items() if "--capacity" in options[c]}
    # A line that lists several options describes them elsewhere ("as for `aplan plan`").
    texts = {what: text for what, text in texts.items() if len(OPTION.findall(text.split("\n", 1)[0])) <= 2}
    check(len(texts) >= 3, "the helps describing --capacity: %r" % sorted(texts))
    texts["docs/aplan.1 --capacity"] = next(roff_plain(rest) for tag, rest in tp_entries(man["OPTIONS"])
                                            if "--capacity" in roff_plain(tag))
    texts["docs/cli.md --capacity"] = next(line for line in md.split("\n") if line.startswith("| `--capacity"))
    for what, text in texts.items():
        missing = [s for s in suffixes if not re.search(r"\b%s\b" % s, text or "")]
        check(not missing, "%s does not name the suffixes %s" % (what, missing))

    check_man_rendering(source)

    contributing = open(CONTRIBUTING).read()
    tables = {"**A new CLI command**": r"^static const cli_command commands\[\]",
              "**A new output format**": r"^const cli_format cli_formats\[\]"}
    for title, table in tables.items():
        paragraph = contributing.split(title, 1)[1].split("\n\n", 1)[0] if title in contributing else ""
        files = re.findall(r"`((?:src|tests|docs)/[\w./-]+\.\w+)`", paragraph)
        check(len(files) >= 4, "docs/contributing.md's %s names %d files" % (title, len(files)))
        cli = os.path.join(ROOT, "src", "cli")
        holder = [f for f in sorted(os.listdir(cli)) if f.endswith(".c") and
                  re.search(table, open(os.path.join(cli, f)).read(), re.M)]
        for f in holder + ["cli.h"]:
            check("src/cli/" + f in files, "docs/contributing.md's %s does not name src/cli/%s" % (title, f))
        check(len(holder) == 1, "%s: the table is in %r" % (title, holder))

    return done()


if __name__ == "__main__":
    sys.exit(main())
