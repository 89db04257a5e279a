"""Documents by id from a Lucene index: ours (``argue_eval.search.lucene`` builds it) or any Pyserini index that
stores raw documents (``-storeRaw``) or their contents.

Reading a document back is the collection's job, whoever built the index, so it lives here, below search:
``open_collection`` opens a Lucene index directory with this store, and ``argue_eval.search`` (which indexes
collections and ranks their documents) imports the collection, never the reverse. Anserini's classes are
reached through ``argue_eval.java`` (Java 21+, one JVM per process, the ``search`` extra).
"""
from __future__ import annotations

import os
from pathlib import Path

import orjson

from ..errors import ArgueError, InputError
from ..model import Document
from .base import TEXT_FIELDS, BaseDocumentStore

__all__ = ["is_lucene_index", "document_from_raw", "LuceneDocumentStore"]


def is_lucene_index(path: Path) -> bool:
    """A Lucene index directory holds a ``segments_N`` commit point (Pyserini indexes included)."""
    return path.is_dir() and any(child.name.startswith("segments_") for child in path.iterdir())


def document_from_raw(doc_id: str, raw: str | None, contents: str | None) -> Document:
    """Rebuild a :class:`Document` from a stored raw record (ours, or any Pyserini JSON collection's)."""
    if raw:
        try:
            record = orjson.loads(raw)
        except orjson.JSONDecodeError:
            record = None
        if isinstance(record, dict):
            given_title = record.get("title")
            title = given_title if isinstance(given_title, str) else ""
            for name in (*TEXT_FIELDS, "segment"):
                text = record.get(name)
                if isinstance(text, str):
                    if name == "contents" and title and text.startswith(title + "\n"):
                        text = text[len(title) + 1:]
                    return Document(doc_id, text, title)
        else:
            return Document(doc_id, raw, "")
    return Document(doc_id, contents or "", "")


class LuceneDocumentStore(BaseDocumentStore):
    """Documents by id from a Lucene index that stores raw documents (``-storeRaw``) or contents."""

    def __init__(self, index_dir: str | os.PathLike[str]):
        from ..java import autoclass

        super().__init__()
        index_dir = Path(index_dir)
        if not is_lucene_index(index_dir):
            raise InputError(index_dir, None, None, "not a Lucene index (no segments_N file)")
        self._searcher = autoclass("io.anserini.search.SimpleSearcher")(str(index_dir))
        self.description = f"Lucene index {index_dir}"

    def _fetch(self, doc_id: str) -> Document | None:
        document = self._live().doc(doc_id)
        if document is None:
            return None
        return document_from_raw(doc_id, document.get("raw"), document.get("contents"))

    def _fetch_many(self, doc_ids: list[str]) -> dict[str, Document]:
        if len(doc_ids) < 8:
            return super()._fetch_many(doc_ids)
        from ..java import autoclass

        wanted = autoclass("java.util.ArrayList")()
        for doc_id in doc_ids:
            wanted.add(doc_id)
        found = self._live().batch_get_docs(wanted, 4)
        result = {}
        for doc_id in doc_ids:
            document = found.get(doc_id)
            if document is not None:
                result[doc_id] = document_from_raw(doc_id, document.get("raw"), document.get("contents"))
        return result

    def _live(self):
        if self._searcher is None:
            raise ArgueError(f"{self.description} is closed")
        return self._searcher

    def __len__(self) -> int:
        return int(self._live().get_total_num_docs())

    def close(self) -> None:
        if self._searcher is not None:
            self._searcher.close()
            self._searcher = None
