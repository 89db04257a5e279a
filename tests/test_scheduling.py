"""The units of work of ``pytest -n`` (tests/scheduling.py): which tests must share a worker, on real test files
and on made-up ones."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("xdist", reason="the scheduler extends pytest-xdist's (the test extra installs it)")

from scheduling import hand_out_order, is_slow, unit_of  # noqa: E402  (tests/scheduling.py)

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
    # ... but only the tests that ask for it when no fixture or helper of their file does: the lexical judge's
    # stop test does not wait behind the LLM judge's in the server's worker; it keeps to its file's unit (the
    # module fixture: the round its SIGINT and SIGTERM cases share)
    ("tests/test_stop_signals.py::test_the_llm_judge_stops_while_its_calls_are_in_flight", "fixture:llama_server"),
    ("tests/test_stop_signals.py::test_the_lexical_judge_stops_between_groups_and_resumes_byte_identically[2]",
     "tests/test_stop_signals.py"),
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
    (tests / "test_server.py").write_text("def test_a(llama_server):\n    pass\n\n\ndef test_b(tmp_path):\n    pass\n")
    (tests / "test_wrapped.py").write_text("import pytest\n\n\n@pytest.fixture\ndef url(llama_server):\n"
                                           "    return llama_server\n\n\ndef test_a(url):\n    pass\n\n\n"
                                           "def test_b(tmp_path):\n    pass\n")
    (tests / "test_broken.py").write_text("def test_a(:\n")
    assert unit_of("tests/test_model.py::test_a", tmp_path) == "tests/test_model.py"
    assert unit_of("tests/test_plain.py::test_a", tmp_path) == "tests/test_plain.py::test_a"
    assert unit_of("tests/test_server.py::test_a", tmp_path) == "fixture:llama_server"
    assert unit_of("tests/test_server.py::test_b", tmp_path) == "tests/test_server.py::test_b"
    # a fixture of the file asks for the server: every test of the file goes with it
    assert unit_of("tests/test_wrapped.py::test_a", tmp_path) == "fixture:llama_server"
    assert unit_of("tests/test_wrapped.py::test_b", tmp_path) == "fixture:llama_server"
    assert unit_of("tests/test_broken.py::test_a", tmp_path) == "tests/test_broken.py::test_a"
    assert unit_of("tests/test_gone.py::test_a", tmp_path) == "tests/test_gone.py::test_a"


@pytest.mark.parametrize("nodeid, slow", [
    ("tests/test_help_examples.py::test_help_example_runs[icat[4]]", True),  # @pytest.mark.slow on the function
    ("tests/test_nugget_create_llama.py::test_create_through_a_real_server_validates_is_accounted_for_and_resumes",
     True),  # pytestmark = [pytest.mark.llm, pytest.mark.slow]
    ("tests/test_help_examples.py::test_every_command_has_a_worked_example", False),  # the same file, not marked
    ("tests/test_judge_llm_replicates.py::test_sampling_options_are_sent_and_are_the_identity", False),  # llm only
])
def test_slow_marks_of_the_real_suite(nodeid, slow):
    assert is_slow(nodeid, REPO) == slow


def test_slow_marks_of_made_up_files(tmp_path):
    (tmp_path / "test_a.py").write_text("import pytest\n\n\n@pytest.mark.slow\ndef test_s():\n    pass\n\n\n"
                                        "class TestC:\n    @pytest.mark.slow\n    def test_m(self):\n        pass\n\n"
                                        "    def test_q(self):\n        pass\n\n\n"
                                        "@pytest.mark.parametrize('x', [1])\ndef test_p(x):\n    pass\n")
    (tmp_path / "test_b.py").write_text("import pytest\n\npytestmark = (pytest.mark.slow,)\n\n\ndef test_t():\n    pass\n")
    (tmp_path / "test_broken.py").write_text("def test_a(:\n")
    assert is_slow("test_a.py::test_s", tmp_path) and is_slow("test_a.py::TestC::test_m", tmp_path)
    assert not is_slow("test_a.py::TestC::test_q", tmp_path) and not is_slow("test_a.py::test_p[1]", tmp_path)
    assert is_slow("test_b.py::test_t", tmp_path)
    assert not is_slow("test_broken.py::test_a", tmp_path) and not is_slow("test_gone.py::test_a", tmp_path)


def test_ranx_then_shared_setups_then_slow_single_tests_then_the_rest():
    # xdist's order: most tests first, then collection order
    units = {"tests/test_r.py": {"tests/test_r.py::a": False, "tests/test_r.py::b": False, "tests/test_r.py::c": False},
             "ranx": {"tests/test_pool.py::test_ranx": False, "tests/test_x.py::test_ranx": False},
             "fixture:llama_server": {"tests/test_l.py::a": False, "tests/test_l.py::b": False},
             "tests/test_a.py::quick": {"tests/test_a.py::quick": False},
             "tests/test_h.py::slow[1]": {"tests/test_h.py::slow[1]": False},
             "tests/test_w.py::quick": {"tests/test_w.py::quick": False},
             "tests/test_z.py::slow": {"tests/test_z.py::slow": False}}
    order = hand_out_order(units, lambda nodeid: "slow" in nodeid)
    assert order == ["ranx", "tests/test_r.py", "fixture:llama_server", "tests/test_h.py::slow[1]",
                     "tests/test_z.py::slow", "tests/test_a.py::quick", "tests/test_w.py::quick"]
