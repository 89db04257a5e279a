"""Judgment files: canonical JSONL (read, write, round trip, located errors) and Auto-ARGUE judgments."""
from __future__ import annotations

import json

import pytest
from helpers import ARGUE_FIXTURES, AUTOARGUE, DOC1, DOC3, bank

from argue_eval.errors import InputError
from argue_eval.formats import detect, read_judgments
from argue_eval.formats.judgments import iter_autoargue, read_autoargue, read_autoargue_reports, write_argue
from argue_eval.model import Judgment


def test_detects_both_formats():
    assert detect(ARGUE_FIXTURES / "judgments.jsonl", "judgments").name == "argue"
    assert detect(AUTOARGUE, "judgments").name == "autoargue"


def test_autoargue_is_not_mistaken_for_a_run(tmp_path):
    """An Auto-ARGUE line embeds a RAGTIME run line; it must not be read as one (it has report + judgments)."""
    spec = detect(AUTOARGUE)
    assert (spec.kind, spec.name) == ("judgments", "autoargue")


def test_canonical_round_trip(tmp_path):
    original = list(read_judgments(ARGUE_FIXTURES / "judgments.jsonl"))
    assert len(original) == 25
    assert original[0].source.line == 1 and original[0].judge == "human:fixture"
    out = tmp_path / "copy.jsonl"
    assert write_argue(original, out) == 25
    again = list(read_judgments(out))
    assert [j.key for j in again] == [j.key for j in original]
    assert [(j.value, j.judge) for j in again] == [(j.value, j.judge) for j in original]
    # writing again is byte-identical
    out2 = tmp_path / "copy2.jsonl"
    write_argue(again, out2)
    assert out.read_bytes() == out2.read_bytes()


def test_writer_key_order_and_optional_fields(tmp_path):
    judgment = Judgment("attested", "1", "A sentence.", True, "llm:m", doc_id="d", confidence=0.9, rationale="because")
    out = tmp_path / "j.jsonl"
    write_argue([judgment], out)
    obj = json.loads(out.read_text())
    assert list(obj) == ["kind", "request_id", "sentence", "doc_id", "nugget_id", "answer", "run_id",
                         "sentence_index", "value", "judge", "confidence", "rationale"]


@pytest.mark.parametrize(
    ("line", "field", "message"),
    [
        ({"kind": "maybe"}, "kind", "expected one of relevant"),
        ({"kind": "attested", "request_id": "1", "sentence": "s", "value": True, "judge": "j"}, "doc_id", "missing"),
        ({"kind": "answers", "request_id": "1", "sentence": "s", "doc_id": "d", "value": True, "judge": "j"},
         "nugget_id", "missing"),
        ({"kind": "first_instance", "request_id": "1", "sentence": "s", "run_id": "r", "value": True, "judge": "j"},
         "sentence_index", "0-based"),
        ({"kind": "negative", "request_id": "1", "sentence": "s", "value": "yes", "judge": "j"}, "value", "true or false"),
        ({"kind": "negative", "request_id": 7, "sentence": "s", "value": True, "judge": "j"}, "request_id", "string"),
    ],
)
def test_canonical_errors_are_located(tmp_path, line, field, message):
    path = tmp_path / "bad.jsonl"
    good = {"kind": "negative", "request_id": "1", "sentence": "ok", "value": False, "judge": "j"}
    path.write_text(json.dumps(good) + "\n" + json.dumps(line) + "\n")
    with pytest.raises(InputError) as caught:
        list(read_judgments(path, format="argue"))
    assert caught.value.line == 2
    assert caught.value.problem.field == field
    assert message in caught.value.problem.message


def test_autoargue_without_nuggets_gives_matches_only():
    judgments = list(read_judgments(AUTOARGUE))
    kinds = [(j.kind, j.doc_id, j.value, j.judge) for j in judgments]
    assert kinds == [
        ("relevant", DOC1, True, "autoargue:null"),
        ("answers", DOC1, True, "autoargue:from_env"),
        ("attested", DOC1, True, "autoargue:from_env"),
        ("relevant", DOC3, True, "autoargue:null"),
        ("answers", DOC3, True, "autoargue:from_env"),
        ("attested", DOC3, False, "autoargue:from_env"),
    ]
    answers = [j for j in judgments if j.kind == "answers"]
    # without the bank the nugget id is the (normalized) question text
    assert answers[0].nugget_id == "When was Toledo's water contaminated?" and answers[0].answer == "August 2014"
    assert all(j.request_id == "101" and j.source.line == 1 for j in judgments)


def test_autoargue_with_nuggets_adds_the_unmatched_answers_as_no():
    judgments = [j for j in read_autoargue(AUTOARGUE, [bank()]) if j.kind == "answers"]
    # DOC1 attests "August 2014" (matched) and "microcystin" (not); DOC3 attests "2014" (not) and "phosphorus" (matched)
    assert [(j.doc_id, j.nugget_id, j.answer, j.value) for j in judgments] == [
        (DOC1, "5f0c1e", "August 2014", True),
        (DOC1, "77ab90", "microcystin", False),
        (DOC3, "5f0c1e", "2014", False),
        (DOC3, "77ab90", "phosphorus", True),
    ]


def test_autoargue_embedded_report():
    reports = list(read_autoargue_reports(AUTOARGUE))
    assert len(reports) == 1
    report = reports[0]
    assert (report.run_id, report.request_id) == ("team-a-rt1", "101")
    assert [s.citations for s in report.sentences] == [(DOC1,), (DOC3,)]
    assert report.sentences[1].text == "The bloom was fed by phosphorus runoff."


def test_autoargue_errors_are_located(tmp_path):
    obj = json.loads(AUTOARGUE.read_text().splitlines()[0])
    obj["judgments"][1]["judgments"][2]["response"]["is_attested"] = "perhaps"
    path = tmp_path / "bad.judgments.jsonl"
    path.write_text(json.dumps(obj) + "\n")
    with pytest.raises(InputError) as caught:
        list(iter_autoargue(path))
    assert caught.value.line == 1
    assert caught.value.problem.field == "judgments[1].judgments[2].response.is_attested"


def test_autoargue_unknown_judgment_type_is_warned_once(tmp_path):
    obj = json.loads(AUTOARGUE.read_text().splitlines()[0])
    for segment in obj["judgments"]:
        segment["judgments"].append({"judgment_type_id": "SENTENCE_IS_NICE", "response": {}, "evaluator": "x",
                                     "provenance": {"doc_id": DOC1}})
    path = tmp_path / "extra.judgments.jsonl"
    path.write_text(json.dumps(obj) + "\n")
    with pytest.warns(UserWarning, match="SENTENCE_IS_NICE"):
        records = list(iter_autoargue(path))
    assert len(records[0].judgments) == 6


def test_first_line_missing_its_judge_is_a_field_error_not_an_unknown_file(tmp_path):
    """Detection needs only a judgment kind and a request id; the reader then names the missing field."""
    path = tmp_path / "j.jsonl"
    path.write_text(json.dumps({"kind": "attested", "request_id": "1", "sentence": "s", "doc_id": "d", "value": True}) + "\n")
    assert detect(path, "judgments").name == "argue"
    with pytest.raises(InputError) as caught:
        list(read_judgments(path))
    assert str(caught.value) == f"{path}:1: judge: missing required field 'judge' (expected a string)"
