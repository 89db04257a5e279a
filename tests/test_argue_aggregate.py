"""Aggregation over topics (micro vs macro), missing topics, reports outside the evaluation, the Python API.

runA has T1 (see test_argue_flowchart: sentence support 3/6, coverage 3/4, F1 0.6, precision 3/6) and
T2 (one sentence citing e1, answering m1 and attested: support 1/1, coverage 1/2, F1 2/3, precision 1/1).
"""
from __future__ import annotations

import math

import pytest
from helpers import ARGUE_FIXTURES, load_judgments, load_nuggets, load_reports

import argue_eval
from argue_eval import score
from argue_eval.argue import MissingJudgmentsError
from argue_eval.errors import InputError
from argue_eval.model import Judgment, Report, Request, Sentence


def table_dict(result, run="runA"):
    table = result.table
    rows = table[table.run_id == run]
    return {(r.request_id, r.metric): r.value for r in rows.itertuples()}


def test_micro_and_macro_by_hand():
    result = score(load_reports(ARGUE_FIXTURES / "runA.jsonl"), load_nuggets().values(), load_judgments())
    v = table_dict(result)
    # micro: summed counts. support (3 + 1) / (6 + 1); coverage (3 + 1) / (4 + 2)
    assert v[("all", "sentence_support_micro")] == pytest.approx(4 / 7)
    assert v[("all", "nugget_coverage_micro")] == pytest.approx(4 / 6)
    # f1_micro = F1 of the micro ratios: 2 * 4/7 * 2/3 / (4/7 + 2/3) = 8/13
    assert v[("all", "f1_micro")] == pytest.approx(8 / 13)
    # macro: mean of per-topic values. support (0.5 + 1) / 2 ; coverage (0.75 + 0.5) / 2
    assert v[("all", "sentence_support_macro")] == pytest.approx(0.75)
    assert v[("all", "nugget_coverage_macro")] == pytest.approx(0.625)
    # f1_macro is the mean of per-topic F1s (0.6 + 2/3) / 2, not the F1 of the macros (0.6818...)
    assert v[("all", "f1_macro")] == pytest.approx((0.6 + 2 / 3) / 2)
    assert not math.isclose(v[("all", "f1_macro")], 2 * 0.75 * 0.625 / 1.375)
    # weighted: T1 5/6 (weights 6), T2 1/2 (okay 1 + okay 1): micro (5 + 1) / (6 + 2)
    assert v[("all", "nugget_coverage_weighted_micro")] == pytest.approx(6 / 8)
    assert v[("all", "nugget_coverage_weighted_macro")] == pytest.approx((5 / 6 + 0.5) / 2)
    # citation relevance micro (4 + 1) / (6 + 1), macro (4/6 + 1) / 2
    assert v[("all", "citation_relevance_micro")] == pytest.approx(5 / 7)
    assert v[("all", "citation_relevance_macro")] == pytest.approx(5 / 6)
    # precision: rewarded (3 + 1) / judged (6 + 1); macro (0.5 + 1) / 2
    assert v[("all", "argue_precision_micro")] == pytest.approx(4 / 7)
    assert v[("all", "argue_precision_macro")] == pytest.approx(0.75)
    # summed counts keep their names; character counts: median of two is their mean
    assert v[("all", "sentences")] == 11 and v[("all", "nuggets")] == 6 and v[("all", "outcome_3")] == 3
    chars = [sum(len(s.text) for s in r.sentences) for r in load_reports(ARGUE_FIXTURES / "runA.jsonl")]
    assert v[("all", "character_count_median")] == sum(chars) / 2
    assert v[("all", "character_count_max")] == max(chars)
    assert v[("all", "topics")] == 2 and v[("all", "missing_topics")] == 0


def test_rows_are_ordered_run_topic_measure():
    result = score(load_reports(ARGUE_FIXTURES / "runA.jsonl"), load_nuggets().values(), load_judgments())
    table = result.table
    assert list(table.columns) == ["run_id", "request_id", "metric", "value"]
    assert list(dict.fromkeys(table.request_id)) == ["T1", "T2", "all"]
    t1 = list(table[table.request_id == "T1"].metric)
    assert t1[:3] == ["sentences", "character_count", "citations"]
    assert t1.index("f1") < t1.index("argue_precision") < t1.index("outcome_1")
    assert not table.value.isna().any()


def test_missing_topic_scores_zero_or_is_skipped():
    """runB has no report for T2: zero -> T2 rows with coverage 0/2 and the mean halves; skip -> T2 left out."""
    reports = load_reports(ARGUE_FIXTURES / "runB.jsonl")
    zero = table_dict(score(reports, load_nuggets().values(), load_judgments()), "runB")
    # runB T1: s0 -> 3 (n1, n2 Missouri), s1 -> 2 ; coverage n1 only (n2 AND lacks Platte): 1/4
    assert zero[("T1", "nugget_coverage")] == pytest.approx(0.25)
    assert zero[("T2", "nugget_coverage")] == 0 and zero[("T2", "nuggets")] == 2
    assert zero[("T2", "sentence_support_undefined")] == 1
    assert zero[("all", "nugget_coverage_macro")] == pytest.approx(0.125)
    assert zero[("all", "missing_topics")] == 1
    skip = table_dict(score(reports, load_nuggets().values(), load_judgments(), missing_topics="skip"), "runB")
    assert ("T2", "nuggets") not in skip
    assert skip[("all", "nugget_coverage_macro")] == pytest.approx(0.25)
    assert skip[("all", "missing_topics")] == 1


def test_topic_with_no_nuggets_from_the_requests():
    requests = [Request("T1"), Request("T2"), Request("T3")]
    reports = load_reports(ARGUE_FIXTURES / "runA.jsonl") + [Report("runA", "T3", [Sentence("Hello.", ())])]
    judgments = load_judgments() + [
        Judgment("negative", "T3", "Hello.", False, "h"),
        Judgment("requires_citation", "T3", "Hello.", False, "h", run_id="runA", sentence_index=0),
    ]
    v = table_dict(score(reports, load_nuggets().values(), judgments, requests=requests))
    assert v[("T3", "nuggets")] == 0 and v[("T3", "nugget_coverage")] == 0
    assert v[("T3", "nugget_coverage_undefined")] == 1 and v[("T3", "outcome_4")] == 1
    assert v[("all", "nugget_coverage_undefined")] == 1 and v[("all", "topics")] == 3


def test_reports_outside_the_evaluation_are_not_scored():
    requests = [Request("T1")]
    v = table_dict(score(load_reports(ARGUE_FIXTURES / "runA.jsonl"), load_nuggets().values(), load_judgments(),
                         requests=requests))
    assert ("T2", "sentences") not in v and v[("all", "topics")] == 1


def test_missing_judgments_error_counts_per_kind():
    judgments = [j for j in load_judgments() if j.kind != "attested"]
    with pytest.raises(MissingJudgmentsError) as caught:
        score(load_reports(ARGUE_FIXTURES / "runA.jsonl"), load_nuggets().values(), judgments)
    # attested for s1 d1, s2 d4, s2 d9, s3 d9, s4 d2, s9 d3 and T2 e1
    assert caught.value.counts == {"attested": 7}
    assert "assess export" in str(caught.value)


def test_missing_judgments_zero_and_skip_are_reported():
    judgments = [j for j in load_judgments() if not (j.kind == "attested" and j.request_id == "T2")]
    zero = table_dict(score(load_reports(ARGUE_FIXTURES / "runA.jsonl"), load_nuggets().values(), judgments,
                            missing_judgments="zero"))
    # T2's only citation counts as unattested: support 0, outcome 3 still (it answered m1)
    assert zero[("T2", "supporting_citations")] == 0 and zero[("T2", "outcome_3")] == 1
    assert zero[("all", "missing_judgments")] == 1
    skip = table_dict(score(load_reports(ARGUE_FIXTURES / "runA.jsonl"), load_nuggets().values(), judgments,
                            missing_judgments="skip"))
    assert ("T2", "sentences") not in skip and skip[("all", "skipped_reports")] == 1


def test_duplicate_report_is_an_error():
    reports = load_reports(ARGUE_FIXTURES / "runA.jsonl")
    with pytest.raises(InputError, match="second report for topic T1"):
        score(reports + reports[:1], load_nuggets().values(), load_judgments())


def test_package_level_score_and_details():
    result = argue_eval.score(load_reports(ARGUE_FIXTURES / "runA.jsonl"), load_nuggets().values(), load_judgments())
    first = result.details[0]
    assert (first["run_id"], first["request_id"]) == ("runA", "T1")
    assert [s["outcome"] for s in first["sentences"]] == [4, 3, 3, 2, 2, 5, 6, 8, 7, 1]
    path = first["sentences"][0]["path"]
    assert path == [{"question": "negative", "value": False, "judge": "human:fixture"},
                    {"question": "requires_citation", "value": False, "judge": "human:fixture"}]
    assert {n["nugget_id"]: n["correct"] for n in first["nuggets"]} == {"n1": True, "n2": True, "n3": False, "n4": True}
    assert first["dropped_nuggets"] == ["n5"]
