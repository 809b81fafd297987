"""Fixtures of the package's suite: the aplan tool built beside it (APLAN_CLI), the models tests/cli/make_models
writes (APLAN_MAKE_MODELS, into a temporary folder once per run), and the shared folder's real models
(APLAN_SHARED_DIR); a test that needs one of them skips, naming it, when it is not there."""
import os
import subprocess

import pytest


def needs_strategy(name: str) -> None:
    """Skip, naming it, when this build leaves the strategy out (-Dstrategies=...)."""
    import aplan
    if name not in {s.name for s in aplan.strategies()}:
        pytest.skip(f"needs the {name} strategy, which this build leaves out (-Dstrategies)")


def cli() -> str:
    path = os.environ.get("APLAN_CLI", "")
    if not path or not os.access(path, os.X_OK):
        pytest.skip("needs the aplan tool (APLAN_CLI; built with -Dcli)")
    return path


def shared_models() -> list:
    folder = os.path.join(os.environ.get("APLAN_SHARED_DIR", ""), "models")
    if not os.path.isdir(folder):
        return []
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".tflite"))


@pytest.fixture(scope="session")
def made_models(tmp_path_factory) -> str:
    program = os.environ.get("APLAN_MAKE_MODELS", "")
    if not program or not os.access(program, os.X_OK):
        pytest.skip("needs tests/cli/make_models (APLAN_MAKE_MODELS; built with the tests and the tool)")
    folder = tmp_path_factory.mktemp("models")
    subprocess.run([program, str(folder)], check=True)
    return str(folder)
