"""TREC RAG nuggetizer scores (Pradeep et al., castorini/nuggetizer), for comparability with TREC RAG.

Per answer (run x topic), every nugget has an importance (vital / okay) and an assignment (support,
partial_support, not_support). The scores are recall over nuggets:

* ``vital`` = (support + 0.5 partial) / vital nuggets; ``all`` the same over every nugget;
* ``strict_vital``, ``strict_all``: only full support counts;
* ``weighted`` = sum of weight x credit / sum of weights, vital = 1 and okay = ``okay_weight`` (0.5), credit
  1 / 0.5 / 0 (TREC RAG 2024's weighted recall).

A nugget whose assignment is ``failed`` (nuggetizer's marker for "the assigner could not grade it") or
missing is *unjudged*: left out of every denominator and counted in ``unjudged_nuggets``, where
nuggetizer itself would count it as unsupported. A nugget without an importance label (``failed``) is
counted among all nuggets, not the vital ones, and weighs as okay, as nuggetizer does.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..family import Family, Ratio
from ..model import Assigned

__all__ = ["Assigned", "family", "counts", "COUNTS", "CREDIT", "ASSIGNMENTS"]

CREDIT = {"support": 1.0, "partial_support": 0.5, "not_support": 0.0}
ASSIGNMENTS = tuple(CREDIT)
COUNTS = ("nuggets", "vital_nuggets", "unjudged_nuggets", "support", "partial_support", "vital_support",
          "vital_partial_support", "all_credit", "vital_credit", "weight_total", "weight_credit")


def family(okay_weight: float = 0.5) -> Family:
    return Family(
        name="nuggetizer",
        counts=COUNTS,
        ratios=(Ratio("vital", "vital_credit", "vital_nuggets"),
                Ratio("all", "all_credit", "nuggets"),
                Ratio("strict_vital", "vital_support", "vital_nuggets"),
                Ratio("strict_all", "support", "nuggets"),
                Ratio("weighted", "weight_credit", "weight_total")),
        params={"okay_weight": okay_weight, "partial_credit": 0.5},
        description="TREC RAG nuggetizer scores: vital / all, strict (support only) or with partial = 0.5, "
                    "and the vital/okay weighted score.",
    )


def counts(nuggets: Iterable[Assigned], okay_weight: float = 0.5) -> dict[str, float]:
    """The counts of one answer from its assigned nuggets."""
    out: dict[str, float] = {name: 0 for name in COUNTS}
    for nugget in nuggets:
        if nugget.assignment not in CREDIT:
            out["unjudged_nuggets"] += 1
            continue
        vital = nugget.importance == "vital"
        credit = CREDIT[nugget.assignment]
        weight = 1.0 if vital else okay_weight
        out["nuggets"] += 1
        out["support"] += nugget.assignment == "support"
        out["partial_support"] += nugget.assignment == "partial_support"
        out["all_credit"] += credit
        out["weight_total"] += weight
        out["weight_credit"] += weight * credit
        if vital:
            out["vital_nuggets"] += 1
            out["vital_support"] += nugget.assignment == "support"
            out["vital_partial_support"] += nugget.assignment == "partial_support"
            out["vital_credit"] += credit
    return out


def details(run_id: str, request_id: str, nuggets: list[Assigned], okay_weight: float = 0.5) -> dict[str, Any]:
    """Every nugget with the credit it earned (or why it earned none)."""
    return {
        "measure": "nuggetizer", "run_id": run_id, "request_id": request_id,
        "counts": counts(nuggets, okay_weight),
        "nuggets": [{"text": n.text, "importance": n.importance, "assignment": n.assignment,
                     "credit": CREDIT.get(n.assignment or "", None),
                     **({"unjudged": True} if n.assignment not in CREDIT else {})} for n in nuggets],
    }


def judge_assignments(sentences: list[tuple[str, tuple[str, ...]]], nuggets: Sequence[tuple[str, str | None, Any]],
                      found: dict[int, int | None], attested: Any) -> list[Assigned]:
    """Assignments made by our judges: ``support`` when a sentence gives the nugget and one of its cited
    documents attests that sentence, ``partial_support`` when it is given but no citation attests it,
    ``not_support`` when no sentence gives it, ``None`` (unjudged) when either answer could not be judged.

    ``nuggets`` are ``(text, importance, fact)``; ``found`` maps a nugget's position to the index of the
    sentence that gives it (``None``: given by none), positions absent from it could not be judged;
    ``attested(sentence_index)`` says whether a cited document supports that sentence (``None``: unknown).
    """
    out = []
    for position, (text, importance, _) in enumerate(nuggets):
        if position not in found:
            out.append(Assigned(text, importance, None))
            continue
        index = found[position]
        if index is None:
            out.append(Assigned(text, importance, "not_support"))
            continue
        support = attested(index)
        label = None if support is None else ("support" if support else "partial_support")
        out.append(Assigned(text, importance, label))
    return out
