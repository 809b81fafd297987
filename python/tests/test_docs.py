"""docs/python.md's worked example, run as a doctest in a folder holding the models tests/cli/make_models writes."""
import doctest
import os

import pytest


def test_python_md_example(made_models, monkeypatch):
    source = os.environ.get("APLAN_SOURCE_ROOT")
    if not source:
        pytest.skip("needs APLAN_SOURCE_ROOT (the checkout holding docs/python.md)")
    import aplan
    # The example's figures are a build's with every strategy (its plan table and `exact`): a build with a subset
    # (-Dstrategies=...) prints other rows.
    have = {s.name for s in aplan.strategies()}
    missing = sorted({"greedy_by_size", "greedy_by_size_tflm", "first_fit", "best_fit", "greedy_by_breadth",
                      "greedy_by_conflicts", "linear", "exact"} - have)
    if missing:
        pytest.skip("docs/python.md's figures need every strategy; this build lacks " + ", ".join(missing))
    monkeypatch.chdir(made_models)
    result = doctest.testfile(os.path.join(source, "docs", "python.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 15 and result.failed == 0


def test_package_docstring_example():
    import aplan
    result = doctest.testmod(aplan)
    assert result.attempted >= 3 and result.failed == 0
