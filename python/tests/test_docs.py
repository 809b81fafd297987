"""docs/python.md's worked example, run as a doctest in a folder holding the models tests/cli/make_models writes."""
import doctest
import os

import pytest


def test_python_md_example(made_models, monkeypatch):
    source = os.environ.get("APLAN_SOURCE_ROOT")
    if not source:
        pytest.skip("needs APLAN_SOURCE_ROOT (the checkout holding docs/python.md)")
    monkeypatch.chdir(made_models)
    result = doctest.testfile(os.path.join(source, "docs", "python.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 15 and result.failed == 0


def test_package_docstring_example():
    import aplan
    result = doctest.testmod(aplan)
    assert result.attempted >= 3 and result.failed == 0
