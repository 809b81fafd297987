"""Plan.json(), svg(), html(), csv(), c_header() and table() against the tool's `plan -f`: byte for byte for the
same input and settings, on the built-in example, a CSV table, a model the tests build and a shared model; each
run's time (JSON's "time_ms", the table's and the page's "N ms") is masked, since it is each run's own. Also
aplan.targets() against `aplan targets`, and the errors of the writers' settings."""
import json
import os
import re

import pytest

import aplan
from conftest import cli, needs_strategy, shared_models
from test_aplan import run

FORMATS = ["json", "svg", "html", "csv", "c", "table"]
_JSON_TIME = re.compile(r'"time_ms": [0-9.eE+-]+')
_TEXT_TIME = re.compile(r"[0-9.]+ ms\b")


def untimed(text: str) -> str:
    """text with every run's wall time replaced by T (the only figure that differs from run to run)."""
    return _TEXT_TIME.sub("T ms", _JSON_TIME.sub('"time_ms": T', text))


def written(plan: aplan.Plan, fmt: str) -> str:
    if fmt == "c":
        return plan.c_header(name="net")
    return getattr(plan, fmt)()


def tool(fmt: str, *args: str) -> str:
    extra = ["--name", "net"] if fmt == "c" else []
    out = run(*args, "-f", fmt, *extra)
    assert out.returncode == 0, out.stderr
    return out.stdout


def assert_same(plan: aplan.Plan, *args: str) -> None:
    for fmt in FORMATS:
        mine, theirs = written(plan, fmt), tool(fmt, *args)
        if fmt in ("svg", "csv", "c"):  # no times in them: byte for byte as they are
            assert mine == theirs, (fmt, args)
        else:
            assert untimed(mine) == untimed(theirs), (fmt, args)


def test_the_example_written_as_the_tool_writes_it():
    assert_same(aplan.plan(aplan.EXAMPLE, "all"), "example", "-s", "all")
    assert_same(aplan.plan(aplan.EXAMPLE, "greedy_by_size", capacity=40000), "example", "-s", "greedy_by_size",
                "--capacity", "40000")


def test_a_csv_table_written_as_the_tool_writes_it(tmp_path):
    path = tmp_path / "problem.csv"
    rows = [f"b{i},{(i * 3) % 17},{(i * 3) % 17 + 1 + i % 5},{(i * 7919) % 3000 + 8}" for i in range(60)]
    path.write_text("id,lower,upper,size\n" + "\n".join(rows) + "\n")
    heuristics = ",".join(s.name for s in aplan.strategies() if not s.searches and s.name != "offline")
    for strategy in (heuristics, "auto"):
        p = aplan.plan(str(path), strategy, time_limit=100)
        assert_same(p, "plan", "-s", strategy, "--time-limit", "100", str(path))
    p = aplan.plan(str(path), "greedy_by_size", alignment=64, target="cortex-m4")
    assert_same(p, "plan", "-s", "greedy_by_size", "--align", "64", "--target", "cortex-m4", str(path))
    # The plan's own attributes are the session's: the JSON's best row.
    p = aplan.plan(str(path), "greedy_by_size")
    best = json.loads(p.json())["strategies"][0]
    assert (best["name"], best["arena_bytes"], best["offsets"], best["outcome"], best["verified"]) == (
        p.strategy, p.arena_size, p.offsets, p.outcome, p.verified)


def test_a_built_model_written_as_the_tool_writes_it(made_models):
    path = os.path.join(made_models, "chain.tflite")
    for strategy in ("all", "auto"):
        assert_same(aplan.plan(path, strategy, time_limit=100), "plan", "-s", strategy, "--time-limit", "100", path)
    assert_same(aplan.plan(path, "greedy_by_size", abi=64), "plan", "-s", "greedy_by_size", "--abi", "64", path)


def test_a_shared_model_written_as_the_tool_writes_it():
    models = sorted(shared_models(), key=os.path.getsize)
    if not models:
        pytest.skip("needs ../shared/models/*.tflite (APLAN_SHARED_DIR; not found)")
    heuristics = ",".join(s.name for s in aplan.strategies() if not s.searches and s.name != "offline")
    path = models[len(models) // 2]
    assert_same(aplan.plan(path, heuristics, time_limit=100), "plan", "-s", heuristics, "--time-limit", "100", path)


def test_a_plan_that_does_not_fit_is_drawn_as_the_tool_draws_it():
    needs_strategy("linear")
    with pytest.raises(aplan.DoesNotFitError) as e:
        aplan.plan(aplan.EXAMPLE, "linear", capacity=40000)
    assert str(e.value) == "needs 89920 bytes, 49920 more than the capacity of 40000 bytes"
    out = run("example", "-s", "linear", "--capacity", "40000", "-f", "svg")
    assert out.returncode == 4 and e.value.plan.svg() == out.stdout
    with pytest.raises(aplan.DoesNotFitError) as no_csv:
        e.value.plan.csv()
    assert str(no_csv.value) == "no plan fits the capacity: aplan plan writes no CSV then"


def test_writer_and_setting_errors(tmp_path):
    p = aplan.plan(aplan.EXAMPLE, "greedy_by_size")
    with pytest.raises(aplan.UsageError) as e:
        p.c_header(name="2net")
    assert str(e.value) == "name is '2net': a C identifier (a letter, then letters, digits, '_')"
    assert e.value.status == aplan.Status.E_INVALID_ARG
    with pytest.raises(aplan.UsageError) as e:
        aplan.plan(aplan.EXAMPLE, target="cortex-m5")
    assert str(e.value) == "unknown target 'cortex-m5' (see aplan.targets())"
    # A CSV row the reader refuses: the message the tool prints after "aplan: ".
    bad = tmp_path / "bad.csv"
    bad.write_text("id,lower,upper,size\na,0,2,16\nb,3,1,16\n")
    out = run("plan", str(bad))
    with pytest.raises(aplan.BadInputError) as e:
        aplan.plan(str(bad))
    assert out.returncode == 3 and out.stderr.splitlines()[0] == "aplan: " + str(e.value)


def test_targets_are_the_tools():
    lines = []
    for t in aplan.targets():
        lines.append(f"{t.name:<22} {t.alignment:<9} {t.ram:<12} {t.part}")
        lines.append(f"{'':<22} alignment: {t.why_alignment}")
        lines.append(f"{'':<22} RAM: {t.why_ram}")
        if t.regions:
            shown = ", ".join(f"{name}:{size}:{align}" for name, size, align in t.regions)
            lines.append(f"{'':<22} regions, fastest first: {shown}")
            lines.append(f"{'':<22} where from: {t.why_regions}")
    table = run("targets").stdout.splitlines()
    assert table[0].split() == ["target", "alignment", "RAM", "bytes", "part"]
    assert table[1:1 + len(lines)] == lines and not table[1 + len(lines)].startswith(" ")
    assert all(t.abi == 32 for t in aplan.targets())
    m4 = [t for t in aplan.targets() if t.name == "cortex-m4"][0]
    assert (m4.alignment, m4.ram, m4.cmsis_isa) == (4, 262144, "dsp")


def tflm_json(figures):
    """A way's figures from the tool's JSON, first_unknown cut to what TflmArena.as_json() gives."""
    out = dict(figures)
    if out["first_unknown"] is not None:
        out["first_unknown"] = {k: out["first_unknown"][k] for k in ("subgraph", "index", "name")}
    return out


def check_tflm_ways(path, strategy, *args):
    js = json.loads(tool("json", "plan", "-s", strategy, "--time-limit", "100", *args, path))["tflm"]
    p = aplan.plan(path, strategy, time_limit=100)
    assert p.tflm_setup == js["setup"], path
    for way, key in (("own", "own_planner"), ("embedded", "embedded"), ("compiled", "compiled"),
                     ("adapter", "adapter")):
        mine = p.tflm[key]
        assert (mine is None) == (js[key] is None), (path, key)
        if mine is None:
            continue
        assert mine.as_json() == tflm_json(js[key]), (path, key)
        if way != "own":  # tflm_arena's other ways are the session's figures
            assert aplan.tflm_arena(path, planner=way, strategy=strategy, time_limit=100).as_json() == \
                tflm_json(js[key]), (path, key)


@pytest.mark.parametrize("name", ["chain", "scratch", "offline", "ties"])
def test_tflm_ways_of_a_plan_are_the_tools(made_models, name):
    check_tflm_ways(os.path.join(made_models, name + ".tflite"), "greedy_by_size")


def test_tflm_ways_on_a_shared_model():
    models = sorted(shared_models(), key=os.path.getsize)
    if not models:
        pytest.skip("needs ../shared/models/*.tflite (APLAN_SHARED_DIR; not found)")
    heuristics = ",".join(s.name for s in aplan.strategies() if not s.searches and s.name != "offline")
    check_tflm_ways(models[len(models) // 2], heuristics)


def test_tflm_arena_for_a_target_is_the_tools(made_models):
    path = os.path.join(made_models, "scratch.tflite")
    js = json.loads(tool("json", "plan", "-s", "greedy_by_size", "--target", "cortex-m4", "--kernels", "cmsis-nn",
                         path))["tflm"]
    arena = aplan.tflm_arena(path, target="cortex-m4", kernels="cmsis-nn")
    assert arena.as_json() == tflm_json(js["own_planner"]) and js["isa"] == "dsp"
    with pytest.raises(aplan.UsageError) as e:
        aplan.tflm_arena(path, planner="greedy")
    assert str(e.value) == "planner is 'greedy': 'own', 'embedded', 'compiled' or 'adapter'"
    dsp = aplan.load(path, kernels="cmsis-nn", isa="dsp")
    with pytest.raises(aplan.UsageError) as e:
        aplan.plan(dsp)
    assert str(e.value).startswith("a model loaded with isa='dsp' plans with a target")
    assert aplan.plan(dsp, "greedy_by_size", target="cortex-m4").arena_size == \
        json.loads(tool("json", "plan", "-s", "greedy_by_size", "--target", "cortex-m4", "--kernels", "cmsis-nn",
                        path))["strategies"][0]["arena_bytes"]
