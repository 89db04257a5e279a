"""The judge runner: answers the flowchart's open questions with a judge backend, through the cache.

``run_judge`` works in rounds. ``plan(lookup)`` lists the questions the flowchart reaches that ``lookup``
cannot answer yet (``argue.questions.list_questions`` with ``unknown="stop"``); the runner answers them
and asks again, until nothing is left (at most three rounds: see ``argue.questions``). Per round and
topic it

1. attaches the cited documents from the collection (``get_many``); a question whose document the
   collection lacks is *failed*, with the reason, never answered "no";
2. takes answers the cache already holds for this judge and these texts (no computation: the cache key
   is the question's key plus a digest of the texts the judge reads, ``cache.QuestionContexts``);
3. streams the rest through ``judge.iter_answer_groups`` and commits every answer to the cache before it
   is used (in small transactions: at most ``flush_every`` answers or ``flush_seconds`` of work are in
   flight, so a killed run loses little and repeats no committed answer). A transaction never splits a
   group, the answers of one model call: a resumed run asks an interrupted call again whole.

A verdict of ``None`` from the judge is a failure too: it is reported, left out of the judgments, and
asked again by the next run. Judgments that ``known`` (imported human or Auto-ARGUE files) already has
are never asked: the judge only fills gaps.

The output is the judge's judgments in a stable order (topic, kind, sentence, document, nugget, answer),
cached ones included, so a resumed run writes the same bytes as an uninterrupted one.
"""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from ..gc_tuning import sparse_gc
from ..model import DOCUMENT_KINDS, JUDGMENT_KINDS, Document, Judgment, JudgmentKey, natural_key
from ..progress import progress_bar
from .base import JudgeBackend, JudgmentLookup, Question, Verdict, verdict_to_judgment
from .cache import JudgmentCache, QuestionContexts, row_keys

__all__ = ["run_judge", "documents_needed", "with_documents", "JudgeRun", "JudgeStats", "Failure", "LayeredLookup", "JudgedTable", "failure_summary"]

_KIND_ORDER = {kind: i for i, kind in enumerate(JUDGMENT_KINDS)}


@dataclass(frozen=True, slots=True)
class Failure:
    """A question the runner could not get answered, and why."""

    key: JudgmentKey
    reason: str


@dataclass
class JudgeStats:
    """Counts for the summary line and the run manifest (per kind)."""

    cached: Counter[str] = field(default_factory=Counter)
    new: Counter[str] = field(default_factory=Counter)
    failed: Counter[str] = field(default_factory=Counter)
    rounds: int = 0
    seconds: float = 0.0
    missing_documents: list[str] = field(default_factory=list)

    @property
    def answered(self) -> int:
        return sum(self.cached.values()) + sum(self.new.values())

    def summary(self) -> str:
        cached, new, failed = (sum(c.values()) for c in (self.cached, self.new, self.failed))
        return (f"{cached + new} judgment(s): {cached} from the cache, {new} new, {failed} failed; "
                f"{self.rounds} round(s), {self.seconds:.1f} s")


@dataclass
class JudgeRun:
    judgments: list[Judgment]
    stats: JudgeStats
    failures: list[Failure]
    table: JudgedTable
    """The same answers as a lookup (what scoring asks)."""


class JudgedTable:
    """The answers of one judge run as a ``JudgmentLookup`` (a plain table: the scorer's fast path)."""

    def __init__(self) -> None:
        self.table: dict[JudgmentKey, tuple[bool, str]] = {}

    def lookup(self, key: JudgmentKey, position: tuple[str, int] | None = None) -> Verdict | None:
        entry = self.table.get(key)
        return None if entry is None else Verdict(entry[0], entry[1])

    def plain_table(self) -> dict[JudgmentKey, tuple[bool, str]]:
        return self.table


class LayeredLookup:
    """Several lookups in order of precedence: the first that answers wins (imported files over a judge)."""

    def __init__(self, *layers: JudgmentLookup):
        self.layers = layers

    def lookup(self, key: JudgmentKey, position: tuple[str, int] | None = None) -> Verdict | None:
        for layer in self.layers:
            verdict = layer.lookup(key, position)
            if verdict is not None:
                return verdict
        return None

    def plain_table(self) -> Any:
        """One dictionary with every layer's answers, the first layer's winning; ``None`` unless every
        layer is a plain table. When several layers hold answers the result is a merged snapshot (taken
        when asked; the scorer and the question lister ask once per pass): one dictionary lookup per
        question is what keeps scoring fast, and a ``ChainMap`` lookup costs several times that."""
        tables = [layer.plain_table() for layer in self.layers]
        if any(table is None for table in tables):
            return None
        filled = [table for table in tables if table]
        if len(filled) <= 1:
            return filled[0] if filled else tables[0]
        merged: dict[Any, Any] = {}
        for table in reversed(filled):
            merged.update(table)
        return merged


def _order(judgment: Judgment) -> tuple[Any, ...]:
    return (natural_key(judgment.request_id), _KIND_ORDER[judgment.kind], judgment.sentence, judgment.doc_id or "",
            judgment.nugget_id or "", judgment.answer or "", natural_key(judgment.run_id or ""),
            -1 if judgment.sentence_index is None else judgment.sentence_index)


def run_judge(
    plan: Callable[[JudgmentLookup], Sequence[Question]],
    judge: JudgeBackend,
    *,
    known: JudgmentLookup | None = None,
    documents: Any = None,
    cache: JudgmentCache | None = None,
    flush_every: int = 2048,
    flush_seconds: float = 0.5,
    max_rounds: int = 10,
) -> JudgeRun:
    """Answer every question ``plan`` lists, round after round; see the module docstring."""
    started = time.perf_counter()
    stats = JudgeStats()
    judged = JudgedTable()
    results: dict[JudgmentKey, Judgment] = {}
    failures: dict[JudgmentKey, Failure] = {}
    lookup: JudgmentLookup = LayeredLookup(known, judged) if known is not None else judged
    fingerprint = cache.register(judge.identity()) if cache is not None else ""
    bar = progress_bar(f"judging ({judge.name})", unit="q")
    missing_docs: dict[str, None] = {}

    def record(question: Question, verdict: Verdict, counter: Counter[str]) -> None:
        judged.table[question.key] = (verdict.value, verdict.judge)
        results[question.key] = verdict_to_judgment(question, verdict)
        counter[question.kind] += 1

    def fail(question: Question, reason: str) -> None:
        failures[question.key] = Failure(question.key, reason)
        stats.failed[question.kind] += 1

    def show() -> None:
        bar.set_postfix_str(f"cached {sum(stats.cached.values())}, new {sum(stats.new.values())}, "
                            f"failed {sum(stats.failed.values())}", refresh=False)

    try:
        with sparse_gc():
            while stats.rounds < max_rounds:
                questions = [q for q in plan(lookup) if q.key not in failures and q.key not in judged.table]
                if not questions:
                    break
                stats.rounds += 1
                bar.total = (bar.total or 0) + len(questions)
                for _, group in groupby(questions, key=lambda q: q.key.request_id):
                    todo = list(group)
                    ready = _attach_documents(todo, judge, documents, fail, missing_docs)
                    bar.update(len(todo) - len(ready))
                    rows: dict[JudgmentKey, str] = {}
                    if cache is not None:
                        # one memo per topic and round: it keeps the documents it digested alive, and a run's
                        # cited documents are not to be held at once (the collection store reads them one topic
                        # at a time); a topic's questions share its request, nuggets and documents
                        contexts = QuestionContexts()
                        rows = row_keys([q.key for q in ready], {q.key: contexts(q) for q in ready})
                        hits = cache.get_many(fingerprint, rows.keys(), rows=rows)
                        for question in ready:
                            if question.key in hits:
                                record(question, hits[question.key], stats.cached)
                        bar.update(len(hits))
                        ready = [q for q in ready if q.key not in hits]
                    _answer(ready, judge, cache, (fingerprint, rows), record, fail, stats, bar, flush_every,
                            flush_seconds)
                    show()
    finally:
        bar.close()
    stats.seconds = time.perf_counter() - started
    stats.missing_documents = list(missing_docs)
    judgments = sorted(results.values(), key=_order)
    return JudgeRun(judgments, stats, sorted(failures.values(), key=lambda f: tuple(str(x) for x in f.key)), judged)


def documents_needed(questions: Iterable[Question]) -> dict[str, None]:
    """The ids of the documents ``questions`` read (their cited document; for ``requires_citation`` every
    document the report cites), in first-seen order."""
    wanted: dict[str, None] = {}
    for question in questions:
        if question.kind in DOCUMENT_KINDS and question.key.doc_id is not None:
            wanted[question.key.doc_id] = None
        for cited_id in question.cited_doc_ids:
            wanted[cited_id] = None
    return wanted


def with_documents(question: Question, found: Mapping[str, Document]) -> Question:
    """``question`` with its documents from ``found`` attached (``document`` stays ``None`` when ``found``
    lacks it)."""
    doc_id = question.key.doc_id
    document = found.get(doc_id) if question.kind in DOCUMENT_KINDS and doc_id is not None else question.document
    cited = (tuple(found[d] for d in question.cited_doc_ids if d in found) if question.cited_doc_ids
             else question.cited_documents)
    if document is question.document and cited is question.cited_documents:
        return question
    # the constructor, not dataclasses.replace: this runs once per question of a round
    return Question(key=question.key, sentence=question.sentence, request=question.request, nugget=question.nugget,
                    answer=question.answer, earlier_sentences=question.earlier_sentences, document=document,
                    cited_doc_ids=question.cited_doc_ids, cited_documents=cited)


def _attach_documents(questions: list[Question], judge: JudgeBackend, documents: Any,
                      fail: Callable[[Question, str], None], missing: dict[str, None]) -> list[Question]:
    """The questions with their documents attached; the others failed with the reason."""
    wanted = documents_needed(questions)
    found: dict[str, Document] = documents.get_many(wanted) if (documents is not None and wanted) else {}
    ready: list[Question] = []
    for question in questions:
        if question.kind not in judge.kinds:
            fail(question, f"the {judge.name} judge does not answer {question.kind} questions")
            continue
        doc_id = question.key.doc_id
        if question.kind in DOCUMENT_KINDS and doc_id is not None and doc_id not in found:
            if documents is not None:
                missing[doc_id] = None
            fail(question, "no --collection given" if documents is None
                 else "the cited document is not in the collection")
            continue
        ready.append(with_documents(question, found))
    return ready


def _answer(questions: list[Question], judge: JudgeBackend, cache: JudgmentCache | None,
            where: tuple[str, dict[JudgmentKey, str]],
            record: Callable[[Question, Verdict, Counter[str]], None], fail: Callable[[Question, str], None],
            stats: JudgeStats, bar: Any, flush_every: int, flush_seconds: float) -> None:
    """Stream ``questions`` through the judge; commit answers in small transactions, then use them.
    ``where``: the judge's fingerprint and the questions' cache row keys (``cache.row_keys``)."""
    if not questions:
        return
    fingerprint, rows = where
    pending: list[tuple[Question, Verdict]] = []
    last_flush = time.perf_counter()

    def flush() -> None:
        nonlocal last_flush
        if cache is not None:
            cache.put_many(fingerprint, ((q.key, v) for q, v in pending), rows=rows)  # committed before use
        for question, verdict in pending:
            record(question, verdict, stats.new)
        bar.update(len(pending))
        pending.clear()
        last_flush = time.perf_counter()

    for group in judge.iter_answer_groups(questions):
        for position, verdict in group:
            question = questions[position]
            if verdict is None:
                fail(question, f"the {judge.name} judge could not answer")
                bar.update(1)
            else:
                pending.append((question, verdict))
        # never between two answers of one group (one model call): a kill leaves all of them or none
        if len(pending) >= flush_every or (pending and time.perf_counter() - last_flush >= flush_seconds):
            flush()
    flush()


def failure_summary(failures: Iterable[Failure], limit: int = 5) -> list[str]:
    """One line per failure reason with its count and a few examples, for the user."""
    by_reason: dict[str, list[Failure]] = {}
    for failure in failures:
        by_reason.setdefault(failure.reason, []).append(failure)
    lines = []
    for reason, items in sorted(by_reason.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        kinds = Counter(item.key.kind for item in items)
        lines.append(f"{len(items)} question(s) not judged: {reason} ("
                     + ", ".join(f"{kind} {kinds[kind]}" for kind in JUDGMENT_KINDS if kinds[kind]) + ")")
    return lines
