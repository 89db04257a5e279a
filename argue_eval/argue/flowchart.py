"""The ARGUE flowchart (docs/scoring.md): one outcome per sentence, one sub-outcome per citation.

Sentences with citations: each distinct cited document is checked in turn --
relevant? (lookup) -> yes: does the sentence give an answer this document attests? -> yes: **3 (+)**;
otherwise: is the sentence attested by the document? -> yes **2 (0)**, no **1 (-)**.
"Attested?" is asked for every citation, also one that answered a nugget, because
``supporting_citations`` and ``correctly_cited_sentences`` count it.
The sentence's outcome combines its citations': **3** if any citation is 3 (the sentence delivered a
nugget through a relevant document); else **1** if any citation is 1 (a cited document does not support
it); else **2**. Duplicate citations of one document in one sentence are checked once.

Sentences without citations: negative assertion? -> yes: does a negative nugget agree? -> **8 (+)** /
**7 (-)**; no: requires a citation? -> no **4 (0)**; yes: first instance of the claim? -> **5 (-)** /
**6 (0)**.

Questions are asked only where the flowchart reaches them. The first sentence of a report is a first
instance by definition (nothing came before it), so that question is never asked. A question the
judgment lookup cannot answer is *missing*, and ``unknown`` says what happens next:

* ``"no"``: it counts as "no" and one path is followed (``--missing-judgments zero``);
* ``"both"``: both paths are followed, so every question that could be needed is found at once
  (``assess export`` and the missing-judgments error use this); dependent outcomes are ``None``;
* ``"stop"``: neither path is followed: only the questions the flowchart certainly reaches are
  reported. The judge runner asks these in rounds, so a judge is never asked a question whose answer
  the flowchart would not use.
"""
from __future__ import annotations

from collections.abc import Callable, Container
from dataclasses import dataclass, field
from typing import Any, Literal

from ..judges.base import JudgmentLookup
from ..model import JudgmentKey, Report, normalize_text
from .policies import Policies
from .topic import PreparedTopic, Unit

__all__ = [
    "Step",
    "CitationOutcome",
    "SentenceOutcome",
    "ReportOutcome",
    "Missing",
    "Asker",
    "Unknown",
    "evaluate_report",
    "FIRST_SENTENCE_JUDGE",
    "REWARDED",
    "PENALIZED",
]

Unknown = Literal["no", "both", "stop"]
FIRST_SENTENCE_JUDGE = "definition:first-sentence"
"""The ``judge`` recorded for the first sentence's ``first_instance``, which is true without asking."""

REWARDED = frozenset({3, 8})
PENALIZED = frozenset({1, 5, 7})


@dataclass(slots=True)
class Step:
    """One question on a sentence's path through the flowchart and its answer (``None``: missing)."""

    kind: str
    value: bool | None
    judge: str | None
    doc_id: str | None = None
    nugget_id: str | None = None
    answer: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"question": self.kind, "value": self.value, "judge": self.judge}
        if self.doc_id is not None:
            out["doc_id"] = self.doc_id
        if self.nugget_id is not None:
            out["nugget_id"] = self.nugget_id
            out["answer"] = self.answer
        return out


@dataclass(slots=True)
class CitationOutcome:
    doc_id: str
    relevant: bool | None
    attested: bool | None
    answered: bool | None
    outcome: int | None
    steps: list[Step] | None = None
    """The questions asked about this citation (only when details are wanted)."""


@dataclass(slots=True)
class SentenceOutcome:
    index: int
    text: str
    outcome: int | None
    citations: list[CitationOutcome] = field(default_factory=list)
    duplicate_citations: int = 0
    steps: list[Step] = field(default_factory=list)
    matches: list[tuple[int, int, str | None]] = field(default_factory=list)
    """(nugget position, unit position, document it came through or ``None``) of each answer found."""


@dataclass(slots=True)
class Missing:
    """A question the judgment source could not answer, with what an assessor needs to answer it."""

    key: JudgmentKey
    report: Report
    sentence_index: int
    unit: Unit | None = None
    gates: tuple[JudgmentKey, ...] = ()
    """Missing judgments this one is only needed under (e.g. ``answers`` needs ``relevant`` = yes)."""


@dataclass(slots=True)
class ReportOutcome:
    run_id: str
    request_id: str
    sentences: list[SentenceOutcome]
    found: list[set[int]]
    """Per counted nugget: positions of its units found anywhere in the report."""
    missing: int = 0
    """Questions this report needed that the source could not answer."""


class Asker:
    """Looks a question up in a ``JudgmentLookup``, by key, with the asking report's position.

    When the lookup is a plain table (``plain_table()``), asking is one dictionary lookup; otherwise the
    lookup gets the (run, sentence index) position too (Auto-ARGUE judgments are made per report).
    """

    def __init__(self, source: JudgmentLookup):
        self.source = source
        self._table = source.plain_table()

    def __call__(self, key: tuple, report: Report, index: int) -> tuple[bool, str] | None:
        """``(value, judge)`` for the question ``key`` (a ``JudgmentKey`` or an equal plain tuple), or ``None``."""
        if self._table is not None:
            entry = self._table.get(key)
            return None if entry is None else (entry[0], entry[1])
        verdict = self.source.lookup(key if isinstance(key, JudgmentKey) else JudgmentKey(*key), (report.run_id, index))
        return None if verdict is None else (verdict.value, verdict.judge)

    def plain_table(self) -> Any:
        """The key -> (value, judge, ...) table when a plain lookup answers every question, else ``None``."""
        return self._table


def _dedupe(citations: tuple[str, ...]) -> tuple[list[str] | tuple[str, ...], int]:
    """Distinct cited documents in citation order, and how many repeats were dropped."""
    if len(citations) == 1:
        return citations, 0
    docs = list(dict.fromkeys(citations))
    return docs, len(citations) - len(docs)


def evaluate_report(
    report: Report,
    topic: PreparedTopic,
    ask: Asker | Callable[..., tuple[bool, str] | None],
    policies: Policies,
    *,
    unknown: Unknown = "no",
    details: bool = False,
    on_missing: Callable[[Missing], None] | None = None,
    only: Container[int] | None = None,
) -> ReportOutcome:
    """Run every sentence of ``report`` through the flowchart; see the module docstring for the modes.

    ``only``: the indices of the sentences to run (the others are left out of the outcome). The question
    lister uses it to go back to the sentences that still had open questions: a sentence's path depends on
    its own answers alone, so a sentence that needed nothing stays complete as answers are added."""
    request_id = report.request_id
    nuggets = topic.nuggets
    found: list[set[int]] = [set() for _ in nuggets]
    sentences_out: list[SentenceOutcome] = []
    missing_count = 0
    explore = unknown != "no"
    follow_unknown = unknown == "both"
    scope_all = policies.nugget_scope == "all"
    relevance_from = policies.relevance
    relevant_docs = topic.relevant_docs
    doc_units = topic.doc_units

    plain = ask.plain_table() if isinstance(ask, Asker) else None

    # The question keys below are written out as plain tuples: each is exactly what ``model.make_key`` returns
    # for that kind (a test asks every branch and checks it), built inline because this is the scorer's hot
    # path, where a make_key call per question would cost more than the lookup it feeds.

    def query(key: tuple, index: int, steps: list[Step] | None, gates: tuple[JudgmentKey, ...],
              unit: Unit | None = None, doc_id: str | None = None) -> bool | None:
        nonlocal missing_count
        if plain is not None and steps is None:
            entry = plain.get(key)
            if entry is not None:
                return entry[0]  # the hot path: a canonical judgment, no details wanted
            verdict = None  # ``ask`` would look in that same table (the judge's rounds miss here for each question)
        else:
            verdict = ask(key, report, index)
        if verdict is None:
            missing_count += 1
            if on_missing is not None:
                on_missing(Missing(JudgmentKey(*key), report, index, unit, gates))
            value = None if explore else False
            judge = None
        else:
            value = verdict[0]
            judge = verdict[1]
        if steps is not None:
            nugget = nuggets[unit.nugget_index].nugget if unit is not None else None
            steps.append(Step(key[0], value, judge, doc_id,
                              nugget.nugget_id if nugget is not None else None,
                              unit.text if unit is not None else None))
        return value

    for index, sentence in enumerate(report.sentences):
        if only is not None and index not in only:
            continue
        text = sentence.text
        normalized = " ".join(text.split()) if text.isascii() else normalize_text(text)  # = normalize_text
        result = SentenceOutcome(index, sentence.text, None)
        sentence_steps = result.steps if details else None
        if sentence.citations:
            docs, result.duplicate_citations = _dedupe(sentence.citations)
            # scope "all": the sentence's answers are asked once, with no document
            sentence_answered: bool | None = False
            if scope_all:
                sentence_answered = _ask_units(
                    topic.all_units, nuggets, request_id, normalized, None, index, (), query, sentence_steps,
                    result, found, "answers",
                )
            citation_outcomes: list[int | None] = []
            for doc_id in docs:
                steps: list[Step] | None = [] if details else None
                gates: tuple[JudgmentKey, ...] = ()
                if relevance_from == "judgments":
                    key = ("relevant", request_id, normalized, doc_id, None, None, None, None)
                    relevant = query(key, index, steps, (), doc_id=doc_id)
                    if relevant is None:
                        gates = (JudgmentKey(*key),)
                else:
                    relevant = doc_id in relevant_docs
                    if steps is not None:
                        steps.append(Step("relevant", relevant, relevance_from, doc_id))
                answered: bool | None = False
                if relevant is True or (relevant is None and follow_unknown):
                    if scope_all:
                        answered = sentence_answered
                    else:
                        units = doc_units.get(doc_id)
                        if units:
                            answered = _ask_units(units, nuggets, request_id, normalized, doc_id, index, gates, query,
                                                  steps, result, found, "answers")
                attested = query(("attested", request_id, normalized, doc_id, None, None, None, None), index, steps, (),
                                 doc_id=doc_id)
                if relevant is True and answered is True:
                    outcome: int | None = 3
                elif relevant is None or (relevant is True and answered is None) or attested is None:
                    outcome = None
                else:
                    outcome = 2 if attested else 1
                citation_outcomes.append(outcome)
                result.citations.append(CitationOutcome(doc_id, relevant, attested, answered, outcome, steps))
            if 3 in citation_outcomes:
                result.outcome = 3
            elif None in citation_outcomes:
                result.outcome = None
            elif 1 in citation_outcomes:
                result.outcome = 1
            else:
                result.outcome = 2
        else:
            negative_key = JudgmentKey("negative", request_id, normalized, None, None, None, None, None)
            negative = query(negative_key, index, sentence_steps, ())
            gates = (negative_key,) if negative is None else ()
            outcome = None
            if negative is True or (negative is None and follow_unknown):
                agreed: bool | None = False
                if topic.negative_units:
                    agreed = _ask_units(
                        topic.negative_units, nuggets, request_id, normalized, None, index, gates, query,
                        sentence_steps, result, found, "nugget_agrees",
                    )
                if negative is True and agreed is not None:
                    outcome = 8 if agreed else 7
            if negative is False or (negative is None and follow_unknown):
                requires_key = JudgmentKey("requires_citation", request_id, normalized, None, None, None,
                                           report.run_id, index)
                requires = query(requires_key, index, sentence_steps, gates)
                if index == 0 and requires is not False:
                    first: bool | None = True  # nothing came before the first sentence
                    if sentence_steps is not None:
                        sentence_steps.append(Step("first_instance", True, FIRST_SENTENCE_JUDGE))
                elif requires is True or (requires is None and follow_unknown):
                    first = query(
                        ("first_instance", request_id, normalized, None, None, None, report.run_id, index),
                        index, sentence_steps, gates + ((requires_key,) if requires is None else ()),
                    )
                else:
                    first = None
                if requires is not False:
                    if negative is False and requires is True and first is not None:
                        outcome = 5 if first else 6
                elif negative is False:
                    outcome = 4
            result.outcome = outcome
        sentences_out.append(result)
    return ReportOutcome(report.run_id, request_id, sentences_out, found, missing_count)


def _ask_units(
    units: list[tuple[int, int]],
    nuggets: list[Any],
    request_id: str,
    normalized: str,
    doc_id: str | None,
    index: int,
    gates: tuple[JudgmentKey, ...],
    query: Callable[..., bool | None],
    steps: list[Step] | None,
    result: SentenceOutcome,
    found: list[set[int]],
    kind: str,
) -> bool | None:
    """Ask ``kind`` (answers / nugget_agrees) for each unit; record the ones found; True if any, None if unsure."""
    any_true = False
    any_unknown = False
    for n, u in units:
        scored = nuggets[n]
        unit = scored.units[u]
        key = (kind, request_id, normalized, doc_id, scored.nugget.nugget_id, unit.normalized, None, None)
        value = query(key, index, steps, gates, unit=unit, doc_id=doc_id)
        if value is True:
            any_true = True
            found[n].add(u)
            result.matches.append((n, u, doc_id))
        elif value is None:
            any_unknown = True
    if any_true:
        return True
    return None if any_unknown else False
