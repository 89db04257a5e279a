"""``validate``: every problem of one or more run files, located, against the requests, a collection and a track.

What ``argue-eval validate`` does minus the printing: ``argue_eval.validate.validate_runs`` with its options
(``ValidateOptions``) given by keyword.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from os import PathLike
from typing import Any

from ..validate import Validation

__all__ = ["validate"]


def validate(
    runs: Sequence[str | PathLike[str]],
    requests: Any = None,
    *,
    collection: Any = None,
    requests_format: str | None = None,
    limit: int | None = None,
    unit: str | None = None,
    max_citations_per_sentence: int | None = None,
    citation_score_range: tuple[float, float] | None = None,
    severity: Mapping[str, str] | None = None,
    format: str | None = None,
    track: str | None = None,
) -> Validation:
    """The problems of ``runs`` (errors and warnings, sorted by file and line) and what was checked.

    ``requests``: a requests file (any request format, or ``requests_format``) or records; ``collection``: a
    collection spec or an open store, to check that cited documents exist; ``severity``: checks
    (``validate.CHECKS``) reported as ``"warning"`` or ``"error"`` instead of their default (``--warn``,
    ``--error``); ``track``: a preset of ``argue_eval.tracks``; the rest as ``validate.ValidateOptions``.
    """
    from ..validate import ValidateOptions, validate_runs

    options = ValidateOptions(
        limit=limit, unit=unit, max_citations_per_sentence=max_citations_per_sentence,  # type: ignore[arg-type]
        citation_score_range=citation_score_range, severity=dict(severity or {}),  # type: ignore[arg-type]
        format=format, track=track,
    )
    return validate_runs(runs, requests, collection=collection, options=options, requests_format=requests_format)
