"""nuggetizer scores on a small hand-made assignment file, checked by hand."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.formats.scores import read_scores

ANSWER_1 = {"qid": "q1", "run_id": "A", "query": "q", "answer_text": "...", "nuggets": [
    {"text": "v1", "importance": "vital", "assignment": "support"},
    {"text": "v2", "importance": "vital", "assignment": "partial_support"},
    {"text": "v3", "importance": "vital", "assignment": "not_support"},
    {"text": "o1", "importance": "okay", "assignment": "support"},
    {"text": "o2", "importance": "okay", "assignment": "partial_support"},
    {"text": "o3", "importance": "okay", "assignment": "failed"},
    {"text": "f1", "importance": "failed", "assignment": "support"},
]}
ANSWER_2 = {"qid": "q2", "run_id": "A", "nuggets": [{"text": "x", "importance": "vital", "assignment": "failed"}]}


def run(tmp_path, *lines, extra=()):
    path = tmp_path / "A.assignments.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = tmp_path / "out.tsv"
    result = CliRunner().invoke(cli, ["nuggetizer", str(path), "-o", str(out), "-q",
                                      "--details", str(tmp_path / "d.jsonl"), *extra])
    return result, out


def test_scores_by_hand(tmp_path):
    result, out = run(tmp_path, ANSWER_1, ANSWER_2)
    assert result.exit_code == 0, result.output
    v = {(r.request_id, r.metric): r.value for r in read_scores(out)}
    # judged: v1 v2 v3 o1 o2 f1 (o3 failed); vital: v1 v2 v3; f1 has no importance label: all, weighs as okay
    assert v[("q1", "nuggets")] == 6 and v[("q1", "vital_nuggets")] == 3 and v[("q1", "unjudged_nuggets")] == 1
    assert v[("q1", "vital")] == pytest.approx(1.5 / 3)
    assert v[("q1", "strict_vital")] == pytest.approx(1 / 3)
    assert v[("q1", "all")] == pytest.approx(4 / 6)
    assert v[("q1", "strict_all")] == pytest.approx(3 / 6)
    # weights 1, 1, 1, 0.5, 0.5, 0.5; credits 1, 0.5, 0, 1, 0.5, 1 -> 2.75 / 4.5
    assert v[("q1", "weighted")] == pytest.approx(2.75 / 4.5)
    # q2: its only nugget could not be graded -> no judged nugget: 0 and undefined, never a silent zero
    assert v[("q2", "all")] == 0 and v[("q2", "all_undefined")] == 1 and v[("q2", "vital_undefined")] == 1
    assert v[("all", "all_undefined")] == 1 and v[("all", "all_macro")] == pytest.approx((4 / 6 + 0) / 2)
    assert v[("all", "all_micro")] == pytest.approx(4 / 6)
    details = [json.loads(line) for line in (tmp_path / "d.jsonl").read_text().splitlines()]
    assert details[1]["nuggets"][5] == {"text": "o3", "importance": "okay", "assignment": None, "credit": None,
                                        "unjudged": True}


def test_okay_weight_option(tmp_path):
    result, out = run(tmp_path, ANSWER_1, extra=("--okay-weight", "1"))
    v = {(r.request_id, r.metric): r.value for r in read_scores(out)}
    assert v[("q1", "weighted")] == pytest.approx(4 / 6)  # equal weights: the weighted score is `all`


@pytest.mark.parametrize("line, message", [
    ({"run_id": "A", "nuggets": []}, "qid"),
    ({"qid": "q", "nuggets": [{"text": "t", "importance": "vital", "assignment": "maybe"}]},
     "nuggets[0].assignment: expected one of support, partial_support, not_support"),
    ({"qid": "q", "nuggets": "none"}, "nuggets: expected a list"),
])
def test_bad_lines_are_located_errors(tmp_path, line, message):
    result, out = run(tmp_path, line)
    assert result.exit_code == 2 and "A.assignments.jsonl:1:" in result.output and message in result.output
    assert not out.exists()


def test_run_id_defaults_to_the_file_name_and_duplicates_are_refused(tmp_path):
    no_run = {key: value for key, value in ANSWER_1.items() if key != "run_id"}
    result, out = run(tmp_path, no_run)
    assert {r.run_id for r in read_scores(out)} == {"A"}
    result, _ = run(tmp_path, ANSWER_1, ANSWER_1)
    assert result.exit_code == 2 and "second answer" in result.output
