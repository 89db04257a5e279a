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


def test_judge_assignments_labels():
    from argue_eval.measures.nuggetizer import judge_assignments

    nuggets = [("given, attested", "vital", None), ("given, not attested", "okay", None), ("not given", "vital", None),
               ("fact unjudged", "okay", None), ("attestation unknown", "vital", None)]
    found = {0: 0, 1: 1, 2: None, 4: 2}
    attested = {0: True, 1: False, 2: None}
    labels = [a.assignment for a in judge_assignments([], nuggets, found, attested.get)]
    assert labels == ["support", "partial_support", "not_support", None, None]


def test_judged_by_our_backends_on_the_sample_track(tmp_path):
    from pathlib import Path

    repo = Path(__file__).resolve().parent.parent
    out = tmp_path / "n.tsv"
    runs = [str(repo / "runs" / "sample" / f"{name}.jsonl") for name in ("careful", "no-citations")]
    result = CliRunner().invoke(cli, ["nuggetizer", "--run", *runs, "--nuggets", str(repo / "nuggets" / "sample" / "nuggets.jsonl"),
                                      "--collection", str(repo / "topics" / "sample" / "collection.jsonl"),
                                      "-o", str(out), "-q", "--cache", str(tmp_path / "cache.sqlite")])
    assert result.exit_code == 0, result.output
    v = {(r.run_id, r.request_id, r.metric): r.value for r in read_scores(out)}
    # a run without citations can give nuggets (partial support) but never attest them: strict scores are 0
    assert v[("no-citations", "all", "strict_all_macro")] == 0 and v[("no-citations", "all", "all_macro")] > 0
    assert v[("no-citations", "all", "support")] == 0
    assert v[("no-citations", "all", "all_micro")] == pytest.approx(
        0.5 * v[("no-citations", "all", "partial_support")] / v[("no-citations", "all", "nuggets")])
    assert v[("careful", "all", "strict_all_macro")] > 0.8
    assert 0 <= v[("careful", "all", "all_macro")] <= 1


def _summary(tmp_path, *lines):
    path = tmp_path / "B.assignments.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = CliRunner().invoke(cli, ["nuggetizer", str(path), "-o", str(tmp_path / "b.tsv")])
    assert result.exit_code == 0, result.output
    return result.output


def test_summary_says_why_vital_is_undefined(tmp_path):
    # no importance labels at all (as a bank of bare statements): no vital nugget anywhere, so vital and
    # strict_vital have no denominator on either topic; the summary says why and drops their zero columns
    unlabelled = [{"qid": q, "run_id": "B", "nuggets": [{"text": "s1", "assignment": "support"},
                                                        {"text": "s2", "assignment": "not_support"}]} for q in ("q1", "q2")]
    output = _summary(tmp_path, *unlabelled)
    assert "vital and strict_vital are undefined for every answer: the nugget bank has no importance labels" in output
    assert "vital_macro" not in output and "all_macro" in output
    # the table still holds them, as 0 with the flag on both topics (never a silent zero)
    v = {(r.request_id, r.metric): r.value for r in read_scores(tmp_path / "b.tsv")}
    assert v[("all", "vital_macro")] == 0 and v[("all", "vital_undefined")] == 2
    # labelled, but only okay: the same, with the other reason
    okay = [{**line, "nuggets": [{**n, "importance": "okay"} for n in line["nuggets"]]} for line in unlabelled]
    assert "undefined for every answer: no nugget is labelled vital" in _summary(tmp_path, *okay)
    # one topic with a vital nugget, one without: vital is shown, and the note counts the topic without
    mixed = [{**okay[0], "nuggets": [{"text": "s1", "importance": "vital", "assignment": "support"}]}, okay[1]]
    output = _summary(tmp_path, *mixed)
    assert "vital_macro" in output and "undefined on 1 of 2 answer(s)" in output
    # every topic with a vital nugget: no note
    assert "note:" not in _summary(tmp_path, ANSWER_1)
