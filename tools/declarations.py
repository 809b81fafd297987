"""The tree's declarations, read as the C compiler and meson read them, for the scripts that need them.

builtin_strategies(): the rows of APLAN_BUILTIN_STRATEGIES in include/aplan/strategies.h, in registry order, each a
Strategy(name, option, engine, auto) with option in lower case (the -Dstrategies name). meson.build reads the same
lines (`X(NAME, OPTION, ENGINE, AUTO)`, one per line); tests/tree_test.py holds the docs and the tree to them.
region_strategies(): the same for the region strategies of include/aplan/regions.h.
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


RegionStrategy = collections.namedtuple("RegionStrategy", "name needs")
_REGION_LINE = "#define APLAN_BUILTIN_REGION_STRATEGIES(X)"


def region_strategies(root=ROOT):
    """The rows of APLAN_BUILTIN_REGION_STRATEGIES in include/aplan/regions.h (one line of X(NAME, NEEDS)), in registry
    order, needs in lower case ("always" or a -Dstrategies name). Each is src/strategies/region_NAME.c."""
    with open(os.path.join(root, "include", "aplan", "regions.h")) as f:
        for line in f:
            if line.startswith(_REGION_LINE):
                rows = re.findall(r"X\(\s*([a-z0-9_]+)\s*,\s*([A-Z0-9_]+)\s*\)", line)
                return [RegionStrategy(n, needs.lower()) for n, needs in rows]
    raise RuntimeError("include/aplan/regions.h: no APLAN_BUILTIN_REGION_STRATEGIES line")


def strategy_options(root=ROOT):
    """The -Dstrategies names, in registry order, each once."""
    seen = []
    for s in builtin_strategies(root):
        if s.option not in seen:
            seen.append(s.option)
    return seen
