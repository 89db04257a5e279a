"""report_gen_eval's grading ``nuggets.txt``: detected from content, topics from query_id or the file name, round trip."""
from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.errors import InputError
from argue_eval.formats import read, resolve, write

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "nuggets_more" / "301.nuggets.txt"


def test_the_fixture_is_detected_and_grouped_into_nuggets():
    assert resolve(FIXTURE, "nuggets", None).name == "report-gen-eval-grading"
    spec, topics = read(FIXTURE, "nuggets", None)
    topics = list(topics)
    assert [t.request_id for t in topics] == ["301"]  # from the file name
    nuggets = topics[0].nuggets
    assert [n.question for n in nuggets] == ["When was Toledo's tap water declared unsafe?", "What toxin was found?",
                                             "How many residents were affected?"]
    assert [(a.text, a.doc_ids) for a in nuggets[0].answers] == [
        ("2014", ("nw-0001", "nw-0002")), ("August 2014", ("nw-0002",)), ("August 2, 2014", ("nw-0001", "nw-0004"))]
    assert nuggets[2].answers[0].doc_ids == () and not nuggets[2].bound
    assert all(n.nugget_id == n.question and n.importance is None for n in nuggets)


def test_query_id_on_the_lines_splits_topics_and_a_file_without_one_is_an_error(tmp_path):
    lines = [{"query_id": "7", "question": "Who?", "answer": "Ann", "citations": ["d1"]},
             {"query_id": "8", "question": "Who?", "answer": "Bob", "citations": ["d2"]},
             {"query_id": "7", "question": "Where?", "answer": "Ohio", "citations": []}]
    path = tmp_path / "grading.txt"
    path.write_text("".join(json.dumps(obj) + "\n" for obj in lines), encoding="utf-8")
    topics = list(read(path, "nuggets", None)[1])
    assert [(t.request_id, [n.question for n in t.nuggets]) for t in topics] == [("7", ["Who?", "Where?"]),
                                                                               ("8", ["Who?"])]
    bare = tmp_path / "nuggets.txt"
    bare.write_text(json.dumps({"question": "Who?", "answer": "Ann", "citations": ["d1"]}) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as error:
        list(read(bare, "nuggets", None)[1])
    assert str(error.value).startswith(f"{bare}:1: query_id: no topic")
    result = CliRunner().invoke(cli, ["inspect", str(bare)])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_round_trip_through_the_grading_format(tmp_path):
    topics = list(read(FIXTURE, "nuggets", None)[1])
    out = tmp_path / "out.txt"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing is lost for a bank that came from this format
        write(topics, out, "report-gen-eval-grading", "nuggets")
    first = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert first == {"query_id": "301", "question": "When was Toledo's tap water declared unsafe?", "answer": "2014",
                     "citations": ["nw-0001", "nw-0002"]}
    again = list(read(out, "nuggets", None)[1])
    assert again == topics


def test_convert_from_a_canonical_bank_warns_what_the_format_cannot_hold(tmp_path, repo):
    out = tmp_path / "sample.nuggets.txt"
    result = CliRunner().invoke(cli, ["convert", str(repo / "nuggets" / "sample" / "nuggets.jsonl"),
                                      "--to", "report-gen-eval-grading", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "importance" in result.output and "not written" in result.output
    back = list(read(out, "nuggets", None)[1])
    assert len(back) == 8 and back[0].request_id == "s01"


def test_nuggets_validate_points_at_the_answers_own_line():
    # the question's only answer has no citations: an unbound question (a warning, exit status 0), located at
    # the line that holds it
    result = CliRunner().invoke(cli, ["nuggets", "validate", str(FIXTURE)])
    assert result.exit_code == 0, result.output
    assert (f"{FIXTURE}:4: question: warning: nugget 'How many residents were affected?' has no answer bound to a "
            "document: the scorer drops it") in result.output


def test_merge_to_the_grading_format_counts_topics_not_lines(tmp_path):
    out = tmp_path / "merged.txt"
    result = CliRunner().invoke(cli, ["nuggets", "merge", str(FIXTURE), str(FIXTURE),
                                      "--to", "report-gen-eval-grading", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert len(out.read_text(encoding="utf-8").splitlines()) == 5  # 5 answers of topic 301's 3 questions
    assert f"merged into 1 topics (0 conflicts) -> {out}" in result.output
    assert write(read(FIXTURE, "nuggets", None)[1], tmp_path / "w.txt", "report-gen-eval-grading", "nuggets") == 1


def test_nuggets_validate_lists_every_bad_line_of_a_grading_file(tmp_path):
    lines = [{"question": "Where?", "answer": "Ohio", "citations": ["d2"]},  # the first line makes it recognizable
             {"question": "Who?", "citations": ["d1"]},
             {"question": "When?", "answer": "2014", "citations": "d3"},
             {"query_id": None, "question": "Why?", "answer": "algae", "citations": ["d4"]}]
    path = tmp_path / "301.nuggets.txt"
    path.write_text("".join(json.dumps(obj) + "\n" for obj in lines), encoding="utf-8")
    result = CliRunner().invoke(cli, ["nuggets", "validate", str(path)])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"{path}:2: answer: missing required field 'answer' (expected a string)",
        f"{path}:3: citations: expected a list of document ids, found a string ('d3')",
        f"{path}:4: query_id: expected a string id, found null",
        f"{path}: 1 topics, 1 nuggets, 3 errors, 0 warnings",
    ]


def test_only_a_name_with_a_digit_gives_the_topic(tmp_path):
    line = json.dumps({"question": "Who?", "answer": "Ann", "citations": ["d1"]}) + "\n"
    for name, topic in [("nuggets_300.txt", "300"), ("s01.nuggets.txt", "s01"), ("2024-101-nuggets.txt", "2024-101")]:
        (tmp_path / name).write_text(line, encoding="utf-8")
        assert [t.request_id for t in read(tmp_path / name, "nuggets", None)[1]] == [topic]
    for name in ("nuggets-final.txt", "draft.nuggets.txt"):
        (tmp_path / name).write_text(line, encoding="utf-8")
        with pytest.raises(InputError) as error:
            list(read(tmp_path / name, "nuggets", None)[1])
        assert str(error.value).startswith(f"{tmp_path / name}:1: query_id: no topic")


def test_a_lossy_write_is_one_warning_line_from_any_command(tmp_path):
    """nuggets merge to the grading format loses the sample bank's importance marks: stderr says so in the
    kit's ``warning:`` form, not as a Python warning with a file and line of our source."""
    sample = Path(__file__).resolve().parent.parent / "nuggets" / "sample" / "nuggets.jsonl"
    out = tmp_path / "merged.txt"
    result = CliRunner().invoke(cli, ["nuggets", "merge", str(sample), str(sample),
                                      "--to", "report-gen-eval-grading", "-o", str(out)])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "importance" in line]
    assert lines and lines[0].startswith("warning: report-gen-eval-grading: ") and "not written" in lines[0]
    assert "LossyWriteWarning" not in result.output
