"""Runs the Python package's pytest suite for `meson test` (suite python): exit 77 (skipped), saying why, when this
Python has no pytest. `run.py DIR` runs every test but the wheel's; `run.py --wheel DIR` only the wheel's install
into a fresh venv (suite packaging: it builds the package with meson-python, about a minute)."""
import os
import sys

try:
    import pytest
except ImportError:
    print(f"skipped: {sys.executable} has no pytest (Debian: apt-get install python3-pytest)")
    sys.exit(77)

args = sys.argv[1:]
wheel = "--wheel" in args
folder = [a for a in args if a != "--wheel"][0]
if wheel:
    os.environ["APLAN_WHEEL_TEST"] = "1"
    sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", os.path.join(folder, "test_wheel.py")]))
code = pytest.main(["-q", "-p", "no:cacheprovider", "--ignore", os.path.join(folder, "test_wheel.py"), folder])
sys.exit(77 if code == pytest.ExitCode.NO_TESTS_COLLECTED else int(code))
