"""``argue-eval agree`` end to end: two score tables of the same runs."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.formats.scores import write_scores_tsv

# Reference A and candidate B over 4 runs and 3 topics; system means:
#   A: r1 0.7, r2 0.5, r3 0.4, r4 0.2   ->  r1 > r2 > r3 > r4
#   B: r1 0.6, r2 0.3, r3 0.5, r4 0.1   ->  r1 > r3 > r2 > r4   (r2 and r3 swapped)
# Kendall tau-b: 5 concordant, 1 discordant of 6 pairs -> 4/6 = 2/3.
# tau_AP (B's list r1 r3 r2 r4 judged by A): C(2)/1 = 1, C(3)/2 = 1/2, C(4)/3 = 1 -> 2/3 * 2.5 - 1 = 2/3.
# Spearman: ranks (1,2,3,4) vs (1,3,2,4): d^2 = 2 -> 1 - 6*2/(4*15) = 0.8.
A = {"r1": (0.6, 0.7, 0.8), "r2": (0.4, 0.5, 0.6), "r3": (0.3, 0.4, 0.5), "r4": (0.1, 0.2, 0.3)}
B = {"r1": (0.5, 0.6, 0.7), "r2": (0.2, 0.3, 0.4), "r3": (0.4, 0.5, 0.6), "r4": (0.0, 0.1, 0.2)}


def _write(path: Path, table: dict, metric: str = "f1") -> str:
    rows = [(run, f"t{k + 1}", metric, value) for run, values in table.items() for k, value in enumerate(values)]
    write_scores_tsv(rows, path)
    return str(path)


@pytest.fixture
def pair(tmp_path: Path) -> tuple[str, str]:
    return _write(tmp_path / "a.tsv", A), _write(tmp_path / "b.tsv", B)


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, ["agree", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_json_values_by_hand(pair):
    doc = json.loads(run(*pair, "--metric", "f1", "--format", "json", "--resamples", "500", "--top-k", "3"))
    for key in ("n_systems", "kendall_tau_b", "tau_ap", "spearman", "pearson", "swapped_pairs"):
        assert key in doc
    assert doc["n_systems"] == 4 and doc["n_topics"] == 3
    assert doc["kendall_tau_b"] == pytest.approx(2 / 3)
    assert doc["tau_ap"] == pytest.approx(2 / 3)
    assert doc["spearman"] == pytest.approx(0.8)
    assert doc["swapped_pairs"] == [["r2", "r3"]]
    assert doc["swaps"][0]["diff_a"] == pytest.approx(0.1) and doc["swaps"][0]["diff_b"] == pytest.approx(-0.2)
    lo, hi = doc["kendall_tau_b_ci"]
    assert lo <= doc["kendall_tau_b"] <= hi
    top = doc["top_k"][0]
    # top-3 of A: r1 r2 r3; B orders them r1 r3 r2: tau = (2 - 1)/3; B's top-3 is {r1, r3, r2}: overlap 1
    assert top["k"] == 3 and top["kendall_tau_b"] == pytest.approx(1 / 3) and top["overlap"] == 1.0
    assert len(doc["per_topic"]) == 3


def test_text_output_rerun_identical(pair):
    first = run(*pair, "-m", "f1", "--resamples", "300")
    assert first == run(*pair, "-m", "f1", "--resamples", "300")
    assert "kendall_tau_b" in first and "swapped pairs: 1 of 6" in first
    assert "top-10 left out" in first  # default --top-k 10 with only 4 systems: said, not silently skipped


def test_two_metrics_from_one_table(tmp_path: Path):
    rows = [(run, f"t{k + 1}", "f1", value) for run, values in A.items() for k, value in enumerate(values)]
    rows += [(run, f"t{k + 1}", "nugget_coverage", value) for run, values in B.items() for k, value in enumerate(values)]
    path = tmp_path / "both.tsv"
    write_scores_tsv(rows, path)
    doc = json.loads(run(str(path), str(path), "-m", "f1", "--metric-b", "nugget_coverage", "--format", "json",
                         "--resamples", "200"))
    assert (doc["metric_a"], doc["metric_b"]) == ("f1", "nugget_coverage")
    assert doc["kendall_tau_b"] == pytest.approx(2 / 3)


def test_markdown_and_latex(pair):
    markdown = run(*pair, "-m", "f1", "--format", "markdown", "--resamples", "200", "--per-topic")
    assert "| statistic | value |" in markdown and "| t1 |" in markdown
    latex = run(*pair, "-m", "f1", "--format", "latex", "--resamples", "200")
    assert r"kendall\_tau\_b &" in latex


def test_missing_metric_is_a_one_line_error(pair):
    result = CliRunner().invoke(cli, ["agree", *pair, "-m", "ndcg"])
    assert result.exit_code == 2 and "metric 'ndcg' not found" in result.output


def test_tsv_is_one_table(pair):
    tsv = run(*pair, "-m", "f1", "--format", "tsv", "--resamples", "100")
    lines = [line for line in tsv.splitlines() if not line.startswith("#")]
    assert lines[0] == "statistic\tvalue\tci_low\tci_high\tci_method"
    assert [line.split("\t")[0] for line in lines[1:]] == ["kendall_tau_b", "tau_ap", "tau_ap_symmetric", "spearman", "pearson"]


def test_systems_prints_both_leaderboards_side_by_side(pair):
    lines = run(*pair, "-m", "f1", "--resamples", "50", "--systems").splitlines()
    assert lines[0].startswith("leaderboards on f1 (A) and f1 (B)")
    rows = [line.split() for line in lines[3:7]]
    # A's order; B swaps r2 (0.3) and r3 (0.5): r2 loses a place, r3 gains one
    assert rows == [["r1", "0.7000", "1", "0.6000", "1"], ["r2", "0.5000", "2", "0.3000", "3", "-1"],
                    ["r3", "0.4000", "3", "0.5000", "2", "+1"], ["r4", "0.2000", "4", "0.1000", "4"]]
