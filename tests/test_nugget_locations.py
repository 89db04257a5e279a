"""``nuggets validate`` locates problems in the nugget file's own field names, not the model's."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.organizer.nugget_tools import read_topics_collecting, validate_topics


def write(tmp_path: Path, obj: dict, name: str = "bank.jsonl") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(obj) + "\n", encoding="utf-8")
    return path


def located(path: Path, fmt: str | None = None) -> list[tuple[int | None, str | None, str]]:
    topics, problems = read_topics_collecting(path, fmt)
    problems += validate_topics(topics, str(path))
    return [(p.line, p.field, p.severity) for p in problems]


def test_report_gen_eval_problems_name_items_and_gold_answers(tmp_path):
    # items 0 and 1 share a question (one nugget in the model, its answers[1] is items[1].gold_answers[0]);
    # item 2's second answer has no citations; item 3 repeats item 2's answer text
    items = [
        {"question_id": "q1", "question_text": "When?", "info": {"importance": "vital"},
         "gold_answers": [{"answer": "2014", "citations": ["d1"]}]},
        {"question_id": "q1b", "question_text": "When?", "info": {"importance": "vital"},
         "gold_answers": [{"answer": "August 2014", "citations": []}]},
        {"question_id": "q2", "question_text": "What fed it?", "info": {"importance": "okay"},
         "gold_answers": [{"answer": "phosphorus", "citations": ["d2"]}, "nitrogen"]},
        {"question_id": "q3", "question_text": "", "info": {"importance": "okay"},
         "gold_answers": [{"answer": "x", "citations": ["d3"]}]},
    ]
    path = write(tmp_path, {"query_id": "101", "items": items})
    # an answer without documents beside bound ones is a warning (never found through a citation); the empty
    # question is an error
    assert located(path) == [
        (1, "items[1].gold_answers[0].citations", "warning"),
        (1, "items[2].gold_answers[1]", "warning"),
        (1, "items[3].question_text", "error"),
    ]
    result = CliRunner().invoke(cli, ["nuggets", "validate", str(path)])
    assert result.exit_code == 1
    assert (f"{path}:1: items[2].gold_answers[1]: warning: nugget 'q2', answer 'nitrogen' is bound to no document"
            in result.output)


def test_a_repeated_topic_names_the_formats_id_field(tmp_path):
    line = {"query_id": "101", "items": [{"question_id": "q1", "question_text": "When?",
                                          "gold_answers": [{"answer": "2014", "citations": ["d1"]}]}]}
    path = tmp_path / "bank.jsonl"
    path.write_text(json.dumps(line) + "\n" + json.dumps(line) + "\n", encoding="utf-8")
    assert located(path) == [(2, "query_id", "error")]


def test_ragtime_bank_and_neuclir_eval_use_their_own_names(tmp_path):
    ragtime = {"metadata": {"topic_id": "7"}, "nugget_bank": [
        {"question": "Who?", "aggregator_type": "OR", "answers": [{"answer": "Toledo", "references": ["d1"]},
                                                                  {"answer": "Ohio", "references": []}]}]}
    assert located(write(tmp_path, ragtime, "rt.jsonl")) == [(1, "nugget_bank[0].answers[1].references", "warning")]
    # NeuCLIR 2024 evaluation data: a question whose answers all lack documents is negative (no problem); one
    # with an answer without documents next to a bound one is a warning at questions[i][1][j][1]
    neuclir = {"request_id": "101", "questions": [
        ["Who?", [["Toledo", ["d1"]], ["Ohio", []]]],
        ["Fines?", [["none reported", []]]],
    ]}
    assert located(write(tmp_path, neuclir, "ne.jsonl")) == [(1, "questions[0][1][1][1]", "warning")]


def test_canonical_banks_keep_the_canonical_names(tmp_path):
    bank = {"request_id": "101", "nuggets": [
        {"nugget_id": "n1", "question": "Who?", "answers": [{"answer": "Toledo", "doc_ids": []}]}]}
    # its only answer is unbound: one unbound-question warning at the nugget
    assert located(write(tmp_path, bank)) == [(1, "nuggets[0]", "warning")]


def test_nuggets_validate_reads_whole_file_formats_without_a_traceback():
    """LANCER sub-question files are one JSON object, not JSON Lines: validated whole (they used to crash). Their
    questions have no answers yet: warnings (the scorer drops them), so the exit status is 0."""
    path = Path(__file__).resolve().parent / "fixtures" / "nuggets_more" / "lancer.subquestions.json"
    result = CliRunner().invoke(cli, ["nuggets", "validate", str(path)])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert (f"{path}: nuggets[0].answers: warning: nugget 'Which film first held the box-office record?' has no "
            "answers: the scorer drops it") in result.output
