"""``nuggets bind --propose``: candidate documents for unbound answers, reviewed in a sheet, bound back.

The sample bank's own assessor bindings are the hand-checked truth: three of topic s01's nuggets are
stripped of their documents, and the proposals must find those documents again (the sample track's
README lists which stories attest which answers)."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.formats import read_nuggets

REPO = Path(__file__).resolve().parent.parent
COLLECTION = str(REPO / "topics" / "sample" / "collection.jsonl")
STRIPPED = ("s01-n2", "s01-n5", "s01-n6")


@pytest.fixture
def bank(tmp_path: Path) -> Path:
    topic = json.loads((REPO / "nuggets" / "sample" / "nuggets.jsonl").read_text(encoding="utf-8").splitlines()[0])
    for nugget in topic["nuggets"]:
        if nugget["nugget_id"] in STRIPPED:
            for answer in nugget["answers"]:
                answer["doc_ids"] = []
    path = tmp_path / "bank.jsonl"
    path.write_text(json.dumps(topic) + "\n", encoding="utf-8")
    return path


def propose(bank: Path, out: Path, *extra: str) -> list[dict[str, str]]:
    result = CliRunner().invoke(cli, ["nuggets", "bind", str(bank), "--propose", "--collection", COLLECTION,
                                      "--depth", "3", "-o", str(out), *extra])
    assert result.exit_code == 0, result.output
    assert "4 answer(s) bound to no document; 12 candidate(s) for 4 of them" in result.output
    with out.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def bind_reviewed(bank: Path, sheet: Path, rows: list[dict[str, str]], out: Path):
    """Write the reviewed rows back over the sheet (as an organizer's spreadsheet would) and bind it."""
    with sheet.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return CliRunner().invoke(cli, ["nuggets", "bind", str(bank), str(sheet), "-o", str(out)])


def candidates(rows: list[dict[str, str]], nugget: str, answer: str) -> list[tuple[str, str]]:
    return [(row["doc_id"], row["judge_says"]) for row in rows if row["nugget_id"] == nugget and row["answer"] == answer]


def test_search_alone_finds_the_assessors_documents_first(bank, tmp_path):
    rows = propose(bank, tmp_path / "p.csv")
    assert list(rows[0]) == ["accept", "request_id", "nugget_id", "question", "answer", "doc_id", "rank", "search_score",
                             "judge", "judge_says", "confidence", "passage"]
    assert all(row["accept"] == "" for row in rows)  # nothing is accepted for the organizer
    flooding = [doc for doc, _ in candidates(rows, "s01-n2", "flooding disabled the chlorination pumps")]
    assert set(flooding[:2]) == {"nw-0002", "nw-0003"}
    assert candidates(rows, "s01-n5", "12 March 2025")[0][0] == "nw-0008"
    assert candidates(rows, "s01-n6", "a 2022 inspection recommended protecting the dosing room against flooding")[0][0] == "nw-0006"
    firsts = [row for row in rows if row["rank"] == "1"]
    assert len(firsts) == 4 and all(row["confidence"] == "1.0" and row["judge"] == "" for row in firsts)


def test_the_lexical_judge_accepts_only_the_attesting_stories(bank, tmp_path):
    rows = propose(bank, tmp_path / "p.csv", "--judge", "lexical")
    assert candidates(rows, "s01-n5", "12 March 2025") == [("nw-0008", "yes"), ("nw-0003", "no"), ("nw-0001", "no")]
    assert candidates(rows, "s01-n5", "12 March")[0] == ("nw-0008", "yes")
    dosing = candidates(rows, "s01-n6", "a 2022 inspection recommended protecting the dosing room against flooding")
    assert [doc for doc, says in dosing if says == "yes"] == ["nw-0006"]
    assert {row["judge"] for row in rows} == {"lexical"}


def test_the_reviewed_sheet_binds_what_the_organizer_accepted(bank, tmp_path):
    sheet = tmp_path / "p.csv"
    rows = propose(bank, sheet, "--judge", "lexical")
    keep = {("s01-n2", "nw-0002"), ("s01-n2", "nw-0003"), ("s01-n5", "nw-0008"), ("s01-n6", "nw-0006")}
    for row in rows:
        row["accept"] = "yes" if (row["nugget_id"], row["doc_id"]) in keep else "no"
    out = tmp_path / "bound.jsonl"
    result = bind_reviewed(bank, sheet, rows, out)
    assert result.exit_code == 0, result.output
    assert "added 5 bindings (0 new answers)" in result.output  # n2: 2, n5: 2 answers x 1, n6: 1
    bound = {n.nugget_id: n for n in next(iter(read_nuggets(out))).nuggets}
    original = {n.nugget_id: n for n in next(iter(read_nuggets(REPO / "nuggets" / "sample" / "nuggets.jsonl"))).nuggets}
    for nugget_id in STRIPPED:
        assert [set(a.doc_ids) for a in bound[nugget_id].answers] == [set(a.doc_ids) for a in original[nugget_id].answers]


def test_a_sheet_cell_guarded_against_formulas_binds_the_real_answer(tmp_path):
    bank = tmp_path / "bank.jsonl"
    bank.write_text(json.dumps({"request_id": "t", "nuggets": [{"nugget_id": "n", "question": "How cold was it?",
                                                               "answers": [{"answer": "-5 degrees", "doc_ids": []}]}]}) + "\n")
    docs = tmp_path / "docs.jsonl"
    docs.write_text(json.dumps({"doc_id": "d1", "text": "It was -5 degrees, how cold the night was."}) + "\n"
                    + json.dumps({"doc_id": "d2", "text": "A warm afternoon by the lake."}) + "\n")
    sheet = tmp_path / "p.csv"
    result = CliRunner().invoke(cli, ["nuggets", "bind", str(bank), "--propose", "--collection", str(docs), "-o", str(sheet)])
    assert result.exit_code == 0, result.output
    text = sheet.read_text(encoding="utf-8")
    assert "\"'-5 degrees\"" in text  # guarded: a spreadsheet would read -5 degrees as a formula
    sheet.write_text(text.replace('"",', '"yes",', 1), encoding="utf-8")  # accept the first candidate
    out = tmp_path / "bound.jsonl"
    result = CliRunner().invoke(cli, ["nuggets", "bind", str(bank), str(sheet), "-o", str(out), "--no-new-answers"])
    assert result.exit_code == 0, result.output
    answer = next(iter(read_nuggets(out))).nuggets[0].answers[0]
    assert (answer.text, answer.doc_ids) == ("-5 degrees", ("d1",))


def test_a_bad_accept_value_and_missing_options_are_one_line_errors(bank, tmp_path):
    sheet = tmp_path / "p.csv"
    propose(bank, sheet)
    text = sheet.read_text(encoding="utf-8").splitlines()
    text[2] = '"maybe"' + text[2][2:]
    sheet.write_text("\n".join(text) + "\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["nuggets", "bind", str(bank), str(sheet), "-o", str(tmp_path / "b.jsonl")])
    assert result.exit_code == 2
    assert result.output.strip() == f"{sheet}:3: accept: expected yes or no (or leave it empty to skip the row), found 'maybe'"
    result = CliRunner().invoke(cli, ["nuggets", "bind", str(bank), "--propose", "-o", str(sheet)])
    assert result.exit_code == 2 and "--propose: needs --collection" in result.output
    # options of the other mode are refused, not silently ignored
    result = CliRunner().invoke(cli, ["nuggets", "bind", str(bank), str(sheet), "--judge", "lexical", "--depth", "3",
                                      "-o", str(tmp_path / "b.jsonl")])
    assert result.exit_code == 2 and "--judge, --depth: only apply with --propose" in result.output
    result = CliRunner().invoke(cli, ["nuggets", "bind", str(bank), "--propose", "--collection", str(bank),
                                      "--to", "autoargue-v3", "-o", str(sheet)])
    assert result.exit_code == 2 and "--propose writes a CSV sheet" in result.output


@pytest.mark.parametrize("header", ["Accept", "accept ", None])
def test_a_renamed_or_deleted_accept_header_never_binds_the_rejected_rows(bank, tmp_path, header):
    sheet = tmp_path / "p.csv"
    rows = propose(bank, sheet, "--judge", "lexical")
    for row in rows:
        row["accept"] = "yes" if (row["nugget_id"], row["doc_id"]) == ("s01-n6", "nw-0006") else "no"
        if header is None:
            del row["accept"]
        else:
            row[header] = row.pop("accept")
    out = tmp_path / "bound.jsonl"
    result = bind_reviewed(bank, sheet, rows, out)
    if header is None:
        assert result.exit_code == 2
        assert result.output.strip() == (f"{sheet}:1: accept: this proposal sheet (`nuggets bind --propose`) has no "
                                         "accept column; restore it (yes for the rows to bind) before binding")
        assert not out.exists()
    else:
        assert result.exit_code == 0, result.output
        assert "added 1 bindings (0 new answers)" in result.output
