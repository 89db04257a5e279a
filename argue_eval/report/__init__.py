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

__all__ = ["ReportData", "ReportOptions", "build_report_data", "render_html", "script_json", "write_report"]


def write_report(path: str | PathLike[str], scores: Any, collection: str | PathLike[str] | None = None,
                 **kwargs: Any) -> ReportData:
    """Build the report from ``scores`` (and the keyword inputs of ``build_report_data``) and write it to ``path``.

    ``collection`` (a JSONL file, Lucene index or ``irds:`` id) is opened to show the cited documents,
    unless ``documents`` gives a lookup already. The file is written atomically (never half-written).
    Returns the data, whose ``notes`` say what was left out or adjusted.
    """
    from contextlib import ExitStack

    from ..writing import atomic_writer

    with ExitStack() as stack:
        if collection is not None and kwargs.get("documents") is None:
            from ..collection import open_collection

            kwargs["documents"] = stack.enter_context(open_collection(collection)).lookup
        data = build_report_data(scores, **kwargs)
    with atomic_writer(path) as handle:
        handle.write(render_html(data))
    return data
