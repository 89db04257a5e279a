"""``argue-eval analyze``: each subcommand prints its api function's table (values worked out by hand in
tests/test_stats_power.py and tests/test_api_analysis.py)."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from argue_eval.cli import cli

# tests/fixtures/analysis/three.tsv: the six-topic matrix in eighths of tests/test_stats_power.py.
# A beats B and C on every topic (exact randomization p = 2/64); B and C tie on average (p = 1).


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, ["analyze", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_power_prints_the_share_and_writes_the_curve(fixtures: Path, tmp_path: Path):
    scores = str(fixtures / "analysis" / "three.tsv")
    doc = json.loads(run("power", scores, "-m", "f1", "--test", "randomization", "--correction", "none",
                         "--format", "json", "--curve", str(tmp_path / "asl.tsv")))
    assert doc["rows"][0]["power"] == 2 / 3 and doc["rows"][0]["significant"] == 2
    curve = [line.split("\t") for line in (tmp_path / "asl.tsv").read_text().splitlines()]
    assert curve[0] == ["metric", "position", "a", "b", "diff", "p_value", "p_adjusted", "significant"]
    assert [row[6] for row in curve[1:]] == ["0.031250", "0.031250", "1.000000"]
    holm = json.loads(run("power", scores, "-m", "f1", "--test", "randomization", "--format", "json"))
    assert (holm["rows"][0]["correction"], holm["rows"][0]["power"]) == ("holm", 0.0)  # 2/64 x 3 > 0.05
    text = run("power", scores, "-m", "f1", "--test", "randomization", "--correction", "none")
    assert text.splitlines()[3].split() == ["f1", "3", "6", "3", "2", "0.6667", "randomization", "none", "0.0500"]


def test_swaps_and_topic_set_size(fixtures: Path):
    scores = str(fixtures / "analysis" / "three.tsv")
    rows = json.loads(run("swaps", scores, "-m", "f1", "--topics", "3", "--format", "json"))["rows"]
    # Three topics against the other three: C(6,3) = 20 ordered splits (exact). A stays ahead of B and C in every
    # half. B - C is +1/8 on t1, t3, t5 and -1/8 on the others: a half with k of the plus topics has mean
    # (2k - 3)/24, the other half the opposite, never 0: every split swaps B and C. 20 swaps of 60 comparisons.
    assert (rows[0]["topics"], rows[0]["trials"], rows[0]["exact"]) == (3, 20, True)
    assert (rows[0]["comparisons"], rows[0]["swaps"], rows[0]["ties"]) == (60, 20, 0)
    # V_E: A and B differ by a constant, C is B + d (d = -+1/8 alternating, mean 0), so the residuals are -d/3,
    # -d/3 and 2d/3: SS_E = 6 topics x (6/9)(1/64) = 1/16 over (3 - 1)(6 - 1) = 10 df, V_E = 0.00625 and
    # sigma_d = sqrt(2 V_E) = 0.1118. A delta of one sigma_d needs 10 topics (the paired t-test's d = 1).
    delta = str(0.0125 ** 0.5)
    design = json.loads(run("topic-set-size", scores, "-m", "f1", "--delta", delta, "--format", "json"))["rows"][0]
    assert abs(design["residual_variance"] - 0.00625) < 1e-15
    assert (design["topics_needed"], design["n_topics"]) == (10, 6)
    tsv = run("topic-set-size", scores, "-m", "f1", "--delta", "0.1", "--format", "tsv")
    assert tsv.splitlines()[0].split("\t")[:3] == ["metric", "delta", "alpha"]


def test_circularity_writes_a_flags_table(tmp_path: Path):
    run_file = tmp_path / "runs.jsonl"
    run_file.write_text(json.dumps({"run_id": "r1", "request_id": "T1", "sentences": [{"text": "x", "citations": []}],
                                    "metadata": {"description": "reranked with the NeuCLIR nuggets"}}) + "\n")
    out = tmp_path / "flags.tsv"
    run("circularity", "--run", str(run_file), "--format", "tsv", "-o", str(out), "-q")
    assert out.read_text().splitlines() == [
        "run_id\tflag\tfield\tevidence", "r1\tevaluation\tdescription\tmentions 'nugget': reranked with the NeuCLIR nuggets"]


def test_reusability_by_hand(tmp_path: Path):
    # The round of tests/test_api_analysis.py::test_reusability_by_hand, as files: a1 (team A) gives "x" and "y"
    # citing d3, only A's document; without A, n2 (bound only to d3) is gone and d3 is no longer relevant, so a1's
    # nugget coverage falls from 1 to 0 and its rank from 1 to 2.
    s1, s2, s3, s4 = "It was x.", "It was y.", "Also x.", "Unrelated."
    runs = tmp_path / "runs.jsonl"
    runs.write_text("".join(json.dumps(line) + "\n" for line in [
        {"run_id": "a1", "request_id": "T1", "sentences": [{"text": s1, "citations": ["d3"]}, {"text": s2, "citations": ["d3"]}]},
        {"run_id": "b1", "request_id": "T1", "sentences": [{"text": s3, "citations": ["d1"]}, {"text": s4, "citations": ["d2"]}]}]))
    nuggets = tmp_path / "nuggets.jsonl"
    nuggets.write_text(json.dumps({"request_id": "T1", "nuggets": [
        {"nugget_id": "n1", "question": "q1?", "answers": [{"answer": "x", "doc_ids": ["d1", "d3"]}]},
        {"nugget_id": "n2", "question": "q2?", "answers": [{"answer": "y", "doc_ids": ["d3"]}]}]}) + "\n")
    judged = [("attested", s1, "d3", None, None, True), ("answers", s1, "d3", "n1", "x", True),
              ("answers", s1, "d3", "n2", "y", False), ("attested", s2, "d3", None, None, True),
              ("answers", s2, "d3", "n2", "y", True), ("answers", s2, "d3", "n1", "x", False),
              ("attested", s3, "d1", None, None, True), ("answers", s3, "d1", "n1", "x", True),
              ("attested", s4, "d2", None, None, False)]
    judgments = tmp_path / "judgments.jsonl"
    judgments.write_text("".join(json.dumps({"kind": kind, "request_id": "T1", "sentence": sentence, "doc_id": doc,
                                             "nugget_id": nugget, "answer": answer, "run_id": None,
                                             "sentence_index": None, "value": value, "judge": "human:t"}) + "\n"
                                 for kind, sentence, doc, nugget, answer, value in judged))
    out = tmp_path / "reuse.tsv"
    run("reusability", "--run", str(runs), "--nuggets", str(nuggets), "--judgments", str(judgments), "-m",
        "nugget_coverage", "--team", "a1=A", "--team", "b1=B", "--format", "tsv", "-o", str(out),
        "--details", str(tmp_path / "teams.json"), "-q")
    rows = [line.split("\t") for line in out.read_text().splitlines()]
    assert rows[0] == ["team", "run_id", "metric", "score", "score_left_out", "change", "rank", "rank_left_out",
                       "rank_change"]
    assert rows[1] == ["A", "a1", "nugget_coverage", "1.0000", "0.0000", "-1.0000", "1", "2", "1"]
    assert rows[2] == ["B", "b1", "nugget_coverage", "0.5000", "0.0000", "-0.5000", "2", "2", "0"]
    teams = json.loads((tmp_path / "teams.json").read_text())
    assert teams[0]["unique_documents"] == {"T1": ["d3"]} and teams[0]["removed_nuggets"] == [["T1", "n2", "q2?"]]
