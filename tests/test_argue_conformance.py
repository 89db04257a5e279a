"""Our measures and aggregates against a score file written by Auto-ARGUE, the official scorer.

The per-topic counts below are those of the example run shipped with ARGUE-Viz (hltcoe/argue-viz,
assets/example-report.scores.tsv: 19 NeuCLIR 2024 topics, one citation per sentence). From them our
``FAMILY.topic_rows``/``FAMILY.aggregate_rows`` must give Auto-ARGUE's per-topic ratios and every ``all`` value.
"""
from __future__ import annotations

import pytest

from argue_eval.argue.counting import FAMILY, OUTCOME_MEASURES

# topic: sentences, character_count, sentences_with_citations_or_requiring_citations, correctly_cited_sentences,
#        nuggets, correct_nuggets, citations, relevant_citations, supporting_citations
OFFICIAL_COUNTS = {
    "300": (15, 1654, 15, 14, 15, 9, 15, 15, 14),
    "303": (10, 1146, 10, 10, 10, 7, 10, 10, 10),
    "308": (10, 1100, 10, 9, 10, 6, 10, 10, 9),
    "309": (12, 1283, 12, 12, 12, 8, 12, 12, 12),
    "310": (11, 1154, 11, 10, 11, 6, 11, 11, 10),
    "334": (18, 1857, 18, 16, 19, 15, 18, 18, 16),
    "335": (11, 1118, 11, 10, 11, 10, 11, 11, 10),
    "343": (10, 904, 10, 10, 10, 6, 10, 10, 10),
    "351": (11, 1021, 11, 11, 10, 8, 11, 11, 11),
    "352": (15, 1463, 15, 14, 15, 14, 15, 15, 14),
    "365": (14, 1553, 14, 13, 15, 10, 14, 14, 13),
    "367": (18, 1542, 18, 18, 18, 13, 18, 18, 18),
    "372": (17, 1861, 17, 17, 17, 10, 17, 17, 17),
    "373": (13, 1360, 13, 12, 13, 7, 13, 13, 12),
    "377": (17, 1971, 17, 17, 19, 13, 17, 17, 17),
    "380": (19, 1353, 19, 18, 19, 16, 19, 19, 18),
    "382": (19, 1700, 19, 18, 19, 17, 19, 19, 18),
    "383": (13, 1572, 13, 12, 13, 12, 13, 13, 12),
    "388": (10, 1130, 10, 10, 10, 6, 10, 10, 10),
}

# Auto-ARGUE's per-topic values for a few topics (F1 printed to the last bit, including its rounding)
OFFICIAL_TOPIC = {
    "300": {"citation_support": 0.9333333333333333, "nugget_coverage": 0.6, "f1": 0.7304347826086957},
    "308": {"sentence_support": 0.9, "f1": 0.7200000000000001},
    "334": {"nugget_coverage": 0.7894736842105263, "f1": 0.8362369337979094},
    "343": {"f1": 0.7499999999999999},
    "351": {"nugget_coverage": 0.8, "f1": 0.888888888888889},
    "377": {"nugget_coverage": 0.6842105263157895, "f1": 0.8125000000000001},
}

OFFICIAL_ALL = {
    "sentences": 263.0,
    "sentences_with_citations_or_requiring_citations": 263.0,
    "correctly_cited_sentences": 251.0,
    "nuggets": 266.0,
    "nuggets_weighted": 266.0,
    "correct_nuggets": 193.0,
    "correct_nuggets_weighted": 193.0,
    "citations": 263.0,
    "relevant_citations": 263.0,
    "supporting_citations": 251.0,
    "character_count_median": 1360.0,
    "character_count_max": 1971.0,
    "citation_relevance_micro": 1.0,
    "citation_relevance_macro": 1.0,
    "citation_support_micro": 0.9543726235741445,
    "citation_support_macro": 0.9549052363456795,
    "sentence_support_micro": 0.9543726235741445,
    "sentence_support_macro": 0.9549052363456795,
    "nugget_coverage_micro": 0.7255639097744361,
    "nugget_coverage_macro": 0.7159860218357855,
    "nugget_coverage_weighted_micro": 0.7255639097744361,
    "nugget_coverage_weighted_macro": 0.7159860218357855,
    "f1_micro": 0.8243863007870667,
    "f1_macro": 0.8108727761893327,
    "f1_weighted_micro": 0.8243863007870667,
    "f1_weighted_macro": 0.8108727761893327,
}


def counts(row: tuple[int, ...]) -> dict[str, float]:
    sentences, chars, swc, correct_sentences, nuggets, correct, citations, relevant, supporting = row
    out = {
        "sentences": sentences, "character_count": chars,
        "sentences_with_citations_or_requiring_citations": swc, "correctly_cited_sentences": correct_sentences,
        "nuggets": nuggets, "nuggets_weighted": nuggets, "correct_nuggets": correct,
        "correct_nuggets_weighted": correct, "citations": citations, "relevant_citations": relevant,
        "supporting_citations": supporting, "first_instance_sentences_missing_citation": 0,
        "rewarded": 0, "judged_sentences": 0,
    }
    out.update({name: 0 for name in OUTCOME_MEASURES})
    return out


@pytest.mark.parametrize("topic", sorted(OFFICIAL_TOPIC))
def test_per_topic_values_match_autoargue(topic):
    ours = dict(FAMILY.topic_rows(counts(OFFICIAL_COUNTS[topic])))
    for name, value in OFFICIAL_TOPIC[topic].items():
        assert ours[name] == pytest.approx(value, abs=1e-12), name


def test_aggregates_match_autoargue():
    ours = dict(FAMILY.aggregate_rows([counts(OFFICIAL_COUNTS[t]) for t in sorted(OFFICIAL_COUNTS)]))
    for name, value in OFFICIAL_ALL.items():
        assert ours[name] == pytest.approx(value, abs=1e-12), name
    # macro means use pairwise summation like numpy: equal to the last bit, not just to 1e-12
    assert ours["f1_macro"] == OFFICIAL_ALL["f1_macro"]
    assert ours["sentence_support_macro"] == OFFICIAL_ALL["sentence_support_macro"]
