"""Nugget-bank tools: validate (located problems), stats, merge (conflicts), bind (assessor bindings)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.errors import InputError
from argue_eval.formats import read_nuggets
from argue_eval.model import Answer, Nugget, TopicNuggets
from argue_eval.organizer.nugget_tools import (
    bind,
    key_text,
    merge_banks,
    read_bindings,
    read_topics_collecting,
    topic_stats,
    validate_topics,
)


@pytest.fixture
def collection(tmp_path, fixtures):
    """The fixture collection copied out of the repository (the JSONL store writes its index beside it)."""
    target = tmp_path / "collection.jsonl"
    shutil.copy(fixtures / "organizer" / "collection.jsonl", target)
    return target


def test_validate_reports_every_problem_located(fixtures, collection):
    from argue_eval.collection import open_collection

    path = fixtures / "organizer" / "nuggets.problems.jsonl"
    topics, problems = read_topics_collecting(path)
    with open_collection(collection) as store:
        problems += validate_topics(topics, str(path), store, ["s01", "s03"])
    text = [str(p).replace(str(path), "F") for p in problems]
    assert text == [
        "F:2: nuggets[1].importance: expected importance 'vital', 'okay' or null/'NA', found a string ('high')",
        "F:1: nuggets[0].answers[0].doc_ids: nugget 'n1', answer 'May 2019': document 'ghost-doc' is not in the collection",
        "F:1: nuggets[0].answers[1].answer: warning: nugget 'n1' repeats answer 'may 2019' (answers[0])",
        "F:1: nuggets[1].question: warning: nugget 'n2' repeats the question of nugget 'n1'",
        # a topic outside the requests is never scored (a run is evaluated on the judged topics within them)
        "F:2: request_id: warning: topic 's02' is not one of the requests; it is never scored",
        "F:2: nuggets[0].question: nugget 'n1' has an empty question",
        "F:2: nuggets[1].nugget_id: nugget 'n1' repeats the id of nuggets[0]",
        # a question without answers is an unbound question: scored by a rule (dropped), so a warning
        "F:2: nuggets[1].answers: warning: nugget 'n1' has no answers: the scorer drops it "
        "(--unbound-questions negative counts it as a negative nugget)",
        "F:3: request_id: topic 's01' appears again (first on line 1)",
        # s01: n1 vital, n2 okay, n3 none; s02: n1 none, n2 'high' (a schema error, read as none)
        "F:1: warning: topic 's01': 1 of 3 nuggets have no importance (weighted like okay, 1)",
        "F:2: warning: topic 's02': 2 of 2 nuggets have no importance (weighted like okay, 1)",
        "F: warning: request 's03' has no nuggets; it is not evaluated",
    ]
    # The negative nugget n3 ("no", no documents) is fine: negative nuggets record an absence.
    assert not any("n3" in line for line in text)


def test_unbound_question_of_a_positive_nugget_is_one_warning(fixtures):
    # s02's n1 has one answer and it is bound to no document: the question is unbound (dropped by the scorer,
    # as Auto-ARGUE drops it), one warning at the nugget, not an error per answer; s01's n3 has no importance.
    topics = list(read_nuggets(fixtures / "organizer" / "nuggets.argue.jsonl"))
    problems = validate_topics(topics, "F")
    assert [(str(p).split(": ", 1)[1], p.severity) for p in problems] == [
        ("nuggets[0]: warning: nugget 'n1' has no answer bound to a document: the scorer drops it "
         "(--unbound-questions negative counts it as a negative nugget)", "warning"),
        ("warning: topic 's01': 1 of 4 nuggets have no importance (weighted like okay, 1)", "warning"),
    ]


def test_unbound_answer_beside_bound_ones_is_a_warning(tmp_path):
    # Shaped like ARGUE-Viz's NuggetBank v3 files: no importance anywhere, an OR question with one bound and
    # one unbound answer ("Economic " in topic 300), an AND question whose second answer is unbound.
    bank = tmp_path / "nuggets_300.v3.json"
    bank.write_text(json.dumps({"query_id": "300", "format_version": "v3", "nugget_bank": {
        "What causes it?": {"question": "What causes it?", "question_id": "q1", "aggregator_type": "OR", "answers": {
            "Domestic violence": {"answer": "Domestic violence", "references": [{"doc_id": "d1"}]},
            "Economic ": {"answer": "Economic ", "references": []}}},
        "Which two?": {"question": "Which two?", "question_id": "q2", "aggregator_type": "AND", "answers": {
            "A": {"answer": "A", "references": [{"doc_id": "d2"}]}, "B": {"answer": "B", "references": []}}},
        "Never answered?": {"question": "Never answered?", "question_id": "q3", "aggregator_type": "OR", "answers": {
            "X": {"answer": "X", "references": []}}},
    }}))
    result = CliRunner().invoke(cli, ["nuggets", "validate", str(bank)])
    assert result.exit_code == 0, result.output  # warnings only
    lines = [line.replace(str(bank), "F") for line in result.output.splitlines()]
    assert lines == [
        "F: nugget_bank['What causes it?'].answers['Economic '].references: warning: nugget 'q1', answer 'Economic ' "
        "is bound to no document: no citation can find it (the nugget's bound answers count)",
        "F: nugget_bank['Which two?'].answers['B'].references: warning: nugget 'q2', answer 'B' is bound to no "
        "document: no citation can find it (the nugget's bound answers count)",
        "F: nugget_bank['Never answered?']: warning: nugget 'q3' has no answer bound to a document: the scorer "
        "drops it (--unbound-questions negative counts it as a negative nugget)",
        # no nugget has an importance: every one weighs 1, nothing to flag (ARGUE-Viz's banks are so)
        "F: 1 topics, 3 nuggets, 0 errors, 3 warnings",
    ]
    strict = CliRunner().invoke(cli, ["nuggets", "validate", "--strict", str(bank)])
    assert strict.exit_code == 1  # --strict: every warning is an error
    assert strict.output.splitlines()[-1] == f"{bank}: 1 topics, 3 nuggets, 3 errors, 0 warnings"
    assert "warning:" not in strict.output


def test_validate_command_exit_codes(fixtures, collection):
    bad = CliRunner().invoke(cli, ["nuggets", "validate", str(fixtures / "organizer" / "nuggets.problems.jsonl"),
                                   "--collection", str(collection)])
    assert bad.exit_code == 1
    assert "document 'ghost-doc' is not in the collection" in bad.output
    # errors: 'high', ghost-doc, the empty question, the repeated id n1, s01 again; warnings: the repeated answer
    # and question, s02's unanswered question, missing importance in s01 and s02
    assert "3 topics, 5 nuggets, 5 errors, 5 warnings" in bad.output
    good = CliRunner().invoke(cli, ["nuggets", "validate", str(fixtures / "organizer" / "nuggets.neuclir24-sample-eval.jsonl")])
    assert good.exit_code == 0, good.output
    assert "1 topics, 2 nuggets, 0 errors, 0 warnings" in good.output


def test_stats_counts(fixtures):
    rows = topic_stats(read_nuggets(fixtures / "organizer" / "nuggets.argue.jsonl"))
    # s01: 4 questions; answers 2+1+1+1 = 5; bindings 2+1+2+1+0 = 6; documents d1 d2 d3 = 3;
    # vital n1, okay n2 n4, unlabelled n3; negative n4; unbound: n4 only; 5/4 = 1.25 answers per question,
    # 6/5 = 1.2 documents per answer.  s02: one vital question, its answer unbound.
    assert rows[0] == ["s01", 4, 5, 6, 3, 1, 2, 1, 1, 1, 1.25, 1.2]
    assert rows[1] == ["s02", 1, 1, 0, 0, 1, 0, 0, 0, 1, 1.0, 0.0]
    assert rows[2] == ["all", 5, 6, 6, 3, 2, 2, 1, 1, 2, 1.2, 1.0]


def test_stats_command_prints_tsv(fixtures):
    result = CliRunner().invoke(cli, ["nuggets", "stats", str(fixtures / "organizer" / "nuggets.argue.jsonl")])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].split("\t")[:4] == ["request_id", "questions", "answers", "bindings"]
    assert lines[-1].startswith("all\t5\t6\t6\t3")


def _topic(request_id, *nuggets):
    return TopicNuggets(request_id, list(nuggets))


def test_merge_unions_by_normalized_question_and_reports_conflicts():
    first = [_topic("1",
                    Nugget("a", "1", "When did it start?", [Answer("May 2019", ("d1",))], "vital"),
                    Nugget("b", "1", "Where?", [Answer("Lyon", ("d2",))], None, "OR"))]
    second = [
        _topic("1",
               Nugget("x", "1", "when did it start", [Answer("may 2019", ("d3", "d1")), Answer("2019", ("d4",))], "okay"),
               Nugget("y", "1", "WHERE", [Answer("Lyon", ())], "okay", "AND"),
               Nugget("a", "1", "Who?", [Answer("the ministry", ("d5",))], "vital")),
        _topic("2", Nugget("z", "2", "How many?", [Answer("12", ("d9",))])),
    ]
    report = merge_banks(first, second)
    one, two = report.topics
    when, where, who = one.nuggets
    assert (when.nugget_id, when.importance) == ("a", "vital")  # first bank's label kept
    assert [(a.text, a.doc_ids) for a in when.answers] == [("May 2019", ("d1", "d3")), ("2019", ("d4",))]
    assert (where.importance, where.aggregator) == ("okay", "OR")  # unlabelled takes the other's label
    assert who.nugget_id == "a-2" and who.question == "Who?"
    assert two.request_id == "2" and two.nuggets[0].nugget_id == "z"
    assert report.conflicts == [
        "topic 1, question 'when did it start': importance vital vs okay (kept vital)",
        "topic 1, question 'WHERE': aggregator OR vs AND (kept OR)",
    ]
    assert report.renamed == ["topic 1, question 'Who?': id 'a' is taken in the first bank; renamed 'a-2'"]
    assert first[0].nuggets[0].answers[0].doc_ids == ("d1",)  # inputs are not modified


def test_merge_command_writes_canonical_bank(tmp_path, fixtures):
    out = tmp_path / "merged.jsonl"
    folder = fixtures / "organizer"
    result = CliRunner().invoke(cli, ["nuggets", "merge", str(folder / "nuggets.argue.jsonl"),
                                      str(folder / "nuggets.neuclir24-sample-eval.jsonl"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert [orjson.loads(line)["request_id"] for line in out.read_text().splitlines()] == ["s01", "s02", "101"]


def test_bind_adds_bindings_by_id_or_question(fixtures):
    topics = list(read_nuggets(fixtures / "organizer" / "nuggets.argue.jsonl"))
    path = fixtures / "organizer" / "bindings.csv"
    report = bind(topics, read_bindings(path), str(path))
    n1, n2, n3, _ = report.topics[0].nuggets
    assert n1.answers[0].doc_ids == ("d1", "d2", "d9")  # by nugget id
    assert n2.answers[0].doc_ids == ("d2", "d3")  # by question text; d2 was already bound
    assert [(a.text, a.doc_ids) for a in n3.answers] == [("Lyon", ("d3",)), ("Lyon city", ("d8",))]
    assert report.added == 2  # d9 and d8 (d2 was there)
    assert report.new_answers == ["topic s01, nugget n3: new answer 'Lyon city'"]
    with pytest.raises(InputError) as caught:
        bind(topics, read_bindings(path), str(path), allow_new_answers=False)
    assert str(caught.value) == f"{path}:4: answer: nugget 'n3' has no answer 'Lyon city'"


def test_bind_unknown_nugget_is_located(tmp_path, fixtures):
    path = tmp_path / "b.jsonl"
    path.write_text('{"request_id": "s01", "nugget_id": "n99", "answer": "x", "doc_ids": ["d1"]}\n')
    topics = list(read_nuggets(fixtures / "organizer" / "nuggets.argue.jsonl"))
    with pytest.raises(InputError) as caught:
        bind(topics, read_bindings(path), str(path))
    assert str(caught.value) == f"{path}:1: nugget_id: topic 's01' has no nugget 'n99' (by id or question)"


@pytest.mark.parametrize("text, field, message", [
    ('{"request_id": "s01", "nugget_id": "n1", "answer": "x", "doc_id": "d\\u001b1"}\n', "doc_id",
     "id contains the control character U+001B; ids must be printable text"),
    ('{"request_id": "s01", "nugget_id": "n1", "answer": "x", "doc_ids": ["d1", "d\\u00002"]}\n', "doc_ids[1]",
     "id contains the control character U+0000; ids must be printable text"),
    ("", None, "no bindings: the file is empty (expected one {request_id, nugget_id, answer, doc_id} per line)"),
])
def test_bind_refuses_control_characters_in_ids_and_an_empty_file(tmp_path, fixtures, text, field, message):
    path = tmp_path / "b.jsonl"
    path.write_text(text)
    result = CliRunner().invoke(cli, ["nuggets", "bind", str(fixtures / "organizer" / "nuggets.argue.jsonl"), str(path),
                                      "-o", str(tmp_path / "bound.jsonl")])
    assert result.exit_code == 2
    where = f"{path}:1: {field}: " if field else f"{path}: "
    assert result.output.strip() == where + message
    assert not (tmp_path / "bound.jsonl").exists()


def test_bind_command_round_trips(tmp_path, fixtures):
    out = tmp_path / "bound.jsonl"
    folder = fixtures / "organizer"
    result = CliRunner().invoke(cli, ["nuggets", "bind", str(folder / "nuggets.argue.jsonl"), str(folder / "bindings.csv"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "added 2 bindings (1 new answers)" in result.output
    bound = list(read_nuggets(out))
    assert bound[0].nuggets[0].answers[0].doc_ids == ("d1", "d2", "d9")


def test_key_text():
    assert key_text("  When did it START? ") == key_text("when did it start") == "when did it start"


def test_a_v3_bank_is_validated_file_by_file(tmp_path):
    """One broken topic file (bad JSON) and one with a schema error do not hide the other topics' problems
    (the directory used to stop at the first file's error, reporting nothing else)."""
    good = {"query_id": "300", "format_version": "v3", "nugget_bank": {
        "Q?": {"question": "Q?", "question_id": "q1", "aggregator_type": "OR",
               "answers": {"A": {"answer": "A", "references": [{"doc_id": "d1"}]}, "B": {"answer": "B", "references": []}}}}}
    (tmp_path / "nuggets_300.v3.json").write_text(json.dumps(good), encoding="utf-8")
    (tmp_path / "nuggets_301.v3.json").write_text("{not json", encoding="utf-8")
    wrong = dict(good, query_id="302", nugget_bank={"Q?": dict(good["nugget_bank"]["Q?"], aggregator_type="XOR")})
    (tmp_path / "nuggets_302.v3.json").write_text(json.dumps(wrong), encoding="utf-8")
    topics, problems = read_topics_collecting(tmp_path)
    assert [topic.request_id for topic in topics] == ["300", "302"]
    problems += validate_topics(topics, str(tmp_path))
    assert [(Path(p.path).name, p.field, p.severity) for p in problems] == [
        ("nuggets_301.v3.json", None, "error"),  # invalid JSON
        ("nuggets_302.v3.json", "nugget_bank['Q?'].aggregator_type", "error"),
        ("nuggets_300.v3.json", "nugget_bank['Q?'].answers['B'].references", "warning"),  # B is unbound
        ("nuggets_302.v3.json", "nugget_bank['Q?'].answers['B'].references", "warning"),
    ]


def test_validate_says_how_many_items_were_merged_into_nuggets(tmp_path):
    """report_gen_eval items 101_aa01 and 101_aa02 ask the same question: three items, two nuggets, one merged (a
    note, not a problem); our canonical format keeps nuggets as written, so the sample bank has no such note."""
    fixture = Path(__file__).parent / "fixtures" / "formats" / "nuggets.report-gen-eval-bank.jsonl"
    result = CliRunner().invoke(cli, ["nuggets", "validate", str(fixture)])
    assert result.exit_code == 0
    assert ("note: 3 items are 2 nuggets: 1 item(s) repeat a question of an earlier item of their topic and were "
            "merged into its nugget (answers merged, documents unioned; ARGUE scores questions, not items)"
            ) in result.stderr.splitlines()
    document = json.loads(CliRunner().invoke(cli, ["nuggets", "validate", str(fixture), "--json"]).stdout)
    assert document["counts"]["merged_items"] == 1 and document["counts"]["nuggets"] == 2
    sample = Path(__file__).resolve().parent.parent / "nuggets" / "sample" / "nuggets.jsonl"
    result = CliRunner().invoke(cli, ["nuggets", "validate", str(sample)])
    assert result.exit_code == 0 and "merged" not in result.output
