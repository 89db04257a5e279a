"""``validate``: every problem of one or more run files, located, against the requests, a collection and a track.

What ``argue-eval validate`` does minus the printing: ``argue_eval.validate.validate_runs`` with its options
(``ValidateOptions``) given by keyword; ``fix`` is ``validate --fix``: ``argue_eval.repair.fix_run`` on each run,
then the fixed files validated with the same options.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from os import PathLike
from typing import Any

from ..repair import FIXES, Change, FixedRun
from ..validate import Validation

__all__ = ["FIXES", "Fixing", "fix", "validate"]


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
    language: str | None = None,
    language_threshold: float = 0.5,
) -> Validation:
    """The problems of ``runs`` (errors and warnings, sorted by file and line) and what was checked.

    ``requests``: a requests file (any request format, or ``requests_format``) or records; ``collection``: a
    collection spec or an open store, to check that cited documents exist; ``severity``: checks
    (``validate.CHECKS``) reported as ``"warning"`` or ``"error"`` instead of their default (``--warn``,
    ``--error``); ``track``: a preset of ``argue_eval.tracks``; ``language``: the language every report must be in
    (default: the track's; ``"any"``: unchecked); the rest as ``validate.ValidateOptions``.
    """
    from ..validate import ValidateOptions, validate_runs

    options = ValidateOptions(
        limit=limit, unit=unit, max_citations_per_sentence=max_citations_per_sentence,  # type: ignore[arg-type]
        citation_score_range=citation_score_range, severity=dict(severity or {}),  # type: ignore[arg-type]
        format=format, track=track, language=language, language_threshold=language_threshold,
    )
    return validate_runs(runs, requests, collection=collection, options=options, requests_format=requests_format)


@dataclass
class Fixing:
    """What ``validate --fix`` did: each run's repair (``repair.FixedRun``: its changes, located in the input)
    and the fixed files' own validation (what could not be fixed mechanically)."""

    fixed: list[FixedRun]
    validation: Validation

    @property
    def changes(self) -> list[Change]:
        return [change for run in self.fixed for change in run.changes]

    def counts(self) -> dict[str, int]:
        """Changes per fix, in ``FIXES`` order (fixes that changed nothing left out)."""
        total: Counter[str] = Counter()
        for run in self.fixed:
            total.update(run.counts())
        return {name: total[name] for name in FIXES if total[name]}

    def summary(self) -> str:
        """One line: what was changed, then what the fixed runs still have (``Validation.summary``)."""
        reports = sum(run.reports for run in self.fixed)
        changed = sum(run.changed_reports for run in self.fixed)
        counts = self.counts()
        what = f" ({', '.join(f'{count} {name}' for name, count in counts.items())})" if counts else ""
        dropped = sum(run.sentences_dropped for run in self.fixed)
        cut = sum(run.sentences_cut for run in self.fixed)
        sentences = f"; {_plural(dropped, 'sentence')} dropped, {cut} cut" if dropped or cut else ""
        return (f"{_plural(len(self.changes), 'change')} in {changed} of {_plural(reports, 'report')}{what}{sentences}; "
                f"fixed: {self.validation.summary()}")


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def fix(
    runs: Sequence[str | PathLike[str]],
    outputs: Sequence[str | PathLike[str]],
    requests: Any = None,
    *,
    collection: Any = None,
    requests_format: str | None = None,
    limit: int | None = None,
    unit: str | None = None,
    severity: Mapping[str, str] | None = None,
    format: str | None = None,
    track: str | None = None,
    max_citations_per_sentence: int | None = None,
    citation_score_range: tuple[float, float] | None = None,
    language: str | None = None,
    language_threshold: float = 0.5,
    changes_path: str | PathLike[str] | None = None,
) -> Fixing:
    """Write each of ``runs`` repaired to the output at the same position (``repair.fix_run``), then validate the
    fixed files with the same options: what ``validate --fix -o FIXED`` does. The inputs are never written;
    ``changes_path`` also writes every change as a TSV table (``repair.write_changes``)."""
    from ..repair import fix_run, write_changes
    from ..validate import ValidateOptions, validate_runs
    from ..writing import commit_together

    if len(runs) != len(outputs):
        raise ValueError(f"{len(runs)} run(s) but {len(outputs)} output(s)")
    options = ValidateOptions(
        limit=limit, unit=unit, max_citations_per_sentence=max_citations_per_sentence,  # type: ignore[arg-type]
        citation_score_range=citation_score_range, severity=dict(severity or {}),  # type: ignore[arg-type]
        format=format, track=track, language=language, language_threshold=language_threshold,
    )
    with commit_together():  # every fixed run and the changes table, or none of them
        fixed = [fix_run(run, output, requests, collection=collection, options=options,
                         requests_format=requests_format) for run, output in zip(runs, outputs)]
        if changes_path is not None:
            write_changes([change for run in fixed for change in run.changes], changes_path)
    validation = validate_runs(outputs, requests, collection=collection, options=options, requests_format=requests_format)
    return Fixing(fixed, validation)
