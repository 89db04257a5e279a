"""The runs an alternate measure scores: every report of the run files (or records), one per run and topic,
and each run's report for each topic the measure evaluates.

ICAT, LongRecall, comprehensiveness and the nuggetizer judging read runs alike: in file order, a run's second
report for a topic an error (the scorer's message, ``errors.second_report_error``), sentences as the units a
measure judges, topics in natural order, and a topic a run has no report for either scored as empty or left
out (``missing_topics``).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..errors import ArgueError, few_items
from ..model import Report, natural_key
from .scoring import check_one_report_per_topic, iter_reports

__all__ = ["read_runs", "report_sentences", "topic_order", "run_ids", "pair_reports",
           "reports_outside", "drop_empty_topics"]


def read_runs(runs: Any) -> list[Report]:
    """Every report of the run files (paths, any run format) or ``Report`` records, in order; a run's second
    report for one topic is an error naming both places."""
    reports = list(iter_reports(runs))
    check_one_report_per_topic(reports)
    return reports


def report_sentences(report: Report) -> list[str]:
    """The report's sentences as claims/facts (blank ones dropped, runs of whitespace collapsed)."""
    return [" ".join(sentence.text.split()) for sentence in report.sentences if sentence.text.strip()]


def topic_order(topics: Iterable[str]) -> list[str]:
    """Topic ids in natural order (``2`` before ``10``), each once."""
    return sorted(set(topics), key=natural_key)


def run_ids(reports: Iterable[Report]) -> list[str]:
    """The runs of ``reports``, in the order of their first report."""
    return list(dict.fromkeys(report.run_id for report in reports))


def pair_reports(reports: Sequence[Report], topics: Sequence[str],
                 missing_topics: str = "zero") -> list[tuple[str, str, Report | None]]:
    """``(run_id, request_id, report)`` for each run and each of ``topics`` (in that order); ``report`` is
    ``None`` where the run has none, a pair left out instead under ``missing_topics="skip"``."""
    by_key = {(report.run_id, report.request_id): report for report in reports}
    pairs: list[tuple[str, str, Report | None]] = []
    for run_id in run_ids(reports):
        for request_id in topics:
            report = by_key.get((run_id, request_id))
            if report is None and missing_topics == "skip":
                continue
            pairs.append((run_id, request_id, report))
    return pairs


def reports_outside(reports: Iterable[Report], topics: Iterable[str]) -> list[str]:
    """The topics that reports are about but that are not among ``topics`` (sorted as text)."""
    return sorted({report.request_id for report in reports} - set(topics), key=str)


def drop_empty_topics(by_topic: dict[str, Any], what: str, source: str) -> list[str]:
    """Remove, in place, the topics with nothing to measure against (no aspects, facts, context atoms) and
    return them in natural order: such a topic is not evaluated, as a topic without nuggets is not in
    ``score`` (docs/scoring.md, "Which topics count"), since its measure is undefined and averaging it in as 0
    would measure how many such topics the inputs list, not the run. When no topic has any, nothing can be
    measured: an error naming ``source`` (the option that gave them), not a table of zeros."""
    empty = topic_order(topic for topic, items in by_topic.items() if not items)
    if empty and len(empty) == len(by_topic):
        raise ArgueError(f"{source}: none of the {len(empty)} topic(s) to evaluate has {what}: "
                         f"{few_items(empty, 5)}")
    for topic in empty:
        del by_topic[topic]
    return empty
