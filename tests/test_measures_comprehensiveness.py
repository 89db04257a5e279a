"""The comprehensiveness graph on hand-built fact graphs: clusters, coverage, basis, unknown edges."""
from __future__ import annotations

import pytest

pytest.importorskip("networkx")

from argue_eval.measures import TopicCounts, family_rows  # noqa: E402
from argue_eval.measures.comprehensiveness import candidate_pairs, family, score_topic, solve  # noqa: E402
from argue_eval.measures.longrecall import Fact  # noqa: E402


def r(i):
    return ("r", i)


def c(j):
    return ("c", j)


def test_chain_covered_from_its_middle_leaves_the_specific_end_as_basis():
    # c0 -> c1 -> c2 (c0 the most specific); the response states c1
    result = solve(1, 3, [(c(0), c(1)), (c(1), c(2)), (r(0), c(1))])
    assert result.clusters == [[0], [1], [2]]
    assert result.covered == [1, 2] and result.uncovered == [0] and result.basis == [0]


def test_a_response_atom_entailing_the_head_of_a_chain_covers_all_of_it():
    result = solve(1, 3, [(c(0), c(1)), (c(1), c(2)), (r(0), c(0))])
    assert result.covered == [0, 1, 2] and result.uncovered == [] and result.basis == []


def test_equivalence_cycle_is_one_cluster():
    # c0 <-> c1 equivalent, c2 unrelated: two clusters; the response states c1, so the cluster {c0, c1} is covered
    result = solve(1, 3, [(c(0), c(1)), (c(1), c(0)), (r(0), c(1))])
    assert result.clusters == [[0, 1], [2]]
    assert result.covered == [0] and result.uncovered == [1] and result.basis == [1]


def test_basis_with_two_elements():
    # two independent chains c0 -> c1 and c2 -> c3, nothing covered: the basis is their heads c0 and c2
    result = solve(1, 4, [(c(0), c(1)), (c(2), c(3))])
    assert result.uncovered == [0, 1, 2, 3] and result.basis == [0, 2]
    # a response atom equivalent to a context atom (cycle through the response) covers it
    both = solve(1, 4, [(c(0), c(1)), (c(2), c(3)), (r(0), c(2)), (c(2), r(0))])
    assert both.covered == [2, 3] and both.basis == [0]


def test_unknown_edges_make_clusters_unjudged_not_uncovered():
    # the response -> c0 verdict is unknown; c0 -> c1 is known: both could be covered, so both are unjudged
    result = solve(1, 3, [(c(0), c(1))], unknown=[(r(0), c(0))])
    assert result.unjudged == [0, 1] and result.uncovered == [2] and result.covered == []
    assert result.basis == [2]


def test_score_topic_counts_pruning_and_no_context():
    facts = [Fact("n1#1", "157", "How many houses were destroyed?", ("157",)),
             Fact("n2#1", "a tree", "How was the firefighter killed?", ("a tree",))]
    response = ["The fire destroyed 157 houses.", "Officials thanked volunteers."]

    def check(pairs):
        return [fact.answers[0] in premise for premise, fact in pairs]

    counts, details = score_topic(response, facts, check)
    # all pairs: 2 responses x 2 contexts + 2 context -> context = 6; pruning keeps those sharing words
    assert counts["pairs_all"] == 6 and 0 < counts["pairs_judged"] < 6
    assert counts["covered_clusters"] == 1 and counts["uncovered_clusters"] == 1 and counts["basis"] == 1
    assert details["basis"][0]["atoms"] == ["n2#1"]
    rows = family_rows(family(), [TopicCounts("run", "t", counts),
                                  TopicCounts("run", "t2", score_topic(response, [], check)[0])])
    values = {(topic, metric): value for _, topic, metric, value in rows}
    assert values[("t", "comprehensiveness")] == 0.5
    assert values[("t2", "comprehensiveness")] == 0 and values[("t2", "comprehensiveness_undefined")] == 1
    assert values[("all", "comprehensiveness_undefined")] == 1


def test_candidate_pairs_skip_pairs_without_shared_words():
    pairs, total = candidate_pairs(["red apples grow"], ["apples are red", "trains run late"], 0.1)
    assert total == 2 + 2
    assert (("r", 0), ("c", 0)) in pairs and (("r", 0), ("c", 1)) not in pairs
