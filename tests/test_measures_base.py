"""The measures home: the common family shape, its arithmetic and hooks, the registry, ARGUE in the shape."""
from __future__ import annotations

import statistics

import pytest

from argue_eval.errors import OptionError
from argue_eval.family import Family, FMeasure, Ratio, Summary, TopicCounts
from argue_eval.measures import available_families, family_rows, get_family

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


def test_registry_holds_factories_for_every_family():
    assert "argue" in available_families()
    for name in available_families():
        family = get_family(name)  # every entry is a factory: called, with the family's parameters
        assert isinstance(family, Family) and family.name == name
    argue = get_family("argue")
    assert "f1" in argue.metrics and "nugget_coverage" in argue.metrics
    assert "rewarded" not in argue.metrics  # a hidden count
    assert get_family("icat", beta=2.0).params["beta"] == 2.0
    with pytest.raises(TypeError):
        get_family("argue", beta=2.0)  # ARGUE takes no parameters
    with pytest.raises(OptionError, match="unknown measure family"):
        get_family("bleu")


# A family with every hook: a hidden count its ratio needs, a count summarized by median and max instead of
# its sum, an F1 flagged undefined only when both sides are 0 (ARGUE's rule), a fixed row order.
HOOKED = Family(
    name="hooked",
    counts=("length", "found", "due"),
    ratios=(Ratio("recall", "found", "due"), Ratio("precision", "found", "said"),
            FMeasure("f", "precision", "recall", undefined_with_parts=False)),
    hidden=("said",),
    summaries=(Summary("length_median", "length", statistics.median), Summary("length_max", "length", max)),
    order=("recall", "found", "due", "length", "precision", "f"),
)


def test_hooks_order_hide_and_flag_per_topic():
    # found 0 of due 2 (recall 0), said 0: precision undefined (0); f = 0 with p + r = 0, so undefined too
    assert HOOKED.topic_rows({"length": 7, "found": 0, "due": 2, "said": 0}) == [
        ("recall", 0.0), ("found", 0), ("due", 2), ("length", 7), ("precision", 0.0), ("f", 0.0),
        ("precision_undefined", 1), ("f_undefined", 1)]
    # recall 1/2 and precision undefined: ARGUE's F is 0 but defined (p + r > 0); the base rule flags it
    rows = dict(HOOKED.topic_rows({"length": 7, "found": 1, "due": 2, "said": 0}))
    assert rows["f"] == 0.0 and "f_undefined" not in rows and rows["precision_undefined"] == 1
    strict = Family(name="strict", counts=HOOKED.counts, ratios=(*HOOKED.ratios[:2], FMeasure("f", "precision", "recall")),
                    hidden=("said",))
    assert dict(strict.topic_rows({"length": 7, "found": 1, "due": 2, "said": 0}))["f_undefined"] == 1


def test_hooks_in_the_all_rows():
    per_topic = [{"length": 10, "found": 1, "due": 2, "said": 4}, {"length": 40, "found": 3, "due": 3, "said": 3}]
    rows = HOOKED.aggregate_rows(per_topic, extra=[("missing_topics", 1)])
    names = [name for name, _ in rows]
    # summed counts without the summarized one, the summaries, then micro/macro, undefined, topics, the extra
    assert names == ["found", "due", "length_median", "length_max", "recall_micro", "recall_macro",
                     "precision_micro", "precision_macro", "f_micro", "f_macro", "recall_undefined",
                     "precision_undefined", "f_undefined", "topics", "missing_topics"]
    values = dict(rows)
    assert (values["found"], values["due"]) == (4, 5)
    assert values["length_median"] == 25 and values["length_max"] == 40  # median of 10 and 40: their mean
    # precision micro from the hidden count summed: (1 + 3) / (4 + 3) = 4/7; macro (1/4 + 1) / 2 = 5/8
    assert values["precision_micro"] == pytest.approx(4 / 7) and values["precision_macro"] == pytest.approx(5 / 8)
    assert values["missing_topics"] == 1 and values["topics"] == 2
    # no topics: summaries are 0, as every ratio
    empty = dict(HOOKED.aggregate_rows([]))
    assert empty["length_median"] == 0 and empty["length_max"] == 0 and empty["f_macro"] == 0.0


def test_a_row_order_that_misses_a_metric_is_refused():
    with pytest.raises(ValueError, match="row order"):
        Family(name="bad", counts=("a", "b"), ratios=(Ratio("r", "a", "b"),), order=("a", "r"))


def test_argue_family_on_hand_counted_topic():
    """ARGUE's ratios from its counts: relevance 3/5, support 4/5, sentence support 2/4, coverage 3/6, F1 of
    0.5 and 0.5 = 0.5, weighted coverage 5/9, F1_w = 2 * 0.5 * 5/9 / (0.5 + 5/9) = 10/19, precision 3/4."""
    from argue_eval.argue.counting import COUNT_MEASURES, FAMILY, OUTCOME_MEASURES, RATIO_MEASURES, TOPIC_MEASURES

    counts = {name: 0 for name in (*COUNT_MEASURES, *OUTCOME_MEASURES)}
    counts.update(citations=5, relevant_citations=3, supporting_citations=4, correctly_cited_sentences=2,
                  sentences_with_citations_or_requiring_citations=4, nuggets=6, correct_nuggets=3,
                  nuggets_weighted=9, correct_nuggets_weighted=5, rewarded=3, judged_sentences=4)
    rows = FAMILY.topic_rows(counts)
    assert [name for name, _ in rows] == list(TOPIC_MEASURES)  # the contract order, no undefined flag
    values = dict(rows)
    assert values["citation_relevance"] == 3 / 5 and values["citation_support"] == 4 / 5
    assert values["sentence_support"] == 0.5 and values["nugget_coverage"] == 0.5 and values["f1"] == 0.5
    assert values["f1_weighted"] == pytest.approx(10 / 19) and values["argue_precision"] == 0.75
    assert FAMILY.ratio_names == RATIO_MEASURES
