"""``argue-eval comprehensiveness`` on the shipped sample track with the default (lexical) judge."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.formats.scores import read_scores

pytest.importorskip("networkx")

REPO = Path(__file__).resolve().parent.parent
RUNS = [str(REPO / "runs" / "sample" / f"{name}.jsonl") for name in ("careful", "hallucinating")]


def test_sample_track_table_details_and_errors(tmp_path):
    out, details = tmp_path / "c.tsv", tmp_path / "c.jsonl"
    base = ["comprehensiveness", *RUNS, "-o", str(out), "--details", str(details), "-q",
            "--cache", str(tmp_path / "cache.sqlite")]
    result = CliRunner().invoke(cli, [*base, "--nuggets", str(REPO / "nuggets" / "sample" / "nuggets.jsonl")])
    assert result.exit_code == 0, result.output
    values = {(r.run_id, r.request_id, r.metric): r.value for r in read_scores(out)}
    assert values[("careful", "all", "comprehensiveness_macro")] > values[("hallucinating", "all", "comprehensiveness_macro")] + 0.3
    assert all(0 <= v <= 1 for (_, _, m), v in values.items() if m.startswith("comprehensiveness"))
    assert values[("careful", "all", "pairs_judged")] < values[("careful", "all", "pairs_all")]
    records = [json.loads(line) for line in details.read_text().splitlines()[1:]]
    for record in records:
        key = (record["run_id"], record["request_id"])
        assert len(record["basis"]) == values[(*key, "basis")] <= len(record["uncovered"])
        assert len(record["covered"]) == values[(*key, "covered_clusters")]
    bad = CliRunner().invoke(cli, [*base, "--nuggets", "x", "--context", "y"])
    assert bad.exit_code == 2 and "exactly one of --nuggets or --context" in bad.output


def test_context_file_statements_and_texts(tmp_path):
    context = tmp_path / "context.jsonl"
    context.write_text(json.dumps({"request_id": "s01", "statements": ["E. coli was found in Ridgefield's tap water."]})
                       + "\n" + json.dumps({"request_id": "s02", "texts": ["Wildfires burned 38,500 hectares. A "
                                                                            "ranger was hurt."]}) + "\n")
    out, details = tmp_path / "c.tsv", tmp_path / "c.jsonl"
    result = CliRunner().invoke(cli, ["comprehensiveness", RUNS[0], "--context", str(context), "-o", str(out),
                                      "--details", str(details), "-q", "--no-cache"])
    assert result.exit_code == 0, result.output
    values = {(r.request_id, r.metric): r.value for r in read_scores(out)}
    assert values[("s01", "context_atoms")] == 1 and values[("s02", "context_atoms")] == 2
    assert values[("s01", "comprehensiveness")] == 1.0


def test_context_atoms_are_numbered_in_order_across_a_topics_lines(tmp_path):
    """c1, c2, c3, c4 for one statement, then a text of three sentences (the ids were c1, c2, c4, c6: the
    numbering read the list's length while the list was being extended)."""
    from argue_eval.inputs.facts import context_atoms

    context = tmp_path / "context.jsonl"
    context.write_text(json.dumps({"request_id": "t", "statements": ["The dam failed."]}) + "\n"
                       + json.dumps({"request_id": "t", "texts": ["It rained. The river rose. Two died."]}) + "\n")
    atoms = context_atoms(context)["t"]
    assert [(a.fact_id, a.text) for a in atoms] == [("t-c1", "The dam failed."), ("t-c2", "It rained."),
                                                     ("t-c3", "The river rose."), ("t-c4", "Two died.")]
