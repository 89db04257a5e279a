"""What the measures ask an LLM to produce: atomic claims, aspects, a choice among candidates.

ICAT (Samarinas et al.) decomposes a report into atomic claims and, in its ICAT-A variant, generates the
aspects a request should cover. Both go through ``judges.llm_tasks`` (versioned prompts, quoted inputs,
checked replies, one re-ask, cached). A sentence the model could not decompose is kept as a *failed*
sentence (ICAT, LongRecall and comprehensiveness judge it whole), and a request whose aspects could not be
generated is reported, so a model failure never reads as "no claims" or "no aspects". LongRecall's multiple-choice
check (``TaskChooser``) answers ``None`` for a question the model could not answer: the fact is unjudged.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

__all__ = ["SplitReport", "decompose_reports", "generate_aspects", "TaskChooser", "fact_statement",
           "claims_or_sentences"]


class SplitReport(NamedTuple):
    """The LLM claims of one report: the claims, the sentence each comes from, the sentences that failed."""

    claims: list[str]
    sentences: list[int]
    failed: list[tuple[int, str]]


def decompose_reports(reports: Sequence[tuple[str, Sequence[str]]], tasks: Any) -> list[SplitReport]:
    """Atomic claims of each ``(request_id, sentences)`` report, one ``claims`` task per sentence.

    A sentence is asked with the sentence before it (to resolve "it", "the dam"), so the same two
    sentences in another run cost no second call. Claims repeated within a report are kept once.
    """
    from ..judges.llm_tasks import TaskItem

    items = [TaskItem(request_id, {"earlier_sentence": sentences[i - 1] if i else "", "sentence": sentence})
             for request_id, sentences in reports for i, sentence in enumerate(sentences)]
    answers = iter(tasks.run("claims", items))
    out = []
    for _, sentences in reports:
        claims: list[str] = []
        origins: list[int] = []
        failed: list[tuple[int, str]] = []
        seen: set[str] = set()
        for index, sentence in enumerate(sentences):
            answer = next(answers)
            if answer is None:
                failed.append((index, sentence))
                continue
            for claim in answer:
                if claim not in seen:
                    seen.add(claim)
                    claims.append(claim)
                    origins.append(index)
        out.append(SplitReport(claims, origins, failed))
    return out


def generate_aspects(requests: Sequence[Any], tasks: Any) -> dict[str, list[str] | None]:
    """Up to ten aspects per request (``None``: generation failed), from its title, background and problem."""
    from ..judges.llm_tasks import TaskItem

    items = [TaskItem(r.request_id, {"request": {"title": r.title, "background": r.background,
                                                 "problem_statement": r.problem_statement}}) for r in requests]
    return {r.request_id: answer for r, answer in zip(requests, tasks.run("aspects", items))}


def fact_statement(fact: Any) -> str:
    """A reference fact as the model reads it: a nugget's question with its answers, or the fact's text."""
    if fact.answers and fact.question:
        return f"{fact.question} Answer: {' / '.join(fact.answers)}"
    return fact.text


class TaskChooser:
    """LongRecall's multiple-choice check by the LLM: which candidates (together) state the fact?

    One ``choice`` task per (fact, candidate set); ``None`` for a question the model could not answer.
    Candidates are numbered ``C1``, ``C2``, ... in the order the stage ranked them.
    """

    def __init__(self, tasks: Any, request_id: str = "longrecall"):
        self.tasks = tasks
        self.request_id = request_id

    @property
    def calls(self) -> int:
        """Multiple-choice questions sent to the model (not the other tasks sharing ``tasks``)."""
        return int(self.tasks.calls_by_task["choice"])

    @property
    def failed(self) -> int:
        return int(self.tasks.failed_by_task["choice"])

    def __call__(self, questions: Sequence[tuple[list[str], Any]]) -> list[list[int] | None]:
        from ..judges.llm_tasks import TaskItem

        items = [TaskItem(self.request_id, {"fact": fact_statement(fact),
                                            "candidates": {f"C{i + 1}": text for i, text in enumerate(candidates)}})
                 for candidates, fact in questions]
        return [None if answer is None else [int(key[1:]) - 1 for key in answer]
                for answer in self.tasks.run("choice", items)]


def claims_or_sentences(split: SplitReport) -> list[str]:
    """A report's units for LongRecall and comprehensiveness with LLM claims: the claims, and each sentence
    the model could not split kept whole (so a model failure never removes what the report says)."""
    units = [(sentence, position, claim) for position, (claim, sentence) in enumerate(zip(split.claims, split.sentences))]
    units += [(index, -1, text) for index, text in split.failed]
    return [text for _, _, text in sorted(units)]
