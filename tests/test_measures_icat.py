"""ICAT on hand-built examples: known grounding and alignment give hand-computed scores."""
from __future__ import annotations

import pytest

from argue_eval.measures import TopicCounts, family_rows
from argue_eval.measures.entail import TableEntailer
from argue_eval.measures.icat import Aspect, ReportClaims, family, score_topics
from argue_eval.search.passages import Hit

CLAIMS = ["Claim one is true.", "Claim two is true.", "Claim three is true.", "Claim four is false."]
PASSAGES = {  # claim -> retrieved passages, best first: (doc_id, text)
    CLAIMS[0]: [("d9", "p-nothing"), ("d1", "p-one")],
    CLAIMS[1]: [("d2", "p-two"), ("d1", "p-one")],
    CLAIMS[2]: [("d3", "p-three")],
    CLAIMS[3]: [("d4", "p-four")],
}
ENTAILS = {("p-one", CLAIMS[0]): True, ("p-nothing", CLAIMS[0]): False,
           ("p-two", CLAIMS[1]): True, ("p-one", CLAIMS[1]): True,
           ("p-three", CLAIMS[2]): True, ("p-four", CLAIMS[3]): False}
# five aspects; only a1 (via d1) and a2 (via d2) are bound to documents that ground a claim first
ASPECTS = [Aspect("a1", "one?", frozenset({"d1"})), Aspect("a2", "two?", frozenset({"d2", "d1"})),
           Aspect("a3", "three?", frozenset({"d7"})), Aspect("a4", "four?", frozenset({"d4"})),
           Aspect("a5", "five?")]


def retrieve(claims, k):
    return [[Hit(doc, text, 1.0 / (rank + 1)) for rank, (doc, text) in enumerate(PASSAGES.get(c, [])[:k])]
            for c in claims]


def toy(alignment="bindings", align=None, entails=ENTAILS, claims=CLAIMS):
    return score_topics([ReportClaims("run", "t1", claims)], {"t1": ASPECTS}, retrieve, TableEntailer(entails),
                        alignment=alignment, align=align)[0]


def values(result, beta=1.0):
    rows = family_rows(family(beta), [TopicCounts(result.run_id, result.request_id, result.counts)])
    return {metric: value for _, topic, metric, value in rows if topic == "t1"}


def test_the_issue_toy_4_claims_3_grounded_5_aspects_2_covered():
    result = toy()
    # claim 1 grounded by d1 (rank 2; d9 said no) -> a1 and a2 (d1 is bound to both); claim 2 by d2 -> a2;
    # claim 3 by d3, bound to no aspect; claim 4 not grounded (its document d4 would have covered a4)
    assert [c.grounded for c in result.claims] == [True, True, True, False]
    assert result.claims[0].evidence.doc_id == "d1" and result.claims[0].evidence_rank == 2
    assert result.covered == {"a1": [0], "a2": [0, 1]}
    v = values(result)
    assert v["icat_fact"] == 0.75
    assert v["icat_coverage"] == 0.4
    assert v["icat"] == pytest.approx(2 * 0.75 * 0.4 / (0.75 + 0.4))  # 0.5217...
    assert v["icat"] == pytest.approx(0.5217, abs=1e-4)
    # beta = 2 weighs coverage (the paper, section 3): 5 * 0.3 / (4 * 0.75 + 0.4) = 1.5 / 3.4
    assert values(result, beta=2.0)["icat"] == pytest.approx(1.5 / 3.4)
    assert values(result, beta=2.0)["icat"] < v["icat"]  # coverage is the weaker side
    assert values(result, beta=0.5)["icat"] == pytest.approx(1.25 * 0.3 / (0.25 * 0.75 + 0.4))


def test_bindings_use_the_first_entailing_document_in_rank_order():
    # claim 2's first passage d2 entails it: it covers a2 only, although d1 (rank 2, bound to a1) also entails it
    result = toy()
    assert result.claims[1].aspects == ("a2",)
    # if d2 says no, d1 becomes the evidence and claim 2 covers a1 and a2
    changed = dict(ENTAILS)
    changed[("p-two", CLAIMS[1])] = False
    assert toy(entails=changed).claims[1].aspects == ("a1", "a2")


def test_could_not_judge_is_never_a_no():
    partial = {key: value for key, value in ENTAILS.items() if key != ("p-three", CLAIMS[2])}
    result = toy(entails=partial)
    assert result.claims[2].grounded is None
    counts = result.counts
    assert counts["unjudged_claims"] == 1 and counts["judged_claims"] == 3 and counts["grounded_claims"] == 2
    assert values(result)["icat_fact"] == pytest.approx(2 / 3)
    # a no before an unknown passage does not make the claim ungrounded either
    assert toy(entails={("p-nothing", CLAIMS[0]): False}).claims[0].grounded is None


def test_an_aspect_an_unjudged_claim_might_cover_is_unjudged_not_missed():
    """Claim 4's verdict on d4 unknown: a4 (bound to d4) might be covered, so it leaves S_cov's denominator:
    coverage 2 / 4 instead of 2 / 5; a3 and a5 stay judged and uncovered. With judge alignment an unjudged
    claim could cover any aspect, and an alignment question left unanswered makes its aspect unjudged."""
    partial = {key: value for key, value in ENTAILS.items() if key != ("p-four", CLAIMS[3])}
    result = toy(entails=partial)
    assert result.claims[3].grounded is None and result.claims[3].unknown_docs == ("d4",)
    counts = result.counts
    assert (counts["aspects"], counts["judged_aspects"], counts["covered_aspects"], counts["unjudged_aspects"]) \
        == (5, 4, 2, 1)
    assert values(result)["icat_coverage"] == 0.5
    assert [a["aspect_id"] for a in result.details()["aspects"] if a.get("unjudged")] == ["a4"]

    def align(triples):  # a1 for claim 1, no answer for (claim 2, a3), no otherwise
        return [True if (claim, aspect.aspect_id) == (CLAIMS[0], "a1") else
                None if (claim, aspect.aspect_id) == (CLAIMS[1], "a3") else False for claim, aspect, _ in triples]

    judged = toy(alignment="judge", align=align)
    assert judged.covered == {"a1": [0]} and judged.unjudged_aspects == ["a3"]
    assert values(judged)["icat_coverage"] == 0.25  # 1 of the 4 judged aspects
    unknown_claim = toy(alignment="judge", align=align, entails=partial)
    assert unknown_claim.unjudged_aspects == ["a2", "a3", "a4", "a5"]  # claim 4 could have covered any
    assert values(unknown_claim)["icat_coverage"] == 1.0


def test_judge_alignment_covers_what_the_aligner_says():
    asked = []

    def align(triples):
        asked.extend((claim, aspect.aspect_id) for claim, aspect, _ in triples)
        return [aspect.aspect_id == "a5" and claim == CLAIMS[2] for claim, aspect, _ in triples]

    result = toy(alignment="judge", align=align)
    # only grounded claims are aligned: 3 claims x 5 aspects
    assert len(asked) == 15 and all(claim != CLAIMS[3] for claim, _ in asked)
    assert result.covered == {"a5": [2]}
    assert values(result)["icat_coverage"] == 0.2


def test_no_claims_and_no_aspects_give_zero_and_undefined_flags():
    empty = score_topics([ReportClaims("run", "t1", []), ReportClaims("run", "t2", None)],
                         {"t1": ASPECTS, "t2": []}, retrieve, TableEntailer({}))
    rows = family_rows(family(), [TopicCounts(t.run_id, t.request_id, t.counts) for t in empty])
    by = {(topic, metric): value for _, topic, metric, value in rows}
    assert by[("t1", "icat_fact")] == 0 and by[("t1", "icat_fact_undefined")] == 1
    assert by[("t1", "icat_coverage")] == 0 and ("t1", "icat_coverage_undefined") not in by
    assert by[("t1", "icat")] == 0 and by[("t1", "icat_undefined")] == 1
    assert by[("t2", "icat_coverage_undefined")] == 1
    assert by[("all", "icat_fact_undefined")] == 2 and by[("all", "icat_coverage_undefined")] == 1
    assert empty[1].details()["missing_report"] is True


def test_a_claim_shared_by_runs_is_retrieved_and_judged_once():
    calls = []

    def counting(claims, k):
        calls.append(list(claims))
        return retrieve(claims, k)

    entailer = TableEntailer(ENTAILS)
    results = score_topics([ReportClaims("a", "t1", CLAIMS), ReportClaims("b", "t1", CLAIMS[:2])],
                           {"t1": ASPECTS}, counting, entailer)
    assert calls == [CLAIMS]
    assert entailer.calls == 6  # six distinct (passage, claim) pairs
    assert results[1].counts["grounded_claims"] == 2
