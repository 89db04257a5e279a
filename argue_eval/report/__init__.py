"""The static HTML report: leaderboard, per-topic heatmap, report and nugget views in one offline file.

``build_report_data`` turns records (score rows, ``score --details`` records, requests, nuggets, judgments)
into the page's data; ``render_html`` makes the page; ``write_report`` does both and writes atomically.
Nothing here reads an input file: ``argue_eval.commands.report`` reads them through ``argue_eval.formats``.
"""
from __future__ import annotations

from os import PathLike
from typing import Any

from .data import ReportData, ReportOptions, build_report_data
from .html import render_html, script_json

__all__ = ["ReportData", "ReportOptions", "build_report_data", "render_html", "script_json", "write_report",
           "write_evaluation_report"]


def write_report(path: str | PathLike[str], scores: Any, **kwargs: Any) -> ReportData:
    """Build the report from ``scores`` (and the keyword inputs of ``build_report_data``) and write it to ``path``.

    The file is written atomically (never half-written). Returns the data, whose ``notes`` say what was left
    out or adjusted.
    """
    from ..jsonio import atomic_writer

    data = build_report_data(scores, **kwargs)
    with atomic_writer(path) as handle:
        handle.write(render_html(data))
    return data


def write_evaluation_report(path: str | PathLike[str], rows: Any, details: Any, requests: Any, nuggets: Any,
                            judgments: Any, collection: str | PathLike[str] | None,
                            options: ReportOptions | None = None) -> ReportData:
    """The report of what ``evaluate`` just judged and scored, with the cited documents from ``collection``."""
    from contextlib import ExitStack

    with ExitStack() as stack:
        documents = None
        if collection is not None:
            from ..collection import open_collection

            documents = stack.enter_context(open_collection(collection)).lookup
        return write_report(path, rows, details=details, requests=requests, nuggets=nuggets, judgments=judgments,
                            documents=documents, options=options)
