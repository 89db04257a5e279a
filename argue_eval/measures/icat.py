"""ICAT (Samarinas et al.): how many of a report's claims the collection grounds, and how many of the
request's aspects those grounded claims cover.

For one report: claims ``C`` (one per sentence offline; atomic claims from the LLM with ``--claims llm``,
see ``llm_claims``); a claim is
grounded when some of the top-k passages retrieved for it entails it (``S_fact = |C_T| / |C|``); the
grounded claims cover aspects (``S_cov = |covered aspects| / |A|``); and
``ICAT_beta = (1 + beta^2) S_fact S_cov / (beta^2 S_fact + S_cov)``, where beta > 1 weighs coverage more
(the paper's section 3; beta = 1 by default).

Alignment of grounded claims to aspects:

* ``bindings`` (ICAT-M): an aspect carries the documents it is bound to (nugget answers' documents, or
  qrels subtopics); a grounded claim covers the aspects bound to the *first* retrieved document that
  entails it (in rank order), as the paper's manual alignment does;
* ``judge`` (ICAT-S, and ICAT-A with generated aspects): an aligner judges each (grounded claim, aspect)
  pair; for a nugget aspect that means "does the claim give one of the nugget's answers".

A claim whose passages could not be judged (every verdict ``None``, none yes) is *unjudged*: it is left out
of ``S_fact``'s denominator and counted in ``unjudged_claims``, never counted as ungrounded. Likewise an
uncovered aspect that an unjudged claim or an unanswered alignment question might have covered is
*unjudged*: left out of ``S_cov``'s denominator (``judged_aspects``) and counted in ``unjudged_aspects``,
never counted as missed. No claims or no aspects give 0 and an ``*_undefined`` flag. This module is arithmetic over records: retrieval and
entailment come in as callables, and it never reads a file.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..errors import unknown_name
from ..family import Family, FMeasure, Ratio
from ..search.passages import Hit
from .entail import Entailer

__all__ = ["Hit", "Aspect", "ClaimResult", "TopicICAT", "family", "COUNTS", "ALIGNMENTS", "score_topics",
           "Retriever", "Aligner"]

ALIGNMENTS = ("bindings", "judge")
COUNTS = ("claims", "judged_claims", "grounded_claims", "unjudged_claims", "aspects", "judged_aspects",
          "covered_aspects", "unjudged_aspects")


class Aspect(NamedTuple):
    """One aspect of a request: what it is about, the documents bound to it, and answers that show it."""

    aspect_id: str
    text: str
    doc_ids: frozenset[str] = frozenset()
    answers: tuple[str, ...] = ()


Retriever = Callable[[Sequence[str], int], list[list[Hit]]]
"""Claims -> the top-k passages of each, best first."""
Aligner = Callable[[Sequence[tuple[str, Aspect, str | None]]], list[bool | None]]
"""(claim, aspect, the claim's supporting passage) triples -> does the claim cover the aspect (None: unknown)."""


def family(beta: float = 1.0, **params: Any) -> Family:
    """The ICAT family for ``beta`` (other parameters are recorded: ``k``, thresholds, ...)."""
    if not beta > 0:
        raise ValueError(f"ICAT's beta must be positive, got {beta}")
    return Family(
        name="icat",
        counts=COUNTS,
        ratios=(Ratio("icat_fact", "grounded_claims", "judged_claims"),
                Ratio("icat_coverage", "covered_aspects", "judged_aspects"),
                FMeasure("icat", "icat_fact", "icat_coverage", beta=beta)),
        params={"beta": beta, **params},
        aliases={"fact": "icat_fact", "coverage": "icat_coverage", "f": "icat"},
        at={"f": ("beta", "icat"), "icat": ("beta", "icat")},
        description="ICAT (Samarinas et al.): grounded claims (S_fact), covered aspects (S_coverage), F_beta.",
    )


@dataclass
class ClaimResult:
    """What became of one claim: grounded (True), not (False) or unjudged (None), the evidence, the aspects."""

    index: int
    text: str
    grounded: bool | None
    evidence: Hit | None = None
    evidence_rank: int | None = None
    sentence: int | None = None
    """The report sentence the claim comes from (LLM claims; a sentence is its own claim otherwise)."""
    failed: bool = False
    """An LLM could not split this sentence into claims: the whole sentence stands as one claim (grounded and
    aligned like any other), so a model failure never removes what the report says."""
    aspects: tuple[str, ...] = ()
    unaligned: tuple[str, ...] = ()
    """Aspects the aligner could not judge for this claim."""
    unknown_docs: tuple[str, ...] = ()
    """For an unjudged claim: the retrieved documents whose passages could not be judged (any might ground it)."""

    def record(self) -> dict[str, Any]:
        status = "grounded" if self.grounded else ("unjudged" if self.grounded is None else "ungrounded")
        out: dict[str, Any] = {"index": self.index, "claim": self.text, "status": status}
        if self.sentence is not None:
            out["sentence"] = self.sentence
        if self.failed:
            out["reason"] = "claim decomposition failed: the whole sentence judged as one claim (split again on the next run)"
        if self.evidence is not None:
            out["evidence"] = {"doc_id": self.evidence.doc_id, "rank": self.evidence_rank,
                               "passage": self.evidence.text}
        if self.grounded:
            out["aspects"] = list(self.aspects)
        if self.unaligned:
            out["aspects_unjudged"] = list(self.unaligned)
        return out


@dataclass
class TopicICAT:
    """One report (or a missing one) on one topic: the counts and the story behind them."""

    run_id: str
    request_id: str
    claims: list[ClaimResult]
    aspects: list[Aspect]
    covered: dict[str, list[int]]
    """Aspect id -> indexes of the grounded claims that cover it (only covered aspects)."""
    missing_report: bool = False
    undecided: frozenset[str] = frozenset()
    """Aspects a claim that could not be judged (grounding or alignment) might have covered."""

    @property
    def unjudged_aspects(self) -> list[str]:
        """Uncovered aspects whose coverage is unknown (left out of ``S_cov``'s denominator)."""
        return [a.aspect_id for a in self.aspects if a.aspect_id not in self.covered and a.aspect_id in self.undecided]

    @property
    def counts(self) -> dict[str, float]:
        judged = [claim for claim in self.claims if claim.grounded is not None]
        unjudged_aspects = len(self.unjudged_aspects)
        return {
            "claims": len(self.claims),
            "judged_claims": len(judged),
            "grounded_claims": sum(1 for claim in judged if claim.grounded),
            "unjudged_claims": len(self.claims) - len(judged),
            "aspects": len(self.aspects),
            "judged_aspects": len(self.aspects) - unjudged_aspects,
            "covered_aspects": len(self.covered),
            "unjudged_aspects": unjudged_aspects,
        }

    def details(self) -> dict[str, Any]:
        unjudged = set(self.unjudged_aspects)
        return {
            "measure": "icat", "run_id": self.run_id, "request_id": self.request_id,
            **({"missing_report": True} if self.missing_report else {}),
            "counts": self.counts,
            "claims": [claim.record() for claim in self.claims],
            "aspects": [{"aspect_id": aspect.aspect_id, "text": aspect.text,
                         "covered": aspect.aspect_id in self.covered,
                         "by_claims": self.covered.get(aspect.aspect_id, []),
                         **({"unjudged": True} if aspect.aspect_id in unjudged else {})}
                        for aspect in self.aspects],
        }


class ReportClaims(NamedTuple):
    """The claims of one report on one topic (``claims`` is ``None`` when the run has no report there).

    With LLM claims, ``sentences`` gives each claim's sentence index, and ``failed`` the sentences the
    model could not decompose: each is judged whole, as one claim (as LongRecall and comprehensiveness do).
    """

    run_id: str
    request_id: str
    claims: Sequence[str] | None
    sentences: Sequence[int] | None = None
    failed: Sequence[tuple[int, str]] = ()


def score_topics(
    reports: Sequence[ReportClaims],
    aspects: dict[str, list[Aspect]],
    retrieve: Retriever,
    entail: Entailer,
    k: int = 10,
    alignment: str = "bindings",
    align: Aligner | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[TopicICAT]:
    """ICAT for every report: retrieval for all claims at once, entailment batched, then alignment.

    ``aspects`` maps each topic to its aspects (a topic absent from it has none: coverage undefined).
    Distinct claims are retrieved once, and the entailer memoizes distinct (passage, claim) pairs, so a
    claim shared by ten runs costs one search and one set of judgments.
    """
    if alignment not in ALIGNMENTS:
        raise unknown_name("--alignment", "alignment", alignment, ALIGNMENTS)
    if alignment == "judge" and align is None:
        raise ValueError("alignment 'judge' needs an aligner")
    distinct = list(dict.fromkeys(claim for report in reports
                                  for claim in (*(report.claims or ()), *(text for _, text in report.failed))))
    hits = dict(zip(distinct, retrieve(distinct, k))) if distinct else {}
    pairs = list(dict.fromkeys((hit.text, claim) for claim in distinct for hit in hits[claim]))
    verdicts = dict(zip(pairs, entail(pairs))) if pairs else {}
    if progress is not None:
        progress(len(distinct))

    results: list[TopicICAT] = []
    pending_alignment: list[tuple[TopicICAT, ClaimResult, Aspect]] = []
    for run_id, request_id, claims, origins, failed in reports:
        topic_aspects = aspects.get(request_id, [])
        claim_results = []
        for index, text in enumerate(claims or ()):
            claim_results.append(_ground(index, text, hits[text], verdicts))
            if origins is not None:
                claim_results[-1].sentence = origins[index]
        for sentence, text in failed:  # not split by the model: the sentence is grounded whole
            claim_results.append(_ground(len(claim_results), text, hits[text], verdicts))
            claim_results[-1].sentence = sentence
            claim_results[-1].failed = True
        topic = TopicICAT(run_id, request_id, claim_results, topic_aspects, {}, missing_report=claims is None)
        for claim in claim_results:
            if not claim.grounded:
                continue
            if alignment == "bindings":
                assert claim.evidence is not None
                claim.aspects = tuple(a.aspect_id for a in topic_aspects if claim.evidence.doc_id in a.doc_ids)
            else:
                pending_alignment.extend((topic, claim, aspect) for aspect in topic_aspects)
        results.append(topic)

    if pending_alignment:
        assert align is not None
        answers = align([(claim.text, aspect, claim.evidence.text if claim.evidence else None)
                         for _, claim, aspect in pending_alignment])
        covered: dict[int, list[str]] = {}
        unknown: dict[int, list[str]] = {}
        for (_, claim, aspect), answer in zip(pending_alignment, answers):
            if answer is None:
                unknown.setdefault(id(claim), []).append(aspect.aspect_id)
            elif answer:
                covered.setdefault(id(claim), []).append(aspect.aspect_id)
        for _, claim, _ in pending_alignment:
            claim.aspects = tuple(covered.get(id(claim), ()))
            claim.unaligned = tuple(unknown.get(id(claim), ()))

    for topic in results:
        undecided: set[str] = set()
        for claim in topic.claims:
            for aspect_id in claim.aspects:
                topic.covered.setdefault(aspect_id, []).append(claim.index)
            undecided.update(claim.unaligned)
            if claim.grounded is None:  # had it been grounded, which aspects could it have covered?
                undecided.update(a.aspect_id for a in topic.aspects
                                 if alignment == "judge" or set(claim.unknown_docs) & set(a.doc_ids))
        topic.undecided = frozenset(undecided)
        order = {aspect.aspect_id: i for i, aspect in enumerate(topic.aspects)}
        topic.covered = dict(sorted(topic.covered.items(), key=lambda item: order[item[0]]))
    return results


def _ground(index: int, text: str, hits: list[Hit], verdicts: dict[tuple[str, str], bool | None]) -> ClaimResult:
    """Grounded when some retrieved passage entails the claim; the first such passage (by rank) is the evidence.

    Unjudged when no passage entails it and at least one verdict is missing; ungrounded otherwise (also
    when nothing was retrieved: the collection holds no support for it).
    """
    unknown: dict[str, None] = {}
    for rank, hit in enumerate(hits, start=1):
        verdict = verdicts.get((hit.text, text))
        if verdict:
            return ClaimResult(index, text, True, hit, rank)
        if verdict is None:
            unknown[hit.doc_id] = None
    return ClaimResult(index, text, None if unknown else False, unknown_docs=tuple(unknown))
