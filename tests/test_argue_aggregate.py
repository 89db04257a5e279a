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
from argue_eval.argue import Evaluation, MissingJudgmentsError, Policies
from argue_eval.errors import InputError
from argue_eval.model import Answer, Judgment, Nugget, Report, Request, Sentence, TopicNuggets


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


def _with_t3():
    """runA plus a report for T3, a requested topic without nuggets: one uncited sentence, judged not negative
    and not needing a citation (outcome 4)."""
    reports = load_reports(ARGUE_FIXTURES / "runA.jsonl") + [Report("runA", "T3", [Sentence("Hello.", ())])]
    judgments = load_judgments() + [
        Judgment("negative", "T3", "Hello.", False, "h"),
        Judgment("requires_citation", "T3", "Hello.", False, "h", run_id="runA", sentence_index=0),
    ]
    return reports, judgments


def _all_rows(values):
    return {metric: value for (topic, metric), value in values.items() if topic == "all"}


def test_a_requested_topic_without_nuggets_is_not_evaluated():
    """trec_eval's rule: the evaluated topics are the judged ones (with nuggets) among the requests. T3 is
    requested, has no nuggets and has a report: no T3 rows, nothing of its report counted, one row saying so."""
    reports, judgments = _with_t3()
    requests = [Request("T1"), Request("T2"), Request("T3")]
    v = table_dict(score(reports, load_nuggets().values(), judgments, requests=requests))
    assert not any(topic == "T3" for topic, _ in v)
    # T1 F1 0.6, T2 F1 2/3 (module docstring): the mean of the two, not of three with a 0 for T3 (19/45)
    assert v[("all", "f1_macro")] == pytest.approx((0.6 + 2 / 3) / 2)
    assert v[("all", "topics")] == 2 and v[("all", "f1_undefined")] == 0 and v[("all", "nugget_coverage_undefined")] == 0
    assert v[("all", "sentences")] == 11  # runA's T1 and T2 sentences; T3's "Hello." is not scored
    assert v[("all", "topics_without_nuggets")] == 1
    # with and without the requests the run's `all` rows are the same, but for the row naming what was left out
    without = table_dict(score(reports[:-1], load_nuggets().values(), judgments))
    assert {**_all_rows(without), "topics_without_nuggets": 1} == _all_rows(v)
    assert {key: value for key, value in v.items() if key[0] != "all"} == \
        {key: value for key, value in without.items() if key[0] != "all"}


def test_a_judged_topic_without_a_report_still_counts_zero_among_the_requests():
    """runB has no report for T2, which has nuggets: it scores 0 (as trec_eval -c) whether or not requests are
    given; T3 and T4, requested without nuggets, change nothing."""
    reports = load_reports(ARGUE_FIXTURES / "runB.jsonl")
    requests = [Request("T1"), Request("T2"), Request("T3"), Request("T4")]
    with_requests = table_dict(score(reports, load_nuggets().values(), load_judgments(), requests=requests), "runB")
    plain = table_dict(score(reports, load_nuggets().values(), load_judgments()), "runB")
    # runB T1 coverage 1/4 (test_missing_topic_scores_zero_or_is_skipped), T2 0/2: macro (0.25 + 0) / 2
    assert with_requests[("T2", "nugget_coverage")] == 0 and with_requests[("T2", "nuggets")] == 2
    assert with_requests[("all", "nugget_coverage_macro")] == pytest.approx(0.125)
    assert with_requests[("all", "missing_topics")] == 1 and with_requests[("all", "topics")] == 2
    assert with_requests[("all", "topics_without_nuggets")] == 2
    assert {**plain, ("all", "topics_without_nuggets"): 2} == with_requests


def test_evaluated_topics_requests_restores_the_old_numbers():
    """--evaluated-topics requests: every requested topic is evaluated, T3 scoring 0 with coverage undefined."""
    reports, judgments = _with_t3()
    requests = [Request("T1"), Request("T2"), Request("T3")]
    v = table_dict(score(reports, load_nuggets().values(), judgments, requests=requests, evaluated_topics="requests"))
    assert v[("T3", "nuggets")] == 0 and v[("T3", "nugget_coverage")] == 0
    assert v[("T3", "nugget_coverage_undefined")] == 1 and v[("T3", "outcome_4")] == 1
    assert v[("all", "nugget_coverage_undefined")] == 1 and v[("all", "topics")] == 3
    # (0.6 + 2/3 + 0) / 3 = 19/45: T3's F1 is 0 (support and coverage both undefined)
    assert v[("all", "f1_macro")] == pytest.approx(19 / 45) and v[("all", "f1_undefined")] == 1
    assert v[("all", "sentences")] == 12 and ("all", "topics_without_nuggets") not in v


def test_a_topic_whose_questions_are_all_dropped_has_no_nuggets():
    """A topic counts as judged when it has a nugget that counts under the policies: T4's only question has no
    answer bound to a document, so --unbound-questions drop leaves it without nuggets, keep gives it one."""
    nuggets = [*load_nuggets().values(),
               TopicNuggets("T4", [Nugget("q1", "T4", "Who?", [Answer("someone", ())])])]
    reports = load_reports(ARGUE_FIXTURES / "runA.jsonl")
    dropped = Evaluation.build(nuggets, Policies())
    assert dropped.order == ["T1", "T2"] and dropped.unjudged == ["T4"]
    assert sum("not evaluated" in note for note in dropped.notes) == 1
    kept = table_dict(score(reports, nuggets, load_judgments(), unbound_questions="keep"))
    # T4 is evaluated; runA has no report for it, so it scores 0 of its 1 nugget
    assert kept[("T4", "nuggets")] == 1 and kept[("all", "topics")] == 3 and kept[("all", "missing_topics")] == 1


def test_no_topic_with_nuggets_is_a_one_line_error():
    """Requests none of which has nuggets (another track's file): an error, not a table of zeros."""
    with pytest.raises(InputError) as caught:
        score(load_reports(ARGUE_FIXTURES / "runA.jsonl"), load_nuggets().values(), load_judgments(),
              requests=[Request("X1"), Request("X2")])
    message = str(caught.value)
    assert "none of the 2 topic(s) to evaluate has a nugget" in message and "another track" in message
    assert "\n" not in message


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
