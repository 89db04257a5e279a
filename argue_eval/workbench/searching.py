"""Search over the collection for nugget authors: BM25 through Pyserini's Lucene index when the ``search``
extra is installed (``--search lucene``, or ``auto``), else an in-memory BM25 (``bm25s``) over the
collection's passages (``search.passages.PassageIndex``) -- fine for a track's sample or the documents a
round pools, not for millions. Either is built on the first search, not at start-up. A document found
that the workbench does not hold yet is copied from the collection, so it can be read and bound to.
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import ArgueError
from ..model import Document
from .store import Store

__all__ = ["Hit", "DocumentSearch", "SEARCH_MODES"]

SEARCH_MODES = ("auto", "lucene", "memory")


class Hit(NamedTuple):
    doc_id: str
    title: str
    snippet: str
    score: float


class DocumentSearch:
    """Document search for one workbench; thread-safe, built lazily."""

    def __init__(self, store: Store, collection: str | None, mode: str = "auto"):
        self.store = store
        self.collection = collection
        self.mode = mode
        self._lock = threading.Lock()
        self._engine: Any = None
        self._kind = ""
        self._documents: Any = None

    def _build(self) -> None:
        if self._engine is not None:
            return
        use_lucene = self.mode == "lucene"
        if self.mode == "auto" and self.collection is not None:
            import importlib.util

            use_lucene = importlib.util.find_spec("pyserini") is not None
        if use_lucene:
            if self.collection is None:
                raise ArgueError("--search lucene needs the collection (assess init --collection)")
            from ..search.lucene import LuceneSearcher, ensure_index, is_lucene_index

            path = Path(self.collection)
            index = path if path.is_dir() and is_lucene_index(path) else ensure_index(path).index_dir
            self._engine = LuceneSearcher(index)
            self._kind = "lucene"
            return
        from ..search.passages import PassageIndex

        if self.collection is not None and Path(self.collection).is_file():
            from ..search import iter_collection

            documents = list(iter_collection(Path(self.collection)))
        else:
            documents = list(self.store.documents())
        self._engine = PassageIndex(documents, "bm25")
        self._kind = "memory"

    def _document(self, doc_id: str) -> Document | None:
        document = self.store.document(doc_id)
        if document is not None or self.collection is None:
            return document
        from ..collection import open_collection

        if self._documents is None:
            self._documents = open_collection(self.collection)
        document = self._documents.lookup(doc_id)
        if document is not None:
            self.store.add_document(document)
        return document

    def search(self, query: str, k: int = 20) -> list[Hit]:
        query = " ".join(query.split())[:500]
        if not query:
            return []
        with self._lock:
            self._build()
            if self._kind == "lucene":
                found = self._engine.search(query, k)
                ranked = [(doc_id, score) for doc_id, score in found]
            else:
                best: dict[str, float] = {}
                for hit in self._engine.search([query], k * 4)[0]:
                    best.setdefault(hit.doc_id, hit.score)
                ranked = list(best.items())[:k]
            hits = []
            for doc_id, score in ranked:
                document = self._document(doc_id)
                if document is None:
                    continue
                text = " ".join(document.text.split())
                hits.append(Hit(doc_id, document.title, text[:240] + ("..." if len(text) > 240 else ""), score))
            return hits

    def close(self) -> None:
        if self._documents is not None:
            self._documents.close()
