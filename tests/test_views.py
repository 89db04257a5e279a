"""The terminal views: micro summaries, the per-topic and outcome tables, and compare with several metrics."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.formats.scores import read_scores
from argue_eval.views import outcome_table, summary_table, topic_table

ROWS = [
    ("b", "t10", "f1", 0.25),
    ("b", "t2", "f1", 0.75),
    ("b", "t2", "sentences", 4),
    ("a", "t2", "f1", 0.5),
    ("a", "all", "f1_macro", 0.5),
    ("a", "all", "f1_micro", 0.9),
    ("a", "all", "sentence_support_micro", 0.125),
    ("b", "all", "f1_macro", 0.5),
    ("b", "all", "f1_micro", 0.3),
    ("a", "all", "outcome_3", 7),
    ("a", "all", "outcome_1", 2),
]


def test_micro_summary_reads_the_micro_rows_and_orders_by_f1_micro():
    table = summary_table(ROWS, "micro")
    assert [row[0] for row in table.rows] == ["a", "b"]  # 0.9 > 0.3; by macro they would tie and sort a, b too
    a = dict(zip(table.columns, table.rows[0]))
    assert a["f1"] == "0.900" and a["sent_support"] == "0.125"
    assert a["cit_support"] is None  # absent from the rows: n/a, never 0
    assert "micro" in table.title
    reverse = [("x", "all", "f1_micro", 0.1), ("y", "all", "f1_micro", 0.2)]
    assert [row[0] for row in summary_table(reverse, "micro").rows] == ["y", "x"]


def test_topic_table_lists_run_topic_pairs_in_natural_order():
    table = topic_table(ROWS)
    assert [row[:2] for row in table.rows] == [["a", "t2"], ["b", "t2"], ["b", "t10"]]
    b_t2 = dict(zip(table.columns, table.rows[1]))
    assert b_t2["f1"] == "0.750" and b_t2["sentences"] == "4" and b_t2["sent_support"] is None


def test_outcome_table_counts_each_outcome():
    table = outcome_table(ROWS)
    a = dict(zip(table.columns, table.rows[0]))
    assert a["3(+)"] == "7" and a["1(-)"] == "2" and a["5(-)"] is None
    assert "3 gives a nugget answer that the cited document attests" in table.title


def test_score_prints_macro_and_micro_summaries_that_match_the_tsv(tmp_path: Path, repo: Path):
    out = tmp_path / "scores.tsv"
    args = ["score", "--run", str(repo / "runs/sample/careful.jsonl"), "--run", str(repo / "runs/sample/no-citations.jsonl"),
            "--nuggets", str(repo / "nuggets/sample/nuggets.jsonl"), "--judgments", str(repo / "qrels/sample/judgments.jsonl"),
            "-o", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "macro averages over topics" in result.stdout and "micro averages" in result.stdout
    assert "per topic:" not in result.stdout and "flowchart outcome" not in result.stdout
    table = {(r.run_id, r.request_id, r.metric): r.value for r in read_scores(out)}
    micro_block = result.stdout.split("micro averages")[1]
    careful = next(line for line in micro_block.splitlines() if line.startswith("careful"))
    assert careful.split()[-2] == f"{table['careful', 'all', 'f1_micro']:.3f}"
    more = CliRunner().invoke(cli, args + ["--per-topic", "--verbose"])
    assert more.exit_code == 0, more.output
    assert "per topic:" in more.stdout and "sentences per flowchart outcome" in more.stdout
    topic_lines = [line for line in more.stdout.split("per topic:")[1].splitlines() if line.startswith("careful ")]
    assert len(topic_lines) == 8  # the sample track's 8 topics
    quiet = CliRunner().invoke(cli, args + ["--quiet"])
    assert quiet.exit_code == 0 and quiet.stdout == ""


def test_compare_several_metrics_equals_separate_calls(tmp_path: Path):
    scores = tmp_path / "scores.tsv"
    lines = ["run_id\trequest_id\tmetric\tvalue"]
    for run, f1, support in (("x", (0.1, 0.2, 0.3), (0.9, 0.8, 0.7)), ("y", (0.4, 0.5, 0.6), (0.1, 0.2, 0.3))):
        for k in range(3):
            lines += [f"{run}\tt{k}\tf1\t{f1[k]}", f"{run}\tt{k}\tsentence_support\t{support[k]}"]
    scores.write_text("\n".join(lines) + "\n")
    runner = CliRunner()

    def output(*args: str) -> str:
        result = runner.invoke(cli, ["compare", str(scores), "--resamples", "500", *args])
        assert result.exit_code == 0, result.output
        return result.stdout

    both = output("-m", "f1", "-m", "sentence_support")
    assert both == output("-m", "f1") + "\n" + output("-m", "sentence_support")
    first, second = both.index("f1:"), both.index("sentence_support:")
    assert first < second
    # y leads on f1, x on sentence support
    assert both[first:].splitlines()[3].split()[1] == "y"
    assert both[second:].splitlines()[3].split()[1] == "x"
    documents = json.loads(output("-m", "f1", "-m", "sentence_support", "--format", "json"))
    assert [doc["metric"] for doc in documents] == ["f1", "sentence_support"]
    assert "note:" not in output("-m", "f1", "--quiet") and "note:" in output("-m", "f1")
