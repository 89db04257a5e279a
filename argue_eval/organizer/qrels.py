"""Qrels for organizers: read with a duplicate policy, build from assessor judgments, derive from nuggets,
merge, summarize.

Qrels are held as ``{topic: {doc_id: grade}}`` (insertion-ordered dicts) and written sorted (topics in
natural order, documents by id) so reruns are byte-identical. A (topic, document) pair that appears twice
is an error by default, because silently keeping one of two different grades hides an assessment mistake;
``on_duplicate="max"`` keeps the highest grade, ``"last"`` the later line (or the later file in a merge).
"""
from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Literal

from ..csvsafe import long_cells, unguard
from ..errors import ArgueError, InputError, id_control_character, unknown_name
from ..formats.qrels import parse_grade
from ..model import ALL_TOPICS, QrelsRow, TopicNuggets, natural_key
from ..reading import text_lines
from .pooling import UNJUDGED

OnDuplicate = Literal["error", "max", "last"]
ON_DUPLICATE: tuple[str, ...] = ("error", "max", "last")
Grade = Literal["count", "weighted"]
NUGGET_WEIGHTS = {"vital": 2, "okay": 1, None: 1}
"""Weights for ``--grade weighted`` (the same vital = 2, okay = 1, unlabelled = 1 as the weighted ARGUE measures)."""

Qrels = dict[str, dict[str, int]]


@dataclass
class QrelsFile:
    """Qrels read from one file, with the line each judgment came from (for later error messages)."""

    path: str
    qrels: Qrels = field(default_factory=dict)
    lines: dict[tuple[str, str], int] = field(default_factory=dict)

    def add(self, topic: str, doc_id: str, grade: int, line: int, on_duplicate: OnDuplicate) -> None:
        """Record the judgment on ``line``, applying the duplicate policy within this file."""
        docs = self.qrels.setdefault(topic, {})
        key = (topic, doc_id)
        if doc_id in docs:
            if on_duplicate == "error":
                raise InputError(
                    self.path, line, None,
                    f"duplicate judgment for topic {topic!r}, document {doc_id!r} (first on line {self.lines[key]}); "
                    "pass --on-duplicate max|last to resolve duplicates",
                )
            if on_duplicate == "max" and grade <= docs[doc_id]:
                return
        docs[doc_id] = grade
        self.lines[key] = line


def read_qrels_file(path: str | PathLike[str], on_duplicate: OnDuplicate = "error") -> QrelsFile:
    """Read TREC qrels into a :class:`QrelsFile`, applying the duplicate policy within the file."""
    from ..formats.qrels import iter_qrels_lines

    if on_duplicate not in ON_DUPLICATE:
        raise unknown_name("--on-duplicate", "duplicate policy", on_duplicate, ON_DUPLICATE)
    result = QrelsFile(str(path))
    for lineno, row in iter_qrels_lines(Path(path)):
        result.add(row.request_id, row.doc_id, row.relevance, lineno, on_duplicate)
    if not result.qrels:  # an empty table or measures of nothing would look like a result
        raise InputError(path, None, None, "no qrels lines (the file is empty); expected `qid iteration docno relevance`")
    return result


def read_qrels(path: str | PathLike[str], on_duplicate: OnDuplicate = "error") -> Qrels:
    """``{topic: {doc_id: grade}}`` from a TREC qrels file (see :func:`read_qrels_file`)."""
    return read_qrels_file(path, on_duplicate).qrels


def qrels_rows(qrels: Mapping[str, Mapping[str, int]]) -> Iterator[QrelsRow]:
    """Rows sorted by topic (natural order) then document id: the canonical, byte-stable order."""
    for topic in sorted(qrels, key=natural_key):
        for doc_id in sorted(qrels[topic]):
            yield QrelsRow(topic, doc_id, int(qrels[topic][doc_id]), "0")


def write_qrels(qrels: Mapping[str, Mapping[str, int]], path: str | PathLike[str]) -> int:
    """Write TREC qrels atomically in canonical order; return the number of lines."""
    from ..formats.qrels import write_trec_qrels

    return write_trec_qrels(qrels_rows(qrels), Path(path))


# --- merge ---------------------------------------------------------------------------------------------------


@dataclass
class MergeResult:
    qrels: Qrels
    conflicts: list[tuple[str, str, list[tuple[str, int]]]]
    """``(topic, doc_id, [(file, grade), ...])`` for every pair whose files disagree (resolved by the policy)."""


def merge_qrels(paths: Sequence[str | PathLike[str]], on_duplicate: OnDuplicate = "error") -> MergeResult:
    """Union of several qrels files. Equal grades for the same pair agree; different grades are a conflict:
    an error by default (naming both files and lines), else resolved with ``max`` or ``last`` (later file wins).
    The same policy applies to duplicates inside each file."""
    return union((read_qrels_file(path, on_duplicate) for path in paths), on_duplicate)


def union(files: Iterable[QrelsFile], on_duplicate: OnDuplicate = "error") -> MergeResult:
    """The union of judgments read from several files (in order), with ``merge_qrels``' conflict policy."""
    merged: Qrels = {}
    origin: dict[tuple[str, str], list[tuple[str, int]]] = {}
    where: dict[tuple[str, str], tuple[str, int | None]] = {}
    conflicts: dict[tuple[str, str], None] = {}
    for current in files:
        for topic, docs in current.qrels.items():
            target = merged.setdefault(topic, {})
            for doc_id, grade in docs.items():
                key = (topic, doc_id)
                origin.setdefault(key, []).append((current.path, grade))
                if doc_id in target and target[doc_id] != grade:
                    if on_duplicate == "error":
                        first_path, first_line = where[key]
                        raise InputError(
                            current.path, current.lines.get(key), None,
                            f"topic {topic!r}, document {doc_id!r} has grade {grade} here but {target[doc_id]} in "
                            f"{first_path}:{first_line}; pass --on-duplicate max|last to resolve conflicts",
                        )
                    conflicts[key] = None
                    if on_duplicate == "max" and grade <= target[doc_id]:
                        continue
                target[doc_id] = grade
                where[key] = (current.path, current.lines.get(key))
    return MergeResult(merged, [(topic, doc, origin[(topic, doc)]) for topic, doc in conflicts])


# --- from nuggets --------------------------------------------------------------------------------------------


def qrels_from_nuggets(topics: Iterable[TopicNuggets], grade: Grade = "count") -> Qrels:
    """Relevance from nugget bindings: a document is relevant when it attests an answer of some nugget.

    ``count``: grade = number of distinct nuggets (questions) of the topic with an answer the document
    attests; ``weighted``: the same sum with each nugget weighted vital = 2, okay = 1, unlabelled = 1.
    A document attesting two answers of one nugget counts that nugget once. Topics appear even when none
    of their nuggets is bound (with no documents), so the topic set is the nugget bank's.
    """
    if grade not in ("count", "weighted"):
        raise unknown_name("--grade", "grade", grade, ("count", "weighted"))
    qrels: Qrels = {}
    for topic in topics:
        docs = qrels.setdefault(topic.request_id, {})
        for nugget in topic.nuggets:
            weight = NUGGET_WEIGHTS.get(nugget.importance, 1) if grade == "weighted" else 1
            attested = {doc_id for answer in nugget.answers for doc_id in answer.doc_ids}
            for doc_id in attested:
                docs[doc_id] = docs.get(doc_id, 0) + weight
    return qrels


# --- build from assessor judgments ---------------------------------------------------------------------------


@dataclass
class BuildResult:
    qrels: Qrels
    unjudged: list[tuple[str, str]]
    """Pooled pairs without a judgment (when the policy did not make that an error)."""
    outside: list[tuple[str, str]]
    """Judged pairs that are not in the pool (kept: assessors may add documents they found by search)."""


def read_assessments(path: str | PathLike[str], on_duplicate: OnDuplicate = "error") -> QrelsFile:
    """Assessor judgments: the assessor package (JSONL or CSV) with ``relevance`` filled in, or TREC qrels.

    Package rows whose ``relevance`` is still empty are skipped (not yet judged); a filled one must be an
    integer. Duplicates follow ``on_duplicate`` as in qrels files.
    """
    path = Path(path)
    if path.suffix.lower() != ".csv" and not _starts_with_json(path):
        return read_qrels_file(path, on_duplicate)
    result = QrelsFile(str(path))
    for lineno, record in _package_rows(path):
        for name in ("request_id", "doc_id"):
            if not isinstance(record.get(name), (str, int)) or record.get(name) in ("", None):
                raise InputError(path, lineno, name, f"expected a non-empty id, found {record.get(name)!r}")
        topic_id, doc_id = str(record["request_id"]), str(record["doc_id"])
        for name, id_text in (("request_id", topic_id), ("doc_id", doc_id)):
            bad = id_control_character(id_text)
            if bad is not None:
                raise InputError(path, lineno, name, f"id contains the control character {bad}")
        value = record.get("relevance")
        if value is None or (isinstance(value, str) and not value.strip()):
            continue
        try:
            if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                raise ValueError
            relevance = int(value.strip() if isinstance(value, str) else value)
        except (TypeError, ValueError):
            raise InputError(path, lineno, "relevance", f"expected an integer grade, found {value!r}") from None
        relevance = parse_grade(path, lineno, relevance)
        result.add(topic_id, doc_id, relevance, lineno, on_duplicate)
    return result


def _starts_with_json(path: Path) -> bool:
    from ..formats.base import Probe

    if not path.exists():
        raise InputError(path, None, None, "no such file")
    line = Probe(path).first_line
    return line is not None and line.lstrip().startswith("{")


def _package_rows(path: Path) -> Iterator[tuple[int, dict]]:
    """The rows of an assessor package (JSONL or CSV) with the line each starts on. A CSV row with more or fewer
    cells than the header, and a package with no row at all, are errors: a row cut short would otherwise read
    as not yet judged, and a header alone as an empty qrels file."""
    rows = 0
    if path.suffix.lower() == ".csv":
        row_start = 2
        try:
            with long_cells(), closing(text_lines(path)) as lines:  # a document's text (--collection) is one cell
                reader = csv.DictReader(lines)
                for name in ("request_id", "doc_id", "relevance"):
                    if reader.fieldnames is None or name not in reader.fieldnames:
                        raise InputError(path, 1, name, "missing column (expected request_id, doc_id, relevance)")
                columns = len(reader.fieldnames or ())
                for record in reader:
                    if None in record:
                        raise InputError(path, row_start, None, f"{len(record[None])} more cell(s) than the "
                                         f"header's {columns} columns")
                    missing = sum(1 for value in record.values() if value is None)
                    if missing:
                        raise InputError(path, row_start, None, f"{missing} cell(s) fewer than the header's {columns} "
                                         "columns: is the row cut short?")
                    rows += 1
                    yield row_start, {name: unguard(value) for name, value in record.items()}
                    row_start = reader.line_num + 1
        except FileNotFoundError:
            raise InputError(path, None, None, "no such file") from None
        except csv.Error as error:
            raise InputError(path, row_start, None, f"not readable as CSV: {error}") from None
        except UnicodeDecodeError:
            raise InputError(path, None, None, "invalid UTF-8 (save the spreadsheet as CSV UTF-8)") from None
    else:
        from ..reading import iter_jsonl

        for row in iter_jsonl(path):
            rows += 1
            yield row
    if not rows:
        raise InputError(path, None, None, "no assessment rows (only a header?); expected the assessor package of "
                         "`argue-eval pool --package` with its relevance column filled in")


UnjudgedPolicy = Literal["error", "drop", "nonrelevant"]


def _without_unjudged_markers(files: Iterable[QrelsFile]) -> Iterator[QrelsFile]:
    """The files, each checked to hold no ``UNJUDGED`` grade: that is a pool line nobody judged yet."""
    for current in files:
        for topic, docs in current.qrels.items():
            for doc_id, grade in docs.items():
                if grade == UNJUDGED:
                    raise InputError(
                        current.path, current.lines.get((topic, doc_id)), "relevance",
                        f"grade {UNJUDGED} marks an unjudged pool entry; judge topic {topic!r}, document {doc_id!r} "
                        "or remove the line",
                    )
        yield current


def build_qrels(
    pool: Mapping[str, Mapping[str, int]] | None,
    assessments: Sequence[QrelsFile],
    unjudged: UnjudgedPolicy = "error",
    on_duplicate: OnDuplicate = "error",
) -> BuildResult:
    """Qrels from assessor judgments of a pool.

    Later assessment files override earlier ones for the same pair only when ``on_duplicate`` allows it
    (``last``/``max``); different grades are otherwise an error. Pooled documents nobody judged are an
    error listing them (``unjudged="error"``), left out (``drop``), or judged 0 (``nonrelevant``).
    Judgments outside the pool are kept and reported.
    """
    merged = union(_without_unjudged_markers(assessments), on_duplicate).qrels
    missing: list[tuple[str, str]] = []
    outside: list[tuple[str, str]] = []
    if pool is not None:
        for topic in sorted(pool, key=natural_key):
            for doc_id in pool[topic]:
                if doc_id not in merged.get(topic, {}):
                    missing.append((topic, doc_id))
        for topic, docs in merged.items():
            for doc_id in docs:
                if doc_id not in pool.get(topic, {}):
                    outside.append((topic, doc_id))
    if missing and unjudged == "error":
        shown = ", ".join(f"{topic}/{doc_id}" for topic, doc_id in missing[:10])
        raise ArgueError(
            f"{len(missing)} pooled document(s) have no judgment: {shown}{' ...' if len(missing) > 10 else ''}; "
            "judge them, or pass --unjudged drop|nonrelevant"
        )
    if unjudged == "nonrelevant":
        for topic, doc_id in missing:
            merged.setdefault(topic, {})[doc_id] = 0
    return BuildResult(merged, missing, outside)


# --- stats ---------------------------------------------------------------------------------------------------


def qrels_stats(qrels: Mapping[str, Mapping[str, int]]) -> tuple[list[str], list[list[str | int]]]:
    """A per-topic table: judged documents, relevant ones (grade > 0), and the count at every grade seen.

    Returns the header and the rows (topics in natural order, then an ``all`` row of sums).
    """
    grades = sorted({grade for docs in qrels.values() for grade in docs.values()})
    header = ["request_id", "judged", "relevant"] + [f"grade_{grade}" for grade in grades]
    rows: list[list[str | int]] = []
    totals = [0] * (2 + len(grades))
    for topic in sorted(qrels, key=natural_key):
        values = list(qrels[topic].values())
        counts = [len(values), sum(1 for value in values if value > 0)] + [values.count(g) for g in grades]
        totals = [a + b for a, b in zip(totals, counts)]
        rows.append([topic, *counts])
    rows.append([ALL_TOPICS, *totals])
    return header, rows
