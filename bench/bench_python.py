#!/usr/bin/env python3
"""The Python package's overhead: aplan.plan on a 10,000-buffer problem built from Python lists, against the C
library's time for the same strategy, measured in the same run.

    PYTHONPATH=build/python /usr/bin/python3 bench/bench_python.py [--buffers N] [--repeats R] [--cli build/src/cli/aplan]

Columns, each the median of R runs (wall time; CPU time, time.process_time, beside it):
  C plan        aplan_plan_search alone, timed by the extension around the library call (the library's own time);
  C + verify    the same plus the independent aplan_verify of the plan and aplan_lower_bound, as the tool runs them,
                timed the same way (the C side of what aplan.plan does);
  plan()        aplan.plan(problem, strategy): the Python call, with its checks and the list of offsets returned;
  lists+plan()  aplan.Problem(sizes, lowers, uppers) from Python lists, then plan();
  ratio         plan() / (C + verify), wall and CPU: the goal is 1.5 or less (on a machine shared with other work,
                CPU time is the steadier of the two).
With --cli, a last column gives the tool's whole run (aplan plan -s S on the same problem as a CSV), process wall time.
The problem: N buffers of a fixed pseudo-random generator (sizes 16..65536, lifetimes of 1..40 of 4 N / 10 steps).
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

import aplan
from aplan import _aplan


def problem_lists(n):
    r = random.Random(33)
    steps = max(4 * n // 10, 10)
    sizes = [r.randint(1, 4096) * 16 for _ in range(n)]
    lowers = [r.randrange(steps) for _ in range(n)]
    uppers = [lo + r.randint(1, 40) for lo in lowers]
    return sizes, lowers, uppers


def median_of(repeats, fn):
    walls, cpus = [], []
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--buffers", type=int, default=10000)
    ap.add_argument("--repeats", type=int, default=21)
    ap.add_argument("--cli", default=None, help="the aplan tool, for its whole run on the same problem")
    ap.add_argument("--strategies", default="greedy_by_size,greedy_by_size_tflm,best_fit,greedy_by_conflicts")
    args = ap.parse_args()
    sizes, lowers, uppers = problem_lists(args.buffers)
    p = aplan.Problem(sizes, lowers, uppers)
    csv = None
    if args.cli:
        csv = tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False)
        csv.write(p.to_csv())
        csv.close()
    print(f"aplan {aplan.__version__}, Python {sys.version.split()[0]}: {args.buffers} buffers, median of "
          f"{args.repeats} runs, milliseconds (wall / CPU)")
    header = f"{'strategy':22} {'C plan':>15} {'C + verify':>15} {'plan()':>15} {'lists+plan()':>15} {'ratio wall/CPU':>15}"
    if csv:
        header += f" {'aplan plan (tool)':>18}"
    print(header)
    known = {s.name for s in aplan.strategies()}
    for name in args.strategies.split(","):
        if name not in known:
            continue

        def c_side():
            t = time.perf_counter()
            _aplan.lower_bound(p._buffers, p.alignment, None, p._flags)
            r = _aplan.plan(p._buffers, p.alignment, None, p._flags, None, name, None, None)
            _aplan.verify(p._buffers, p.alignment, None, p._flags, None, r["offsets"], r["arena"])
            return r["seconds"], time.perf_counter() - t

        c_plan = statistics.median(c_side()[0] for _ in range(args.repeats))
        c_all = median_of(args.repeats, c_side)
        py = median_of(args.repeats, lambda: aplan.plan(p, name, time_limit=None))
        both = median_of(args.repeats, lambda: aplan.plan(aplan.Problem(sizes, lowers, uppers), name,
                                                          time_limit=None))
        ms = lambda x: f"{x[0] * 1e3:7.2f} / {x[1] * 1e3:5.2f}"
        line = (f"{name:22} {c_plan * 1e3:15.2f} {ms(c_all):>15} {ms(py):>15} {ms(both):>15} "
                f"{py[0] / c_all[0]:8.2f} / {py[1] / c_all[1]:4.2f}")
        if csv:
            tool = median_of(args.repeats, lambda: subprocess.run([args.cli, "plan", "-s", name, csv.name],
                                                                  stdout=subprocess.DEVNULL, check=True))
            line += f" {tool[0] * 1e3:18.2f}"
        print(line)
    if csv:
        os.unlink(csv.name)


if __name__ == "__main__":
    main()
