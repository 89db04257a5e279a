"""``compare --replicates``, ``--system``/``--systems`` and ``--flags``: the analyses in the leaderboard command."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from argue_eval.cli import cli


def run(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, ["compare", *args])
    assert result.exit_code == code, result.output
    return result.output


def write_scores(path: Path, rows: dict[str, list[float]]) -> str:
    lines = ["run_id\trequest_id\tmetric\tvalue"]
    for run_id, values in rows.items():
        lines += [f"{run_id}\tt{k}\tf1\t{value}" for k, value in enumerate(values, 1)]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_replicates_by_hand(tmp_path: Path):
    # A under replicate 1 (0.2, 0.6), under replicate 2 (0.4, 0.8): topic 0.08, judge 0.02, residual 0, so its
    # judge share is 0.2 (tests/test_stats_replicates.py). B is 0.1, 0.2 in both. Rank stability: A always first.
    one = write_scores(tmp_path / "seed1.tsv", {"A": [0.2, 0.6], "B": [0.1, 0.2]})
    two = write_scores(tmp_path / "seed2.tsv", {"A": [0.4, 0.8], "B": [0.1, 0.2]})
    doc = json.loads(run("--replicates", one, two, "-m", "f1", "--resamples", "500", "--format", "json"))
    systems = {row["run_id"]: row for row in doc["systems"]}
    assert abs(systems["A"]["judge_share"] - 0.2) < 1e-12
    assert systems["A"]["mean[seed1.tsv]"] == 0.4 and (systems["A"]["best_rank"], systems["A"]["worst_rank"]) == (1, 1)
    assert systems["B"]["judge_share"] == 0.0
    assert doc["kendall_tau_b_mean"] == 1.0 and doc["swaps"][0]["swaps"] == 0
    text = run("--replicates", one, two, "-m", "f1", "--resamples", "500")
    assert "2 replicates" in text and "judge_share" in text
    assert "does not apply to --replicates" in run("--replicates", one, two, "-m", "f1", "--baseline", "A", code=2)
    assert "at least two" in run("--replicates", one, "-m", "f1", code=2)


def test_systems_from_options_and_a_file(tmp_path: Path):
    # a1 and a2 are one system: per topic (0.2 + 0.4) / 2 = 0.3 and (0.6 + 1.0) / 2 = 0.8, mean 0.55.
    scores = write_scores(tmp_path / "s.tsv", {"a1": [0.2, 0.6], "a2": [0.4, 1.0], "b": [0.5, 0.5]})
    doc = json.loads(run(scores, "-m", "f1", "--system", "a1=A", "--system", "a2=A", "--format", "json",
                         "--resamples", "200"))
    assert [row["run_id"] for row in doc["systems"]] == ["A", "b"] and doc["systems"][0]["mean"] == 0.55
    spread = {row["system"]: row for row in doc["spread"]}
    assert (spread["A"]["run_min"], spread["A"]["run_max"], spread["A"]["n_runs"]) == (0.4, 0.7, 2)
    assert spread["b"]["run_sd"] is None
    mapping = tmp_path / "systems.tsv"
    mapping.write_text("a1\tA\na2\tA\n")
    text = run(scores, "-m", "f1", "--systems", str(mapping), "--resamples", "200")
    assert "a1,a2" in text and "systems are the per-topic mean of their runs: A = a1, a2" in text
    assert "not in the score tables: zz" in run(scores, "-m", "f1", "--system", "zz=A", code=2)


def test_flags_mark_the_flagged_runs(tmp_path: Path):
    scores = write_scores(tmp_path / "s.tsv", {"a1": [0.2, 0.6], "b": [0.5, 0.5]})
    flags = tmp_path / "flags.tsv"
    flags.write_text("run_id\tflag\tfield\tevidence\nb\tjudge_model\tdescription\tnames the judge's model m\n")
    text = run(scores, "-m", "f1", "--flags", str(flags), "--table", "systems", "--resamples", "200")
    rows = {line.split()[1]: line.split() for line in text.splitlines()[3:5]}
    assert rows["b"][-1] == "judge_model" and rows["a1"][-1] != "judge_model"
    doc = json.loads(run(scores, "-m", "f1", "--flags", str(flags), "--format", "json", "--resamples", "200"))
    assert doc["flags"] == {"b": [["judge_model", "description", "names the judge's model m"]]}
    flags.write_text("run\tflag\n")
    assert "expected the header" in run(scores, "-m", "f1", "--flags", str(flags), code=2)
