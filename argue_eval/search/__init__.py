"""Searching a collection for assessors: BM25 over a Lucene index (``lucene``, Pyserini/Anserini) or dense
retrieval with faiss over MiniLM embeddings (``dense``).

Both build their index on first use, cache it beside the collection (``.argue-cache/`` in the collection's
directory, or the user cache when that is not writable) and rebuild it when the collection changes. Both
return ``[(doc_id, score), ...]`` best first. Nothing heavy is imported until a searcher is opened.
"""
from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..model import Document

CACHE_DIR_NAME = ".argue-cache"


@dataclass
class IndexInfo:
    """What ``ensure_index``/``ensure_dense_index`` found or built: where, how many documents, whether built now."""

    index_dir: Path
    documents: int
    built: bool
    seconds: float = 0.0


def index_dir_for(collection: Path, suffix: str, cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """Where the ``suffix`` index of ``collection`` lives: ``<dir>/.argue-cache/<name><suffix>`` when that
    directory is writable, else the user cache (``$ARGUE_EVAL_CACHE`` or ``~/.cache/argue-eval``) under a
    name that includes a hash of the collection's absolute path. An explicit ``cache_dir`` always wins."""
    from ..collection.jsonl import cache_root

    absolute = collection.resolve()
    digest = hashlib.sha256(str(absolute).encode("utf-8")).hexdigest()[:16]
    if cache_dir is not None:
        return Path(cache_dir).expanduser() / f"{absolute.name}-{digest}{suffix}"
    beside = absolute.parent / CACHE_DIR_NAME
    if os.access(absolute.parent, os.W_OK) and (not beside.exists() or os.access(beside, os.W_OK)):
        return beside / f"{absolute.name}{suffix}"
    return cache_root() / "search" / f"{absolute.name}-{digest}{suffix}"


def iter_collection(path: Path) -> Iterator[Document]:
    """Stream a JSONL collection's documents (id field ``doc_id``/``docid``/``id``/``_id``, text field
    ``text``/``contents``/``body``, optional ``title``), with a located error for a record without them, for an
    id with a control character, and for an id given twice (as the offset index refuses them: two texts under
    one id would make which one grounds a claim depend on the order of the file)."""
    from ..collection.base import ID_FIELDS, TEXT_FIELDS, document_from_record, pick_field
    from ..errors import id_control_character
    from ..reading import iter_jsonl

    id_field = text_field = None
    first_line: dict[str, int] = {}
    for lineno, record in iter_jsonl(path):
        if id_field is None or id_field not in record:
            id_field = pick_field(record, ID_FIELDS)
            if id_field is None:
                raise InputError(path, lineno, None, f"no document id field (expected one of {', '.join(ID_FIELDS)})")
        if text_field is None or text_field not in record:
            text_field = pick_field(record, TEXT_FIELDS)
            if text_field is None:
                raise InputError(path, lineno, None, f"no text field (expected one of {', '.join(TEXT_FIELDS)})")
        if not isinstance(record[id_field], (str, int)) or isinstance(record[id_field], bool):
            raise InputError(path, lineno, id_field, f"expected a string id, found {record[id_field]!r}")
        if not isinstance(record[text_field], str):
            raise InputError(path, lineno, text_field, "expected a string")
        document = document_from_record(record, id_field, text_field)
        bad = id_control_character(document.doc_id)
        if bad is not None:
            raise InputError(path, lineno, id_field, f"id contains the control character {bad}; ids must be "
                             "printable text")
        if document.doc_id in first_line:
            raise InputError(path, lineno, None, f"duplicate document id {document.doc_id!r} (first on line "
                             f"{first_line[document.doc_id]})")
        first_line[document.doc_id] = lineno
        yield document


# --- index freshness and replacement, shared by the BM25 and the dense index ------------------------------

STAMP_SUFFIX = ".stamp.json"


def stamp_path(index_dir: Path) -> Path:
    """The stamp file beside an index (``<index>.stamp.json``): what the index was built from."""
    return index_dir.with_name(index_dir.name + STAMP_SUFFIX)


def source_stamp(collection: Path, index_format: str) -> dict[str, object]:
    """What identifies the collection an index is built from (path, size, mtime, sampled content) and the
    index layout, so a changed collection or a new layout makes the index stale."""
    from ..collection.jsonl import source_state
    from ..reading import is_stream

    if is_stream(collection):  # <(zcat docs.jsonl.gz): nothing to fingerprint, or to read again for the index
        raise InputError(collection, None, None, "is a pipe or device, not a file: a search index is built from a "
                         "collection file and rebuilt when it changes, so give it as a file")
    state = source_state(collection)
    return {
        "format": index_format,
        "source": str(collection.resolve()),
        "size": state.size,
        "mtime_ns": state.mtime_ns,
        "fingerprint": state.fingerprint,
    }


def recorded_documents(index_dir: Path, stamp: dict[str, object]) -> int | None:
    """The document count recorded for a fresh index (its stamp matches ``stamp``), else ``None``."""
    try:
        recorded = json.loads(stamp_path(index_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(recorded, dict) or any(recorded.get(key) != value for key, value in stamp.items()):
        return None
    return int(recorded.get("documents", -1))


def write_stamp(index_dir: Path, stamp: dict[str, object], documents: int) -> None:
    """Record what a freshly built index was built from (atomically; written after the index itself)."""
    from ..writing import atomic_writer

    with atomic_writer(stamp_path(index_dir)) as handle:
        handle.write(json.dumps({**stamp, "documents": documents}, indent=1) + "\n")


def replace_dir(fresh: Path, target: Path, work: Path) -> None:
    """Put the directory ``fresh`` in place of ``target`` with renames (the old one moves into ``work``,
    which the caller removes), so a reader never sees a half-written index."""
    if target.exists():
        os.replace(target, work / "old")
    os.replace(fresh, target)
