"""``argue-eval convert``: same-kind conversions, lossy warnings, clear refusals, atomic output."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.formats import detect, read_nuggets, read_reports, read_requests

F = Path(__file__).parent / "fixtures" / "formats"


def convert(*args: str):
    return CliRunner().invoke(cli, ["convert", *args])


def test_ragtime_to_neuclir24_warns_about_scores(tmp_path):
    out = tmp_path / "run.jsonl"
    result = convert(str(F / "run.ragtime.jsonl"), "--to", "neuclir24", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "warning: neuclir24: dropped the citation scores of 1 sentence(s)" in result.stderr
    assert result.stderr.strip().endswith("(neuclir24): 1 records")
    assert result.stdout == ""
    assert detect(out).name == "neuclir24"
    [before] = read_reports(F / "run.ragtime.jsonl")
    [after] = read_reports(out)
    assert [s.citations for s in after.sentences] == [s.citations for s in before.sentences]
    assert all(s.citation_scores is None for s in after.sentences)
    assert (after.run_id, after.request_id, after.metadata) == (before.run_id, before.request_id, before.metadata)


def test_rag24_to_canonical_then_ragtime(tmp_path):
    first = tmp_path / "argue.jsonl"
    second = tmp_path / "ragtime.jsonl"
    assert convert(str(F / "run.rag24.jsonl"), "--to", "argue", "-o", str(first)).exit_code == 0
    result = convert(str(first), "--to", "ragtime", "-o", str(second))
    assert result.exit_code == 0 and "warning" not in result.stderr  # references were given: nothing lost
    line = json.loads(second.read_text())
    assert line["metadata"]["run_id"] == "team-a-rag24" and line["metadata"]["topic_id"] == "2024-101"
    assert line["responses"][1]["citations"] == ["msmarco_v2.1_doc_52_77#0_120", "msmarco_v2.1_doc_11_1042#3_2265"]
    assert list(read_reports(second)) == list(read_reports(F / "run.rag24.jsonl"))


def test_nuggets_to_v3_directory_and_back(tmp_path):
    bank = tmp_path / "bank"
    result = convert(str(F / "nuggets.report-gen-eval-bank.jsonl"), "--to", "autoargue-v3", "-o", str(bank))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in bank.iterdir()) == ["nuggets_101.v3.json"]
    back = tmp_path / "n.jsonl"
    assert convert(str(bank), "--to", "argue", "-o", str(back)).exit_code == 0
    assert [t.nuggets for t in read_nuggets(back)] == [t.nuggets for t in read_nuggets(F / "nuggets.report-gen-eval-bank.jsonl")]


def test_requests_tsv_to_canonical(tmp_path):
    out = tmp_path / "req.jsonl"
    result = convert(str(F / "topics.rag24.tsv"), "--to", "argue", "-o", str(out))
    assert result.exit_code == 0
    assert [r.request_id for r in read_requests(out)] == ["2024-101", "2024-102"]


def test_v3_refusal_is_an_error_and_leaves_no_output(tmp_path):
    bank = tmp_path / "bank"
    result = convert(str(F / "nuggets.argue.jsonl"), "--to", "autoargue-v3", "-o", str(bank))
    assert result.exit_code == 2
    assert "two nuggets share the question 'Q1?'" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_cross_kind_and_read_only_targets_are_refused(tmp_path):
    out = tmp_path / "x"
    result = convert(str(F / "run.rag24.jsonl"), "--to", "autoargue-v3", "-o", str(out))
    assert result.exit_code == 2
    assert "is a runs file; 'autoargue-v3' is a nuggets format (convert keeps the kind)" in result.stderr
    result = convert(str(F / "run.neuclir24.jsonl"), "--to", "rag24", "-o", str(out))
    assert result.exit_code == 2
    assert "runs format 'rag24' can be read but not written; writable runs formats: argue, neuclir24, ragtime" in result.stderr
    result = convert(str(F / "run.neuclir24.jsonl"), "--to", "nope", "-o", str(out))
    assert result.exit_code == 2
    assert result.stderr.strip() == "--to: unknown runs format 'nope'; writable runs formats: argue, neuclir24, ragtime"
    assert not out.exists()


def test_output_that_cannot_be_written_is_one_line_exit_2(tmp_path):
    (tmp_path / "dir").mkdir()
    result = convert(str(F / "run.neuclir24.jsonl"), "--to", "argue", "-o", str(tmp_path / "dir"))
    assert result.exit_code == 2
    assert result.stderr.strip() == f"{tmp_path / 'dir'}: is a directory; give the output a file name"
    (tmp_path / "file").write_text("x")
    result = convert(str(F / "run.neuclir24.jsonl"), "--to", "argue", "-o", str(tmp_path / "file" / "out.jsonl"))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{tmp_path / 'file' / 'out.jsonl'}: cannot write the output here")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir", "file"]


def test_broken_input_leaves_previous_output_untouched(tmp_path):
    src = tmp_path / "run.jsonl"
    src.write_text((F / "run.neuclir24.jsonl").read_text() + '{"request_id": "2", "run_id": "r", "sentences": 5}\n')
    out = tmp_path / "out.jsonl"
    out.write_text("old\n")
    result = convert(str(src), "--to", "ragtime", "-o", str(out))
    assert result.exit_code == 2
    assert result.stderr.strip() == f"{src}:2: sentences: expected an array of sentence objects {{text, citations}}, found a number (5)"
    assert out.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl", "run.jsonl"]


def test_input_format_override(tmp_path):
    out = tmp_path / "o.jsonl"
    result = convert(str(F / "run.neuclir24.jsonl"), "--format", "argue", "--to", "argue", "-o", str(out))
    assert result.exit_code == 0
    assert "(runs, argue)" in result.stderr


def test_a_repeated_nugget_id_is_refused_for_v3_as_nuggets_validate_refuses_it(tmp_path):
    src = tmp_path / "bank.jsonl"
    src.write_text(json.dumps({"request_id": "t1", "nuggets": [
        {"nugget_id": "n1", "question": "Who?", "answers": [{"answer": "Ada", "doc_ids": ["d1"]}]},
        {"nugget_id": "n1", "question": "When?", "answers": [{"answer": "1843", "doc_ids": ["d2"]}]}]}) + "\n")
    bank = tmp_path / "v3"
    result = convert(str(src), "--to", "autoargue-v3", "-o", str(bank))
    assert result.exit_code == 2 and not bank.exists()
    assert ("--to: topic t1: the nugget id 'n1' is used twice; judgments name nuggets by id, so a NuggetBank v3 with "
            "both could not be scored (nuggets validate calls it duplicate-nugget-id)") in result.output
    checked = CliRunner().invoke(cli, ["nuggets", "validate", str(src)])
    assert checked.exit_code == 1 and "n1" in checked.output
