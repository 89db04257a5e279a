"""The human assessment loop: export what is missing, fill, import, score -- and rejecting altered items."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.formats import read_judgments
from argue_eval.model import normalize_text

FIXTURES = Path(__file__).parent / "fixtures" / "argue"
RUNS = ["--run", str(FIXTURES / "runA.jsonl"), "--run", str(FIXTURES / "runB.jsonl")]
COMMON = [*RUNS, "--nuggets", str(FIXTURES / "nuggets.jsonl"), "--requests", str(FIXTURES / "requests.jsonl")]


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def export(tmp_path: Path, name: str = "pool.jsonl", *extra: str) -> Path:
    pool = tmp_path / name
    result = invoke("assess", "export", *COMMON, "-o", str(pool), *extra)
    assert result.exit_code == 0, result.output
    return pool


def truth() -> dict[tuple, bool]:
    """The fixture judgments by key (what a careful assessor would answer)."""
    return {j.key: j.value for j in read_judgments(FIXTURES / "judgments.jsonl")}


def item_key(item: dict) -> tuple:
    from argue_eval.judges.base import make_key

    index = item["sentence_index"]
    return make_key(item["kind"], item["request_id"], normalize_text(item["sentence"]), item["doc_id"],
                    item["nugget_id"], item["nugget_answer"], item["run_id"], int(index) if index not in (None, "") else None)


def test_export_without_judgments_dedupes_across_runs(tmp_path):
    items = [json.loads(line) for line in export(tmp_path).read_text().splitlines()]
    ids = [item["item_id"] for item in items]
    assert len(ids) == len(set(ids))
    attested = [i for i in items if i["kind"] == "attested" and i["doc_id"] == "d1"]
    # runA s1 and runB s0 are the same sentence (up to whitespace) citing d1: one item, two occurrences
    assert len(attested) == 1 and attested[0]["occurrences"] == 2
    item = attested[0]
    assert item["request_title"] == "Midwest floods of 2019"
    assert item["previous_sentence"] == "This report covers the 2019 Midwest floods."
    assert item["next_sentence"] == "The Platte also overflowed its banks."
    assert item["judgment"] == "" and len(item["hash"]) == 20
    answers = [i for i in items if i["kind"] == "answers" and i["doc_id"] == "d1"]
    assert sorted((i["nugget_id"], i["nugget_answer"]) for i in answers) == [("n1", "March 2019"), ("n2", "Missouri")]
    assert answers[0]["nugget_question"] in ("When did the flood happen?", "Which rivers flooded?")
    # an uncited sentence: negative? unconditional; the rest conditional on its answer
    s5 = [i for i in items if i["sentence"] == "Damage estimates were later revised upward."]
    negative = next(i for i in s5 if i["kind"] == "negative")
    requires = next(i for i in s5 if i["kind"] == "requires_citation")
    first = next(i for i in s5 if i["kind"] == "first_instance")
    assert negative["needed_if"] == []
    assert requires["needed_if"] == [{"item_id": negative["item_id"], "answer": "no"}]
    assert first["needed_if"] == [{"item_id": negative["item_id"], "answer": "no"},
                                  {"item_id": requires["item_id"], "answer": "yes"}]
    assert requires["run_id"] == "runA" and requires["sentence_index"] == 5
    assert first["earlier_sentences"][0] == "This report covers the 2019 Midwest floods."


def test_export_writes_exactly_the_missing_judgments(tmp_path):
    judgments = tmp_path / "partial.jsonl"
    lines = (FIXTURES / "judgments.jsonl").read_text().splitlines()
    judgments.write_text("\n".join(line for line in lines if '"kind": "attested"' not in line) + "\n")
    pool = export(tmp_path, "pool.jsonl", "--judgments", str(judgments))
    items = [json.loads(line) for line in pool.read_text().splitlines()]
    # attested judgments of: s1/d1, s2/d4, s2/d9, s3/d9 (also runB), s4/d2, s9/d3, T2 s0/e1 -> 7 items
    assert [i["kind"] for i in items] == ["attested"] * 7


def fill(items: list[dict], answers: dict[tuple, bool]) -> list[dict]:
    for item in items:
        value = answers.get(item_key(item))
        # questions the fixture never needed (off-path branches) are answered "no"
        item["judgment"] = "yes" if value else "no"
    return items


def test_round_trip_export_fill_import_score(tmp_path):
    pool = export(tmp_path)
    items = fill([json.loads(line) for line in pool.read_text().splitlines()], truth())
    filled = tmp_path / "filled.jsonl"
    filled.write_text("".join(json.dumps(item) + "\n" for item in items))
    human = tmp_path / "human.jsonl"
    result = invoke("assess", "import", str(filled), "--assessor", "alice", "-o", str(human))
    assert result.exit_code == 0, result.output
    imported = list(read_judgments(human))
    assert len(imported) == len(items) and {j.judge for j in imported} == {"human:alice"}
    with_human = tmp_path / "human.tsv"
    with_fixture = tmp_path / "fixture.tsv"
    assert invoke("score", *COMMON, "--judgments", str(human), "-o", str(with_human)).exit_code == 0
    assert invoke("score", *COMMON, "--judgments", str(FIXTURES / "judgments.jsonl"), "-o",
                  str(with_fixture)).exit_code == 0
    # the human round trip reproduces the fixture's scores exactly
    assert with_human.read_text() == with_fixture.read_text()


def test_csv_round_trip_with_collection_texts(tmp_path):
    pool = export(tmp_path, "pool.csv", "--collection", str(FIXTURES / "collection.jsonl"))
    with open(pool, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    d1 = next(r for r in rows if r["kind"] == "attested" and r["doc_id"] == "d1")
    assert d1["doc_text"] == "In March 2019 the Missouri River crested above flood stage."
    assert d1["doc_title"] == "River crest"
    for row in rows:
        row_item = {k: (v if v != "" else None) for k, v in row.items()}
        row["judgment"] = "Yes" if truth().get(item_key(row_item)) else "NO"
    filled = tmp_path / "filled.csv"
    with open(filled, "w", newline="", encoding="utf-8-sig") as handle:  # a spreadsheet's BOM
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    human = tmp_path / "human.jsonl"
    result = invoke("assess", "import", str(filled), "--assessor", "bo", "-o", str(human))
    assert result.exit_code == 0, result.output
    out = tmp_path / "s.tsv"
    assert invoke("score", *COMMON, "--judgments", str(human), "-o", str(out)).exit_code == 0


def test_altered_item_is_rejected_with_its_line(tmp_path):
    pool = export(tmp_path)
    items = fill([json.loads(line) for line in pool.read_text().splitlines()], truth())
    items[3]["sentence"] = items[3]["sentence"] + " (edited)"
    filled = tmp_path / "filled.jsonl"
    filled.write_text("".join(json.dumps(item) + "\n" for item in items))
    result = invoke("assess", "import", str(filled), "--assessor", "alice", "-o", str(tmp_path / "h.jsonl"))
    assert result.exit_code == 2
    assert result.output.startswith(f"{filled}:4: hash: item {items[3]['item_id']} was altered")
    assert not (tmp_path / "h.jsonl").exists()


def test_answers_other_than_yes_no_are_rejected(tmp_path):
    pool = export(tmp_path)
    items = fill([json.loads(line) for line in pool.read_text().splitlines()], truth())
    items[1]["judgment"] = "maybe"
    filled = tmp_path / "filled.jsonl"
    filled.write_text("".join(json.dumps(item) + "\n" for item in items))
    result = invoke("assess", "import", str(filled), "--assessor", "alice", "-o", str(tmp_path / "h.jsonl"))
    assert result.exit_code == 2
    assert result.output.strip() == f"{filled}:2: judgment: expected yes or no, found 'maybe'"


def test_blank_answers_are_skipped_and_counted(tmp_path):
    pool = export(tmp_path)
    items = fill([json.loads(line) for line in pool.read_text().splitlines()], truth())
    items[0]["judgment"] = ""
    items[1]["judgment"] = None
    filled = tmp_path / "filled.jsonl"
    filled.write_text("".join(json.dumps(item) + "\n" for item in items))
    human = tmp_path / "h.jsonl"
    result = invoke("assess", "import", str(filled), "--assessor", "alice", "-o", str(human))
    assert result.exit_code == 0
    assert "2 item(s) left blank" in result.output
    assert len(list(read_judgments(human))) == len(items) - 2


def test_export_is_deterministic(tmp_path):
    first = export(tmp_path, "a.jsonl")
    second = export(tmp_path, "b.jsonl")
    assert first.read_bytes() == second.read_bytes()


@pytest.mark.parametrize("command", [["assess", "--help"], ["assess", "export", "--help"], ["assess", "import", "--help"]])
def test_help_has_examples(command):
    result = invoke(*command)
    assert result.exit_code == 0 and "argue-eval assess" in result.output


def test_csv_guards_formula_cells_and_round_trips(tmp_path):
    """Report text is untrusted: a cell starting with = + - @ would run as a spreadsheet formula, so the CSV
    holds it behind an apostrophe; import removes one apostrophe, whether or not the spreadsheet kept it."""
    run = json.loads((FIXTURES / "runA.jsonl").read_text().splitlines()[0])
    run["sentences"] = [{"text": "=HYPERLINK(\"http://evil\")", "citations": ["d1"]},
                        {"text": "-5 degrees was the low.", "citations": []},
                        {"text": "'=not a formula", "citations": ["d2"]}]
    run_path = tmp_path / "formula.jsonl"
    run_path.write_text(json.dumps(run) + "\n")
    pool = tmp_path / "pool.csv"
    result = invoke("assess", "export", "--run", str(run_path), "--nuggets", str(FIXTURES / "nuggets.jsonl"),
                    "-o", str(pool))
    assert result.exit_code == 0, result.output
    with open(pool, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    sentences = {row["sentence"] for row in rows}
    # one apostrophe before a formula character; one more before text that already starts with apostrophes
    assert sentences == {"'=HYPERLINK(\"http://evil\")", "'-5 degrees was the low.", "''=not a formula"}
    assert not any(cell[:1] in ("=", "+", "-", "@") for row in rows for cell in row.values())
    for kept in (True, False):  # a spreadsheet that keeps the guard, and one that drops it on save
        filled = tmp_path / f"filled-{kept}.csv"
        with open(filled, "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            for row in rows:
                cells = dict(row, judgment="no")
                if not kept:
                    if row["sentence"].startswith("''"):
                        continue  # text that itself began with an apostrophe does not survive a dropped guard
                    cells = {k: v[1:] if v.startswith("'") else v for k, v in cells.items()}
                writer.writerow(cells)
        human = tmp_path / f"human-{kept}.jsonl"
        result = invoke("assess", "import", str(filled), "--assessor", "alice", "-o", str(human))
        assert result.exit_code == 0, result.output
        imported = {j.sentence for j in read_judgments(human)}
        expected = {"=HYPERLINK(\"http://evil\")", "-5 degrees was the low."}
        assert imported == (expected | {"'=not a formula"} if kept else expected)


@pytest.mark.parametrize(("content", "message"), [
    (b"", "file is empty"),
    (b'{"kind": "attested", "request_id": "T1", "sentence": "s", "value": true, "judge": "j"}\n',
     ":1: item_id: missing: not an exported assessment item"),
    (b"item_id,kind,judgment,hash\n\xff\xfe\n", ":2: invalid UTF-8"),  # rows are read as they stream
])
def test_import_of_a_file_that_is_not_a_filled_pool_is_a_located_error(tmp_path, content, message):
    path = tmp_path / ("pool.csv" if b"item_id," in content else "pool.jsonl")
    path.write_bytes(content)
    result = invoke("assess", "import", str(path), "--assessor", "a", "-o", str(tmp_path / "h.jsonl"))
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output
    result = invoke("assess", "import", str(tmp_path), "--assessor", "a", "-o", str(tmp_path / "h.jsonl"))
    assert result.exit_code == 2 and "is a directory" in result.output


def test_csv_pool_with_a_long_document_text_reads(tmp_path):
    """A cited document can be longer than the csv module's default cell limit (131,072 characters)."""
    from argue_eval.organizer.assessment import read_pool

    path = tmp_path / "pool.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["item_id", "kind", "judgment", "hash", "doc_text"])
        writer.writerow(["q1", "attested", "yes", "h", "x" * 200_000])
    ((line, item),) = list(read_pool(path))
    assert line == 2 and len(item["doc_text"]) == 200_000 and item["judgment"] == "yes"
    assert csv.field_size_limit() == 131_072  # the module-wide limit is restored afterwards
