"""The judge protocol (DESIGN §5): every backend answers the same yes/no questions of the ARGUE flowchart.

A ``Question`` is what the flowchart asks: its identity is ``Question.key`` (the ``JudgmentKey`` that
judgment files, caches and assessment pools share), and it carries the context a judge may need to
answer it (the request, the nugget, the report's earlier sentences). A ``JudgmentSource`` answers a
question with a ``Verdict`` (the value plus its provenance) or says it has no answer (``None``): for
imported judgments that means "missing", which the scorer reports instead of guessing.

Scoring never calls a model: it asks a source that only looks answers up (``ImportedJudgments``), and a
model-backed judge fills judgment files beforehand. Keeping both behind one protocol is what lets
``evaluate`` (= judge + score) and ``assess export`` reuse the flowchart unchanged.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..model import CONTEXT_KINDS, DOCUMENT_KINDS, NUGGET_KINDS, Judgment, JudgmentKey, Location, normalize_text

if TYPE_CHECKING:
    from ..model import Nugget, Request

__all__ = ["Question", "Verdict", "JudgmentSource", "make_key", "verdict_to_judgment"]


def make_key(
    kind: str,
    request_id: str,
    normalized_sentence: str,
    doc_id: str | None = None,
    nugget_id: str | None = None,
    answer: str | None = None,
    run_id: str | None = None,
    sentence_index: int | None = None,
) -> JudgmentKey:
    """The ``JudgmentKey`` of a question, from an already normalized sentence (same rules as ``Judgment.key``)."""
    context = kind in CONTEXT_KINDS
    nugget = kind in NUGGET_KINDS
    return JudgmentKey(
        kind,
        request_id,
        normalized_sentence,
        doc_id if kind in DOCUMENT_KINDS else None,
        nugget_id if nugget else None,
        normalize_text(answer) if nugget and answer is not None else None,
        run_id if context else None,
        sentence_index if context else None,
    )


@dataclass(frozen=True, slots=True)
class Question:
    """One flowchart question about one sentence, with the context needed to answer it.

    ``sentence`` is the text as the report has it (judges read it); ``key`` is its identity, built from the
    normalized text, so the same sentence citing the same document in ten runs is one question.
    """

    key: JudgmentKey
    sentence: str
    request: Request | None = None
    nugget: Nugget | None = None
    answer: str | None = None
    """The nugget answer as the bank spells it (the key holds its normalized form)."""
    earlier_sentences: tuple[str, ...] = ()
    """The report's sentences before this one (``first_instance`` compares against them)."""

    @property
    def kind(self) -> str:
        return self.key.kind


@dataclass(frozen=True, slots=True)
class Verdict:
    """A judge's answer with its provenance (who answered, how sure, why, and from which file line)."""

    value: bool
    judge: str
    confidence: float | None = None
    rationale: str | None = None
    source: Location | None = field(default=None, compare=False)


@runtime_checkable
class JudgmentSource(Protocol):
    """Anything that answers flowchart questions: imported files, the lexical judge, an LLM, a cascade."""

    name: str

    def answer(self, question: Question) -> Verdict | None:
        """The verdict for ``question``, or ``None`` when this source has no answer (a missing judgment)."""
        ...

    def answer_many(self, questions: Sequence[Question]) -> list[Verdict | None]:
        """Answer several questions at once (model-backed judges batch them; lookups just loop)."""
        ...


def verdict_to_judgment(question: Question, verdict: Verdict) -> Judgment:
    """The canonical judgment record of an answered question (what a judge writes to its judgments file)."""
    key = question.key
    return Judgment(
        kind=key.kind,  # type: ignore[arg-type]
        request_id=key.request_id,
        sentence=question.sentence,
        value=verdict.value,
        judge=verdict.judge,
        doc_id=key.doc_id,
        nugget_id=key.nugget_id,
        answer=question.answer if question.answer is not None else key.answer,
        run_id=key.run_id,
        sentence_index=key.sentence_index,
        confidence=verdict.confidence,
        rationale=verdict.rationale,
    )


def answer_all(source: JudgmentSource, questions: Iterable[Question]) -> list[Verdict | None]:
    """Loop ``source.answer`` over ``questions`` (the default ``answer_many`` of lookup-only sources)."""
    return [source.answer(question) for question in questions]
