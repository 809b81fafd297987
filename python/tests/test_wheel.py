"""The package as a user installs it: a fresh venv of /usr/bin/python3 (Debian's, which sees python3-mesonpy),
`pip install --no-build-isolation --no-index` of the checkout, then an import and a figure from the installed
package. Slow (a build of its own, half a minute): run only when APLAN_WHEEL_TEST is set (run.py --wheel, suite
packaging, and .ci/run from the fresh clone)."""
import os
import shutil
import subprocess
import sys
import time

import pytest

PYTHON = "/usr/bin/python3"


@pytest.mark.skipif(not os.environ.get("APLAN_WHEEL_TEST"), reason="slow: set APLAN_WHEEL_TEST=1")
def test_pip_install_into_a_fresh_venv(tmp_path):
    source = os.environ.get("APLAN_SOURCE_ROOT")
    if not source or not os.path.exists(PYTHON):
        pytest.skip(f"needs APLAN_SOURCE_ROOT and {PYTHON}")
    probe = subprocess.run([PYTHON, "-c", "import mesonpy, venv"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"{PYTHON} has no mesonpy or venv (Debian: python3-mesonpy python3-venv)")
    # A copy of the checkout's tracked files, so the build's by-products (.mesonpy-*) stay out of it.
    tree = tmp_path / "src"
    files = subprocess.run(["git", "-C", source, "ls-files", "-z"], capture_output=True, check=True).stdout
    for name in filter(None, files.decode().split("\0")):
        if os.path.isfile(os.path.join(source, name)):
            os.makedirs(tree / os.path.dirname(name), exist_ok=True)
            shutil.copy2(os.path.join(source, name), tree / name)
    venv = tmp_path / "V"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the venv's package, not the build tree's
    t0 = time.monotonic()
    subprocess.run([PYTHON, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    pip = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--no-build-isolation", "--no-index", str(tree)],
                         capture_output=True, text=True, env=env)
    seconds = time.monotonic() - t0
    assert pip.returncode == 0, pip.stdout + pip.stderr
    print(f"pip install into a fresh venv: {seconds:.1f} s")
    assert seconds < 120
    code = ("import aplan, sys; p = aplan.Problem([1024, 2048, 1024], [0, 1, 2], [2, 3, 4]); "
            "print(aplan.__version__, aplan.plan(p).arena_size, aplan.__file__)")
    out = subprocess.run([str(venv / "bin" / "python"), "-c", code], capture_output=True, text=True, cwd=tmp_path,
                         env=env)
    assert out.returncode == 0, out.stderr
    version, arena, where = out.stdout.split()
    assert arena == "3072" and where.startswith(str(venv))
