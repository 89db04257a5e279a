"""Document lookup by id, whatever holds the collection: a JSONL file, an ir_datasets id or a Lucene index.

``open_collection(spec)`` picks the backend and returns a :class:`DocumentStore`; everything else (judges,
validation, pooling) codes against that protocol only. How ``spec`` is read:

1. ``irds:ID`` is always an ir_datasets dataset id.
2. A directory must be a Lucene (Pyserini) index, recognized by its ``segments_N`` commit file; it is
   opened by ``argue_eval.collection.lucene.LuceneDocumentStore`` (the ``search`` extra).
3. An existing file is a JSONL collection (indexed on first use, see ``argue_eval.collection.jsonl``).
4. Anything else that ir_datasets knows (``neuclir/1/zho``) is a dataset id; otherwise the path does
   not exist and the error says so. A path always wins over a dataset id of the same spelling: write
   ``irds:`` to force the dataset.
"""
from __future__ import annotations

import os
from pathlib import Path

from ..errors import InputError, MissingDependencyError
from .base import (
    ID_FIELDS,
    TEXT_FIELDS,
    BaseDocumentStore,
    DocumentStore,
    MissingDocumentError,
    document_from_record,
)
from .lucene import is_lucene_index

__all__ = [
    "ID_FIELDS",
    "TEXT_FIELDS",
    "BaseDocumentStore",
    "DocumentStore",
    "MissingDocumentError",
    "document_from_record",
    "open_collection",
    "is_lucene_index",
    "IRDS_PREFIX",
]

IRDS_PREFIX = "irds:"


def open_collection(
    spec: str | os.PathLike[str],
    cache_dir: str | os.PathLike[str] | None = None,
    *,
    rebuild: bool = False,
    on_bad_line: str = "error",
    allow_download: bool | None = None,
) -> DocumentStore:
    """Open the collection named by ``spec`` (see the module docstring for how it is interpreted).

    ``cache_dir``, ``rebuild`` and ``on_bad_line`` concern JSONL collections (where their offset index
    lives when the collection's directory is read-only, forcing a rebuild, and whether malformed lines
    stop the build or are skipped with warnings); ``allow_download`` lets ir_datasets fetch a dataset
    that is not on disk yet (off by default: argue-eval works offline).
    """
    text = os.fspath(spec)
    if text.startswith(IRDS_PREFIX):
        return _open_irds(text[len(IRDS_PREFIX):], allow_download)
    path = Path(text).expanduser()
    if path.is_dir():
        if is_lucene_index(path):
            return _open_lucene(path)
        raise InputError(
            path, None, None,
            "is a directory but not a Lucene index (no segments_N file); give a JSONL collection as the file itself",
        )
    if path.exists():
        from .jsonl import JsonlDocumentStore

        return JsonlDocumentStore(path, cache_dir, rebuild=rebuild, on_bad_line=on_bad_line)  # type: ignore[arg-type]
    from .irds import is_irds_id

    if is_irds_id(text):
        return _open_irds(text, allow_download)
    raise InputError(
        text, None, None,
        "no such file or directory, and not an ir_datasets dataset id "
        "(expected a JSONL collection, a Lucene index directory, or irds:DATASET_ID)",
    )


def _open_irds(dataset_id: str, allow_download: bool | None) -> DocumentStore:
    from .irds import IrdsDocumentStore

    return IrdsDocumentStore(dataset_id, allow_download=allow_download)


def _open_lucene(path: Path) -> DocumentStore:
    """Open the Lucene store, which starts a JVM; missing pieces mean the ``search`` extra."""
    try:
        from .lucene import LuceneDocumentStore
    except ImportError as error:
        raise MissingDependencyError("reading a Lucene (Pyserini) index", "search", str(error)) from None
    return LuceneDocumentStore(str(path))
