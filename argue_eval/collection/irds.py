"""Documents of an ``ir_datasets`` dataset, through the dataset's own doc store.

``ir_datasets`` already knows how to random-access its collections (NeuCLIR, MS MARCO, ...), so we adapt
its ``docs_store()`` to our protocol rather than re-indexing. Its document records differ per dataset;
we take ``doc_id``, ``title`` when the record has one, and the ``text`` (or ``body``) field, falling back
to the record's ``default_text()``.

Offline by default: argue-eval never downloads at run time, but ``ir_datasets`` fetches a dataset's files
the first time they are needed. While we call into ``ir_datasets`` its network download sources are
blocked (for this thread only), and a dataset that is not on disk yet gives an error that says how to
fetch it. ``allow_download=True`` (or ``ARGUE_EVAL_ALLOW_DOWNLOAD=1``) lifts the block.
"""
from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import ArgueError, InputError, MissingDependencyError
from ..model import Document
from .base import BaseDocumentStore

_STATE = threading.local()
_INSTALL_LOCK = threading.Lock()
_INSTALLED = False


class _DownloadBlocked(Exception):
    pass


def downloads_allowed(allow_download: bool | None = None) -> bool:
    """The explicit choice if given, else ``ARGUE_EVAL_ALLOW_DOWNLOAD`` (off unless ``1``/``true``/``yes``)."""
    if allow_download is not None:
        return allow_download
    return os.environ.get("ARGUE_EVAL_ALLOW_DOWNLOAD", "").lower() in ("1", "true", "yes")


def _install_download_guard() -> None:
    """Wrap ``stream`` (and ``__iter__``) of every network download source of ir_datasets so that it can be blocked.

    The wrapper only refuses inside :func:`_offline` on the calling thread; everywhere else (other
    threads, the user's own ir_datasets calls) downloads behave as ir_datasets intends.
    """
    global _INSTALLED
    with _INSTALL_LOCK:
        if _INSTALLED:
            return
        from ir_datasets.util import download

        def subclasses(cls: type[Any]) -> Iterator[type[Any]]:
            for sub in cls.__subclasses__():
                yield sub
                yield from subclasses(sub)

        for cls in set(subclasses(download.BaseDownload)):
            if cls is download.LocalDownload:
                continue
            for name in ("stream", "__iter__"):
                if name in vars(cls):
                    setattr(cls, name, _guarded(vars(cls)[name]))
        _INSTALLED = True


def _guarded(original: Any) -> Any:
    def stream(self: Any, *args: Any, **kwargs: Any) -> Any:
        if getattr(_STATE, "depth", 0) > 0:
            _STATE.blocked = getattr(self, "url", None) or repr(self)
            # ir_datasets logs this as "Download failed: <message>" before giving up.
            raise _DownloadBlocked(f"argue-eval works offline, not downloading {_STATE.blocked}")
        return original(self, *args, **kwargs)

    return stream


@contextmanager
def _offline(dataset_id: str, allowed: bool) -> Iterator[None]:
    """Run ir_datasets code with network downloads refused; turn a refused download into advice."""
    if allowed:
        yield
        return
    _install_download_guard()
    _STATE.depth = getattr(_STATE, "depth", 0) + 1
    _STATE.blocked = None
    try:
        yield
    except Exception as error:
        if _STATE.blocked is None and not isinstance(error, _DownloadBlocked):
            raise
        raise ArgueError(
            f"ir_datasets dataset {dataset_id!r} is not on this machine yet and argue-eval does not download at "
            f"run time; fetch it once with ir_datasets (e.g. python -c \"import ir_datasets; "
            f"ir_datasets.load('{dataset_id}').docs_store().get('x')\" or ir_datasets export {dataset_id} docs), "
            f"or allow downloads with ARGUE_EVAL_ALLOW_DOWNLOAD=1"
        ) from None
    finally:
        _STATE.depth -= 1


def is_irds_id(spec: str) -> bool:
    """Whether ``spec`` names a dataset known to the ir_datasets registry (imports ir_datasets; no download)."""
    try:
        import ir_datasets
    except ImportError:
        return False
    try:
        ir_datasets.registry[spec]
    except KeyError:
        return False
    return True


class IrdsDocumentStore(BaseDocumentStore):
    """Our document-store protocol over ``ir_datasets.load(dataset_id).docs_store()``."""

    def __init__(self, dataset_id: str, *, allow_download: bool | None = None):
        super().__init__()
        try:
            import ir_datasets
        except ImportError as error:  # a core dependency, but say so plainly if it is broken
            raise MissingDependencyError("ir_datasets collections", "all", str(error)) from None
        self.dataset_id = dataset_id
        self.description = f"ir_datasets collection {dataset_id}"
        self._allowed = downloads_allowed(allow_download)
        try:
            dataset = ir_datasets.registry[dataset_id]
        except KeyError:
            raise InputError(
                f"irds:{dataset_id}", None, None, "not a dataset id known to ir_datasets (see ir_datasets.registry)"
            ) from None
        if not dataset.has_docs():
            raise InputError(f"irds:{dataset_id}", None, None, "this ir_datasets dataset has no documents")
        self._dataset = dataset
        with _offline(dataset_id, self._allowed):
            self._store = dataset.docs_store()
            fields = dataset.docs_cls()._fields
        self._text_field = next((name for name in ("text", "body") if name in fields), None)
        self._has_title = "title" in fields

    def _document(self, record: Any) -> Document:
        text = getattr(record, self._text_field) if self._text_field else record.default_text()
        title = record.title if self._has_title and isinstance(record.title, str) else ""
        return Document(str(record.doc_id), text if isinstance(text, str) else str(text), title)

    def _fetch(self, doc_id: str) -> Document | None:
        return self._fetch_many([doc_id]).get(doc_id)

    def _fetch_many(self, doc_ids: list[str]) -> dict[str, Document]:
        with _offline(self.dataset_id, self._allowed):
            found = self._store.get_many(doc_ids)
        return {str(doc_id): self._document(record) for doc_id, record in found.items()}

    def __len__(self) -> int:
        with _offline(self.dataset_id, self._allowed):
            count = self._dataset.docs_count()
        if count is None:
            raise TypeError(f"{self.description}: the number of documents is not known without a scan")
        return int(count)

    def close(self) -> None:
        close = getattr(self._store, "close", None)
        if callable(close):
            close()
