"""Document collections: a JSONL collection's offset index built ahead of time, documents looked up by id, and what
backend holds a collection.

What ``argue-eval collection index|get|info`` does minus the printing; ``argue_eval.collection`` holds the stores.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from os import PathLike

from .result import Note, Result

__all__ = ["index_collection", "get_documents", "collection_info"]

PathArg = str | PathLike[str]


def index_collection(path: PathArg, *, cache_dir: PathArg | None = None, rebuild: bool = False,
                     skip_bad_lines: bool = False, beside: bool = False) -> Result:
    """Build (or refresh, or only check) the offset index of a JSONL collection. With ``skip_bad_lines`` malformed
    lines, lines without an id or text and repeated ids are left out, each a warning (the first ones), instead of
    stopping at the first. The index goes to the cache directory (``cache_dir``, else the default one), so no one's
    data folder is written into; ``beside`` writes it next to the collection (``PATH.argue-idx``) instead. ``data``: the index's ``IndexInfo``; ``counts``: ``documents``, ``skipped`` lines,
    ``built`` (whether it was built now) and ``seconds`` (to build it, or to check it was up to date)."""
    from ..collection.jsonl import ensure_index

    started = time.perf_counter()
    info = ensure_index(path, cache_dir, rebuild=rebuild, on_bad_line="skip" if skip_bad_lines else "error",
                        beside=beside)
    seconds = info.seconds if info.built else time.perf_counter() - started
    return Result("collection index", notes=[Note(str(warning), True) for warning in info.warnings],
                  counts={"documents": info.count, "skipped": info.skipped_count, "built": info.built,
                          "seconds": seconds}, data=info)


def get_documents(spec: PathArg, doc_ids: Sequence[str], *, cache_dir: PathArg | None = None) -> Result:
    """The documents of a collection (JSONL, ``irds:`` id or Lucene index) with these ids, in the order asked: the
    rows are ``(doc_id, title, text)``; each id not in the collection is a warning note, counted in
    ``counts["missing"]``."""
    from ..collection import open_collection

    rows, notes = [], []
    with open_collection(spec, cache_dir) as store:
        found = store.get_many(list(doc_ids))
        for doc_id in doc_ids:
            document = found.get(doc_id)
            if document is None:
                notes.append(Note(f"{spec}: no document with id {doc_id!r}", True))
                continue
            rows.append((document.doc_id, document.title, document.text))
    return Result("collection get", rows, notes=notes, counts={"documents": len(rows), "missing": len(notes)},
                  columns=("doc_id", "title", "text"))


def collection_info(spec: PathArg, *, cache_dir: PathArg | None = None) -> Result:
    """What backend holds a collection and how many documents it has (indexing a JSONL file if needed): the rows
    are ``(field, value)`` pairs, ``collection`` and ``documents`` (``unknown`` when the backend cannot count),
    then for an indexed JSONL file its ``index``, ``id_field``, ``text_field`` and any ``skipped_lines``."""
    from ..collection import open_collection

    with open_collection(spec, cache_dir) as store:
        rows: list[tuple[str, object]] = [("collection", store.description)]
        try:
            rows.append(("documents", len(store)))  # type: ignore[arg-type]
        except TypeError:
            rows.append(("documents", "unknown"))
        index = getattr(store, "index", None)
        if index is not None:
            rows += [("index", index.index_path), ("id_field", index.id_field), ("text_field", index.text_field)]
            if index.skipped_count:
                rows.append(("skipped_lines", index.skipped_count))
    return Result("collection info", rows, columns=("field", "value"))
