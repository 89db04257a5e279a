"""BM25 over a Lucene index with Anserini (Pyserini's engine).

* ``ensure_index(collection)`` builds the index of a JSONL collection on first use and rebuilds it when
  the collection changes (size, mtime or sampled content, recorded in a stamp file beside the index).
  The build runs Anserini's ``IndexCollection`` in a Java subprocess: it needs no Python objects, and
  Anserini's logging stays out of our output. Documents are indexed as Anserini ``JsonCollection``
  records ``{"id", "contents", "title"}`` whose contents are the title and text, so a title word
  matches; the raw record is stored, so the document store gives title and text back exactly.
* ``LuceneSearcher`` answers queries in-process through pyjnius (``io.anserini.search.SimpleSearcher``,
  the class Pyserini's ``LuceneSearcher`` wraps) with Anserini's BM25 defaults (k1 = 0.9, b = 0.4).

Reading documents back by id from such an index (ours or Pyserini's) is the collection's job:
``argue_eval.collection.lucene.LuceneDocumentStore``.

Java and the JVM are found and started by ``argue_eval.java`` (Java 21+; one JVM per process).
"""
from __future__ import annotations

import os
import shutil
import struct
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import orjson

from ..collection.lucene import is_lucene_index
from ..errors import ArgueError, InputError
from ..progress import progress
from . import IndexInfo, index_target, iter_collection, recorded_documents, replace_dir, source_stamp, write_stamp

INDEX_SUFFIX = ".lucene"
INDEX_FORMAT = "argue-eval-lucene-1"
"""Bump when the indexed record layout changes: older indexes are then rebuilt."""
BM25_K1 = 0.9
BM25_B = 0.4


def ensure_index(
    collection: str | os.PathLike[str],
    index_dir: str | os.PathLike[str] | None = None,
    *,
    rebuild: bool = False,
    threads: int | None = None,
    log: Callable[[str], None] | None = None,
) -> IndexInfo:
    """Return a fresh BM25 index of ``collection`` (a JSONL file), building it if absent or stale.

    ``collection`` may already be a Lucene index directory: it is then used as is. ``index_dir``
    overrides where the index goes (default: see ``argue_eval.search.index_dir_for``).
    """
    collection = Path(collection)
    if collection.is_dir():
        if is_lucene_index(collection):
            return IndexInfo(collection, -1, False)
        raise InputError(collection, None, None, "is a directory but not a Lucene index (no segments_N file)")
    if not collection.exists():
        raise InputError(collection, None, None, "no such file or directory")
    target = index_target(collection, index_dir, INDEX_SUFFIX)
    stamp = source_stamp(collection, INDEX_FORMAT)
    if not rebuild and is_lucene_index(target):
        documents = recorded_documents(target, stamp)
        if documents is not None:
            return IndexInfo(target, documents, False)
    from ..java import anserini_jar, find_java

    anserini_jar()  # fail before any work when Pyserini (the extra) is missing, then when Java 21+ is
    find_java()
    if log is not None:
        log(f"building the BM25 index of {collection} in {target} (once; rebuilt when the collection changes)")
    started = time.perf_counter()
    count = build_index(collection, target, threads=threads)
    write_stamp(target, stamp, count)
    return IndexInfo(target, count, True, time.perf_counter() - started)


def build_index(collection: Path, target: Path, threads: int | None = None) -> int:
    """Index ``collection`` into ``target`` (replaced atomically); return the number of documents."""
    from ..java import run_java

    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        source = work / "input"
        source.mkdir()
        count = 0
        seen: set[str] = set()
        with open(source / "docs.jsonl", "wb") as handle:
            for document in progress(iter_collection(collection), desc="preparing documents", unit="doc"):
                if document.doc_id in seen:
                    raise InputError(collection, None, None, f"document id {document.doc_id!r} appears twice")
                seen.add(document.doc_id)
                contents = f"{document.title}\n{document.text}" if document.title else document.text
                record = {"id": document.doc_id, "contents": contents}
                if document.title:
                    record["title"] = document.title
                handle.write(orjson.dumps(record) + b"\n")
                count += 1
        if count == 0:
            raise InputError(collection, None, None, "the collection has no documents")
        fresh = work / "index"
        threads = threads or max(1, min(8, os.cpu_count() or 1))
        run_java(
            "io.anserini.index.IndexCollection",
            [
                "-collection", "JsonCollection", "-input", str(source), "-index", str(fresh),
                "-generator", "DefaultLuceneDocumentGenerator", "-threads", str(threads), "-storeRaw",
            ],
            what=f"indexing {collection} with Anserini",
        )
        if not is_lucene_index(fresh):
            raise ArgueError(f"Anserini did not produce an index for {collection} in {fresh}")
        replace_dir(fresh, target, work)
        return count
    finally:
        shutil.rmtree(work, ignore_errors=True)


def float32_value(score: float) -> float:
    """The shortest decimal that is the same float32 as ``score``.

    Lucene scores are float32 (Anserini also rounds them to 4 decimals to break ties by document id);
    widened to float64 they print as ``24.064300537109375``. The shortest decimal with the same float32
    value (``24.0643``) is what Anserini's own run files show, and it is still exact for the float32.
    """
    single = struct.unpack("f", struct.pack("f", score))[0]
    for digits in range(6, 10):
        text = f"{single:.{digits}g}"
        if struct.unpack("f", struct.pack("f", float(text)))[0] == single:
            return float(text)
    return single


class LuceneSearcher:
    """BM25 search over a Lucene index (in-process JVM; see ``argue_eval.java``)."""

    def __init__(self, index_dir: str | os.PathLike[str], k1: float = BM25_K1, b: float = BM25_B):
        from ..java import autoclass

        index_dir = Path(index_dir)
        if not is_lucene_index(index_dir):
            raise InputError(index_dir, None, None, "not a Lucene index (no segments_N file)")
        self.index_dir = index_dir
        self._searcher = autoclass("io.anserini.search.SimpleSearcher")(str(index_dir))
        self._searcher.set_bm25(float(k1), float(b))

    def search(self, query: str, k: int = 10) -> list[tuple[str, float]]:
        """The top ``k`` documents for ``query`` as ``(doc_id, score)``, best first (Anserini breaks score
        ties by document id)."""
        if k < 1:
            raise ArgueError(f"k must be at least 1, got {k}")
        hits = self._searcher.search(query, int(k))
        return [(hit.docid, float32_value(hit.score)) for hit in hits]

    def batch_search(self, queries: Mapping[str, str], k: int = 10, threads: int = 4) -> dict[str, list[tuple[str, float]]]:
        """Search many queries at once on ``threads`` Java threads; ``{query_id: [(doc_id, score), ...]}``."""
        from ..java import autoclass

        array_list = autoclass("java.util.ArrayList")
        texts, ids = array_list(), array_list()
        for query_id, text in queries.items():
            ids.add(query_id)
            texts.add(text)
        found = self._searcher.batch_search(texts, ids, int(k), int(threads))
        return {
            query_id: [(hit.docid, float32_value(hit.score)) for hit in (found.get(query_id) or [])]
            for query_id in queries
        }

    def __len__(self) -> int:
        return int(self._searcher.get_total_num_docs())

    def close(self) -> None:
        if self._searcher is not None:
            self._searcher.close()
            self._searcher = None
