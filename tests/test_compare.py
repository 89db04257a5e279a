"""``argue-eval compare`` end to end on a tiny hand-checked matrix."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from scipy import stats

from argue_eval.cli import cli

# tests/fixtures/stats/scores.tsv, metric f1, topics t1..t5:
#   sysA = (0.5, 0.6, 0.7, 0.4, 0.8), mean 0.6
#   sysB = (0.3, 0.5, 0.6, 0.2, 0.4), mean 0.4
#   sysC = sysA (identical scores)
# Leaderboard: sysA, sysC (tie on the mean, broken by run id), sysB. Pairs in that order: (A,C), (A,B), (C,B).
# A-B differences (0.2, 0.1, 0.1, 0.2, 0.4) are all positive: with 2^5 = 32 <= resamples the randomization test
# is exact and only the all-plus / all-minus sign vectors reach |sum| = 1.0, so p = 2/32 = 0.0625 (same for C-B);
# A-C differences are all 0, so p = 1.
# Holm over the three: sorted 0.0625, 0.0625, 1 times 3, 2, 1 -> 0.1875, 0.125 -> running max 0.1875, 0.1875, 1.
# BH: 0.0625*3/1 = 0.1875, 0.0625*3/2 = 0.09375, 1*3/3 = 1 -> running min from the top: 0.09375, 0.09375, 1.


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, ["compare", *args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def scores(fixtures: Path) -> str:
    return str(fixtures / "stats" / "scores.tsv")


def test_json_has_every_number_and_the_documented_keys(scores: str):
    doc = json.loads(run(scores, "--metric", "f1", "--test", "randomization", "--format", "json", "--resamples", "2000"))
    for key in ("metric", "test", "correction", "resamples", "seed", "systems", "pairs"):
        assert key in doc
    assert (doc["metric"], doc["test"], doc["correction"], doc["resamples"], doc["seed"]) == ("f1", "randomization", "holm", 2000, 0)
    assert doc["exact"] is True and doc["test_resamples"] == 32
    assert [s["run_id"] for s in doc["systems"]] == ["sysA", "sysC", "sysB"]
    for system in doc["systems"]:
        assert {"run_id", "mean", "ci_low", "ci_high", "n_topics"} <= set(system)
        assert system["n_topics"] == 5 and system["ci_low"] <= system["mean"] <= system["ci_high"]
    assert doc["systems"][0]["mean"] == pytest.approx(0.6) and doc["systems"][2]["mean"] == pytest.approx(0.4)
    pairs = {(p["a"], p["b"]): p for p in doc["pairs"]}
    assert set(pairs) == {("sysA", "sysC"), ("sysA", "sysB"), ("sysC", "sysB")}
    for pair in doc["pairs"]:
        assert {"a", "b", "diff", "p_value", "p_adjusted", "significant"} <= set(pair)
    assert pairs[("sysA", "sysB")]["p_value"] == pytest.approx(0.0625)
    assert pairs[("sysA", "sysB")]["p_adjusted"] == pytest.approx(0.1875)
    assert pairs[("sysC", "sysB")]["p_adjusted"] == pytest.approx(0.1875)
    assert pairs[("sysA", "sysC")]["p_value"] == 1.0 and pairs[("sysA", "sysC")]["diff"] == 0.0
    assert pairs[("sysA", "sysB")]["diff"] == pytest.approx(0.2)
    # paired Cohen's d: mean 0.2 / sd sqrt(0.06/4) = 1.63299...; undefined (null + note) for identical systems
    assert pairs[("sysA", "sysB")]["cohen_d"] == pytest.approx(0.2 / 0.015**0.5)
    assert pairs[("sysA", "sysC")]["cohen_d"] is None
    assert any("Cohen's d is undefined" in note for note in doc["notes"])
    assert not any(p["significant"] for p in doc["pairs"])


def test_bh_and_no_correction(scores: str):
    doc = json.loads(run(scores, "-m", "f1", "--format", "json", "--test", "randomization", "--correction", "bh",
                         "--resamples", "100"))
    pairs = {(p["a"], p["b"]): p for p in doc["pairs"]}
    assert pairs[("sysA", "sysB")]["p_adjusted"] == pytest.approx(0.09375)
    assert pairs[("sysA", "sysC")]["p_adjusted"] == 1.0
    doc = json.loads(run(scores, "-m", "f1", "--format", "json", "--test", "randomization", "--correction", "none",
                         "--alpha", "0.1", "--resamples", "100"))
    significant = {(p["a"], p["b"]) for p in doc["pairs"] if p["significant"]}
    assert significant == {("sysA", "sysB"), ("sysC", "sysB")}
    assert [s["better_than"] for s in doc["systems"]] == [["sysB"], ["sysB"], []]


def test_t_test_matches_scipy(scores: str):
    doc = json.loads(run(scores, "-m", "f1", "--format", "json", "--test", "t", "--baseline", "sysB", "--resamples", "200"))
    pair = next(p for p in doc["pairs"] if p["a"] == "sysA")
    expected = stats.ttest_rel([0.5, 0.6, 0.7, 0.4, 0.8], [0.3, 0.5, 0.6, 0.2, 0.4])
    assert pair["p_value"] == pytest.approx(expected.pvalue, rel=1e-12)
    assert pair["statistic"] == pytest.approx(expected.statistic, rel=1e-12)
    assert [(p["a"], p["b"]) for p in doc["pairs"]] == [("sysA", "sysB"), ("sysC", "sysB")]
    assert doc["baseline"] == "sysB"


def test_baseline_markers_in_text(scores: str):
    out = run(scores, "-m", "f1", "--baseline", "sysB", "--correction", "none", "--alpha", "0.1", "--resamples", "200")
    lines = out.splitlines()
    row_a = next(line for line in lines if line.split()[:2] == ["1", "sysA"])
    row_b = next(line for line in lines if line.split()[:2] == ["3", "sysB"])
    assert row_a.split()[-1] == "+" and row_a.split()[-2] == "0.0625"
    assert row_b.split()[-1] == "baseline"


def test_rerun_is_byte_identical_and_output_file_matches_stdout(scores: str, tmp_path: Path):
    for fmt in ("text", "json", "tsv", "markdown", "latex"):
        first = run(scores, "-m", "f1", "--format", fmt, "--resamples", "300", "--seed", "3")
        assert first == run(scores, "-m", "f1", "--format", fmt, "--resamples", "300", "--seed", "3")
    out = tmp_path / "cmp.json"
    run(scores, "-m", "f1", "--format", "json", "--resamples", "300", "-o", str(out))
    assert out.read_text() == run(scores, "-m", "f1", "--format", "json", "--resamples", "300")


def test_other_table_formats(scores: str):
    tsv = run(scores, "-m", "f1", "--format", "tsv", "--resamples", "200")
    header, *rows = [line for line in tsv.splitlines() if not line.startswith("#")]
    assert header.split("\t")[:5] == ["rank", "run_id", "mean", "ci_low", "ci_high"] and len(rows) == 3
    pairs_tsv = run(scores, "-m", "f1", "--format", "tsv", "--table", "pairs", "--resamples", "200")
    assert pairs_tsv.splitlines()[0].startswith("a\tb\tdiff")
    markdown = run(scores, "-m", "f1", "--format", "markdown", "--resamples", "200")
    assert "| rank | run_id | mean |" in markdown and "|---:|:---|---:|" in markdown
    latex = run(scores, "-m", "f1", "--format", "latex", "--resamples", "200")
    assert r"\begin{tabular}" in latex and r"\toprule" in latex and "sysA & sysC" in latex
    assert "-- &" in latex  # undefined Cohen's d shown as --, with its note
    assert "% note:" in latex


def test_tukey(scores: str):
    # Permuting each topic across the three systems hands B's (lower) score of topic t to one of the three
    # systems at random; the others get A's (= C's) score. The range of system means reaches |A - B| = 0.2 only if
    # one system gets all five low scores (any split leaves the range at most 0.9/5 = 0.18): p = 3 / 3^5 = 1/81.
    doc = json.loads(run(scores, "-m", "f1", "--format", "json", "--test", "tukey", "--resamples", "20000"))
    assert doc["correction"] == "none" and doc["test_resamples"] == 20000
    pairs = {(p["a"], p["b"]): p for p in doc["pairs"]}
    assert pairs[("sysA", "sysC")]["p_value"] == 1.0
    assert all(p["p_adjusted"] == p["p_value"] for p in doc["pairs"])
    assert pairs[("sysA", "sysB")]["p_value"] == pytest.approx(1 / 81, abs=0.003)
    assert pairs[("sysC", "sysB")]["p_value"] == pairs[("sysA", "sysB")]["p_value"]


def test_default_test_is_tukey_for_all_pairs_and_randomization_against_a_baseline(scores: str):
    """The defaults of docs/statistics.md (stats.pairwise.resolve_test), which the HTML report shares."""
    doc = json.loads(run(scores, "-m", "f1", "--format", "json", "--resamples", "500"))
    assert (doc["test"], doc["correction"], doc["pair_intervals"]) == ("tukey", "none", "simultaneous")
    doc = json.loads(run(scores, "-m", "f1", "--baseline", "sysB", "--format", "json", "--resamples", "500"))
    assert (doc["test"], doc["correction"]) == ("randomization", "holm")
    # the hand-checked randomization p-value of A - B (0.0625, see the top), Holm over the two baseline pairs
    pair = next(p for p in doc["pairs"] if p["a"] == "sysA")
    assert pair["p_value"] == pytest.approx(0.0625) and pair["p_adjusted"] == pytest.approx(0.125)


def test_usage_errors_are_one_line(scores: str):
    runner = CliRunner()
    result = runner.invoke(cli, ["compare", scores, "-m", "f1", "--test", "tukey", "--correction", "holm"])
    assert result.exit_code == 2 and "already controls the family-wise error" in result.output
    # all pairs default to Tukey HSD: a correction alone is the same mistake, and the message says why
    result = runner.invoke(cli, ["compare", scores, "-m", "f1", "--correction", "bh"])
    assert result.exit_code == 2 and "--test tukey (the default) already controls" in result.output
    assert "Traceback" not in result.output
    result = runner.invoke(cli, ["compare", scores, "-m", "f1", "--baseline", "nope"])
    assert result.exit_code == 2 and result.output.strip() == "--baseline: 'nope' is not among the runs for 'f1': sysA, sysB, sysC"
    result = runner.invoke(cli, ["compare", scores, "-m", "map"])
    assert result.exit_code == 2 and "metric 'map' not found" in result.output
    result = runner.invoke(cli, ["compare", "no/such/file.tsv", "-m", "f1"])
    assert result.exit_code == 2 and "no such file" in result.output


def test_trec_eval_files_combine(fixtures: Path):
    stats_dir = fixtures / "stats"
    doc = json.loads(run(str(stats_dir / "runx.trec_eval"), str(stats_dir / "runy.q"), "-m", "map", "--format", "json",
                         "--resamples", "200"))
    assert [s["run_id"] for s in doc["systems"]] == ["runx", "runy"]
    assert doc["n_topics"] == 3 and doc["systems"][0]["mean"] == pytest.approx(0.5)
    assert not any("fewer than 3 topics" in note for note in doc["notes"])  # three topics is enough


def test_degenerate_inputs_give_notes_not_nan(tmp_path: Path):
    one_topic = tmp_path / "one.tsv"
    one_topic.write_text("run_id\trequest_id\tmetric\tvalue\nA\tt1\tf1\t0.5\nB\tt1\tf1\t0.3\n")
    doc = json.loads(run(str(one_topic), "-m", "f1", "--format", "json", "--test", "randomization"))
    assert doc["systems"][0]["ci_low"] is None and doc["systems"][0]["ci_method"] == "undefined"
    assert any("fewer than 3 topics" in note for note in doc["notes"])
    assert any("at least two topics" in note for note in doc["notes"])
    assert doc["pairs"][0]["p_value"] == 1.0  # exact: 2 sign vectors, both reach |0.2|
    text = run(str(one_topic), "-m", "f1")
    assert "n/a" in text and "note:" in text

    constant = tmp_path / "constant.tsv"
    constant.write_text("run_id\trequest_id\tmetric\tvalue\n" + "".join(f"{r}\tt{k}\tf1\t0.5\n" for r in "AB" for k in range(4)))
    doc = json.loads(run(str(constant), "-m", "f1", "--format", "json", "--test", "t"))
    assert doc["systems"][0]["ci_low"] == doc["systems"][0]["ci_high"] == 0.5
    assert doc["pairs"][0]["p_value"] is None and doc["pairs"][0]["significant"] is False
    assert any("identical scores on every topic" in note for note in doc["notes"])
    assert any("zero width" in note for note in doc["notes"])


def test_missing_policies(tmp_path: Path):
    path = tmp_path / "gap.tsv"
    path.write_text("run_id\trequest_id\tmetric\tvalue\n"
                    "A\tt1\tf1\t0.5\nA\tt2\tf1\t0.7\nA\tt3\tf1\t0.9\nB\tt1\tf1\t0.4\nB\tt3\tf1\t0.8\n")
    zero = json.loads(run(str(path), "-m", "f1", "--format", "json", "--resamples", "100"))
    b = next(s for s in zero["systems"] if s["run_id"] == "B")
    assert b["mean"] == pytest.approx(0.4) and b["n_missing"] == 1 and zero["missing"] == "zero"
    dropped = json.loads(run(str(path), "-m", "f1", "--format", "json", "--missing", "drop-topic", "--resamples", "100"))
    b = next(s for s in dropped["systems"] if s["run_id"] == "B")
    assert b["mean"] == pytest.approx(0.6) and dropped["n_topics"] == 2
    assert any("drop-topic" in note and "t2" in note for note in dropped["notes"])


def test_help_has_a_worked_example():
    result = CliRunner().invoke(cli, ["compare", "--help"])
    assert result.exit_code == 0 and "argue-eval compare scores.tsv --metric f1" in result.output


def test_no_zero_width_note_beside_the_simultaneous_intervals_shown():
    """B is A + 0.1 on every topic: the bootstrap of their difference is constant (zero width), but under Tukey HSD
    the pair's interval shown is diff +- the critical value, so no note may call it zero width; with the
    randomization test the bootstrap interval is shown, and the note says so."""
    import pandas as pd

    from argue_eval.stats.comparison import compare

    a = [0.1, 0.5, 0.3, 0.7, 0.2, 0.9]
    frame = pd.DataFrame([[0.0 + v, v + 0.1, v * 0.5] for v in a], columns=["A", "B", "C"],
                         index=[f"t{i}" for i in range(len(a))]).T
    tukey = compare(frame, test="tukey", resamples=2000)
    pair = tukey.pairs[(tukey.pairs.a.isin(["A", "B"])) & (tukey.pairs.b.isin(["A", "B"]))].iloc[0]
    assert pair.ci_high - pair.ci_low > 0.05  # diff +- critical: a real width
    assert not any("zero width" in note for note in tukey.notes)
    randomization = compare(frame, test="randomization", correction="none", resamples=2000)
    assert any(note.startswith("difference ") and "zero width" in note and ("A vs B" in note or "B vs A" in note)
               for note in randomization.notes)
