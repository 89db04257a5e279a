"""A cascade of judges: cheap judges answer what they are sure of, dearer ones answer the rest (docs/judging.md).

``CascadeJudge([lexical, semantic], threshold=0.75)`` sends every question to the first judge that can
answer its kind. A verdict whose confidence is at least ``threshold`` stands; a verdict below it, or no
verdict at all, sends the question on to the next judge that supports its kind. The last judge that
supports a kind has the final word when it gives one, whatever its confidence: nobody is left to ask.
A question no member supports stays unanswered (``None``), which the runner reports rather than guessing.

Two choices worth knowing:

- A verdict without a confidence (a judge that states none) counts as sure: it is not below the threshold.
- When the later judges give no verdict at all (a semantic judge without the request to compare with, an
  NLI judge without the document text), the most recent unsure verdict stands, marked ``"fallback": true``
  in its provenance: an unsure answer that says who gave it and how sure it was beats a question left
  unanswered. Only when no member gives a verdict is the question unanswered (``None``, retried next run).

Routing is all the cascade does: it reads no text itself. Each verdict keeps the name of the member that
answered (``Verdict.judge``) and gains a ``cascade`` entry in its provenance saying which stage answered.

Order changes cost and answers: a model-backed member (``cost_unit``: semantic, NLI, LLM) before a model-free one
(lexical) is asked every question of its kinds, where the other order asks it only what the model-free member is
unsure of; and the member asked first has the first word on every question it is sure of. ``plan_members`` says
per member what a run would ask it (the dry run prints it), ``misordered`` whether a model-backed member comes
before a model-free one, and ``model_free_first`` the other order.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from typing import Any

from .base import JudgeBackend, Question, Verdict
from .options import number_option

__all__ = ["CascadeJudge", "DEFAULT_CASCADE_THRESHOLD", "model_backed", "order_warning"]

DEFAULT_CASCADE_THRESHOLD = 0.75


def order_warning(judge: JudgeBackend, figures: str = "") -> str | None:
    """The warning for a cascade that asks a model-backed member before a model-free one (``None`` for any other
    judge): what the order costs, ``figures`` (the dry run's measured costs of both orders) or where to find
    them, how to get the other order, and that the order changes answers too."""
    if not isinstance(judge, CascadeJudge) or (wrong := judge.misordered()) is None:
        return None
    model, free = wrong
    other = ",".join(member.name for member in judge.model_free_first().judges)
    return (f"the cascade asks {model.name} (a model: {model.cost_unit}) before {free.name} (no model), so {model.name} "
            f"is asked every question of its kinds, not only those {free.name} is unsure of; "
            + (figures or "judge --dry-run gives the cost of both orders")
            + f"; --judge {other} asks the model-free judge first. The order changes answers as well as cost: the "
            "member asked first has the first word on every question it is sure of (docs/judging.md, cascade)")


def model_backed(judge: JudgeBackend) -> bool:
    """Whether ``judge`` pays a model for its answers (it has a ``cost_unit``: semantic, NLI, LLM)."""
    return judge.cost_unit is not None


class CascadeJudge(JudgeBackend):
    """Members in order, cheapest first; a member's unsure or missing answers go to the next member."""

    name = "cascade"
    version = "1"

    def __init__(self, judges: Sequence[JudgeBackend], threshold: float = DEFAULT_CASCADE_THRESHOLD):
        if len(judges) < 1:
            raise ValueError("a cascade needs at least one judge")
        threshold = number_option("cascade", "threshold", threshold, 0.0, 1.0, "a confidence")
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
        for group in self.iter_answer_groups(questions):
            yield from group

    def iter_answer_groups(self, questions: Sequence[Question]) -> Iterator[list[tuple[int, Verdict | None]]]:
        """The final verdicts, grouped as the member that gave them grouped its answers (one model call)."""
        last_stage: dict[str, int] = {}  # kind -> index of the last member that supports it
        for stage, judge in enumerate(self.judges):
            for kind in judge.kinds:
                last_stage[kind] = stage
        unsure: dict[int, tuple[Verdict, int]] = {}  # position -> the latest verdict below the threshold
        pending = [position for position, question in enumerate(questions) if question.kind in last_stage]
        for position, question in enumerate(questions):
            if question.kind not in last_stage:
                yield [(position, None)]
        for stage, judge in enumerate(self.judges):
            asked = [position for position in pending if questions[position].kind in judge.kinds]
            if not asked:
                continue
            settled: set[int] = set()
            for answers in judge.iter_answer_groups([questions[position] for position in asked]):
                group: list[tuple[int, Verdict | None]] = []
                for offset, verdict in answers:
                    position = asked[offset]
                    final = last_stage[questions[position].kind] == stage
                    if verdict is not None and (final or self._sure(verdict)):
                        settled.add(position)
                        group.append((position, self._stamp(verdict, stage)))
                        continue
                    if verdict is not None:
                        unsure[position] = (verdict, stage)
                    if final:  # nobody left to ask: the best we have
                        settled.add(position)
                        group.append((position, self._fallback(unsure.get(position))))
                if group:
                    yield group
            for position in asked:  # a final member that skipped a position it was asked
                if position not in settled and last_stage[questions[position].kind] == stage:
                    settled.add(position)
                    yield [(position, self._fallback(unsure.get(position)))]
            pending = [position for position in pending if position not in settled]

    def _fallback(self, earlier: tuple[Verdict, int] | None) -> Verdict | None:
        if earlier is None:
            return None
        verdict, stage = earlier
        stamped = self._stamp(verdict, stage)
        assert stamped.provenance is not None
        stamped.provenance["cascade"]["fallback"] = True
        return stamped

    def answer_many(self, questions: Sequence[Question]) -> list[Verdict | None]:
        answers: list[Verdict | None] = [None] * len(questions)
        for position, verdict in self.iter_answers(questions):
            answers[position] = verdict
        return answers

    def kept_besides_answers(self) -> str | None:
        kept = [note for judge in self.judges if (note := judge.kept_besides_answers())]
        return ", ".join(kept) or None

    def check_installed(self) -> None:
        for judge in self.judges:
            judge.check_installed()

    def check_ready(self) -> None:
        for judge in self.judges:
            judge.check_ready()

    def use_cache(self, cache: Any) -> None:
        for judge in self.judges:
            judge.use_cache(cache)

    def forget(self) -> None:
        for judge in self.judges:
            judge.forget()

    def close(self) -> None:
        for judge in self.judges:
            judge.close()

    def runtimes(self) -> dict[str, dict[str, Any]]:
        return {name: runtime for judge in self.judges for name, runtime in judge.runtimes().items()}

    def usage(self) -> dict[str, Any] | None:
        """The model member's call and token accounting (``None`` when no member keeps one)."""
        usages = [usage() for judge in self.judges if callable(usage := getattr(judge, "usage", None))]
        return usages[-1] if usages else None

    def estimate(self, questions: Sequence[Question]) -> dict[str, Any] | None:
        """A dry run's calls and tokens for the model member, after the cheaper members answered what they can.

        The members without ``estimate`` (offline judges) really answer, as a run would (they need the
        documents attached to be sure of anything); the model member is estimated on what is left.
        ``saved_calls`` is what the cheaper members spare against the model judging everything alone.
        """
        model = next((judge for judge in reversed(self.judges) if callable(getattr(judge, "estimate", None))), None)
        if model is None:
            return None
        alone = model.estimate([q for q in questions if q.kind in model.kinds])  # type: ignore[attr-defined]
        left = model.estimate(self._left_for(model, questions))  # type: ignore[attr-defined]
        left["saved_calls"] = alone["total_calls"] - left["total_calls"]
        left["calls_without_cascade"] = alone["total_calls"]
        return left

    def plan_calls(self, questions: Sequence[Question]) -> dict[str, int]:
        """Model calls by kind for ``--dry-run`` (none when every member is an offline judge)."""
        model = next((judge for judge in reversed(self.judges) if callable(getattr(judge, "plan_calls", None))), None)
        if model is None:
            return {}
        return model.plan_calls(self._left_for(model, questions))  # type: ignore[attr-defined]

    def misordered(self) -> tuple[JudgeBackend, JudgeBackend] | None:
        """The first model-backed member that comes before a model-free member sharing a kind with it, and that
        member; ``None`` when every model-free member that could spare the model a question is asked first."""
        for position, judge in enumerate(self.judges):
            if not model_backed(judge):
                continue
            later = next((other for other in self.judges[position + 1:]
                          if not model_backed(other) and other.kinds & judge.kinds), None)
            if later is not None:
                return judge, later
        return None

    def model_free_first(self) -> CascadeJudge:
        """The same members, the model-free ones first (each group in its order), with the same threshold."""
        ordered = [j for j in self.judges if not model_backed(j)] + [j for j in self.judges if model_backed(j)]
        return CascadeJudge(ordered, self.threshold)

    def plan_members(self, questions: Sequence[Question]) -> list[dict[str, Any]]:
        """Per member in order, what a run would ask it (for ``--dry-run``): ``judge``, ``questions`` and, for a
        model-backed member, ``cost`` in its ``unit`` (``plan_calls`` summed: texts to embed, pairs, calls).

        The model-free members really answer, as in a run, so what they settle is known and leaves the later
        members' counts exact. A model-backed member's answers are not known without its model: the members
        after it are counted on everything it would be asked that it does not answer finally (``exact``:
        false, at most)."""
        last_stage = {kind: stage for stage, judge in enumerate(self.judges) for kind in judge.kinds}
        pending = [q for q in questions if q.kind in last_stage]
        exact = True
        members: list[dict[str, Any]] = []
        for stage, judge in enumerate(self.judges):
            asked = [q for q in pending if q.kind in judge.kinds]
            entry: dict[str, Any] = {"judge": judge.name, "questions": len(asked), "exact": exact}
            final = {id(q) for q in asked if last_stage[q.kind] == stage}
            if model_backed(judge):
                entry["cost"] = sum(judge.plan_calls(asked).values()) if asked else 0  # type: ignore[attr-defined]
                entry["unit"] = judge.cost_unit
                settled = final
                exact = False
            else:
                verdicts = judge.answer_many(asked) if asked else []
                settled = final | {id(q) for q, v in zip(asked, verdicts) if v is not None and self._sure(v)}
            pending = [q for q in pending if id(q) not in settled]
            members.append(entry)
        return members

    def calls_by_kind(self, estimate: dict[str, Any]) -> dict[str, int] | None:
        """``plan_calls`` from this cascade's ``estimate`` of the same questions (its model member's calls on
        what the others leave), or ``None`` when the member that plans is not the one that estimates."""
        planner = next((judge for judge in reversed(self.judges) if callable(getattr(judge, "plan_calls", None))), None)
        convert = getattr(planner, "calls_by_kind", None)
        return convert(estimate) if callable(getattr(planner, "estimate", None)) and convert is not None else None

    def _left_for(self, model: JudgeBackend, questions: Sequence[Question]) -> list[Question]:
        """The questions of ``model``'s kinds that the members before it do not answer surely: what a run
        would ask the model. The members before it really answer, as in a run."""
        pending = list(questions)
        for judge in self.judges:
            if judge is model:
                break
            asked = [q for q in pending if q.kind in judge.kinds]
            verdicts = judge.answer_many(asked) if asked else []
            sure = {id(q) for q, v in zip(asked, verdicts) if v is not None and self._sure(v)}
            pending = [q for q in pending if id(q) not in sure]
        return [q for q in pending if q.kind in model.kinds]
