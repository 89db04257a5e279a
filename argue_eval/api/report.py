"""``report_inputs``: what the HTML report shows, read from the files a command names (the page itself is
``argue_eval.report``'s, which reads no file).

The score tables are read at once (a bad line stops before anything is built); the details and judgments are
streamed to the report, which keeps only what its views show.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from os import PathLike
from typing import Any, NamedTuple

from ..model import Judgment, ScoreRecord

__all__ = ["report_inputs", "ReportInputs", "read_judgment_files"]

PathArg = str | PathLike[str]


class ReportInputs(NamedTuple):
    """The keyword inputs of ``report.write_report`` (``scores`` first): the score records, the details records
    (streamed), the requests, the nugget bank and the judgments (streamed)."""

    scores: list[ScoreRecord]
    details: Iterable[dict[str, Any]]
    requests: Sequence[Any]
    nuggets: Sequence[Any]
    judgments: Iterable[Judgment]


def read_judgment_files(paths: Iterable[PathArg]) -> Iterator[Judgment]:
    """The judgments of every file in turn (canonical or Auto-ARGUE, detected), as the report shows them."""
    from ..formats import read_judgments

    for path in paths:
        yield from read_judgments(path)


def report_inputs(
    scores: Sequence[PathArg],
    *,
    details: Sequence[PathArg] = (),
    requests: PathArg | None = None,
    nuggets: PathArg | None = None,
    judgments: Sequence[PathArg] = (),
    scores_format: str | None = None,
    detail_notes: list[str] | None = None,
) -> ReportInputs:
    """Read what ``argue-eval report`` shows: score tables (``scores_format``, else detected), ``score --details``
    files, the requests, the nugget bank and judgment files whose rationales are shown. Another measure's
    ``--details`` file (no flowchart outcomes to show) yields nothing and says so in ``detail_notes``."""
    from ..formats import read_nuggets, read_requests
    from ..formats.details import read_details
    from ..formats.scores import read_scores

    records = [record for path in scores for record in read_scores(path, scores_format)]
    return ReportInputs(
        records,
        (record for path in details for record in read_details(path, detail_notes)),
        list(read_requests(requests)) if requests else (),
        list(read_nuggets(nuggets)) if nuggets else (),
        read_judgment_files(judgments),
    )
