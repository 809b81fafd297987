"""The tree's declarations, read as the C compiler and meson read them, for the scripts that need them.

builtin_strategies(): the rows of APLAN_BUILTIN_STRATEGIES in include/aplan/strategies.h, in registry order, each a
Strategy(name, option, engine, auto) with option in lower case (the -Dstrategies name). meson.build reads the same
lines (`X(NAME, OPTION, ENGINE, AUTO)`, one per line); tests/tree_test.py holds the docs and the tree to them.
"""
import collections
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
Strategy = collections.namedtuple("Strategy", "name option engine auto")
_ROW = re.compile(r"^\s*X\(([^)]*)\)")


def builtin_strategies(root=ROOT):
    rows = []
    with open(os.path.join(root, "include", "aplan", "strategies.h")) as f:
        for line in f:
            m = _ROW.match(line)
            if m:
                name, option, engine, auto = [x.strip() for x in m.group(1).split(",")]
                rows.append(Strategy(name, option.lower(), engine, auto))
    if not rows:
        raise RuntimeError("include/aplan/strategies.h: no X(...) rows in APLAN_BUILTIN_STRATEGIES")
    return rows


def strategy_options(root=ROOT):
    """The -Dstrategies names, in registry order, each once."""
    seen = []
    for s in builtin_strategies(root):
        if s.option not in seen:
            seen.append(s.option)
    return seen
