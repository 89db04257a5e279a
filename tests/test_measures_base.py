"""The measures home: the common family shape, its arithmetic, the registry and the ARGUE alias."""
from __future__ import annotations

import importlib

import pytest

from argue_eval.errors import OptionError
from argue_eval.measures import available_families, family_rows, get_family
from argue_eval.measures.base import Family, FMeasure, Ratio, TopicCounts

TOY = Family(
    name="toy",
    counts=("found", "due"),
    ratios=(Ratio("recall", "found", "due"), Ratio("half", "found", "found"), FMeasure("f", "recall", "half", beta=2.0)),
    params={"threshold": 0.5, "retriever": "bm25", "strict": True},
)


def test_topic_rows_flag_empty_denominators_instead_of_nan():
    rows = dict(TOY.topic_rows({"found": 0, "due": 0}))
    assert rows == {"found": 0, "due": 0, "recall": 0.0, "half": 0.0, "f": 0.0,
                    "recall_undefined": 1, "half_undefined": 1, "f_undefined": 1}


def test_f_beta_weighs_the_recall_side():
    # recall 3/4, half 3/3 = 1: F_2 = 5 * 0.75 * 1 / (4 * 0.75 + 1) = 3.75 / 4 = 0.9375
    rows = dict(TOY.topic_rows({"found": 3, "due": 4}))
    assert rows["recall"] == 0.75 and rows["half"] == 1.0
    assert rows["f"] == pytest.approx(0.9375)
    assert "f_undefined" not in rows


def test_aggregates_micro_macro_undefined_and_numeric_params():
    rows = family_rows(TOY, [TopicCounts("r1", "t1", {"found": 1, "due": 2}),
                             TopicCounts("r1", "t2", {"found": 0, "due": 0}),
                             TopicCounts("r1", "t3", {"found": 3, "due": 3})])
    per_all = {metric: value for run, topic, metric, value in rows if topic == "all"}
    assert per_all["found"] == 4 and per_all["due"] == 5
    assert per_all["recall_micro"] == pytest.approx(4 / 5)
    assert per_all["recall_macro"] == pytest.approx((0.5 + 0 + 1) / 3)
    assert per_all["recall_undefined"] == 1
    assert per_all["topics"] == 3
    assert per_all["param_threshold"] == 0.5
    assert "param_retriever" not in per_all and "param_strict" not in per_all
    # per-topic rows come first, in the order given, and the `all` rows last
    assert [topic for _, topic, _, _ in rows][:5] == ["t1"] * 5
    assert rows[-1][1] == "all"


def test_a_topic_counted_twice_is_refused():
    with pytest.raises(ValueError, match="counted twice"):
        family_rows(TOY, [TopicCounts("r", "t", {"found": 1, "due": 1})] * 2)


def test_registry_lists_argue_and_the_old_import_path_still_works():
    assert "argue" in available_families()
    family = get_family("argue")
    assert "f1" in family.metrics and "nugget_coverage" in family.metrics
    old = importlib.import_module("argue_eval.argue.measures")
    new = importlib.import_module("argue_eval.measures.argue")
    assert old.topic_rows is new.topic_rows and old.SCORE_TABLE_LAYOUTS == new.SCORE_TABLE_LAYOUTS
    with pytest.raises(OptionError, match="unknown measure family"):
        get_family("bleu")


def test_argue_family_ratios_equal_the_scorer_arithmetic():
    from argue_eval.measures.argue import COUNT_MEASURES, OUTCOME_MEASURES, ratios

    counts = {name: 0 for name in (*COUNT_MEASURES, *OUTCOME_MEASURES)}
    counts.update(citations=5, relevant_citations=3, supporting_citations=4, correctly_cited_sentences=2,
                  sentences_with_citations_or_requiring_citations=4, nuggets=6, correct_nuggets=3,
                  nuggets_weighted=9, correct_nuggets_weighted=5, rewarded=3, penalized=1)
    expected, expected_undefined = ratios(counts)
    values, undefined = get_family("argue").values({**counts, "judged_sentences": 4})
    assert values == pytest.approx(expected)
    assert undefined == expected_undefined
