"""Every flowchart question a set of reports needs and a judgment lookup cannot answer, deduplicated.

This is the one list both the human assessment loop (``assess export``) and the judge runner work from,
so an assessor and a model are asked exactly the same questions. It runs the flowchart itself over every
report (``evaluate_report``), so a question is listed only where the flowchart reaches it:

* ``unknown="both"`` (assessors): where an unanswered question decides the path, the questions of both
  branches are listed, each with the ``gates`` it depends on, so one round of assessment is enough;
* ``unknown="stop"`` (judges): only the questions the flowchart certainly reaches. A judge answers these,
  and the next call lists what the answers opened up: relevance and attestation and the nugget answers of
  relevant citations first; then, for uncited sentences, negative assertion, then nugget agreement or
  requires-citation, then first instance. At most three rounds.

Questions are deduplicated by judgment identity (``JudgmentKey``): a sentence citing the same document in
ten runs is one question, with ``occurrences`` = 10. The order is stable (topic, run, sentence, kind,
document, nugget, answer in natural order), so outputs built from it are byte-identical across reruns.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from ..gc_tuning import paused_gc
from ..judges.base import JudgmentLookup, Question
from ..model import JUDGMENT_KINDS, JudgmentKey, Nugget, Report, natural_key
from ..progress import progress
from .api import Evaluation
from .flowchart import Asker, Missing, evaluate_report
from .topic import Unit

__all__ = ["PendingQuestion", "OpenReport", "list_questions", "count_by_kind", "KIND_ORDER", "OPENING_KINDS"]

KIND_ORDER = {kind: i for i, kind in enumerate(JUDGMENT_KINDS)}

OPENING_KINDS: frozenset[str] = frozenset({"relevant", "negative", "requires_citation"})
"""The kinds whose answer can open another question (``evaluate_report``): relevance opens the answers
questions of a citation; negative assertion opens nugget agreement or requires-citation, which opens first
instance. Answers, attestation, nugget agreement and first instance end their path: after a round that
asked only those, listing again finds nothing new."""


@dataclass(slots=True)
class PendingQuestion:
    """One unanswered question with the context an assessor or a judge needs, from its first occurrence."""

    key: JudgmentKey
    sentence: str
    """The sentence as its first report spells it (the key holds the normalized form)."""
    run_id: str
    sentence_index: int
    unit: Unit | None
    nugget: Nugget | None
    previous: str | None
    following: str | None
    earlier: tuple[str, ...] = ()
    """The report's earlier sentences (``first_instance`` only)."""
    cited_doc_ids: tuple[str, ...] = ()
    """Documents the report cites anywhere (``requires_citation`` only)."""
    occurrences: int = 1
    gates: set[JudgmentKey] = field(default_factory=set)
    """Unanswered questions this one is only needed under (``unknown="both"``); empty when always needed."""
    order: tuple[Any, ...] = ()

    @property
    def kind(self) -> str:
        return self.key.kind

    def question(self, evaluation: Evaluation) -> Question:
        """The ``Question`` a judge answers (the runner attaches the documents)."""
        return Question(
            self.key,
            self.sentence,
            request=evaluation.requests.get(self.key.request_id),
            nugget=self.nugget,
            answer=self.unit.text if self.unit is not None else None,
            earlier_sentences=self.earlier,
            cited_doc_ids=self.cited_doc_ids,
        )


class OpenReport(NamedTuple):
    """A report with the sentences that still need questions (what ``list_questions`` goes back to)."""

    report: Report
    sentences: frozenset[int]


def list_questions(
    reports: Iterable[Report | OpenReport],
    evaluation: Evaluation,
    known: JudgmentLookup,
    unknown: Literal["both", "stop"] = "stop",
    *,
    show_progress: bool = True,
    open_reports: list[OpenReport] | None = None,
) -> list[PendingQuestion]:
    """The questions ``reports`` need that ``known`` cannot answer, deduplicated and in a stable order.

    ``open_reports``, when given, receives the reports whose sentences may need more questions once these
    are answered, with those sentences: with ``unknown="stop"``, the sentences that need a question whose
    answer can open another (``OPENING_KINDS``); otherwise every sentence that needs one. A sentence's path
    depends on its own answers alone, so any other sentence is complete once this call's questions are
    answered, and a caller asking round after round (the judge runner) passes these back: only their open
    sentences are run again."""
    with paused_gc():
        return _list_questions(reports, evaluation, known, unknown, show_progress, open_reports)


def _list_questions(reports: Iterable[Report | OpenReport], evaluation: Evaluation, known: JudgmentLookup,
                    unknown: Literal["both", "stop"], show_progress: bool,
                    open_reports: list[OpenReport] | None = None) -> list[PendingQuestion]:
    ask = Asker(known)
    items: dict[JudgmentKey, PendingQuestion] = {}
    stream = progress(reports, "listing questions", unit="report") if show_progress else reports
    for entry in stream:
        report, only = (entry.report, entry.sentences) if isinstance(entry, OpenReport) else (entry, None)
        topic = evaluation.topics.get(report.request_id)
        if topic is None:
            continue
        sink: list[Missing] = []
        evaluate_report(report, topic, ask, evaluation.policies, unknown=unknown, on_missing=sink.append,
                        only=only)
        if sink and open_reports is not None:
            still = frozenset(missing.sentence_index for missing in sink
                              if unknown != "stop" or missing.key.kind in OPENING_KINDS)
            if still:
                open_reports.append(OpenReport(report, still))
        cited: tuple[str, ...] | None = None
        for missing in sink:
            item = items.get(missing.key)
            if item is not None:
                item.occurrences += 1
                item.gates &= set(missing.gates)  # needed unconditionally somewhere: no condition
                continue
            key = missing.key
            index = missing.sentence_index
            sentences = report.sentences
            if key.kind == "requires_citation" and cited is None:
                cited = tuple(dict.fromkeys(doc for s in sentences for doc in s.citations))
            unit = missing.unit
            items[key] = PendingQuestion(
                key,
                sentences[index].text,
                report.run_id,
                index,
                unit,
                topic.nuggets[unit.nugget_index].nugget if unit is not None else None,
                sentences[index - 1].text if index > 0 else None,
                sentences[index + 1].text if index + 1 < len(sentences) else None,
                tuple(s.text for s in sentences[:index]) if key.kind == "first_instance" else (),
                (cited or ()) if key.kind == "requires_citation" else (),
                gates=set(missing.gates),
                order=(natural_key(report.request_id), natural_key(report.run_id), index, KIND_ORDER[key.kind],
                       key.doc_id or "", key.nugget_id or "", key.answer or ""),
            )
    return sorted(items.values(), key=lambda item: item.order)


def count_by_kind(questions: Iterable[PendingQuestion]) -> dict[str, int]:
    """Questions per kind, in flowchart order (kinds with none left out)."""
    counts = Counter(q.key.kind for q in questions)
    return {kind: counts[kind] for kind in JUDGMENT_KINDS if counts[kind]}
