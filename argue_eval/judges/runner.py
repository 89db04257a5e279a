"""The judge runner: answers the flowchart's open questions with a judge backend, through the cache.

``run_judge`` works in rounds. ``plan(lookup)`` lists the questions the flowchart reaches that ``lookup``
cannot answer yet (``argue.questions.list_questions`` with ``unknown="stop"``); the runner answers them
and asks again, until nothing is left (at most three rounds: see ``argue.questions``). Per round and
topic it asks ``asking.CachedJudge``, which attaches the cited documents from the collection (a question
whose document the collection lacks is *failed*, with the reason, never answered "no"), takes the answers
the cache holds for this judge and the texts it reads, and streams the rest through the judge, committing
every answer to the cache before it is used (in transactions that never split the answers of one model
call: a resumed run asks an interrupted call again whole).

A verdict of ``None`` from the judge is a failure too: it is reported, left out of the judgments, and
asked again by the next run. Judgments that ``known`` (imported human or Auto-ARGUE files) already has
are never asked: the judge only fills gaps. With ``ask=False`` the rounds are answered from the cache
alone (the dry run replays them so): what the cache cannot answer fails, and no judge is called.

The output is the judge's judgments in a stable order (topic, kind, sentence, document, nugget, answer),
cached ones included, so a resumed run writes the same bytes as an uninterrupted one.
"""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from ..gc_tuning import sparse_gc
from ..model import JUDGMENT_KINDS, Judgment, JudgmentKey, natural_key
from ..progress import progress_bar
from .asking import NOT_IN_COLLECTION, Answers, CachedJudge
from .base import JudgeBackend, JudgmentLookup, Question, Verdict, verdict_to_judgment
from .cache import JudgmentCache

__all__ = ["run_judge", "JudgeRun", "JudgeStats", "Failure", "LayeredLookup", "JudgedTable", "failure_summary"]

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
    waiting: Counter[str] = field(default_factory=Counter)
    """Questions whose call went to a batch file (``judge --batch-out``): not failed, answered next cycle."""
    rounds: int = 0
    seconds: float = 0.0
    missing_documents: list[str] = field(default_factory=list)

    @property
    def answered(self) -> int:
        return sum(self.cached.values()) + sum(self.new.values())

    def summary(self) -> str:
        cached, new, failed, waiting = (sum(c.values()) for c in (self.cached, self.new, self.failed, self.waiting))
        outcome = f"{failed} failed" if failed or not waiting else ""
        if waiting:
            outcome = ", ".join(part for part in (f"{waiting} written to the batch file", outcome) if part)
        return (f"{cached + new} judgment(s): {cached} from the cache, {new} new, {outcome}; "
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
    ask: bool = True,
) -> JudgeRun:
    """Answer every question ``plan`` lists, round after round; see the module docstring."""
    started = time.perf_counter()
    stats = JudgeStats()
    judged = JudgedTable()
    results: dict[JudgmentKey, Judgment] = {}
    failures: dict[JudgmentKey, Failure] = {}
    lookup: JudgmentLookup = LayeredLookup(known, judged) if known is not None else judged
    asker = CachedJudge(judge, cache, documents=documents, contexts=True, only_kinds=True, ask=ask,
                        flush_every=flush_every, flush_seconds=flush_seconds)
    bar = progress_bar(f"judging ({judge.name})" if ask else "reading the cache", unit="q")
    missing_docs: dict[str, None] = {}

    def record(answers: Answers, cached: bool) -> None:
        counter = stats.cached if cached else stats.new
        for question, verdict in answers:
            judged.table[question.key] = (verdict.value, verdict.judge)
            results[question.key] = verdict_to_judgment(question, verdict)
            counter[question.kind] += 1
        bar.update(len(answers))

    def fail(question: Question, reason: str) -> None:
        failures[question.key] = Failure(question.key, reason)
        stats.failed[question.kind] += 1
        if reason == NOT_IN_COLLECTION and question.key.doc_id is not None:
            missing_docs[question.key.doc_id] = None
        bar.update(1)

    try:
        with sparse_gc():
            while stats.rounds < max_rounds:
                questions = [q for q in plan(lookup) if q.key not in failures and q.key not in judged.table]
                if not questions:
                    break
                stats.rounds += 1
                bar.total = (bar.total or 0) + len(questions)
                for _, group in groupby(questions, key=lambda q: q.key.request_id):
                    # a topic at a time: its questions share its request, nuggets and documents, and a run's
                    # cited documents are not to be held at once (the collection store reads them per topic)
                    asker.ask(group, record, fail)
                    bar.set_postfix_str(f"cached {sum(stats.cached.values())}, new {sum(stats.new.values())}, "
                                        f"failed {sum(stats.failed.values())}", refresh=False)
    finally:
        bar.close()
    stats.seconds = time.perf_counter() - started
    stats.missing_documents = list(missing_docs)
    judgments = sorted(results.values(), key=_order)
    return JudgeRun(judgments, stats, sorted(failures.values(), key=lambda f: tuple(str(x) for x in f.key)), judged)


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
