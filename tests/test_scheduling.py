"""The units of work of ``pytest -n`` (tests/scheduling.py): which tests must share a worker, on real test files
and on made-up ones."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("xdist", reason="the scheduler extends pytest-xdist's (the test extra installs it)")

from scheduling import unit_of  # noqa: E402  (tests/scheduling.py)

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("nodeid, unit", [
    # ranx's kernels: every test that names ranx, in any file
    ("tests/test_pool.py::test_rrf_scores_match_ranx", "ranx"),
    ("tests/test_retrieval.py::test_bpref_follows_trec_eval[ranx]", "ranx"),
    # the same test on the other engine shares nothing: alone (test_retrieval.py has function fixtures only)
    ("tests/test_retrieval.py::test_bpref_follows_trec_eval[ir_measures]",
     "tests/test_retrieval.py::test_bpref_follows_trec_eval[ir_measures]"),
    # conftest's session-scoped llama.cpp server: every test of the three files that ask for it
    ("tests/test_judge_llm_server.py::test_judges_sample_items_through_structured_output", "fixture:llama_server"),
    ("tests/test_nugget_create_llama.py::test_create_through_a_real_server_validates_is_accounted_for_and_resumes",
     "fixture:llama_server"),
    # a module-scoped fixture (the report's Chromium): the whole file
    ("tests/test_report_browser.py::test_the_content_security_policy_holds", "tests/test_report_browser.py"),
    # the help examples: each its own temporary directory and processes, so each alone
    ("tests/test_help_examples.py::test_help_example_runs[score[1]]",
     "tests/test_help_examples.py::test_help_example_runs[score[1]]"),
])
def test_units_of_the_real_suite(nodeid, unit):
    assert unit_of(nodeid, REPO) == unit


def test_units_of_made_up_files(tmp_path):
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_model.py").write_text('@pytest.fixture(scope="module")\ndef model():\n    return 1\n\n\n'
                                         "def test_a(model):\n    pass\n")
    (tests / "test_plain.py").write_text('@pytest.fixture(scope="function")\ndef f():\n    return 1\n\n\n'
                                         "def test_a(f, tmp_path):\n    pass\n")
    (tests / "test_server.py").write_text("def test_a(llama_server):\n    pass\n")
    (tests / "test_broken.py").write_text("def test_a(:\n")
    assert unit_of("tests/test_model.py::test_a", tmp_path) == "tests/test_model.py"
    assert unit_of("tests/test_plain.py::test_a", tmp_path) == "tests/test_plain.py::test_a"
    assert unit_of("tests/test_server.py::test_a", tmp_path) == "fixture:llama_server"
    assert unit_of("tests/test_broken.py::test_a", tmp_path) == "tests/test_broken.py::test_a"
    assert unit_of("tests/test_gone.py::test_a", tmp_path) == "tests/test_gone.py::test_a"
