"""aplan.embed against the tool's `embed`: the bytes it returns are the file `aplan embed MODEL -o OUT` writes with
the same settings, on a model the tests build and a shared model; a plan from aplan.plan embedded as given; and the
tool's errors (a file that is not a model, the refusal when TFLM's arena would grow) with its messages."""
import os
import warnings

import pytest

import aplan
from conftest import cli, needs_strategy, shared_models
from test_aplan import run


def tool_embed(tmp_path, model: str, *args: str) -> bytes:
    out = tmp_path / "out.tflite"
    if out.exists():
        out.unlink()
    done = run("embed", *args, model, "-o", str(out))
    assert done.returncode == 0, done.stderr
    return out.read_bytes()


def test_embed_is_the_tools_file_on_a_built_model(made_models, tmp_path):
    path = os.path.join(made_models, "chain.tflite")
    assert aplan.embed(path) == tool_embed(tmp_path, path)
    assert aplan.embed(path, strategy="greedy_by_size", abi=64) == tool_embed(
        tmp_path, path, "-s", "greedy_by_size", "--abi", "64")
    assert aplan.embed(path, strategy="all", time_limit=100, target="cortex-m4") == tool_embed(
        tmp_path, path, "-s", "all", "--time-limit", "100", "--target", "cortex-m4")
    with open(path, "rb") as f:  # bytes and a Model give the same file
        data = f.read()
    assert aplan.embed(data) == aplan.embed(aplan.load(path)) == tool_embed(tmp_path, path)
    # The result is a model with the plan: planned again, its offline plan is kept (the tool's verify accepts it).
    embedded = tmp_path / "embedded.tflite"
    embedded.write_bytes(aplan.embed(path))
    assert run("verify", str(embedded), str(embedded)).returncode == 0
    assert aplan.load(str(embedded)).has_offline_plan


def test_embed_a_plan_from_plan(made_models, tmp_path):
    path = os.path.join(made_models, "chain.tflite")
    p = aplan.plan(path, "greedy_by_size")
    # The tool embeds the same strategy's plan when it is the only one: the same bytes.
    assert aplan.embed(path, p) == tool_embed(tmp_path, path, "-s", "greedy_by_size")
    out = aplan.embed(path, p)
    tensors = aplan.load(out).offsets[:aplan.load(path).tensor_count]
    assert tensors == p.offsets[:len(tensors)]
    with pytest.raises(aplan.UsageError) as e:  # a plan of another problem
        aplan.embed(path, aplan.plan(aplan.EXAMPLE, "greedy_by_size"))
    assert str(e.value).startswith(f"{path}: the plan has ")
    assert str(e.value).endswith("not a plan of this model")


def test_embed_errors_are_the_tools(made_models, tmp_path):
    csv = tmp_path / "problem.csv"
    csv.write_text("id,lower,upper,size\na,0,2,16\n")
    done = run("embed", str(csv), "-o", str(tmp_path / "x.tflite"))
    with pytest.raises(aplan.BadInputError) as e:
        aplan.embed(str(csv))
    assert done.returncode == 3 and done.stderr == f"aplan: {e.value}\n"
    assert str(e.value) == (f'{csv}: not a .tflite model (no "TFL3" at bytes 4..7): embed writes a TFLM offline '
                            f"plan into one")
    # linear's fresh plan of an embedded model makes TFLM's arena larger: refused unless forced, as the tool does.
    needs_strategy("linear")
    path = os.path.join(made_models, "chain.tflite")
    first = tmp_path / "first.tflite"
    first.write_bytes(aplan.embed(path))
    done = run("embed", "-s", "linear", "--replan", str(first), "-o", str(tmp_path / "no.tflite"))
    with pytest.raises(aplan.DoesNotFitError) as e:
        aplan.embed(str(first), strategy="linear", replan=True)
    assert done.returncode == 4 and done.stderr == f"aplan: {e.value}\n"
    assert f"{first}: not written: with this plan embedded TFLM's arena would be " in str(e.value)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        forced = aplan.embed(str(first), strategy="linear", replan=True, force=True)
    assert any("grows from" in str(w.message) for w in caught)
    assert forced == tool_embed(tmp_path, str(first), "-s", "linear", "--replan", "--force")
    with pytest.raises(aplan.UsageError):
        aplan.embed(path, strategy="nope")


def test_embed_is_the_tools_file_on_a_shared_model(tmp_path):
    models = sorted(shared_models(), key=os.path.getsize)
    if not models:
        pytest.skip("needs ../shared/models/*.tflite (APLAN_SHARED_DIR; not found)")
    cli()
    path = models[len(models) // 2]
    assert aplan.embed(path, strategy="greedy_by_size_tflm,greedy_by_size") == tool_embed(
        tmp_path, path, "-s", "greedy_by_size_tflm,greedy_by_size")
