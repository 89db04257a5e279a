"""A cascade of judges: cheap judges answer what they are sure of, dearer ones answer the rest (DESIGN §5).

``CascadeJudge([lexical, semantic], threshold=0.75)`` sends every question to the first judge that can
answer its kind. A verdict whose confidence is at least ``threshold`` stands; a verdict below it, or no
verdict at all, sends the question on to the next judge that supports its kind. The last judge that
supports a kind has the final word, whatever its confidence: there is nobody left to ask. A question no
member supports stays unanswered (``None``), which the runner reports rather than guessing.

Two choices worth knowing:

- A verdict without a confidence (a judge that states none) counts as sure: it is not below the threshold.
- When the last judge fails (``None``), the question stays unanswered even if an earlier judge gave an
  unsure verdict. ``None`` means "could not judge", which the runner retries on the next run; quietly
  keeping the less sure answer instead would be cached and never retried with the better judge.

Routing is all the cascade does: it reads no text itself. Each verdict keeps the name of the member that
answered (``Verdict.judge``) and gains a ``cascade`` entry in its provenance saying which stage answered.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from typing import Any

from .base import JudgeBackend, Question, Verdict

__all__ = ["CascadeJudge", "DEFAULT_CASCADE_THRESHOLD"]

DEFAULT_CASCADE_THRESHOLD = 0.75


class CascadeJudge(JudgeBackend):
    """Members in order, cheapest first; a member's unsure or missing answers go to the next member."""

    name = "cascade"
    version = "1"

    def __init__(self, judges: Sequence[JudgeBackend], threshold: float = DEFAULT_CASCADE_THRESHOLD):
        if len(judges) < 1:
            raise ValueError("a cascade needs at least one judge")
        threshold = float(threshold)
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"the cascade threshold is a confidence between 0 and 1, got {threshold}")
        self.judges: tuple[JudgeBackend, ...] = tuple(judges)
        self.threshold = threshold
        # Instance attribute over the ClassVar: a cascade answers whatever one of its members answers.
        self.kinds = frozenset().union(*(judge.kinds for judge in self.judges))  # type: ignore[misc]

    def params(self) -> dict[str, Any]:
        return {"threshold": self.threshold, "members": [judge.identity() for judge in self.judges]}

    def _stamp(self, verdict: Verdict, stage: int) -> Verdict:
        """``verdict`` with the cascade stage that produced it recorded in its provenance."""
        provenance = dict(verdict.provenance or {})
        provenance["cascade"] = {
            "stage": stage + 1,
            "stages": len(self.judges),
            "judges": [judge.name for judge in self.judges],
            "threshold": self.threshold,
        }
        return dataclasses.replace(verdict, provenance=provenance)

    def _sure(self, verdict: Verdict) -> bool:
        return verdict.confidence is None or verdict.confidence >= self.threshold

    def iter_answers(self, questions: Sequence[Question]) -> Iterator[tuple[int, Verdict | None]]:
        """Yield each question's final verdict as soon as a stage settles it (the runner caches it then)."""
        last_stage = {}  # kind -> index of the last member that supports it
        for stage, judge in enumerate(self.judges):
            for kind in judge.kinds:
                last_stage[kind] = stage
        pending = [position for position, question in enumerate(questions) if question.kind in last_stage]
        for position, question in enumerate(questions):
            if question.kind not in last_stage:
                yield position, None
        for stage, judge in enumerate(self.judges):
            if not pending:
                break
            asked = [position for position in pending if questions[position].kind in judge.kinds]
            if not asked:
                continue
            asked_set = set(asked)
            settled: set[int] = set()
            for offset, verdict in judge.iter_answers([questions[position] for position in asked]):
                position = asked[offset]
                final = last_stage[questions[position].kind] == stage
                if final or (verdict is not None and self._sure(verdict)):
                    settled.add(position)
                    yield position, None if verdict is None else self._stamp(verdict, stage)
            pending = [position for position in pending if position not in settled]
            unanswered_final = [position for position in asked_set - settled
                                if last_stage[questions[position].kind] == stage]
            for position in sorted(unanswered_final):  # a member that skipped a position it was asked
                yield position, None
            pending = [position for position in pending if position not in unanswered_final]

    def answer_many(self, questions: Sequence[Question]) -> list[Verdict | None]:
        answers: list[Verdict | None] = [None] * len(questions)
        for position, verdict in self.iter_answers(questions):
            answers[position] = verdict
        return answers

    def close(self) -> None:
        for judge in self.judges:
            judge.close()
