"""Which topics the alternate measures evaluate (docs/scoring.md, "Which topics count", applied to ICAT,
LongRecall and comprehensiveness): a topic with nothing to measure against -- no aspects, no reference facts,
no context statements -- is not evaluated and is named once, never averaged in as 0.

The toy (offline lexical judge): topic t1 has two nuggets (E. coli, bound to d1; 37, bound to d2); t3 has only
a negative nugget (no answer a sentence can state, no aspect); the requests list t1 and t2, which has no
nuggets. The run has a report on each of t1, t2 and t3.
"""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.formats.scores import read_scores


def write(path, records):
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return str(path)


@pytest.fixture
def toy(tmp_path):
    def report(topic, *texts):
        return {"run_id": "r1", "request_id": topic, "sentences": [{"text": t, "citations": []} for t in texts]}

    return {
        "run": write(tmp_path / "run.jsonl", [
            report("t1", "E. coli was found in the tap water of Ridgefield.", "37 people were admitted to hospital."),
            report("t2", "The dam failed in May."), report("t3", "Nobody resigned.")]),
        "nuggets": write(tmp_path / "nuggets.jsonl", [
            {"request_id": "t1", "nuggets": [
                {"nugget_id": "n1", "question": "What contaminated the water?",
                 "answers": [{"answer": "E. coli", "doc_ids": ["d1"]}]},
                {"nugget_id": "n2", "question": "How many were admitted to hospital?",
                 "answers": [{"answer": "37", "doc_ids": ["d2"]}]}]},
            {"request_id": "t3", "nuggets": [
                {"nugget_id": "n3", "question": "Who resigned?", "negative": True, "answers": [{"answer": "no"}]}]}]),
        "requests": write(tmp_path / "requests.jsonl", [
            {"request_id": "t1", "title": "Ridgefield water", "problem_statement": "What contaminated the water?"},
            {"request_id": "t2", "title": "Aldbrook dam", "problem_statement": "Why did the dam fail?"}]),
        "collection": write(tmp_path / "docs.jsonl", [
            {"doc_id": "d1", "text": "E. coli was found in Ridgefield's tap water."},
            {"doc_id": "d2", "text": "Thirty-seven people were admitted to hospital."}]),
        "out": str(tmp_path / "out.tsv"),
    }


def invoke(toy, *args):
    result = CliRunner().invoke(cli, [*args, "-o", toy["out"], "--no-cache"])
    values = {}
    if result.exit_code == 0:
        values = {(row.request_id, row.metric): row.value for row in read_scores(toy["out"])}
    return result, values


def test_icat_does_not_average_in_a_requested_topic_without_nuggets(toy):
    result, values = invoke(toy, "icat", toy["run"], "--nuggets", toy["nuggets"], "--requests", toy["requests"],
                            "--collection", toy["collection"])
    assert result.exit_code == 0, result.output
    # only t1 is evaluated: its value is the run's mean (before, t2 was scored with no aspects, icat 0, and
    # averaged in: topics 2, icat_macro half of t1's)
    assert values[("all", "topics")] == 1
    assert values[("all", "icat_macro")] == values[("t1", "icat")]
    assert not any(topic == "t2" for topic, _ in values)
    lines = [line for line in result.stderr.splitlines() if "t2" in line]
    assert lines == ["note: 1 topic(s) have no aspects (no nugget, or negative ones only) and are not evaluated "
                     "(not averaged in; their reports are not scored): t2"]
    # t3 has nuggets but is not requested: its report is left out as before
    assert "note: reports on 1 topic(s) without aspects are left out: t3" in result.stderr


def test_icat_without_requests_leaves_out_a_topic_with_only_negative_nuggets(toy):
    result, values = invoke(toy, "icat", toy["run"], "--nuggets", toy["nuggets"], "--collection", toy["collection"])
    assert result.exit_code == 0, result.output
    assert values[("all", "topics")] == 1 and not any(topic == "t3" for topic, _ in values)
    assert "1 topic(s) have no aspects (no nugget, or negative ones only) and are not evaluated" in result.stderr
    assert "reports on 1 topic(s) without aspects are left out: t2" in result.stderr  # t2 is in no input


def test_icat_with_no_topic_having_aspects_is_an_error(toy):
    result, _ = invoke(toy, "icat", toy["run"], "--requests", toy["requests"], "--aspects", "request",
                       "--alignment", "judge", "--collection", toy["collection"])
    assert result.exit_code == 2
    assert "--requests: none of the 2 topic(s) to evaluate has an aspect: t1, t2" in result.output


def test_longrecall_does_not_average_in_a_topic_without_facts(toy):
    result, values = invoke(toy, "longrecall", toy["run"], "--nuggets", toy["nuggets"], "--semantic", "off")
    assert result.exit_code == 0, result.output
    # t3's only nugget is negative: no fact; before, it was scored with 0 facts (longrecall undefined, 0)
    assert values[("all", "topics")] == 1 and values[("t1", "facts")] == 2
    assert values[("all", "longrecall_macro")] == values[("t1", "longrecall")]
    assert ("note: 1 topic(s) have no reference facts (negative or unanswered nuggets only) and are not evaluated "
            "(not averaged in; their reports are not scored): t3") in result.stderr


def test_comprehensiveness_does_not_average_in_a_topic_without_context(toy):
    pytest.importorskip("networkx")
    result, values = invoke(toy, "comprehensiveness", toy["run"], "--nuggets", toy["nuggets"])
    assert result.exit_code == 0, result.output
    assert values[("all", "topics")] == 1 and values[("t1", "context_atoms")] == 2
    assert values[("all", "comprehensiveness_macro")] == values[("t1", "comprehensiveness")]
    assert "1 topic(s) have no context statements and are not evaluated" in result.stderr
