"""Counting what a file holds: the logic behind ``argue-eval inspect``, usable from Python.

``summarize(path)`` detects the file's kind and format, streams its records once and returns a plain
dict (the ``--json`` output). Each ``summarize_<kind>`` takes canonical records, so the counts are the
same whatever format the file was in. Memory stays constant in the number of records except for the
sets of distinct ids the counts are defined on.

Counting rules (they are the contract, checked on real track files):

* ``topics``: distinct request ids.
* runs: ``citations`` = documents cited by a sentence, counted once per sentence even when the sentence
  cites the same document twice, summed over sentences (``citation_instances`` counts every entry).
* nuggets: ``questions`` = distinct question texts per topic (a repeated question is one nugget whose
  answers merge; questions without answers count); ``answers`` = distinct (question, answer text) pairs;
  ``bindings`` = distinct (question, answer, document) triples; ``vital``/``okay`` count questions (the
  first label a repeated question carries).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from os import PathLike
from pathlib import Path
from typing import Any

from ..errors import InputError, unknown_name
from ..model import ALL_TOPICS, JUDGMENT_KINDS, Judgment, QrelsRow, RankedRow, Report, Request, TopicNuggets
from ..progress import progress
from . import resolve
from .base import Kind

__all__ = [
    "resolve_format",
    "summarize",
    "summarize_records",
    "summarize_reports",
    "summarize_nuggets",
    "summarize_requests",
    "summarize_judgments",
    "summarize_qrels",
    "summarize_ranked",
    "summarize_scores",
]


resolve_format = resolve
"""The format to read a path with: ``--format`` if given (a name shared by several kinds is settled by the
file's content), else the detected one. Kept under this name for callers of ``summary``."""


def summarize(path: str | PathLike[str], kind: Kind | None = None, format_name: str | None = None) -> dict[str, Any]:
    """Detect (or take) the format of ``path``, stream its records and count them.

    A file no record format recognizes may be a score table (what ``score``, ``retrieval`` and the measures
    write, Auto-ARGUE's score TSV, trec_eval ``-q`` output): then it is summarized as one (kind ``scores``).
    """
    try:
        spec = resolve(path, kind, format_name)
    except InputError as error:
        if kind is not None or format_name is not None or not Path(path).is_file():
            raise
        try:
            return summarize_scores(path)
        except InputError:
            raise error from None
    records = progress(spec.read(Path(path)), desc=f"inspect {Path(path).name}", unit="rec")
    summary = {"path": str(path), "kind": spec.kind, "format": spec.name}
    summary.update(summarize_records(spec.kind, records))
    return summary


def summarize_records(kind: str, records: Iterable[Any]) -> dict[str, Any]:
    """Count canonical records of one kind (the dict ``inspect --json`` prints, minus path/kind/format)."""
    try:
        counter = _SUMMARIZERS[kind]
    except KeyError:
        raise unknown_name("--kind", "kind", kind, _SUMMARIZERS) from None
    return counter(records)


def summarize_reports(reports: Iterable[Report]) -> dict[str, Any]:
    topics: set[str] = set()
    run_ids: set[str] = set()
    documents: set[str] = set()
    n_reports = n_sentences = n_citations = n_instances = n_cited = n_scored = n_chars = 0
    for report in reports:
        n_reports += 1
        topics.add(report.request_id)
        run_ids.add(report.run_id)
        for sentence in report.sentences:
            n_sentences += 1
            n_chars += len(sentence.text)
            citations = sentence.citations
            if citations:
                n_cited += 1
                n_instances += len(citations)
                distinct = set(citations)
                n_citations += len(distinct)
                documents.update(distinct)
                if sentence.citation_scores is not None:
                    n_scored += 1
    return {
        "topics": len(topics),
        "reports": n_reports,
        "sentences": n_sentences,
        "citations": n_citations,
        "run_ids": sorted(run_ids),
        "citation_instances": n_instances,
        "cited_sentences": n_cited,
        "uncited_sentences": n_sentences - n_cited,
        "sentences_with_scores": n_scored,
        "cited_documents": len(documents),
        "characters": n_chars,
    }


def summarize_nuggets(topics: Iterable[TopicNuggets]) -> dict[str, Any]:
    topic_ids: set[str] = set()
    importance: dict[tuple[str, str], str | None] = {}
    negative: set[tuple[str, str]] = set()
    conjunctive: set[tuple[str, str]] = set()
    statements: set[tuple[str, str]] = set()
    answers: set[tuple[str, str, str]] = set()
    bindings: set[tuple[str, str, str, str]] = set()
    bound: set[tuple[str, str]] = set()
    documents: set[str] = set()
    for topic in topics:
        topic_ids.add(topic.request_id)
        for nugget in topic.nuggets:
            key = (topic.request_id, nugget.question)
            if key not in importance and nugget.aggregator == "AND":
                conjunctive.add(key)  # a repeated question keeps its first aggregator, as readers merge it
            if importance.get(key) is None:
                importance[key] = nugget.importance
            if nugget.negative:
                negative.add(key)
            if nugget.extra.get("statement"):
                statements.add(key)
            for answer in nugget.answers:
                answers.add((topic.request_id, nugget.question, answer.text))
                for doc_id in answer.doc_ids:
                    bindings.add((topic.request_id, nugget.question, answer.text, doc_id))
                    documents.add(doc_id)
                    bound.add(key)
    levels = Counter(importance.values())
    return {
        "topics": len(topic_ids),
        "questions": len(importance),
        "answers": len(answers),
        "bindings": len(bindings),
        "vital": levels.get("vital", 0),
        "okay": levels.get("okay", 0),
        "unlabelled": levels.get(None, 0),
        "and_questions": len(conjunctive),
        "negative": len(negative),
        "unbound": sum(1 for key in importance if key not in bound and key not in negative),
        "statements": len(statements),
        "bound_documents": len(documents),
    }


def summarize_requests(requests: Iterable[Request]) -> dict[str, Any]:
    ids: set[str] = set()
    collections: set[str] = set()
    units: Counter[str] = Counter()
    n = with_limit = with_aspects = 0
    for request in requests:
        n += 1
        ids.add(request.request_id)
        collections.update(request.collection_ids)
        if request.limit is not None:
            with_limit += 1
            units[request.limit_unit] += 1
        if request.aspects:
            with_aspects += 1
    return {
        "topics": len(ids),
        "requests": n,
        "with_limit": with_limit,
        "limit_units": dict(sorted(units.items())),
        "with_aspects": with_aspects,
        "collection_ids": sorted(collections),
    }


def summarize_judgments(judgments: Iterable[Judgment]) -> dict[str, Any]:
    topics: set[str] = set()
    kinds: Counter[str] = Counter()
    judges: Counter[str] = Counter()
    n = yes = 0
    for judgment in judgments:
        n += 1
        topics.add(judgment.request_id)
        kinds[judgment.kind] += 1
        judges[judgment.judge] += 1
        yes += bool(judgment.value)
    order = {kind: index for index, kind in enumerate(JUDGMENT_KINDS)}
    return {
        "topics": len(topics),
        "judgments": n,
        "by_kind": dict(sorted(kinds.items(), key=lambda item: (order.get(item[0], len(order)), item[0]))),
        "true": yes,
        "false": n - yes,
        "by_judge": dict(sorted(judges.items())),
    }


def summarize_qrels(rows: Iterable[QrelsRow]) -> dict[str, Any]:
    per_topic: dict[str, list[int]] = {}
    grades: Counter[int] = Counter()
    documents: set[str] = set()
    n = relevant = 0
    for row in rows:
        n += 1
        counts = per_topic.setdefault(row.request_id, [0, 0])
        counts[0] += 1
        grades[row.relevance] += 1
        documents.add(row.doc_id)
        if row.relevance > 0:
            counts[1] += 1
            relevant += 1
    return {
        "topics": len(per_topic),
        "rows": n,
        "relevant": relevant,
        "documents": len(documents),
        "by_relevance": {str(grade): count for grade, count in sorted(grades.items())},
        "per_topic": {qid: {"judged": c[0], "relevant": c[1]} for qid, c in sorted(per_topic.items())},
    }


def summarize_ranked(rows: Iterable[RankedRow]) -> dict[str, Any]:
    per_topic: Counter[str] = Counter()
    run_ids: set[str] = set()
    documents: set[str] = set()
    n = 0
    for row in rows:
        n += 1
        per_topic[row.request_id] += 1
        run_ids.add(row.run_id)
        documents.add(row.doc_id)
    return {
        "topics": len(per_topic),
        "rows": n,
        "run_ids": sorted(run_ids),
        "documents": len(documents),
        "per_topic": dict(sorted(per_topic.items())),
    }


def summarize_scores(path: str | PathLike[str]) -> dict[str, Any]:
    """Count a score table: runs, topics (``all`` rows apart), measures and rows.

    The format is ``argue`` (our long TSV), ``autoargue`` (Auto-ARGUE's score TSV: the same header, but each
    run's ``all`` rows come first, as ``score --table-format autoargue`` writes it), ``trec_eval`` (``-q``
    output) or ``ir_measures`` (``run topic measure value``).
    """
    from .scores import detect_score_format, read_scores

    name = detect_score_format(path)
    run_ids: set[str] = set()
    topics: set[str] = set()
    metrics: set[str] = set()
    rows = aggregate = 0
    first_topic: str | None = None
    for record in read_scores(path, name):
        if first_topic is None:
            first_topic = record.request_id
        rows += 1
        run_ids.add(record.run_id)
        metrics.add(record.metric)
        if record.request_id == ALL_TOPICS:
            aggregate += 1
        else:
            topics.add(record.request_id)
    if name == "argue" and first_topic == ALL_TOPICS:
        name = "autoargue"
    return {
        "path": str(path), "kind": "scores", "format": name,
        "topics": len(topics),
        "runs": len(run_ids),
        "run_ids": sorted(run_ids),
        "metrics": len(metrics),
        "rows": rows,
        "aggregate_rows": aggregate,
    }


_SUMMARIZERS: dict[str, Callable[[Iterable[Any]], dict[str, Any]]] = {
    "runs": summarize_reports,
    "nuggets": summarize_nuggets,
    "requests": summarize_requests,
    "judgments": summarize_judgments,
    "qrels": summarize_qrels,
    "ranked": summarize_ranked,
}
