"""Formats of other evaluation kits: report_gen_eval requests {request_id (a number), request}, CRUX {id, request},
TREC Web Track XML topics (subtopics become aspects), LANCER sub-questions. Fixtures are small hand-made files in
tests/fixtures/requests/ and nuggets_more/ shaped like the real ones."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.errors import InputError
from argue_eval.formats import read_requests, resolve


def test_report_gen_eval_requests(fixtures):
    path = fixtures / "requests" / "report-gen-eval.requests.jsonl"
    assert resolve(path, "requests", None).name == "report-gen-eval"
    requests = list(read_requests(path))
    assert [r.request_id for r in requests] == ["7", "8"]  # numeric ids become strings
    assert requests[0].problem_statement.startswith("I am a film reporter.") and requests[0].title == ""


def test_crux_requests(fixtures):
    path = fixtures / "requests" / "crux.requests.jsonl"
    assert resolve(path, "requests", None).name == "crux"
    assert [(r.request_id, r.problem_statement[:13]) for r in read_requests(path)] == [("d30001t", "Write a repor"), ("d30002t", "Summarize the")]


def test_web_track_xml_topics_with_subtopics_as_aspects(fixtures):
    path = fixtures / "requests" / "web.topics.xml"
    assert resolve(path, "requests", None).name == "web-xml"
    first, second = read_requests(path)
    assert (first.request_id, first.title, first.problem_statement) == (
        "151", "river flood insurance", "Find information on insurance against river floods.")
    assert first.aspects == ("Who sells flood insurance for homes near rivers?", "Find the national flood insurance program's home page.")
    assert first.extra == {"type": "faceted", "subtopics": [{"number": "1", "type": "inf"}, {"number": "2", "type": "nav"}]}
    assert second.aspects == () and second.problem_statement == "Which films held the box-office record?"


def test_round_trip_through_our_format(fixtures, tmp_path):
    out = tmp_path / "requests.jsonl"
    result = CliRunner().invoke(cli, ["convert", str(fixtures / "requests" / "web.topics.xml"), "--to", "argue", "-o", str(out)])
    assert result.exit_code == 0, result.output
    original, converted = list(read_requests(fixtures / "requests" / "web.topics.xml")), list(read_requests(out))
    assert [(r.request_id, r.title, r.problem_statement, r.aspects, r.extra) for r in converted] == [
        (r.request_id, r.title, r.problem_statement, r.aspects, r.extra) for r in original]


def test_bad_inputs_are_located(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"request_id": 3, "request": 5}\n')
    with pytest.raises(InputError, match="request"):
        list(read_requests(path, "report-gen-eval"))
    xml = tmp_path / "t.xml"
    xml.write_text("<webtrack2012><topic><query>x</query></topic></webtrack2012>")
    with pytest.raises(InputError, match=r"topic\[0\].*number attribute"):
        list(read_requests(xml, "web-xml"))
    xml.write_text("<webtrack2012><topic number='1'><query>x</query>\n</webtrack2012>")
    with pytest.raises(InputError, match="invalid XML") as error:
        list(read_requests(xml, "web-xml"))
    assert error.value.problem.line == 2


def test_lancer_subquestions_are_questions_without_answers(fixtures):
    from argue_eval.formats import read_nuggets

    path = fixtures / "nuggets_more" / "lancer.subquestions.json"
    assert resolve(path, "nuggets", None).name == "lancer"
    first, second = read_nuggets(path)
    assert first.request_id == "151" and second.request_id == "152"
    # The repeated question is kept once; no answers, so every nugget is unbound.
    assert [n.question for n in first.nuggets] == ["Who sells flood insurance for homes near rivers?", "What does flood insurance cost?"]
    assert all(n.answers == [] for n in first.nuggets + second.nuggets)


def test_lancer_bad_question_is_located(tmp_path):
    from argue_eval.formats import read_nuggets

    path = tmp_path / "q.json"
    path.write_text('{"151": ["fine?", 3]}')
    with pytest.raises(InputError, match=r"151\[1\]: expected a string"):
        list(read_nuggets(path, "lancer"))


def test_neuclir24_gold_report_read_as_a_run(fixtures):
    from argue_eval.formats import read_reports

    path = fixtures / "organizer" / "nuggets.neuclir24-sample-eval.jsonl"
    assert resolve(path, None, None).kind == "nuggets"  # without --kind it is the nugget bank
    assert resolve(path, "runs", None).name == "neuclir24-gold"
    (report,) = read_reports(path, None)
    assert (report.run_id, report.request_id, report.collection_ids) == ("gold", "101", ("neuclir/1/zho",))
    assert [(s.text, s.citations) for s in report.sentences] == [
        ("A toxin from an algal bloom contaminated Toledo's water in August 2014.", ("a1f3c2e0-1111-4a2b-9c3d-000000000001",))]


def test_unsegmented_answers_are_split_by_pysbd_and_markers_cite_context_documents(fixtures):
    from argue_eval.formats import read_reports

    path = fixtures / "runs_more" / "answers.text.jsonl"
    assert resolve(path, "runs", None).name == "answer-text"
    first, second = read_reports(path, None)
    # "Dr." "U.S." and "12.5%" do not end sentences (a regex on ". " would split after "Dr." and "U.S.").
    assert [(s.text, s.citations) for s in first.sentences] == [
        ("Dr. Lee said the U.S. program sells flood insurance to homes near rivers.", ("d1",)),
        ("Premiums rose 12.5% in 2024.", ("d2", "d3")),
        ("Nobody disputes that.", ()),
    ]
    assert first.references == ("d1", "d2", "d3") and first.run_id == "plain-rag"
    assert [(s.text, s.citations) for s in second.sentences] == [("Avatar held the record first.", ("x2",))]


def test_out_of_range_citation_marker_is_located(tmp_path):
    from argue_eval.formats import read_reports

    path = tmp_path / "a.jsonl"
    path.write_text('{"id": "1", "answer": "One [1]. Two [4].", "context_doc_ids": ["d1"]}\n')
    with pytest.raises(InputError, match=r"a.jsonl:1: answer: citation marker \[4\] is out of range"):
        list(read_reports(path, None))
