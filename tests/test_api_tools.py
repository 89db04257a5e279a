"""The organizer tools' Python API (``api.pool``/``write_pool``, ``api.validate``, ``api.convert``): what the
``pool``, ``validate`` and ``convert`` commands do, called without click, on hand-made files with known answers."""
from __future__ import annotations

import pytest

from argue_eval import api
from argue_eval.errors import ArgueError, OptionError
from argue_eval.formats import read_reports


def test_pool_and_write_pool_give_the_depth_pool_and_its_tables(tmp_path, fixtures):
    folder = fixtures / "organizer"
    result = api.pool([folder / "pool.B.trec", folder / "pool.A.trec", folder / "pool.C.trec"], depth=2)
    # As test_pool.test_depth_pool works it out: depth 2 of topic 10 is A {a1, x}, B {x, b1}, C {c1, a1}, ordered
    # by best rank then id (a1, c1, x, then b1); topic 2 (first in natural order): A's a3, C's c3.
    assert result.pool.topics == {"2": ["a3", "c3"], "10": ["a1", "c1", "x", "b1"]}
    assert result.requests is None
    out = tmp_path / "pool.qrels"
    assert api.write_pool(result, out) == 6
    assert out.read_text().splitlines() == ["2 0 a3 -1", "2 0 c3 -1", "10 0 a1 -1", "10 0 c1 -1", "10 0 x -1",
                                            "10 0 b1 -1"]
    assert (tmp_path / "pool.qrels.sizes.tsv").read_text().splitlines() == ["request_id\tdocuments", "2\t2", "10\t4",
                                                                            "all\t6"]
    assert (tmp_path / "pool.qrels.runs.tsv").is_file()


def test_pool_refuses_no_runs_and_meaningless_options_before_reading(tmp_path):
    with pytest.raises(ArgueError, match="no runs given"):
        api.pool([])
    with pytest.raises(OptionError, match="does not apply to depth pooling"):  # the file is never opened
        api.pool([tmp_path / "absent.trec"], budget=5)


def test_validate_takes_the_severity_of_a_check_by_name(repo):
    runs = [str(repo / "runs" / "sample" / "misses-topics.jsonl")]
    requests = repo / "topics" / "sample" / "requests.jsonl"
    # misses-topics has no report for s03, s05 and s08 (validate on the sample says so): three missing-topic
    # problems, errors by default, warnings when the severity names the check (--warn).
    as_errors = api.validate(runs, requests)
    assert [(p.severity, p.field) for p in as_errors.problems if "has no report" in p.message] == [("error", None)] * 3
    as_warnings = api.validate(runs, requests, severity={"missing-topic": "warning"})
    assert {p.severity for p in as_warnings.problems if "has no report" in p.message} == {"warning"}
    assert (as_errors.exit_code, as_warnings.exit_code) == (1, 0)
    with pytest.raises(OptionError, match="unknown check"):
        api.validate(runs, requests, severity={"missing-topics": "warning"})


def test_convert_says_what_it_read_and_wrote_and_round_trips(tmp_path, repo):
    run = repo / "runs" / "sample" / "careful.jsonl"
    with pytest.warns(UserWarning, match="no references list"):  # what the ragtime format adds is said, not hidden
        there = api.convert(run, "ragtime", tmp_path / "careful.ragtime.jsonl")
    assert (there.source, there.target, there.written, there.unit) == ("runs, neuclir24", "ragtime", 8, "records")
    back = api.convert(tmp_path / "careful.ragtime.jsonl", "neuclir24", tmp_path / "careful.jsonl")
    assert (back.source, back.target, back.written) == ("runs, ragtime", "neuclir24", 8)
    def sentences(path):
        return [(r.request_id, [(s.text, s.citations) for s in r.sentences]) for r in read_reports(path)]

    assert sentences(tmp_path / "careful.jsonl") == sentences(run)
    with pytest.raises(OptionError, match=r"is a nuggets file; 'rag25' is a requests/runs format \(convert keeps"):
        api.convert(repo / "nuggets" / "sample" / "nuggets.jsonl", "rag25", tmp_path / "x.jsonl")
