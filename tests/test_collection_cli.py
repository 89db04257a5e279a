"""``argue-eval collection index/get/info``: outputs, exit codes, and errors without tracebacks."""
from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.collection.jsonl import index_locations

TOLEDO = "a1f3c2e0-1111-4a2b-9c3d-000000000001"
SEGMENT = "msmarco_v2.1_doc_11_1042#3_2265"


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_index_builds_then_reports_up_to_date(docs):
    first = run("collection", "index", str(docs))
    assert first.exit_code == 0, first.output
    index = index_locations(docs)[1]  # in the cache directory, not beside the collection
    assert first.stdout.startswith(f"{docs}: indexed 5 documents in ")
    assert first.stdout.rstrip().endswith(f"-> {index}")
    second = run("collection", "index", str(docs))
    assert second.exit_code == 0
    assert second.stdout.startswith(f"{docs}: index up to date, 5 documents (")
    third = run("collection", "index", "--rebuild", str(docs))
    assert "indexed 5 documents" in third.stdout
    assert sorted(p.name for p in docs.parent.iterdir()) == ["docs.jsonl"]
    shipped = run("collection", "index", "--beside", "--rebuild", str(docs))
    assert shipped.stdout.rstrip().endswith(f"-> {docs.resolve().with_name('docs.jsonl.argue-idx')}")


def test_index_with_skip_bad_lines_prints_warnings(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_text('{"doc_id": "a", "text": "1"}\n{"doc_id": "a", "text": "2"}\n', encoding="utf-8")
    strict = run("collection", "index", str(path))
    assert strict.exit_code == 2
    assert strict.stderr.strip() == f"{path}:2: duplicate document id 'a' (first on line 1)"
    lenient = run("collection", "index", "--skip-bad-lines", str(path))
    assert lenient.exit_code == 0
    assert lenient.stderr.splitlines() == [
        f"{path}:2: warning: duplicate document id 'a' (first on line 1)",
        f"{path}: 1 lines skipped",
    ]
    assert "indexed 1 documents" in lenient.stdout


def test_get_prints_jsonl_in_the_order_asked(docs):
    result = run("collection", "get", str(docs), SEGMENT, TOLEDO)
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["doc_id"] for row in rows] == [SEGMENT, TOLEDO]
    assert rows[1] == {
        "doc_id": TOLEDO,
        "title": "Toledo water ban",
        "text": "On 2 August 2014 the city of Toledo told its 400,000 residents not to drink tap water after "
        "microcystin was found at the treatment plant.",
    }
    assert result.stderr == ""


def test_get_reports_missing_ids_on_stderr_with_exit_1(docs):
    result = run("collection", "get", str(docs), "nope", TOLEDO)
    assert result.exit_code == 1
    assert [json.loads(line)["doc_id"] for line in result.stdout.splitlines()] == [TOLEDO]
    assert result.stderr.strip() == f"{docs}: no document with id 'nope'"


def test_get_reads_ids_from_a_file(docs, tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text(f"{TOLEDO}\n\n2024-105741\n", encoding="utf-8")
    result = run("collection", "get", str(docs), "--ids-from", str(ids))
    assert result.exit_code == 0
    assert [json.loads(line)["doc_id"] for line in result.stdout.splitlines()] == [TOLEDO, "2024-105741"]


def test_get_without_ids_is_a_usage_error(docs):
    result = run("collection", "get", str(docs))
    assert result.exit_code == 2
    assert "give at least one DOC_ID" in result.output


def test_info(docs):
    result = run("collection", "info", str(docs))
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        f"collection\tJSONL collection {docs}",
        "documents\t5",
        f"index\t{index_locations(docs)[1]}",
        "id_field\tdoc_id",
        "text_field\ttext",
    ]


def test_user_errors_give_one_line_and_no_traceback(tmp_path):
    absent = tmp_path / "absent.jsonl"
    result = subprocess.run(
        [sys.executable, "-c", "from argue_eval.cli import main; main()", "collection", "get", str(absent), "d1"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip() == (
        f"{absent}: no such file or directory, and not an ir_datasets dataset id "
        "(expected a JSONL collection, a Lucene index directory, or irds:DATASET_ID)"
    )
