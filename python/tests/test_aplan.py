"""The aplan package against the C tool: the same figures for the same input (TFLM's arena for every model the tests
build and every shared model, both ABIs; the plan rows), exact messages and statuses, the verifier round trip
through `aplan verify`, and Ctrl-C during a long search."""
import csv
import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

import aplan
from conftest import cli, shared_models

MADE = ["chain", "ties", "ties4", "offline", "names", "badnames", "huge", "steps", "refuse", "refuse_fc", "scratch",
        "detection", "fanin", "signal_rows", "signal_huge", "concat_rank", "rank", "shared_name", "dangling"]


def run(*args):
    return subprocess.run([cli(), *args], capture_output=True, text=True)


def test_version_is_the_library_and_the_tools():
    assert aplan.__version__ == run("--version").stdout.split()[-1]
    source = os.environ.get("APLAN_SOURCE_ROOT")
    if source:  # pyproject.toml's version is written by hand: it must be the library's
        text = open(os.path.join(source, "pyproject.toml")).read()
        assert re.search(r'^version = "([^"]+)"', text, re.M).group(1) == aplan.__version__


def test_strategies_in_registry_order():
    names = [s.name for s in aplan.strategies()]
    listed = [line.split()[0] for line in run("list").stdout.splitlines() if line and not line[0].isspace()]
    assert names == [n for n in listed if n in names] and set(names) <= set(listed)
    info = {s.name: s for s in aplan.strategies()}
    if "exact" in info:
        assert info["exact"].searches and not info["exact"].auto
    if "greedy_by_size_tflm" in info:
        assert info["greedy_by_size_tflm"].auto and not info["greedy_by_size_tflm"].searches


def arena_lines(text):
    used = int(re.search(r"^  arena_used_bytes\(\) +(\d+)$", text, re.M).group(1))
    smallest = int(re.search(r"^  smallest arena AllocateTensors\(\) accepts +(\d+)", text, re.M).group(1))
    return used, smallest


def check_arena_like_cli(path, abi):
    shown = run("arena", "--abi", str(abi), path)
    if shown.returncode != 0:  # the tool refuses the model: the package raises, with the same words
        with pytest.raises(aplan.Error) as e:
            aplan.tflm_arena(path, abi=abi)
        assert "aplan: " + str(e.value) == shown.stderr.strip().splitlines()[-1]
        assert shown.returncode != 8 or isinstance(e.value, aplan.BadInputError)  # 8: TFLM refuses the model
        return None
    a = aplan.tflm_arena(path, abi=abi)
    assert (a.used, a.smallest) == arena_lines(shown.stdout)
    plan = run("plan", "-f", "json", "-s", "greedy_by_size_tflm", "--abi", str(abi), path)
    own = json.loads(plan.stdout)["tflm"]["own_planner"]
    mine = a.as_json()
    if own["first_unknown"] is not None:
        own["first_unknown"] = {k: own["first_unknown"][k] for k in ("subgraph", "index", "name")}
    assert mine == own
    assert a.tflm_commit == aplan.TFLM_COMMIT == json.loads(plan.stdout)["tflm"]["version"]
    assert a.is_lower_bound == (a.unknown_operators > 0)
    # The per-operator rows: their sums are the parts (every operator is one row).
    assert sum(o.params for o in a.operators) == a.parts["params"] or a.is_lower_bound
    assert sum(o.scratch for o in a.operators) == a.scratch
    return a


@pytest.mark.parametrize("abi", [32, 64])
@pytest.mark.parametrize("name", MADE)
def test_tflm_arena_equals_the_tools_on_made_models(made_models, name, abi):
    check_arena_like_cli(os.path.join(made_models, name + ".tflite"), abi)


@pytest.mark.parametrize("abi", [32, 64])
@pytest.mark.parametrize("path", shared_models() or ["(no shared models)"])
def test_tflm_arena_equals_the_tools_on_shared_models(path, abi):
    if not os.path.exists(path):
        pytest.skip("needs ../shared/models/*.tflite (not found)")
    check_arena_like_cli(path, abi)


def test_person_detect_arena_pinned():
    path = os.path.join(os.environ.get("APLAN_SHARED_DIR", ""), "models", "person_detect.tflite")
    if not os.path.exists(path):
        pytest.skip(f"needs {path} (not found)")
    a = aplan.tflm_arena(path)
    assert (a.used, a.smallest, a.planned, a.persistent, a.parts["op_data"]) == (82300, 82296, 55296, 27004, 23808)


def test_chain_arena_and_breakdown(made_models):
    a = aplan.tflm_arena(os.path.join(made_models, "chain.tflite"))
    assert (a.used, a.smallest, a.planned, a.planned_tensors, a.persistent, a.scratch) == (2440, 2444, 1536, 1536,
                                                                                         904, 0)
    assert [o.name for o in a.operators] == ["CONV_2D", "DEPTHWISE_CONV_2D", "ADD", "FULLY_CONNECTED"]
    model = aplan.load(os.path.join(made_models, "chain.tflite"), abi=64)
    assert aplan.tflm_arena(model, abi=64).smallest == 2880
    assert model.ids == ["s0t0", "s0t2", "s0t4", "s0t5", "s0t7"] and model.tensor_count == 5


def test_scratch_requests_join_the_problem(made_models):
    path = os.path.join(made_models, "scratch.tflite")
    m = aplan.load(path)
    js = json.loads(run("plan", "-f", "json", "-s", "greedy_by_size", path).stdout)
    assert len(m) == js["input"]["buffers"] and m.tensor_count == js["tflm"]["tensors"]
    assert len(m) - m.tensor_count == js["tflm"]["scratch_buffers"] > 0
    assert all(re.fullmatch(r"s\d+o\d+r\d+", i) for i in m.ids[m.tensor_count:])
    # The requests are the CLI's own (one code, the host layer's aplan_host_add_tflm_scratch): every buffer's id,
    # size and lifetime as the tool's plan writes them, kernels' scratch included, for both ABIs.
    for abi in (32, 64):
        rows = list(csv.DictReader(io.StringIO(run("plan", "-f", "csv", "-s", "greedy_by_size", "--abi", str(abi),
                                                   path).stdout)))
        m = aplan.load(path, abi=abi)
        assert m.ids == [r["id"] for r in rows]
        assert m.sizes == [int(r["size"]) for r in rows]
        assert (m.lowers, m.uppers) == ([int(r["lower"]) for r in rows], [int(r["upper"]) for r in rows])


def rows_of(js):
    return [(r["name"], r["arena_bytes"], r["lower_bound"], r["outcome"]) for r in js["strategies"]]


@pytest.mark.parametrize("name", ["chain", "ties", "ties4", "offline", "scratch"])
def test_plan_rows_equal_the_tools(made_models, name):
    path = os.path.join(made_models, name + ".tflite")
    for strategy in ("all", "auto"):
        js = json.loads(run("plan", "-f", "json", "-s", strategy, path).stdout)
        p = aplan.plan(path, strategy)
        best = [r for r in js["strategies"] if r["best"]][0]
        if strategy == "all":  # auto's table keeps only the best row; the package keeps every strategy's
            assert [(r.name, r.arena, r.bound, r.outcome) for r in p.rows] == rows_of(js)
        else:
            ran = aplan._select("auto", aplan.load(path))  # the auto set; offline alone for a whole offline plan
            assert [r.name for r in p.rows][:len(ran)] == ran and ("offline" in ran) == (name == "offline")
        row = [r for r in p.rows if r.name == p.strategy][-1]
        assert (row.name, row.arena, row.bound, row.outcome) == rows_of({"strategies": [best]})[0]
        assert p.strategy == js["best"] and p.lower_bound == js["lower_bound"]["bytes"]
        assert p.offsets == best["offsets"] and p.verified


def test_plan_rows_equal_the_tools_on_shared_models():
    models = shared_models()
    if not models:
        pytest.skip("needs ../shared/models/*.tflite (not found)")
    heuristics = ",".join(s.name for s in aplan.strategies() if not s.searches and s.name != "offline")
    for path in models:
        js = run("plan", "-f", "json", "-s", heuristics, path)
        if js.returncode != 0:
            continue
        p = aplan.plan(path, heuristics, time_limit=None)
        assert [(r.name, r.arena, r.bound, r.outcome) for r in p.rows] == rows_of(json.loads(js.stdout)), path


def test_to_csv_exact_text():
    # The table (written in C, what aplan.plan hands the session) and the plan (written in Python) agree on every
    # column: -1 for the problem's alignment and a free offset, ids as given or the indexes, 64-bit figures whole.
    p = aplan.Problem([16, 32, 2**62], [0, 1, 0], [2, 3, 2**64 - 1], alignments=[None, 64, None],
                      offsets=[None, None, 2**63], ids=["a", "b\u00e9", "c"])
    assert p.to_csv() == ("id,lower,upper,size,alignment,offset\na,0,2,16,-1,-1\nb\u00e9,1,3,32,64,-1\n"
                          "c,0,18446744073709551615,4611686018427387904,-1,9223372036854775808\n")
    assert p.to_csv([0, 16, 2**63]) == p.to_csv().replace(",-1\n", ",0\n", 1).replace("64,-1", "64,16")
    assert aplan.Problem([8, 8], [0, 1], [1, 2]).to_csv() == "id,lower,upper,size,alignment,offset\n0,0,1,8,-1,-1\n" \
                                                         "1,1,2,8,-1,-1\n"
    assert aplan.Problem([], [], []).to_csv() == "id,lower,upper,size,alignment,offset\n"


def test_round_trip_problem_plan_verify_and_the_tools_verify(tmp_path):
    sizes = [(i * 7919) % 5000 + 16 for i in range(300)]
    lowers = [(i * 31) % 200 for i in range(300)]
    uppers = [lo + 1 + (i * 17) % 40 for i, lo in enumerate(lowers)]
    p = aplan.Problem(sizes, lowers, uppers, alignment=16, round_sizes=True)
    plan = aplan.plan(p, "auto", time_limit=0.5)
    assert plan.verified and aplan.verify(p, plan.offsets) == plan.arena_size >= plan.lower_bound
    assert plan.lower_bound == aplan.lower_bound(p)
    (tmp_path / "problem.csv").write_text(p.to_csv())
    (tmp_path / "plan.csv").write_text(p.to_csv(plan.offsets))
    ok = run("verify", "--align", "16", "--round-sizes", str(tmp_path / "problem.csv"), str(tmp_path / "plan.csv"))
    assert ok.returncode == 0, ok.stderr
    # The same problem read back from its CSV is the same problem.
    q = aplan.Problem.from_csv(p.to_csv(), alignment=16, round_sizes=True)
    assert (q.sizes, q.lowers, q.uppers, q.ids) == (p.sizes, p.lowers, p.uppers, p.ids)
    bad = list(plan.offsets)
    bad[1] = bad[0] = 0
    with pytest.raises(aplan.VerificationError):
        aplan.verify(p, bad)
    (tmp_path / "bad.csv").write_text(p.to_csv(bad))
    assert run("verify", "--align", "16", "--round-sizes", str(tmp_path / "problem.csv"),
               str(tmp_path / "bad.csv")).returncode in (5,)


def test_verification_error_is_the_reports():
    p = aplan.Problem([1024, 2048], [0, 1], [2, 3], ids=["a", "b"])
    with pytest.raises(aplan.VerificationError) as e:
        aplan.verify(p, [0, 0])
    assert str(e.value) == "buffers 0 and 1 overlap at steps 1-1, bytes 0-1023: buffer 0 is 'a', buffer 1 is 'b'"
    assert e.value.status == aplan.Status.E_OVERLAP == 17 and e.value.status.name == "E_OVERLAP"
    with pytest.raises(aplan.VerificationError) as e:
        aplan.verify(p, [0, None])
    assert e.value.status == aplan.Status.E_UNPLACED and "'b'" in str(e.value)
    with pytest.raises(aplan.VerificationError) as e:
        aplan.verify(p, [0, 1024], arena_size=4096)
    assert e.value.status == aplan.Status.E_ARENA_MISMATCH


def test_bad_input_messages():
    with pytest.raises(aplan.BadInputError) as e:
        aplan.Problem([16, 16], [0, 5], [1, 3])
    assert e.value.status == aplan.Status.E_BAD_LIFETIME
    assert str(e.value) == "invalid problem: buffer 1: lower step 5 is greater than upper step 3"
    with pytest.raises(aplan.BadInputError) as e:
        aplan.Problem([16, 16], [0, 5], [1, 3], ids=["in", "out"])
    assert str(e.value) == "invalid problem: buffer 1: lower step 5 is greater than upper step 3: buffer 1 is 'out'"
    with pytest.raises(aplan.BadInputError) as e:
        aplan.Problem([16], [0], [1], alignments=[3])
    assert e.value.status == aplan.Status.E_BAD_ALIGNMENT
    with pytest.raises(aplan.BadInputError) as e:
        aplan.Problem([16, -1], [0, 0], [1, 1])
    assert str(e.value) == "sizes[1] is -1: not in 0 .. 2^64 - 1"
    with pytest.raises(TypeError):
        aplan.Problem([16, "x"], [0, 0], [1, 1])
    with pytest.raises(aplan.UsageError) as e:
        aplan.Problem([16, 16], [0], [1, 1])
    assert str(e.value) == "lowers has 1 entries and sizes 2: one each per buffer"
    with pytest.raises(aplan.BadInputError) as e:
        aplan.Problem.from_csv("id,lower,upper,size\na,0,2,12kb\n")
    assert str(e.value).startswith("<csv>:2:4: ") and e.value.status == aplan.Status.E_FORMAT_SYNTAX
    with pytest.raises(aplan.TooLargeError) as e:
        aplan.Problem([2**64 - 1], [0], [1], offsets=[16])
    assert e.value.status == aplan.Status.E_SIZE_OVERFLOW


def test_model_errors_name_the_byte(made_models, tmp_path):
    data = open(os.path.join(made_models, "chain.tflite"), "rb").read()
    cut = tmp_path / "cut.tflite"
    cut.write_bytes(data[:200])
    shown = run("plan", str(cut))
    with pytest.raises(aplan.BadInputError) as e:
        aplan.load(str(cut))
    assert "aplan: " + str(e.value) == shown.stderr.strip().splitlines()[-1]
    assert str(e.value).startswith(f"{cut}: truncated: the file has 200 bytes")
    assert e.value.status == aplan.Status.E_FORMAT_BAD_OFFSET  # the reader's status, through the host layer's loader
    with pytest.raises(aplan.BadInputError) as e:
        aplan.load(b"not a model")
    assert str(e.value) == "<bytes>: not a .tflite model (no \"TFL3\" at bytes 4..7)"
    with pytest.raises(aplan.UsageError) as e:
        aplan.tflm_arena(data, abi=16)
    assert str(e.value) == "abi is 16: 32 or 64 (the target's pointer width in bits)"


def test_usage_and_capacity_errors():
    p = aplan.Problem([1024, 2048, 1024], [0, 1, 2], [2, 3, 4])
    with pytest.raises(aplan.UsageError) as e:
        aplan.plan(p, "gredy")
    assert e.value.status == aplan.Status.E_UNKNOWN_STRATEGY and str(e.value).startswith("unknown strategy 'gredy'")
    with pytest.raises(aplan.DoesNotFitError) as e:
        aplan.plan(p, capacity=3000)
    assert str(e.value) == "no plan can fit: the lower bound is 3072 bytes, 72 more than the capacity of 3000 bytes"
    assert e.value.status == aplan.Status.E_CAPACITY_EXCEEDED
    names = [s.name for s in aplan.strategies()]
    if "linear" in names:
        with pytest.raises(aplan.DoesNotFitError) as e:
            aplan.plan(p, "linear", capacity=3072)
        assert str(e.value) == "needs 4096 bytes, 1024 more than the capacity of 3072 bytes"
        assert e.value.plan.arena_size == 4096 and e.value.plan.offsets == [0, 1024, 3072]


def hard_problem():
    """tests/cli/cli_test.sh's hard.csv: 200 buffers from a Park-Miller generator, lower bound 66498 bytes, within
    which exact finds no plan in 10 s (11 million nodes)."""
    s = 4

    def r(m):
        nonlocal s
        s = (s * 16807) % 2147483647
        return s % m

    sizes, lowers, uppers = [], [], []
    for _ in range(200):
        lo = r(60)
        lowers.append(lo)
        uppers.append(lo + 1 + r(12))
        sizes.append(1 + r(5000))
    return aplan.Problem(sizes, lowers, uppers)


def test_ctrl_c_stops_a_long_search_within_100_ms():
    if not any(s.name == "exact" and s.searches for s in aplan.strategies()):
        pytest.skip("needs the exact strategy (left out of this build)")
    p = hard_problem()
    sent = []

    def interrupt():
        time.sleep(0.5)
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=interrupt).start()
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        aplan.plan(p, "exact", time_limit=60)
    caught = time.monotonic()
    assert sent, "the search ended before the signal: the problem is too easy for this test"
    assert caught - sent[0] < 0.1, f"KeyboardInterrupt {caught - sent[0]:.3f} s after SIGINT"
    assert caught - t0 < 5
    # Without the signal the time limit ends it, with its best plan, not proven.
    plan = aplan.plan(p, "exact", time_limit=0.2)
    assert plan.outcome == "best_found" and plan.verified and plan.lower_bound == 66498 < plan.arena_size


def test_python_m_aplan_runs_the_tool():
    out = subprocess.run([sys.executable, "-m", "aplan", "--version"], capture_output=True, text=True,
                         env={**os.environ, "APLAN_CLI": cli()})
    assert out.returncode == 0 and out.stdout == run("--version").stdout
    missing = subprocess.run([sys.executable, "-m", "aplan", "--version"], capture_output=True, text=True,
                             env={**os.environ, "APLAN_CLI": "/nonexistent/aplan", "PATH": "/nonexistent"})
    assert missing.returncode == 2 and "aplan command-line tool was not found" in missing.stderr
