"""``argue-eval inspect`` and the counting rules in ``argue_eval.formats.inventory`` (expected values worked out by hand)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.formats.inventory import (
    summarize,
    summarize_judgments,
    summarize_nuggets,
    summarize_qrels,
    summarize_ranked,
    summarize_reports,
)
from argue_eval.model import Answer, Judgment, Nugget, QrelsRow, RankedRow, Report, Sentence, TopicNuggets

F = Path(__file__).parent / "fixtures" / "formats"


def inspect_json(*args: str) -> dict:
    result = CliRunner().invoke(cli, ["inspect", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_canonical_run_counts():
    out = inspect_json(str(F / "run.argue.jsonl"))
    assert out == {
        "path": str(F / "run.argue.jsonl"), "kind": "runs", "format": "argue",
        "topics": 2,              # 2024-105741, 2024-200
        "reports": 2,
        "sentences": 4,           # 3 + 1
        "citations": 5,           # {#3_2265, d2} + {} + {d2} + {d3, d4}: the repeated #3_2265 counts once
        "run_ids": ["team-b#1"],
        "citation_instances": 6,  # 3 + 0 + 1 + 2
        "cited_sentences": 3,
        "uncited_sentences": 1,
        "sentences_with_scores": 1,
        "cited_documents": 4,     # #3_2265, d2, d3, d4
        "characters": 62,         # 24 ("Ünïcode sentence — café.") + 17 + 7 + 14
    }


def test_neuclir24_edge_run_counts():
    out = inspect_json(str(F / "run.neuclir24.edge.jsonl"))
    assert (out["kind"], out["format"]) == ("runs", "neuclir24")
    assert out["topics"] == 2  # 2024-105741 (two reports) and 0101
    assert out["reports"] == 3
    assert out["sentences"] == 4  # 3 + 1 + 0
    assert out["citations"] == 5  # {doc#1} (cited twice) + {doc#1, doc#2, doc#3} + {} + {doc#2}
    assert out["citation_instances"] == 6  # 2 + 3 + 0 + 1
    assert out["run_ids"] == ["team-c", "team-c-2"]
    assert out["characters"] == 28 + 16 + 0 + 19


def test_rag24_run_counts_use_resolved_ids():
    out = inspect_json(str(F / "run.rag24.jsonl"))
    # [0] -> 1 document; [1, 0] -> 2 documents
    assert (out["sentences"], out["citations"], out["cited_documents"]) == (2, 3, 2)


def test_canonical_nugget_counts():
    out = inspect_json(str(F / "nuggets.argue.jsonl"))
    assert out == {
        "path": str(F / "nuggets.argue.jsonl"), "kind": "nuggets", "format": "argue",
        "topics": 2,
        # topic 1: Q1? (n#1 and n4 share the text: one question), Q2, death, Unanswered; topic 2: Q1?
        "questions": 5,
        # topic 1: Q1:A (n#1 and n4), Q1:B, Q1:C, Q2:X, Q2:Y, death:no; topic 2: Q1:A
        "answers": 7,
        # topic 1: Q1:A:{d1,d2,d5}, Q1:B:d1, Q2:X:d3, Q2:Y:d4 = 6; topic 2: Q1:A:d1 = 1
        "bindings": 7,
        "vital": 2,        # Q1? in both topics (its first label; n4's "okay" does not count)
        "okay": 1,         # Q2
        "unlabelled": 2,   # death, Unanswered
        "and_questions": 1,
        "negative": 1,
        "unbound": 1,      # Unanswered (death is negative)
        "statements": 0,
        "bound_documents": 5,
    }


@pytest.mark.parametrize(
    "name, fmt, questions, answers, bindings, vital, okay",
    [
        # "When...?" x2 merged: answers August 2014 (2 docs) and 2014 (3 docs); nutrient: "phosphorus", no docs
        ("nuggets.report-gen-eval-bank.jsonl", "report-gen-eval", 2, 3, 5, 1, 1),
        # When: August 2014 (2 docs), 2014 (3 docs); ill: "no" (no docs)
        ("nuggets.neuclir24-sample-eval.jsonl", "neuclir24-eval", 2, 3, 5, 0, 0),
        # When: August 2014 (2), 2014 (1); toxin AND: microcystin (1), phosphorus (1)
        ("nuggets.autoargue-v3", "autoargue-v3", 2, 4, 5, 0, 0),
        ("nuggets.ragtime-bank.jsonl", "ragtime-bank", 1, 1, 2, 0, 0),
        # S1 (vital, repeated as okay), S2 (okay) in topic 1; topic 2 has none
        ("nuggets.nuggetizer.edge.jsonl", "nuggetizer", 2, 0, 0, 1, 1),
        # Q?: a {d1, d2}, b {}; Absent?: no {}; Empty?: none
        ("nuggets.neuclir24-eval.edge.jsonl", "neuclir24-eval", 3, 3, 2, 0, 0),
    ],
)
def test_nugget_counts_per_format(name, fmt, questions, answers, bindings, vital, okay):
    out = inspect_json(str(F / name))
    assert out["format"] == fmt
    assert (out["questions"], out["answers"], out["bindings"], out["vital"], out["okay"]) == (
        questions, answers, bindings, vital, okay)


def test_request_counts():
    out = inspect_json(str(F / "requests.argue.jsonl"))
    assert out == {
        "path": str(F / "requests.argue.jsonl"), "kind": "requests", "format": "argue",
        "topics": 2, "requests": 2, "with_limit": 1, "limit_units": {"words": 1}, "with_aspects": 1,
        "collection_ids": ["neuclir/1/zho"],
    }
    assert inspect_json(str(F / "topics.rag24.tsv"))["requests"] == 2


def test_qrels_and_ranked_counts_with_the_real_readers():
    qrels = inspect_json(str(F / "qrels.trec"))
    assert {k: qrels[k] for k in ("kind", "topics", "rows", "relevant", "by_relevance", "per_topic")} == {
        "kind": "qrels", "topics": 1, "rows": 3, "relevant": 2,  # grades 3 and 1 are relevant, 0 is not
        "by_relevance": {"0": 1, "1": 1, "3": 1}, "per_topic": {"101": {"judged": 3, "relevant": 2}},
    }
    ranked = inspect_json(str(F / "run.ranked.trec"))
    assert {k: ranked[k] for k in ("kind", "topics", "rows", "run_ids", "per_topic")} == {
        "kind": "ranked", "topics": 1, "rows": 3, "run_ids": ["bm25"], "per_topic": {"101": 3},
    }


def test_autoargue_judgments_counts_with_the_real_reader():
    out = inspect_json(str(F / "judgments.autoargue.jsonl"))
    # 2 sentences x (relevance, answers-question with one matched answer, attested); one attested is false
    assert (out["kind"], out["format"], out["topics"], out["judgments"]) == ("judgments", "autoargue", 1, 6)
    assert out["by_kind"] == {"relevant": 2, "answers": 2, "attested": 2}
    assert (out["true"], out["false"]) == (5, 1)


# ------------------------------------------------------------------ summarizers on records built here
def test_summarize_reports_from_records():
    reports = (
        Report("r1", "t1", [Sentence("a", ("d1", "d1", "d2")), Sentence("b")]),
        Report("r2", "t1", [Sentence("c", ("d3",), (0.5,))]),
        Report("r2", "t2", []),
    )
    out = summarize_reports(iter(reports))  # a generator: summaries stream
    assert (out["topics"], out["reports"], out["sentences"], out["citations"]) == (2, 3, 3, 3)  # 2 + 0 + 1
    assert (out["citation_instances"], out["run_ids"], out["sentences_with_scores"]) == (4, ["r1", "r2"], 1)


def test_summarize_nuggets_merges_question_text_across_lines_of_one_topic():
    topics = [
        TopicNuggets("t", [Nugget("1", "t", "Q", [Answer("a", ("d1",))], "okay")]),
        TopicNuggets("t", [Nugget("2", "t", "Q", [Answer("a", ("d1", "d2")), Answer("b")], "vital", "AND")]),
        TopicNuggets("u", [Nugget("3", "u", "Q", [], None)]),
    ]
    out = summarize_nuggets(topics)
    # questions: (t, Q), (u, Q); answers: (t,Q,a), (t,Q,b); bindings: (t,Q,a,d1), (t,Q,a,d2)
    assert (out["topics"], out["questions"], out["answers"], out["bindings"]) == (2, 2, 2, 2)
    assert (out["vital"], out["okay"], out["unlabelled"]) == (0, 1, 1)  # (t, Q) keeps its first label
    assert (out["and_questions"], out["unbound"]) == (0, 1)  # first aggregator OR; (u, Q) has no documents


def test_summarize_judgments_from_records():
    judgments = [
        Judgment("relevant", "t1", "s", True, "lexical", doc_id="d"),
        Judgment("attested", "t1", "s", False, "lexical", doc_id="d"),
        Judgment("first_instance", "t2", "s", True, "human:a", run_id="r", sentence_index=0),
        Judgment("relevant", "t2", "s2", True, "human:a", doc_id="d"),
    ]
    out = summarize_judgments(judgments)
    assert out == {
        "topics": 2, "judgments": 4,
        "by_kind": {"relevant": 2, "attested": 1, "first_instance": 1},  # in flowchart order
        "true": 3, "false": 1, "by_judge": {"human:a": 2, "lexical": 2},
    }


def test_summarize_qrels_and_ranked_from_records():
    qrels = summarize_qrels([QrelsRow("2", "a", 0), QrelsRow("1", "a", 2), QrelsRow("1", "b", 1)])
    assert qrels["per_topic"] == {"1": {"judged": 2, "relevant": 2}, "2": {"judged": 1, "relevant": 0}}
    assert (qrels["documents"], qrels["relevant"]) == (2, 2)
    ranked = summarize_ranked([RankedRow("1", "a", 1, 2.0, "x"), RankedRow("1", "b", 2, 1.0, "y"), RankedRow("2", "a", 1, 1.0, "x")])
    assert (ranked["rows"], ranked["topics"], ranked["run_ids"], ranked["documents"]) == (3, 2, ["x", "y"], 2)


# ------------------------------------------------------------------------------------------- CLI
def test_text_output():
    result = CliRunner().invoke(cli, ["inspect", str(F / "run.neuclir24.jsonl")])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"{F / 'run.neuclir24.jsonl'}: runs (neuclir24)"
    assert "  topics                 1" in lines
    assert "  citations              3" in lines
    assert "  run_ids                team-a-run1" in lines


def test_text_output_lists_per_topic_counts():
    result = CliRunner().invoke(cli, ["inspect", str(F / "qrels.trec")])
    assert result.stdout.splitlines()[-2:] == ["  per topic:", "    101  judged=3, relevant=2"]


def test_format_override_and_kind():
    out = inspect_json(str(F / "run.argue.jsonl"), "--format", "neuclir24")
    assert (out["format"], out["citations"]) == ("neuclir24", 5)  # same reader family, same counts
    assert inspect_json(str(F / "topics.rag24.tsv"), "--format", "rag24")["kind"] == "requests"


def test_unknown_file_is_one_line_exit_2(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text('{"hello": "world"}\n')
    result = CliRunner().invoke(cli, ["inspect", str(path)])
    assert result.exit_code == 2
    assert result.stderr.strip().startswith(f"{path}:1: cannot recognize the file as a known format")
    assert "Traceback" not in result.output


def test_wrong_kind_says_what_the_file_looks_like():
    result = CliRunner().invoke(cli, ["inspect", str(F / "nuggets.argue.jsonl"), "--kind", "runs"])
    assert result.exit_code == 2
    assert "it looks like a nuggets file (argue format)" in result.stderr


def test_bad_line_midway_is_located(tmp_path):
    path = tmp_path / "run.jsonl"
    good = (F / "run.neuclir24.jsonl").read_text()
    path.write_text(good + '{"request_id": "2", "run_id": "r", "sentences": [{"text": 1, "citations": []}]}\n')
    result = CliRunner().invoke(cli, ["inspect", str(path)])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"{path}:2: sentences[0].text: expected a string, found a number (1)"


def test_summarize_api_matches_cli():
    assert summarize(F / "run.argue.jsonl") == {**inspect_json(str(F / "run.argue.jsonl")), "path": str(F / "run.argue.jsonl")}


# ------------------------------------------------- counting on real-shaped files (as past tracks wrote them)
def write_jsonl(path: Path, *objs: object) -> Path:
    path.write_text("".join(json.dumps(obj) + "\n" for obj in objs), encoding="utf-8")
    return path


def test_neuclir24_eval_counts_a_question_repeated_with_other_answers_once(tmp_path):
    # The shape of NeuCLIR 2024's published sample (topic 269): a question text listed several times, each
    # time with other answers, and documents shared between answers; plus a negative "no" question.
    d = ["d1", "d2", "d3"]
    path = write_jsonl(tmp_path / "eval.jsonl", {
        "request_id": "269", "collection_ids": ["neuclir/1/zho"], "report": [["Stonehenge.", ["d1"]]],
        "questions": [
            ["Where from?", [["Anatolia", d], ["Modern Turkey", d], ["Anatolia and the Aegean", ["d3"]]]],
            ["Why travel?", [["For religious gatherings", ["x"]], ["Religious purposes", ["y"]]]],
            ["Why travel?", [["For ceremonial parades", ["z"]], ["For religious gatherings", ["x", "z"]]]],
            ["What else?", [["burial mounds", ["x", "z"]]]],
            ["What else?", [["settlements", ["w", "v"]]]],
            ["Evacuated?", [["no", []]]],
        ],
    })
    out = inspect_json(str(path))
    assert out["format"] == "neuclir24-eval"
    assert out["questions"] == 4  # Where from?, Why travel? (x2), What else? (x2), Evacuated?
    # Where from? 3 + Why travel? 3 (religious gatherings twice is one) + What else? 2 + Evacuated? 1
    assert out["answers"] == 9
    # Where from? 3+3+1 = 7; Why travel? gatherings {x, z} 2 + purposes 1 + parades 1 = 4; What else? 2+2 = 4
    assert out["bindings"] == 15
    assert (out["negative"], out["unlabelled"], out["unbound"]) == (1, 4, 0)


def test_report_gen_eval_counts_follow_question_text_not_question_id(tmp_path):
    # As in report_gen_eval banks: importance "NA", the same text under two question ids, an answer repeated
    # within and across items, a leading space kept, an empty answer list, and a question that differs only
    # by a trailing space (a different text, so a different question).
    path = write_jsonl(
        tmp_path / "bank.jsonl",
        {"query_id": "300", "test_collection": "t", "query_text": "q", "info": {"src_lang": "fas"}, "items": [
            {"query_id": "300", "info": {"importance": "NA", "used": False}, "question_id": "300_a",
             "question_text": "How many?", "gold_answers": ["More than 10", "10 years", "10 years"]},
            {"query_id": "300", "info": {"importance": "NA", "used": False}, "question_id": "300_b",
             "question_text": "How many?", "gold_answers": ["10 years", " the Arab"]},
            {"query_id": "300", "info": {"importance": "NA"}, "question_id": "300_c", "question_text": "Empty?",
             "gold_answers": []},
            {"query_id": "300", "info": {"importance": "NA"}, "question_id": "300_d", "question_text": "How many? ",
             "gold_answers": ["x"]}]},
        {"query_id": "317", "items": [
            {"info": {"importance": "vital"}, "question_id": "317_a", "question_text": "Alter ego?", "gold_answers": ["Ziggy"]},
            {"info": {"importance": "okay"}, "question_id": "317_a", "question_text": "Alter ego?", "gold_answers": ["Duke"]},
            {"info": {"importance": "okay"}, "question_id": "317_b", "question_text": "Cited?",
             "gold_answers": [{"answer": "A", "citations": ["d1", "d2", "d1"]}, {"answer": "A", "citations": ["d3"]}]},
            {"info": {"importance": "okay"}, "question_id": "317_c", "question_text": "How many?", "gold_answers": ["10 years"]}]},
    )
    out = inspect_json(str(path))
    assert out["format"] == "report-gen-eval"
    # 300: "How many?", "Empty?", "How many? "; 317: "Alter ego?", "Cited?", "How many?" (another topic)
    assert (out["topics"], out["questions"]) == (2, 6)
    # 300: (How many?, More than 10), (How many?, 10 years), (How many?, " the Arab"), ("How many? ", x);
    # 317: (Alter ego?, Ziggy), (Alter ego?, Duke), (Cited?, A), (How many?, 10 years)
    assert out["answers"] == 8
    assert out["bindings"] == 3  # (Cited?, A) x {d1, d2, d3}
    # vital: Alter ego? (its first label; the repeat's "okay" does not count); okay: Cited?, How many? (317)
    assert (out["vital"], out["okay"], out["unlabelled"]) == (1, 2, 3)


def test_nuggetizer_failed_importance_is_unlabelled(tmp_path):
    # nuggetizer writes importance "failed" when its scorer could not grade a nugget.
    path = write_jsonl(
        tmp_path / "nuggets.jsonl",
        {"query": "q", "qid": "2024-101", "nuggets": [
            {"text": "A", "importance": "vital"}, {"text": "B", "importance": "failed"},
            {"text": "A", "importance": "okay", "assignment": "support"}]},
        {"query": "q", "qid": "2024-102", "nuggets": []},
    )
    out = inspect_json(str(path))
    assert (out["format"], out["topics"], out["questions"], out["answers"]) == ("nuggetizer", 2, 2, 0)  # A, B
    assert (out["vital"], out["okay"], out["unlabelled"], out["statements"]) == (1, 0, 1, 2)


def test_a_document_pool_json_is_not_called_a_lancer_nugget_file(tmp_path):
    """{topic: [doc_id, ...]} has LANCER's shape, but document ids hold no spaces: it is named as a pool, not
    read as 91 questions without answers (as it was)."""
    path = tmp_path / "pool.json"
    path.write_text(json.dumps({"s01": ["nw-0001", "nw-0013"], "s02": ["nw-0014"]}), encoding="utf-8")
    result = CliRunner().invoke(cli, ["inspect", str(path)])
    assert result.exit_code == 2
    assert "it looks like a document pool {topic: [doc_id, ...]}" in result.stderr
    questions = tmp_path / "questions.json"
    questions.write_text(json.dumps({"s01": ["What happened?"]}), encoding="utf-8")
    assert inspect_json(str(questions))["format"] == "lancer"


def test_score_tables_are_recognized_ours_and_auto_argues(tmp_path):
    """Our long TSV (counts as integers, `all` rows last) and Auto-ARGUE's score TSV (the same header, `all` rows
    first, floats such as 263.0: `score --table-format autoargue`)."""
    ours = tmp_path / "scores.tsv"
    ours.write_text("run_id\trequest_id\tmetric\tvalue\nr1\ts01\tsentences\t7\nr1\ts02\tsentences\t5\n"
                    "r2\ts01\tsentences\t3\nr1\tall\tf1_macro\t0.5\n", encoding="utf-8")
    auto = tmp_path / "run.scores.tsv"
    auto.write_text("run_id\trequest_id\tmetric\tvalue\nexample-run-id\tall\tsentences\t263.0\n"
                    "example-run-id\tall\tf1_micro\t0.82\nexample-run-id\t300\tsentences\t15.0\n"
                    "example-run-id\t300\tf1\t0.73\n", encoding="utf-8")
    assert inspect_json(str(ours)) == {
        "path": str(ours), "kind": "scores", "format": "argue", "topics": 2, "runs": 2, "run_ids": ["r1", "r2"],
        "metrics": 2, "rows": 4, "aggregate_rows": 1}  # metrics: sentences, f1_macro
    assert inspect_json(str(auto)) == {
        "path": str(auto), "kind": "scores", "format": "autoargue", "topics": 1, "runs": 1,
        "run_ids": ["example-run-id"], "metrics": 3, "rows": 4, "aggregate_rows": 2}  # sentences, f1_micro, f1
    trec_eval = tmp_path / "bm25.trec_eval"
    trec_eval.write_text("P_10\ts01\t0.5\nP_10\tall\t0.5\nrunid\tall\tbm25\n", encoding="utf-8")
    assert (inspect_json(str(trec_eval))["format"], inspect_json(str(trec_eval))["run_ids"]) == ("trec_eval", ["bm25"])


def test_a_jsonl_document_collection_is_recognized_and_counted(tmp_path):
    """Three documents, one id twice, one title: 3 documents, 2 distinct ids, 1 with a title, 3 + 5 + 2 = 10
    characters of text; the fields are the ones the lookups use (``id``/``contents`` here)."""
    path = tmp_path / "docs.jsonl"
    path.write_text('{"doc_id": "d1", "title": "A", "text": "abc"}\n{"doc_id": "d2", "text": "hello"}\n\n'
                    '{"doc_id": "d1", "title": "", "text": "xy"}\n', encoding="utf-8")
    assert inspect_json(str(path)) == {"path": str(path), "kind": "collection", "format": "jsonl", "documents": 3,
                                       "distinct_ids": 2, "with_title": 1, "characters": 10, "id_field": "doc_id",
                                       "text_field": "text"}
    other = tmp_path / "other.jsonl"
    other.write_text('{"id": 7, "contents": "naïve"}\n', encoding="utf-8")
    summary = inspect_json(str(other))
    assert (summary["id_field"], summary["text_field"], summary["characters"]) == ("id", "contents", 5)
    text = CliRunner().invoke(cli, ["inspect", str(path)]).stdout
    assert text.splitlines()[:2] == [f"{path}: collection (jsonl)", "  documents     3"]


def test_a_collection_with_a_line_that_is_no_document_is_a_located_error(tmp_path):
    path = tmp_path / "docs.jsonl"
    path.write_text('{"doc_id": "d1", "text": "abc"}\n{"doc_id": "d2", "text": "x"}\n{"doc_id": "d3"}\n',
                    encoding="utf-8")
    result = CliRunner().invoke(cli, ["inspect", str(path)])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"{path}:3: doc_id: not a document: expected a JSON object with 'doc_id' and a text 'text'"
    path.write_text('{"title": "no id", "text": "abc"}\n', encoding="utf-8")  # not a collection: the detection error
    result = CliRunner().invoke(cli, ["inspect", str(path)])
    assert result.exit_code == 2 and "cannot recognize the file as a known format" in result.stderr
