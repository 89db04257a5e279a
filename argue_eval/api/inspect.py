"""``inspect``: what a file is (its kind and format, detected from the content) and what it holds, counted.

What ``argue-eval inspect`` does minus the rendering: ``formats.inventory.summarize`` streams the file once.
"""
from __future__ import annotations

from os import PathLike
from typing import Any

from .result import Result

__all__ = ["inspect"]


def inspect(path: str | PathLike[str], *, kind: str | None = None, format: str | None = None) -> Result:
    """Detect what ``path`` is (requests, nuggets, run, judgments, qrels, ranked run, scores, a JSONL document
    collection; ``kind``/``format`` to say it instead) and count what it holds (topics are distinct request ids; see ``argue-eval inspect``).

    Returns a ``Result`` whose ``details`` is the one summary (what ``--json`` prints: ``path``, ``kind``,
    ``format``, then the counts and, where the kind has them, ``per_topic`` counts), also as ``data``;
    ``settings`` the kind and format, ``counts`` the summary's figures.
    """
    from ..errors import InputError
    from ..formats.inventory import summarize

    try:
        summary = summarize(path, kind, format)  # type: ignore[arg-type]
    except InputError:
        found = _collection(path) if kind is None and format is None else None
        if found is None:
            raise
        summary = found
    settings: dict[str, Any] = {name: summary[name] for name in ("path", "kind", "format") if name in summary}
    counts = {name: value for name, value in summary.items() if name not in settings}
    return Result("inspect", settings=settings, details=[summary], counts=counts, data=summary)


def _collection(path: str | PathLike[str]) -> dict[str, Any] | None:
    """A file no record format takes may be a JSONL document collection (``collection.jsonl.summarize_collection``)."""
    from ..collection.jsonl import summarize_collection

    return summarize_collection(path)
