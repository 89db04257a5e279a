"""Nugget readers (six formats) and writers (canonical, Auto-ARGUE NuggetBank v3)."""
from __future__ import annotations

import json
import os
import warnings
from pathlib import Path

import orjson
import pytest

from argue_eval.errors import InputError, Problem
from argue_eval.formats import read_nuggets, write
from argue_eval.formats._fields import LossyWriteWarning
from argue_eval.formats.nuggets import parse_topic
from argue_eval.model import Answer, Nugget, TopicNuggets

F = Path(__file__).parent / "fixtures" / "formats"
T101 = ("a1f3c2e0-1111-4a2b-9c3d-000000000001", "a1f3c2e0-2222-4a2b-9c3d-000000000002",
        "a1f3c2e0-3333-4a2b-9c3d-000000000003")


def topics(name: str, format: str | None = None) -> list[TopicNuggets]:
    return list(read_nuggets(F / name, format))


def by_question(topic: TopicNuggets) -> dict[str, Nugget]:
    return {n.question: n for n in topic.nuggets}


# ---------------------------------------------------------------------------------------------- readers
def test_neuclir24_eval_binds_answers_and_marks_no_answer_negative():
    [topic] = topics("nuggets.neuclir24-sample-eval.jsonl")
    assert topic.request_id == "101"
    when, ill = topic.nuggets
    assert when.nugget_id == when.question == "When was Toledo's water contaminated?"  # no ids: the text is the id
    assert when.answers == [Answer("August 2014", T101[:2]), Answer("2014", T101)]
    assert (when.negative, when.importance, when.aggregator) == (False, None, "OR")
    assert ill.answers == [Answer("no", ())] and ill.negative is True
    assert topic.extra["collection_ids"] == ["neuclir/1/zho"] and len(topic.extra["report"]) == 1


def test_neuclir24_eval_repeated_question_merges_answers():
    [topic] = topics("nuggets.neuclir24-eval.edge.jsonl")
    q = by_question(topic)
    assert list(q) == ["Q?", "Absent?", "Empty?"]
    # "a" seen twice: documents unioned in first-seen order; "b" has no documents but Q? is bound, so not negative
    assert q["Q?"].answers == [Answer("a", ("d1", "d2")), Answer("b", ())]
    assert q["Q?"].negative is False
    assert q["Absent?"].negative is True
    assert q["Empty?"].answers == [] and q["Empty?"].negative is False  # unbound, not negative


def test_report_gen_eval_merges_repeated_question_keeping_first_id():
    [topic] = topics("nuggets.report-gen-eval-bank.jsonl")
    when, nutrient = topic.nuggets
    assert when.nugget_id == "101_aa01"
    assert when.extra["question_ids"] == ["101_aa01", "101_aa02"]
    assert when.importance == "vital"
    assert when.answers == [Answer("August 2014", T101[:2]), Answer("2014", T101)]
    assert nutrient.answers == [Answer("phosphorus", ())]  # string answers have no documents
    assert (nutrient.importance, nutrient.nugget_id) == ("okay", "101_aa03")
    assert topic.extra == {"test_collection": "zho_2024", "query_text": "Regional reporter.\nReport on the causes ...", "hash": 1111}


def test_report_gen_eval_na_importance_is_none(tmp_path):
    line = {"query_id": "5", "items": [
        {"question_id": "5a", "question_text": "Q", "info": {"importance": "NA"}, "gold_answers": ["x"]},
        {"question_id": "5b", "question_text": "Q", "info": {"importance": "okay"}, "gold_answers": [{"answer": "x", "citations": ["d9"]}]},
    ]}
    path = tmp_path / "bank.jsonl"
    path.write_bytes(orjson.dumps(line) + b"\n")
    [topic] = read_nuggets(path)
    [nugget] = topic.nuggets
    # NA on the first item leaves the label open; the repeat supplies "okay"; the two "x" answers merge
    assert (nugget.importance, nugget.answers) == ("okay", [Answer("x", ("d9",))])


def test_autoargue_v3_directory_and_single_file():
    [topic] = topics("nuggets.autoargue-v3")
    assert topic.request_id == "101"
    when, toxin = topic.nuggets
    assert (when.nugget_id, when.aggregator, toxin.nugget_id, toxin.aggregator) == ("5f0c1e", "OR", "77ab90", "AND")
    assert when.answers == [Answer("August 2014", T101[:2]), Answer("2014", T101[2:])]
    assert when.extra["creator"][0]["is_human"] is True
    assert topic.extra["title_query"] == "Lake Erie algal blooms"
    [single] = read_nuggets(F / "nuggets.autoargue-v3" / "nuggets_101.v3.json")
    assert single == topic


def test_autoargue_v3_edges():
    empty, topic = topics("nuggets.autoargue-v3.edge")  # file-name order: nuggets_0102 before nuggets_2024-...
    assert (empty.request_id, empty.nuggets) == ("0102", [])
    who, deaths, where = topic.nuggets
    assert (who.nugget_id, who.importance, who.answers) == ("q#1", "vital", [Answer("Ana", ("d1",))])
    assert deaths.nugget_id == "Any deaths?" and deaths.negative is True and deaths.importance == "okay"
    assert where.answers == [Answer("Lima", ("d2",)), Answer("2019", ("d3",), {"creator": "x"})]
    assert topic.source.path.endswith("nuggets_2024-105741.v3.json") and topic.source.line is None


def test_ragtime_bank():
    [topic] = topics("nuggets.ragtime-bank.jsonl")
    assert topic.request_id == "2101"
    [nugget] = topic.nuggets
    assert nugget.answers == [Answer("August 2014", ("a1f3c2e0-1111-4a2b-9c3d-000000000001_4", "a1f3c2e0-2222-4a2b-9c3d-000000000002_1"))]
    assert topic.extra == {"metadata": {"team_id": "t", "run_id": "nuggets-1"}}


def test_nuggetizer_statements_are_answerless_nuggets():
    [topic] = topics("nuggets.nuggetizer.jsonl")
    assert topic.request_id == "2024-101" and topic.extra == {"query": "how did algae affect toledo drinking water"}
    first, second = topic.nuggets
    assert first == Nugget("Toledo banned tap water in August 2014", "2024-101", "Toledo banned tap water in August 2014",
                           [], "vital", "OR", False, {"statement": True})
    assert second.importance == "okay"
    one, two = topics("nuggets.nuggetizer.edge.jsonl")
    assert [n.question for n in one.nuggets] == ["S1", "S2"]  # repeated S1 merged, its first label kept
    assert one.nuggets[0].importance == "vital" and one.nuggets[1].extra == {"statement": True, "assignment": "support"}
    assert two.nuggets == []


def test_canonical_nuggets_keep_ids_even_for_repeated_text():
    first, second = topics("nuggets.argue.jsonl")
    assert [n.nugget_id for n in first.nuggets] == ["n#1", "n2", "n3", "n4", "n5"]
    n1, n2, n3, n4, n5 = first.nuggets
    assert n1.question == n4.question == "Q1?"
    assert (n2.aggregator, n2.importance, n2.answers[1].extra) == ("AND", "okay", {"note": "from assessor 2"})
    assert (n3.negative, n3.importance, n3.answers) == (True, None, [Answer("no", ())])
    assert n5.extra == {"source": "organizer"} and first.extra == {"title": "topic one"}
    assert second.request_id == "2024-200"


# ---------------------------------------------------------------------------------------------- errors
def write_lines(path: Path, *objs: object) -> Path:
    path.write_bytes(b"".join(orjson.dumps(o) + b"\n" for o in objs))
    return path


@pytest.mark.parametrize(
    "obj, format, field, message",
    [
        ({"request_id": "1", "nuggets": [{"question": "q", "importance": "high"}]}, "argue", "nuggets[0].importance",
         "expected importance 'vital', 'okay' or null/'NA', found a string ('high')"),
        ({"request_id": "1", "nuggets": [{"question": "q", "aggregator": "XOR"}]}, "argue", "nuggets[0].aggregator",
         "expected aggregator 'OR' or 'AND', found a string ('XOR')"),
        ({"request_id": "1", "nuggets": [{"question": "q", "answers": [{"answer": "a", "doc_ids": [1.5]}]}]}, "argue",
         "nuggets[0].answers[0].doc_ids[0]", "expected a string id, found a number (1.5)"),
        ({"request_id": "1", "questions": [["q", [["a", "d1"]]]]}, "neuclir24-eval", "questions[0][1][0][1]",
         "expected a list of document ids, found a string ('d1')"),
        ({"query_id": "1", "items": [{"question_text": "q", "gold_answers": [3]}]}, "report-gen-eval",
         "items[0].gold_answers[0]", "expected an answer string or {answer, citations}, found a number (3)"),
        ({"qid": "1", "nuggets": [{"importance": "vital"}]}, "nuggetizer", "nuggets[0].text",
         "missing required field 'text' (expected a string)"),
        ({"metadata": {}, "nugget_bank": []}, "ragtime-bank", "metadata.topic_id",
         "missing required field 'topic_id' (expected a string id)"),
    ],
)
def test_nugget_errors_are_located(tmp_path, obj, format, field, message):
    path = write_lines(tmp_path / "nuggets.jsonl", obj)
    with pytest.raises(InputError) as err:
        list(read_nuggets(path, format))
    assert str(err.value) == f"{path}:1: {field}: {message}"


def test_v3_error_names_the_file(tmp_path):
    bank = tmp_path / "bank"
    bank.mkdir()
    (bank / "nuggets_1.v3.json").write_text(json.dumps({"query_id": "1", "format_version": "v3", "nugget_bank": {}}))
    (bank / "nuggets_2.v3.json").write_text(json.dumps(
        {"query_id": "2", "format_version": "v3", "nugget_bank": {"q": {"question": "q", "aggregator_type": "MAYBE"}}}, indent=1))
    with pytest.raises(InputError) as err:
        list(read_nuggets(bank))
    assert str(err.value) == f"{bank / 'nuggets_2.v3.json'}: nugget_bank['q'].aggregator_type: expected aggregator 'OR' or 'AND', found a string ('MAYBE')"


def test_parse_topic_lenient():
    problems: list[Problem] = []
    topic = parse_topic({"request_id": "1", "nuggets": [{"question": "q", "importance": "high"}, 5]}, "argue", "n.jsonl", 2, problems)
    assert topic is not None and [n.question for n in topic.nuggets] == ["q"]
    assert [p.field for p in problems] == ["nuggets[0].importance", "nuggets[1]"]


# ---------------------------------------------------------------------------------------------- writers
NUGGET_FIXTURES = [
    "nuggets.argue.jsonl", "nuggets.neuclir24-sample-eval.jsonl", "nuggets.neuclir24-eval.edge.jsonl",
    "nuggets.report-gen-eval-bank.jsonl", "nuggets.autoargue-v3", "nuggets.autoargue-v3.edge",
    "nuggets.ragtime-bank.jsonl", "nuggets.nuggetizer.jsonl", "nuggets.nuggetizer.edge.jsonl",
]


def modelled(topic: TopicNuggets) -> tuple:
    return topic.request_id, topic.nuggets, topic.extra


@pytest.mark.parametrize("name", NUGGET_FIXTURES)
def test_round_trip_through_canonical_is_exact(name, tmp_path):
    original = topics(name)
    out = tmp_path / "nuggets.jsonl"
    assert write(original, out, "argue", "nuggets") == len(original)
    again = list(read_nuggets(out))
    assert [modelled(t) for t in again] == [modelled(t) for t in original]


@pytest.mark.parametrize("name", [n for n in NUGGET_FIXTURES if n != "nuggets.argue.jsonl"])
def test_round_trip_through_v3_keeps_every_modelled_field(name, tmp_path):
    original = topics(name)
    out = tmp_path / "bank"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LossyWriteWarning)  # nuggetizer statements: tested below
        assert write(original, out, "autoargue-v3", "nuggets") == len(original)
    again = {t.request_id: t for t in read_nuggets(out)}
    assert sorted(again) == sorted(t.request_id for t in original)
    for topic in original:
        assert again[topic.request_id].nuggets == topic.nuggets
        # topic-level fields survive; v3 adds its header fields (empty when the source had none)
        assert again[topic.request_id].extra.items() >= topic.extra.items()


def test_v3_writer_output_shape(tmp_path):
    out = tmp_path / "bank"
    write(topics("nuggets.neuclir24-sample-eval.jsonl"), out, "autoargue-v3", "nuggets")
    assert sorted(os.listdir(out)) == ["nuggets_101.v3.json"]
    text = (out / "nuggets_101.v3.json").read_text()
    assert text.startswith("{\n")  # pretty-printed, like Auto-ARGUE's own banks
    data = json.loads(text)
    assert data["format_version"] == "v3" and data["query_id"] == "101"
    ill = data["nugget_bank"]["Does the collection say how many people fell ill?"]
    assert "question_id" not in ill  # the id was the question text: nothing to add
    assert ill["negative"] is True and ill["answers"] == {"no": {"answer": "no", "references": []}}
    when = data["nugget_bank"]["When was Toledo's water contaminated?"]
    assert when["answers"]["August 2014"]["references"] == [{"doc_id": T101[0]}, {"doc_id": T101[1]}]


def test_v3_writer_refuses_two_nuggets_with_one_question_and_leaves_nothing(tmp_path):
    out = tmp_path / "bank"
    with pytest.raises(InputError, match=r"two nuggets share the question 'Q1\?'"):
        write(topics("nuggets.argue.jsonl"), out, "autoargue-v3", "nuggets")
    assert list(tmp_path.iterdir()) == []


def test_v3_writer_replaces_an_existing_bank(tmp_path):
    out = tmp_path / "bank"
    out.mkdir()
    (out / "nuggets_old.v3.json").write_text("{}")
    write(topics("nuggets.ragtime-bank.jsonl"), out, "autoargue-v3", "nuggets")
    assert sorted(os.listdir(out)) == ["nuggets_2101.v3.json"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bank"]


def test_v3_writer_warns_about_statements(tmp_path):
    with pytest.warns(LossyWriteWarning, match="2 statement nuggets"):
        write(topics("nuggets.nuggetizer.jsonl"), tmp_path / "bank", "autoargue-v3", "nuggets")


def test_canonical_writer_field_order(tmp_path):
    out = tmp_path / "n.jsonl"
    write(topics("nuggets.neuclir24-sample-eval.jsonl"), out, "argue", "nuggets")
    line = orjson.loads(out.read_bytes().splitlines()[0])
    assert list(line)[:2] == ["request_id", "nuggets"]
    assert list(line["nuggets"][0]) == ["nugget_id", "question", "importance", "aggregator", "negative", "answers"]
    assert line["nuggets"][1]["answers"] == [{"answer": "no", "doc_ids": []}]
