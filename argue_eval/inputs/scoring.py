"""What ``score``, ``judge`` and ``evaluate`` read: nuggets, requests, qrels and judgments into an
``Evaluation`` and an ``ImportedJudgments`` source, the runs' reports, and score tables into a matrix.

The scorer (``argue/``) and the judge backends (``judges/``) never open a file: the CLI commands and the
Python API (``argue_eval.api``) call these functions, which read through ``argue_eval.formats`` (every
format detected from content) and return records. Keeping the reading here is what lets a judge's output
be scored exactly like a judgments file.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ..argue.api import Evaluation
from ..argue.policies import Policies
from ..errors import InputError, OptionError, few_items, second_report_error
from ..judges.base import JudgmentLookup
from ..judges.imported import FileSummary, ImportedJudgments
from ..model import Judgment, QrelsRow, Report, Request, ScoreRecord, TopicNuggets, natural_key

if TYPE_CHECKING:
    from ..stats.matrix import ScoreMatrix

__all__ = [
    "Inputs",
    "add_judgment_file",
    "as_paths",
    "check_one_report_per_topic",
    "check_topic_overlap",
    "iter_reports",
    "load_inputs",
    "load_judgments",
    "load_matrix",
    "read_judgment_records",
    "read_nugget_list",
    "read_qrels_rows",
    "read_request_list",
]


def as_paths(value: Any) -> list[Path] | None:
    """``value`` as a list of paths when it is a path or a list of paths, else ``None`` (records)."""
    if isinstance(value, (str, PathLike)):
        return [Path(value)]
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, (str, PathLike)) for v in value):
        return [Path(v) for v in value]
    return None


def read_nugget_list(nuggets: Any) -> list[TopicNuggets]:
    """Nuggets from a path (any nugget format, or a workbench database: its bank as it stands) or from
    ``TopicNuggets`` records."""
    from ..formats import read_nuggets

    if not isinstance(nuggets, (str, PathLike)):
        return list(nuggets)
    from .workbench import is_workbench_database, read_bank

    if is_workbench_database(nuggets):
        return read_bank(nuggets)
    return list(read_nuggets(nuggets))


def read_request_list(requests: Any) -> list[Request] | None:
    from ..formats import read_requests

    if requests is None:
        return None
    return list(read_requests(requests)) if isinstance(requests, (str, PathLike)) else list(requests)


def read_qrels_rows(qrels: Any) -> list[QrelsRow] | None:
    """The rows of a qrels file (or the rows given). A (topic, document) pair judged twice with two grades (in
    one iteration column: diversity qrels judge a document per subtopic there) is a located error, as in
    ``qrels stats``: which grade holds would depend on the order of the lines. The same grade twice agrees and
    is kept once."""
    from pathlib import Path

    from ..formats import resolve
    from ..formats.qrels import iter_qrels_lines

    if qrels is None:
        return None
    if not isinstance(qrels, (str, PathLike)):
        return list(qrels)
    resolve(qrels, "qrels")  # a file of another kind is refused as such, before its lines are read
    rows: list[QrelsRow] = []
    first: dict[tuple[str, str, str], tuple[int, int]] = {}
    for line, row in iter_qrels_lines(Path(qrels)):
        # the second column is a subtopic in diversity qrels: one document judged for two subtopics is no conflict
        pair = (row.request_id, row.iteration, row.doc_id)
        if pair in first:
            grade, earlier = first[pair]
            if grade != row.relevance:
                raise InputError(qrels, line, "relevance", f"topic {row.request_id!r}, document {row.doc_id!r} is "
                                 f"judged {row.relevance} here and {grade} on line {earlier}; keep one (argue-eval "
                                 "qrels merge --on-duplicate max|last resolves duplicates)")
            continue
        first[pair] = (row.relevance, line)
        rows.append(row)
    return rows


def add_judgment_file(source: ImportedJudgments, path: str | PathLike[str], format: str | None = None,
                      keep_reports: bool = False) -> FileSummary:
    """Load one judgments file into ``source`` (canonical or Auto-ARGUE, detected unless ``format`` is named), or
    the answers of a workbench database (``inputs.workbench``; with ``keep_reports``, its reports too)."""
    from ..formats import resolve
    from ..formats.judgments import iter_autoargue, iter_judgment_rows
    from .workbench import is_workbench_database, read_round

    label = str(path)
    if is_workbench_database(path):
        _, answers, reports = read_round(path)
        summary = source.add_judgments(answers.judgments, label, "workbench")
        summary.notes.extend(answers.notes())
        if keep_reports:
            source.embedded_reports.extend(reports)
        return summary
    spec = resolve(path, "judgments", format)
    if spec.name == "autoargue":
        return source.add_autoargue(iter_autoargue(Path(path)), label, keep_reports)
    if spec.name == "argue":
        return source.add_rows(iter_judgment_rows(Path(path)), label)
    return source.add_judgments(spec.read(Path(path)), label, spec.name)


def read_judgment_records(path: str | PathLike[str], nuggets: Iterable[TopicNuggets]) -> list[Judgment]:
    """The judgments of one file as records: canonical, Auto-ARGUE (read with ``nuggets``, the bank it was judged
    with, as ``score`` reads it) or a workbench database (its answers, as ``assess export-db`` writes them)."""
    from ..formats import resolve
    from ..formats.judgments import read_autoargue
    from .workbench import is_workbench_database, read_round

    if is_workbench_database(path):
        return read_round(path)[1].judgments
    spec = resolve(path, "judgments")
    if spec.name == "autoargue":
        return list(read_autoargue(Path(path), list(nuggets)))
    return list(spec.read(Path(path)))


def load_judgments(judgments: Any, nuggets: list[TopicNuggets], keep_reports: bool = False) -> Any:
    """A judgment source from paths (canonical or Auto-ARGUE), ``Judgment`` records, or a lookup itself."""
    if isinstance(judgments, ImportedJudgments):
        return judgments
    if not isinstance(judgments, (str, PathLike, list, tuple)) and isinstance(judgments, JudgmentLookup):
        return judgments
    source = ImportedJudgments(nuggets)
    if judgments is None or (isinstance(judgments, (list, tuple)) and not judgments):
        return source
    paths = as_paths(judgments)
    if paths is not None:
        for path in paths:
            add_judgment_file(source, path, keep_reports=keep_reports)
    else:
        records = list(cast(Iterable[Any], judgments))  # not paths (as_paths said so): records
        if records and not all(isinstance(j, Judgment) for j in records):
            raise TypeError("judgments must be paths, Judgment records or a JudgmentLookup")
        source.add_judgments(records)
    return source


def iter_reports(runs: Any, source: Any = None) -> Iterator[Report]:
    """Reports from run paths (any run format, streamed) or records; ``None``: those inside Auto-ARGUE files."""
    from ..formats import read_reports

    if runs is None:
        embedded = getattr(source, "embedded_reports", None)
        if embedded:
            yield from embedded
            return
        raise OptionError("--run", "no runs given (and no Auto-ARGUE judgments file to take the reports from)")
    paths = as_paths(runs)
    if paths is None:
        yield from runs
        return
    for path in paths:
        yield from read_reports(path)


def check_one_report_per_topic(reports: Iterable[Report], topics: Any = None) -> None:
    """A run's second report for a topic (of ``topics``; ``None``: any topic) is an error, as the scorer says; a
    judge checks first, so that a resubmitted file beside the original (one run id) is refused before hours
    of judging, not after."""
    seen: dict[tuple[str, str], Any] = {}
    for report in reports:
        if topics is not None and report.request_id not in topics:
            continue
        pair = (report.run_id, report.request_id)
        if pair in seen:
            raise second_report_error(report, seen[pair])
        seen[pair] = report.source


def check_topic_overlap(source: Any, topics: Iterable[str], notes: list[str]) -> None:
    """A judgments file about other topics only is an error; one partly about other topics is noted."""
    wanted = set(topics)
    for summary in getattr(source, "files", ()):
        if not summary.topics:
            continue
        foreign = sorted(summary.topics - wanted, key=natural_key)
        if len(foreign) == len(summary.topics):
            raise InputError(
                summary.path, None, None,
                f"none of its judgments is for a topic being scored (it judges topics {few_items(foreign, 5)}; "
                f"scored topics: {few_items(sorted(wanted, key=natural_key), 5)}): is it from another track or topic set?",
            )
        if foreign:
            notes.append(f"{summary.path}: judgments for {len(foreign)} topic(s) not being scored are unused: "
                         f"{few_items(foreign)}")
        if summary.overridden:
            notes.append(f"{summary.path}: overrides {summary.overridden} judgment(s) of earlier files")
        if summary.disagreements:
            notes.append(f"{summary.path}: {summary.disagreements} judgment(s) repeated with a different answer "
                         "by another judge or report; the later line is used")
        notes.extend(f"{summary.path}: {note}" for note in summary.notes)


@dataclass
class Inputs:
    """Everything a scoring or judging command reads: the evaluation, the imported judgments, the runs."""

    evaluation: Evaluation
    source: ImportedJudgments
    runs: Any
    nuggets: list[TopicNuggets]

    def reports(self) -> Iterator[Report]:
        return iter_reports(self.runs if self.runs else None, self.source)


def load_inputs(runs: Any, nuggets: Any, judgments: Any, requests: Any, qrels: Any, policies: Policies) -> Inputs:
    """Read nuggets, requests and qrels (checked before the big read), then the judgment files.

    Notes about the judgment files (unused topics, overrides) join the evaluation's notes.
    """
    nugget_list = read_nugget_list(nuggets)
    evaluation = Evaluation.build(nugget_list, policies, read_request_list(requests), read_qrels_rows(qrels))
    source = load_judgments(judgments, nugget_list, keep_reports=not runs)
    check_topic_overlap(source, evaluation.order, evaluation.notes)
    if isinstance(runs, (list, tuple)):
        runs = list(runs)
    return Inputs(evaluation, source, runs, nugget_list)


def load_matrix(
    paths: Sequence[str | PathLike[str]], metric: str, format: str | None = None, missing: str = "zero"
) -> ScoreMatrix:
    """Read one or more score tables (one per run, or one with many runs) into one matrix of ``metric``."""
    from ..formats.scores import read_scores
    from ..stats.matrix import records_to_matrix

    def records() -> Iterable[ScoreRecord]:
        for path in paths:
            yield from read_scores(path, format)

    source = ", ".join(str(path) for path in paths) if len(paths) <= 3 else f"{len(paths)} score tables"
    return records_to_matrix(records(), metric, missing, source)
