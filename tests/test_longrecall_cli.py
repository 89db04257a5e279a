"""``argue-eval longrecall`` on the shipped sample track with the default (lexical) judge."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.formats.scores import read_scores

REPO = Path(__file__).resolve().parent.parent
RUNS = [str(REPO / "runs" / "sample" / f"{name}.jsonl") for name in ("careful", "hallucinating", "misses-topics")]


def longrecall(tmp_path, *args, runs=RUNS, facts=("--nuggets", str(REPO / "nuggets" / "sample" / "nuggets.jsonl"))):
    out, details = tmp_path / "lr.tsv", tmp_path / "lr.jsonl"
    result = CliRunner().invoke(cli, ["longrecall", *runs, *facts, "-o", str(out), "--details", str(details),
                                      "-q", "--semantic", "off", "--cache", str(tmp_path / "cache.sqlite"), *args])
    return result, out, details


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    result, out, details = longrecall(tmp_path_factory.mktemp("lr"))
    assert result.exit_code == 0, result.output
    return out, details


def test_table_values_in_range_and_runs_separated(sample):
    out, _ = sample
    values = {(r.run_id, r.request_id, r.metric): r.value for r in read_scores(out)}
    for (_run, _topic, metric), value in values.items():
        if metric in ("longrecall", "answer_recall", "lcs_recall") or metric.endswith(("_micro", "_macro")):
            assert 0.0 <= value <= 1.0
    assert values[("careful", "all", "longrecall_macro")] > values[("misses-topics", "all", "longrecall_macro")] + 0.2
    assert values[("careful", "all", "longrecall_macro")] > values[("hallucinating", "all", "longrecall_macro")] + 0.2
    # stage accounting adds up, and every threshold is recorded
    for run in ("careful", "hallucinating"):
        assert values[(run, "all", "covered_facts")] == values[(run, "all", "covered_lexical")] + values[(run, "all", "covered_semantic")]
        assert values[(run, "all", "covered_semantic")] == 0  # --semantic off
    assert values[("careful", "all", "param_jaccard_threshold")] == 0.3
    assert values[("careful", "all", "param_lcs_threshold")] == 0.6


def test_details_explain_every_fact(sample):
    out, details = sample
    lines = [json.loads(line) for line in details.read_text().splitlines()]
    assert lines[0]["settings"]["semantic"] is False and lines[0]["settings"]["judge"]["backend"] == "lexical"
    values = {(r.run_id, r.request_id, r.metric): r.value for r in read_scores(out)}
    for record in lines[1:]:
        key = (record["run_id"], record["request_id"])
        facts = record["facts"]
        assert len(facts) == values[(*key, "facts")]
        assert sum(f["status"] == "covered" for f in facts) == values[(*key, "covered_facts")]
        for fact in facts:
            if fact["status"] == "covered":
                # covered by one candidate sentence, or by a window of adjacent sentences starting there
                by = str(fact["sentence"])
                assert (fact["lexical_candidates"] and fact["entailment"].get(by) is True
                        or fact.get("window_entailment", {}).get(by) is True)
            if not fact["lexical_candidates"] and not fact["semantic_candidates"]:
                assert fact["model_calls"] == 0 and fact["status"] == "uncovered"


def test_reference_reports_as_facts_and_agree_runs_on_the_table(tmp_path):
    # the careful run as the reference: careful itself recalls all its facts, the others fewer
    result, out, _ = longrecall(tmp_path, facts=("--reference", RUNS[0]))
    assert result.exit_code == 0, result.output
    values = {(r.run_id, r.request_id, r.metric): r.value for r in read_scores(out)}
    assert values[("careful", "all", "longrecall_macro")] == 1.0
    assert values[("misses-topics", "all", "longrecall_macro")] < 0.8
    agree = CliRunner().invoke(cli, ["agree", str(out), str(out), "--metric", "longrecall"])
    assert agree.exit_code == 0, agree.output


@pytest.mark.parametrize("facts, message", [
    ((), "exactly one of --nuggets or --reference"),
    (("--nuggets", str(REPO / "nuggets" / "sample" / "nuggets.jsonl"), "--reference", RUNS[0]),
     "exactly one of --nuggets or --reference"),
])
def test_user_errors(tmp_path, facts, message):
    result, out, _ = longrecall(tmp_path, facts=facts)
    assert result.exit_code == 2 and message in result.output and not out.exists()


def test_fact_unit_answer_counts_each_answer(tmp_path):
    from argue_eval.formats import read_nuggets

    bank = REPO / "nuggets" / "sample" / "nuggets.jsonl"
    expected = {t.request_id: sum(len(n.answers) for n in t.nuggets if not n.negative) for t in read_nuggets(bank)}
    result, out, details = longrecall(tmp_path, "--fact-unit", "answer", runs=RUNS[:1])
    assert result.exit_code == 0, result.output
    facts = {r.request_id: r.value for r in read_scores(out) if r.metric == "facts" and r.request_id != "all"}
    assert facts == expected
    lines = [json.loads(line) for line in details.read_text().splitlines()]
    assert lines[0]["settings"]["fact_unit"] == "answer"
    assert all("#" in fact["fact_id"] for record in lines[1:] for fact in record["facts"])


def test_llm_tasks_without_the_llm_extra_are_one_clear_error(tmp_path, monkeypatch):
    """Without aiohttp (the llm extra) --claims llm stops before any work with the install hint, exit 2."""
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "aiohttp" else real(name, *a))
    out = tmp_path / "lr.tsv"
    result = CliRunner().invoke(cli, ["longrecall", "--run", RUNS[0], "--nuggets",
                                      str(REPO / "nuggets" / "sample" / "nuggets.jsonl"), "--claims", "llm",
                                      "--judge-option", "llm.model=m", "--judge-option",
                                      "llm.base_url=http://127.0.0.1:9/v1", "--no-cache", "-o", str(out)])
    assert result.exit_code == 2, result.output
    assert "pip install 'argue-eval[llm]'" in result.output and "Traceback" not in result.output
    assert not out.exists()


def test_statement_nuggets_are_facts_stated_by_a_sentence(tmp_path):
    """nuggetizer statements (no answers) and our statement nuggets (the statement as its own answer) are facts;
    the first sentence states the first statement (all its tokens), the second states neither."""
    statements = ["Toledo banned tap water in August 2014", "Microcystin was found in Lake Erie"]
    nuggetizer = tmp_path / "nuggetizer.jsonl"
    nuggetizer.write_text(json.dumps({"qid": "t1", "query": "toledo water", "nuggets": [
        {"text": text, "importance": "vital"} for text in statements]}) + "\n", encoding="utf-8")
    ours = tmp_path / "statements.jsonl"
    ours.write_text(json.dumps({"request_id": "t1", "nuggets": [
        {"nugget_id": f"s{i + 1}", "question": text, "importance": None, "aggregator": "OR", "negative": False,
         "answers": [{"answer": text, "doc_ids": ["d1"]}]} for i, text in enumerate(statements)]}) + "\n",
        encoding="utf-8")
    run = tmp_path / "run.jsonl"
    run.write_text(json.dumps({"run_id": "r", "request_id": "t1", "sentences": [
        {"text": "In August 2014 Toledo banned its tap water.", "citations": []},
        {"text": "The city council met on Monday.", "citations": []}]}) + "\n", encoding="utf-8")
    for bank in (nuggetizer, ours):
        result, out, details = longrecall(tmp_path, runs=[str(run)], facts=("--nuggets", str(bank)))
        assert result.exit_code == 0, result.output
        values = {r.metric: r.value for r in read_scores(out) if r.request_id == "t1"}
        assert (values["facts"], values["covered_facts"], values["longrecall"]) == (2, 1, 0.5)
        facts = json.loads(details.read_text().splitlines()[1])["facts"]
        assert [(f["status"], f.get("sentence")) for f in facts] == [("covered", 0), ("uncovered", None)]
