"""One topic's nuggets, prepared once for scoring every report of every run on that topic.

Preparing answers the questions the flowchart asks for each citation without a search: which documents
are relevant (a lookup in the nugget bindings, or in qrels), which (nugget, answer) pairs a document
attests, which nuggets count (bound questions plus negative ones; unbound questions by policy), and
each nugget's weight and the answers an AND nugget needs.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..model import Nugget, TopicNuggets, normalize_text
from .policies import Policies

__all__ = ["Unit", "ScoredNugget", "PreparedTopic", "prepare_topic"]


@dataclass(frozen=True, slots=True)
class Unit:
    """One answer of a nugget as the flowchart asks about it (``text`` ``None``: a nugget with no answers)."""

    nugget_index: int
    text: str | None
    normalized: str | None
    doc_ids: frozenset[str]


@dataclass(slots=True)
class ScoredNugget:
    """A nugget as scored: its weight, whether it is negative, and the answers that can make it correct.

    ``units`` are the answers asked about; ``required`` (indexes into ``units``) are the ones an AND
    nugget needs all of (its bound answers, or all answers when none is bound).
    """

    nugget: Nugget
    weight: float
    negative: bool
    units: list[Unit]
    required: tuple[int, ...]

    @property
    def nugget_id(self) -> str:
        return self.nugget.nugget_id


@dataclass(slots=True)
class PreparedTopic:
    request_id: str
    nuggets: list[ScoredNugget] = field(default_factory=list)
    """The nuggets that count (the ``nuggets`` measure's denominator), in bank order."""
    dropped: list[str] = field(default_factory=list)
    """Ids of unbound questions left out (``unbound_questions=drop``)."""
    relevant_docs: frozenset[str] = frozenset()
    doc_units: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    """Cited scope: document -> (nugget position, unit position) of the positive answers it attests."""
    all_units: list[tuple[int, int]] = field(default_factory=list)
    """All scope: every (nugget position, unit position) of the positive nuggets."""
    negative_units: list[tuple[int, int]] = field(default_factory=list)
    """(nugget position, unit position) of the negative nuggets, asked with ``nugget_agrees``."""
    weight_total: float = 0

    @property
    def nugget_count(self) -> int:
        return len(self.nuggets)


def _units(nugget: Nugget, position: int) -> list[Unit]:
    units: list[Unit] = []
    seen: set[str] = set()
    for answer in nugget.answers:
        normalized = normalize_text(answer.text)
        if normalized in seen:
            # the same answer listed twice: one unit attested by the union of the documents
            for i, unit in enumerate(units):
                if unit.normalized == normalized:
                    units[i] = Unit(position, unit.text, normalized, unit.doc_ids | frozenset(answer.doc_ids))
            continue
        seen.add(normalized)
        units.append(Unit(position, answer.text, normalized, frozenset(answer.doc_ids)))
    return units or [Unit(position, None, None, frozenset())]


def prepare_topic(
    topic: TopicNuggets | None,
    request_id: str,
    policies: Policies,
    qrels_relevant: Iterable[str] | None = None,
) -> PreparedTopic:
    """Prepare ``topic`` (``None``: a request with no nuggets) for scoring under ``policies``."""
    prepared = PreparedTopic(request_id)
    bound_docs: set[str] = set()
    for nugget in topic.nuggets if topic is not None else ():
        is_bound = nugget.bound
        for answer in nugget.answers:
            bound_docs.update(answer.doc_ids)
        negative = nugget.negative
        if not negative and not is_bound:
            if policies.unbound_questions == "drop":
                prepared.dropped.append(nugget.nugget_id)
                continue
            negative = policies.unbound_questions == "negative"
        position = len(prepared.nuggets)
        units = _units(nugget, position)
        bound_positions = tuple(i for i, unit in enumerate(units) if unit.doc_ids)
        required = bound_positions if (bound_positions and not negative) else tuple(range(len(units)))
        scored = ScoredNugget(nugget, policies.weight(nugget.importance), negative, units, required)
        prepared.nuggets.append(scored)
        prepared.weight_total += scored.weight
        for u, unit in enumerate(units):
            if negative:
                prepared.negative_units.append((position, u))
                continue
            prepared.all_units.append((position, u))
            for doc_id in sorted(unit.doc_ids):
                prepared.doc_units.setdefault(doc_id, []).append((position, u))
    if policies.relevance == "qrels":
        prepared.relevant_docs = frozenset(qrels_relevant or ())
    else:
        prepared.relevant_docs = frozenset(bound_docs)
    return prepared
