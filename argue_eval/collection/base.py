"""The document-store contract every collection backend implements (JSONL, ir_datasets, Lucene).

Judges, validation and pooling look documents up by id and must not care where the collection lives, so
each backend answers the same small protocol: ``get`` (a missing id is an error), ``lookup`` (a missing id
is ``None`` and is remembered in ``misses``, so a long judging run can report every absent document at the
end instead of dying on the first), ``get_many``, ``in``, ``len`` when cheap, and ``close``.

Backends subclass :class:`BaseDocumentStore` and implement ``_fetch`` (and ``_fetch_many`` when they can
batch); the base class supplies the rest, so behaviour such as miss recording is the same everywhere.
This module imports nothing heavy: the Lucene backend (``argue_eval.search.lucene``) builds on it too.
"""
from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any, Protocol, runtime_checkable

from ..errors import ArgueError
from ..model import Document

ID_FIELDS: tuple[str, ...] = ("doc_id", "docid", "id", "_id")
"""Accepted document id fields, in order of preference (the first one present in a record wins)."""
TEXT_FIELDS: tuple[str, ...] = ("text", "contents", "body")
"""Accepted document text fields, in order of preference."""


class MissingDocumentError(ArgueError, KeyError):
    """A document id is not in the collection.

    A ``KeyError`` too, so code written for mappings (``except KeyError``) keeps working; an
    ``ArgueError``, so the CLI prints it as one line instead of a traceback.
    """

    def __init__(self, doc_id: str, description: str):
        self.doc_id = doc_id
        self.description = description
        super().__init__(f"{description}: no document with id {doc_id!r}")

    def __str__(self) -> str:  # KeyError would print the message quoted, as a repr
        return str(self.args[0])


@runtime_checkable
class DocumentStore(Protocol):
    """Random access to a collection's documents by id (what every backend offers)."""

    description: str
    misses: Counter[str]

    def get(self, doc_id: str) -> Document: ...

    def lookup(self, doc_id: str) -> Document | None: ...

    def get_many(self, doc_ids: Iterable[str]) -> dict[str, Document]: ...

    def __contains__(self, doc_id: object) -> bool: ...

    def close(self) -> None: ...

    def __enter__(self) -> DocumentStore: ...

    def __exit__(self, *exc_info: object) -> None: ...


class BaseDocumentStore:
    """Shared behaviour of document stores; a backend implements ``_fetch`` (and optionally more).

    ``misses`` counts, per document id, the lookups (``lookup``, ``get_many``) that found nothing, in the
    order the ids were first missed; ``get`` raises instead and records nothing. ``__len__`` is defined by
    backends that know their size without a scan; others raise ``TypeError`` as ``len()`` does for
    unsized objects.
    """

    description: str = "document store"

    def __init__(self) -> None:
        self.misses: Counter[str] = Counter()
        self._misses_lock = threading.Lock()  # lookups may come from several threads (judges fan out)

    def _miss(self, doc_id: str) -> None:
        with self._misses_lock:
            self.misses[doc_id] += 1

    # --- what a backend implements -------------------------------------------------------------------
    def _fetch(self, doc_id: str) -> Document | None:
        """The document with this id, or ``None`` when the collection has none."""
        raise NotImplementedError

    def _fetch_many(self, doc_ids: list[str]) -> dict[str, Document]:
        """The documents found among distinct ``doc_ids`` (override to batch reads)."""
        found = {}
        for doc_id in doc_ids:
            document = self._fetch(doc_id)
            if document is not None:
                found[doc_id] = document
        return found

    def _contains(self, doc_id: str) -> bool:
        """Whether the id exists (override when that is cheaper than fetching the document)."""
        return self._fetch(doc_id) is not None

    # --- the protocol ---------------------------------------------------------------------------------
    def get(self, doc_id: str) -> Document:
        """The document with this id; raise :class:`MissingDocumentError` when there is none."""
        document = self._fetch(str(doc_id))
        if document is None:
            raise MissingDocumentError(str(doc_id), self.description)
        return document

    def lookup(self, doc_id: str) -> Document | None:
        """The document with this id, or ``None`` (and the id is counted in ``misses``)."""
        doc_id = str(doc_id)
        document = self._fetch(doc_id)
        if document is None:
            self._miss(doc_id)
        return document

    def get_many(self, doc_ids: Iterable[str]) -> dict[str, Document]:
        """The documents found, keyed by id in the order first asked for; absent ids go to ``misses``.

        Repeated ids are fetched once. Backends may batch and reorder the reads (the JSONL store reads in
        file order), which is why this is faster than calling ``get`` in a loop.
        """
        wanted = list(dict.fromkeys(str(doc_id) for doc_id in doc_ids))
        found = self._fetch_many(wanted)
        result = {}
        for doc_id in wanted:
            document = found.get(doc_id)
            if document is None:
                self._miss(doc_id)
            else:
                result[doc_id] = document
        return result

    def __contains__(self, doc_id: object) -> bool:
        return isinstance(doc_id, str) and self._contains(doc_id)

    def close(self) -> None:
        """Release files and connections; the store is unusable afterwards."""

    def __enter__(self) -> BaseDocumentStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.description}>"


def pick_field(record: Mapping[str, Any], candidates: tuple[str, ...]) -> str | None:
    """The first of ``candidates`` that ``record`` has, or ``None``."""
    for name in candidates:
        if name in record:
            return name
    return None


def document_from_record(record: Mapping[str, Any], id_field: str, text_field: str) -> Document:
    """A :class:`Document` from a parsed JSON record whose fields were already checked.

    Integer ids become strings (ids are always strings in the model); ``title`` is optional and a
    non-string title is treated as absent rather than failing a lookup.
    """
    title = record.get("title")
    return Document(str(record[id_field]), record[text_field], title if isinstance(title, str) else "")
