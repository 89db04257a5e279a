"""The judge runner: answers the flowchart's open questions with a judge backend, through the cache.

``run_judge`` works topic by topic, and per topic in rounds: each topic's plan (``argue.questions.TopicRounds``)
lists the questions the flowchart certainly reaches that the answers so far cannot settle, the runner answers
them and asks the plan again, until nothing is left (at most three rounds: see ``argue.questions``). A
sentence's path depends on its own answers only, so one topic's rounds never wait on another's, and a topic's
texts (its reports, documents, the judge's per-text caches) are dropped once it is judged: memory holds one
topic's work, not the round's. Per round it asks ``asking.CachedJudge``, which attaches the cited documents
from the collection (a question whose document the collection lacks is *failed*, with the reason, never
answered "no"), takes the answers the cache holds for this judge and the texts it reads, and streams the rest
through the judge, committing every answer to the cache before it is used (in transactions that never split
the answers of one model call: a resumed run asks an interrupted call again whole).

A verdict of ``None`` from the judge is a failure too: it is reported, left out of the judgments, and
asked again by the next run. Judgments that ``known`` (imported human or Auto-ARGUE files) already has
are never asked: the judge only fills gaps. With ``ask=False`` the rounds are answered from the cache
alone (the dry run replays them so): what the cache cannot answer fails, and no judge is called.

A signal that asks the run to stop (``stopping``) ends it between two batches of answers, everything answered
committed; ``Stopped`` then says how many answers the cache holds for a rerun, which resumes byte-identically.

The output is the judge's judgments in a stable order (topic, kind, sentence, document, nugget, answer),
cached ones included, so a resumed run writes the same bytes as an uninterrupted one: each topic's are sorted
when the topic is done, the topics taken in natural order.
"""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .. import stopping
from ..gc_tuning import sparse_gc
from ..model import JUDGMENT_KINDS, Judgment, JudgmentKey, natural_key
from ..progress import progress_bar
from .asking import NOT_IN_COLLECTION, Answers, CachedJudge
from .base import JudgeBackend, JudgmentLookup, Question, Verdict, verdict_to_judgment
from .cache import JudgmentCache

__all__ = ["run_judge", "TopicPlan", "JudgeRun", "Judgments", "JudgeStats", "Failure", "LayeredLookup", "JudgedTable",
           "failure_summary"]

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


class Judgments(Protocol):
    """Where a run keeps its judgments, in order: a list, or a store that holds them elsewhere than as records
    (``formats.judgments.JudgmentSpool``, on disk as they are final)."""

    def extend(self, judgments: Iterable[Judgment], /) -> None: ...

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[Judgment]: ...


@dataclass
class JudgeRun:
    judgments: Judgments
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


class TopicPlan(Protocol):
    """One topic's questions, round after round (``argue.questions.TopicRounds``)."""

    request_id: str

    def next_round(self, known: JudgmentLookup) -> Sequence[Question]:
        """The questions still open for ``known``'s answers (``[]``: the topic is done)."""
        ...

    def forget(self) -> None:
        """Drop the topic's reports (it is judged)."""
        ...


def _order(judgment: Judgment) -> tuple[Any, ...]:
    """A judgment's place among its topic's (the topics themselves are taken in natural order)."""
    return (_KIND_ORDER[judgment.kind], judgment.sentence, judgment.doc_id or "", judgment.nugget_id or "",
            judgment.answer or "", natural_key(judgment.run_id or ""),
            -1 if judgment.sentence_index is None else judgment.sentence_index)


class _Answers:
    """What the rounds look answers up in: the given judgments first, then this run's answers.

    One plain table when the given judgments are one (copied once, the run's answers added to it, so each
    round's ``Asker`` takes it as it is; a merged snapshot per round would copy every answer again), else the
    layers in order."""

    def __init__(self, known: JudgmentLookup | None, judged: JudgedTable):
        self.judged = judged
        base = known.plain_table() if known is not None else {}
        self.known = known
        self.table: dict[JudgmentKey, Any] | None = None
        if base is not None:
            self.table = dict(base) if base else judged.table
        self._layered = LayeredLookup(known, judged) if known is not None else judged

    def add(self, key: JudgmentKey, entry: tuple[bool, str]) -> None:
        self.judged.table[key] = entry
        if self.table is not None and self.table is not self.judged.table:
            self.table[key] = entry

    def drop(self, keys: Iterable[JudgmentKey]) -> None:
        for key in keys:
            self.judged.table.pop(key, None)
            if self.table is not None and self.table is not self.judged.table:
                self.table.pop(key, None)

    def lookup(self, key: JudgmentKey, position: tuple[str, int] | None = None) -> Verdict | None:
        return self._layered.lookup(key, position)

    def plain_table(self) -> Any:
        return self.table


def run_judge(
    topics: Iterable[TopicPlan],
    judge: JudgeBackend,
    *,
    known: JudgmentLookup | None = None,
    documents: Any = None,
    cache: JudgmentCache | None = None,
    flush_every: int = 16384,
    flush_seconds: float = 2.0,
    max_rounds: int = 10,
    ask: bool = True,
    keep_table: bool = True,
    judgments: Judgments | None = None,
) -> JudgeRun:
    """Answer every question of every topic's plan, round after round; see the module docstring.

    ``topics`` in natural order of their ids (the order the judgments are written in). ``keep_table=False``
    drops each topic's answers from ``JudgeRun.table`` once it is judged (the judgments keep them): a run
    that only writes judgments holds no round-sized table. ``judgments``: where each topic's judgments go once
    it is judged (default a new list): a store that keeps them elsewhere than in memory (``JudgmentSpool``) and
    ``keep_table=False`` leave the run holding one topic's work, not the round's."""
    started = time.perf_counter()
    stats = JudgeStats()
    judged = JudgedTable()
    kept: Judgments = [] if judgments is None else judgments
    failures: dict[JudgmentKey, Failure] = {}
    answers = _Answers(known, judged)
    asker = CachedJudge(judge, cache, documents=documents, contexts=True, only_kinds=True, ask=ask,
                        flush_every=flush_every, flush_seconds=flush_seconds, new_keys=True)
    bar = progress_bar(f"judging ({judge.name})" if ask else "reading the cache", unit="q")
    missing_docs: dict[str, None] = {}
    results: dict[JudgmentKey, Judgment] = {}  # the topic's

    def record(batch: Answers, cached: bool) -> None:
        kinds: Counter[str] = Counter()
        add, judgment = answers.add, verdict_to_judgment
        for question, verdict in batch:
            key = question.key
            add(key, (verdict.value, verdict.judge))
            results[key] = judgment(question, verdict)
            kinds[key[0]] += 1  # the kind
        (stats.cached if cached else stats.new).update(kinds)
        bar.update(len(batch))

    def fail(question: Question, reason: str) -> None:
        failures[question.key] = Failure(question.key, reason)
        stats.failed[question.kind] += 1
        if reason == NOT_IN_COLLECTION and question.key.doc_id is not None:
            missing_docs[question.key.doc_id] = None
        bar.update(1)

    previous: Any = None
    try:
        with sparse_gc(), stopping.stoppable():
            for plan in topics:
                place = natural_key(plan.request_id)
                if previous is not None and place <= previous:
                    raise ValueError(f"run_judge: topic {plan.request_id!r} out of natural order")
                previous = place
                rounds = 0
                while rounds < max_rounds:
                    stopping.check()
                    questions = [q for q in plan.next_round(answers) if q.key not in failures]
                    if not questions:
                        break
                    rounds += 1
                    bar.total = (bar.total or 0) + len(questions)
                    asker.ask(questions, record, fail)
                    bar.set_postfix_str(f"cached {sum(stats.cached.values())}, new {sum(stats.new.values())}, "
                                        f"failed {sum(stats.failed.values())}", refresh=False)
                plan.forget()
                judge.forget()  # the topic's texts are not needed again
                stats.rounds = max(stats.rounds, rounds)
                kept.extend(sorted(results.values(), key=_order))
                if not keep_table:
                    answers.drop(results)
                results.clear()
    except stopping.Stopped as stop:
        raise stopping.Stopped(stop.signum, _resume_hint(cache, stats, ask, judge.kept_besides_answers())) from None
    finally:
        bar.close()
    stats.seconds = time.perf_counter() - started
    stats.missing_documents = list(missing_docs)
    return JudgeRun(kept, stats, sorted(failures.values(), key=lambda f: tuple(str(x) for x in f.key)), judged)


def _resume_hint(cache: JudgmentCache | None, stats: JudgeStats, ask: bool, kept: str | None = None) -> str:
    """What a stopped run kept and how to go on."""
    new = sum(stats.new.values())
    if not ask:
        return "nothing was judged or written"
    if cache is None:
        return (f"{new} answer(s) made, not kept (no cache: --no-cache); nothing was written. Give --cache to "
                "keep the answers of a run that is stopped")
    also = f" and {kept}" if kept else ""
    return (f"{new} new answer(s){also} committed to the judgment cache {cache.path}; no output was written. Run "
            "the same command again to resume: it takes everything committed from the cache and asks only the rest")


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
