"""The measures' LLM variants end to end against a real llama.cpp server (SmolLM2-135M, structured output).

The model is far too small to judge well; what is checked is the protocol through the real commands: the
schema-constrained replies parse into claims, aspects, choices and coverage labels, the tables count
exactly what the details list, a failure is never a zero, and a rerun asks the model nothing (cache)
and writes the same bytes.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("aiohttp", reason="needs the llm extra (aiohttp)")

from llama_server import API_KEY, MODEL_ALIAS  # noqa: E402

from argue_eval.cli import cli  # noqa: E402
from argue_eval.formats.scores import read_scores  # noqa: E402

pytestmark = [pytest.mark.llm, pytest.mark.slow]

SENTENCES = ["E. coli was found in the tap water of Ridgefield in March 2025.",
             "37 people were admitted to hospital.", "The water plant of Ridgefield flooded."]


def write_jsonl(path: Path, records: list[dict]) -> str:
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return str(path)


@pytest.fixture
def toy(tmp_path: Path) -> dict[str, str]:
    """One topic, one run of three sentences, four nuggets, two documents."""
    return {
        "run": write_jsonl(tmp_path / "run.jsonl", [{"run_id": "r1", "request_id": "t1", "sentences": [
            {"text": SENTENCES[0], "citations": ["d1"]}, {"text": SENTENCES[1], "citations": ["d2"]},
            {"text": SENTENCES[2], "citations": []}]}]),
        "nuggets": write_jsonl(tmp_path / "nuggets.jsonl", [{"request_id": "t1", "nuggets": [
            {"nugget_id": "n1", "question": "What contaminated the tap water in Ridgefield?",
             "answers": [{"answer": "E. coli", "doc_ids": ["d1"]}]},
            {"nugget_id": "n2", "question": "How many people were admitted to hospital?",
             "answers": [{"answer": "37", "doc_ids": ["d2"]}]},
            {"nugget_id": "n3", "question": "Who resigned?", "answers": [{"answer": "the mayor", "doc_ids": ["d2"]}]},
            {"nugget_id": "n4", "question": "Where was it found?",
             "answers": [{"answer": "tap water of Ridgefield", "doc_ids": ["d1"]}]},
        ]}]),
        "requests": write_jsonl(tmp_path / "requests.jsonl", [{
            "request_id": "t1", "title": "Ridgefield water contamination", "background": "",
            "problem_statement": "What contaminated Ridgefield's water, and who was harmed?"}]),
        "collection": write_jsonl(tmp_path / "docs.jsonl", [
            {"doc_id": "d1", "title": "Boil-water notice", "text": "E. coli was found in Ridgefield's tap water."},
            {"doc_id": "d2", "title": "Hospital", "text": "Thirty-seven people were admitted to hospital."}]),
        "cache": str(tmp_path / "cache.sqlite"),
    }


def llm_options(base_url: str) -> list[str]:
    options = {"base_url": base_url, "model": MODEL_ALIAS, "api_key_env": "LOCAL_LLM_KEY",
               "response_format": "json_object", "concurrency": 2, "max_retries": 2, "timeout": 120}
    return [arg for name, value in options.items() for arg in ("--judge-option", f"llm.{name}={value}")]


def run(args: list[str]) -> str:
    """The command's output; it exits 1 exactly when something could not be judged (the tiny model fails at
    times), which a warning then says."""
    result = CliRunner().invoke(cli, args)
    assert result.exit_code in (0, 1), result.output
    assert (result.exit_code == 1) == ("warning:" in result.output), result.output
    return result.output


def calls(output: str, pattern: str) -> int:
    found = re.search(pattern, output)
    assert found, output
    return int(found.group(1))


def test_icat_with_llm_claims_and_aspects(llama_server, toy, tmp_path, monkeypatch):
    monkeypatch.setenv("LOCAL_LLM_KEY", API_KEY)
    out, details = tmp_path / "icat.tsv", tmp_path / "icat.jsonl"
    args = ["icat", toy["run"], "--requests", toy["requests"], "--collection", toy["collection"],
            "--claims", "llm", "--aspects", "llm", "-o", str(out), "--details", str(details),
            "--cache", toy["cache"], *llm_options(llama_server)]
    first = run(args)
    # three sentences to decompose and one request to find aspects for: four tasks (re-asks aside)
    assert calls(first, r"(\d+) LLM task call\(s\)") == 4
    header, record = [json.loads(line) for line in details.read_text().splitlines()]
    assert header["settings"]["llm_tasks"]["claims"]["task_version"].startswith("tasks-v1/claims+")
    assert header["settings"]["llm_tasks"]["aspects"]["model"] == MODEL_ALIAS
    values = {row.metric: row.value for row in read_scores(out) if row.request_id == "t1"}
    claims = record["claims"]
    failed = [c for c in claims if c.get("reason")]
    assert values["claims"] == len(claims) and values["unjudged_claims"] >= len(failed)
    assert all(c["sentence"] in (0, 1, 2) and c["claim"].strip() for c in claims)
    assert values["grounded_claims"] == sum(c["status"] == "grounded" for c in claims)
    if "aspects_failed" in header["settings"]:  # the model could not list aspects: the topic is not scored
        assert "icat" not in values
    else:
        assert 1 <= values["aspects"] == len(record["aspects"]) <= 10
        assert [a["aspect_id"] for a in record["aspects"]] == [f"t1-g{i + 1}" for i in range(len(record["aspects"]))]
        assert values["covered_aspects"] == sum(a["covered"] for a in record["aspects"])
        assert all(0.0 <= values[m] <= 1.0 for m in ("icat", "icat_fact", "icat_coverage"))
    table = out.read_bytes()
    again = run(args)
    assert calls(again, r"(\d+) LLM task call\(s\)") == len(failed) + ("aspects_failed" in header["settings"])
    if not failed and "aspects_failed" not in header["settings"]:
        assert out.read_bytes() == table


def test_longrecall_multiple_choice(llama_server, toy, tmp_path, monkeypatch):
    """Facts n1 ("E. coli") and n2 ("37") have one lexical candidate each (one-to-one, by the lexical judge);
    n4 ("tap water of Ridgefield") has two, sentences 0 and 2 (one multiple-choice call); n3 none (no call)."""
    monkeypatch.setenv("LOCAL_LLM_KEY", API_KEY)
    out, details = tmp_path / "lr.tsv", tmp_path / "lr.jsonl"
    args = ["longrecall", toy["run"], "--nuggets", toy["nuggets"], "--semantic", "off", "--entailment",
            "multiple-choice", "-o", str(out), "--details", str(details), "--cache", toy["cache"],
            *llm_options(llama_server)]
    output = run(args)
    header, record = [json.loads(line) for line in details.read_text().splitlines()]
    assert header["settings"]["entailment"] == "multiple-choice"
    facts = {fact["fact_id"]: fact for fact in record["facts"]}
    # coverage ranks: sentence 0 has all of tap water ridgefield (3/3), sentence 2 two of them (Jaccard 3/8, 2/5)
    assert [c["sentence"] for c in facts["n4"]["lexical_candidates"]] == [0, 2]
    assert [len(facts[n]["lexical_candidates"]) for n in ("n1", "n2", "n3")] == [1, 1, 0]
    several = [facts["n4"]]
    assert calls(output, r"(\d+) multiple-choice question\(s\)") == 1
    for fact in several:
        assert fact["multiple_choice_calls"] == 1
        candidates = [c["sentence"] for c in fact["lexical_candidates"]]
        assert set(fact.get("selected", [])) <= set(candidates)
        assert fact["status"] == ("covered" if fact.get("selected") else fact["status"])
    assert facts["n3"]["model_calls"] == 0 and facts["n3"]["status"] == "uncovered"
    values = {row.metric: row.value for row in read_scores(out) if row.request_id == "t1"}
    assert values["model_calls"] == sum(f["model_calls"] for f in facts.values())
    assert 0.0 <= values["longrecall"] <= 1.0
    assert calls(run(args), r"(\d+) multiple-choice question\(s\)") == 0  # cached


def test_comprehensiveness_end_to_end(llama_server, toy, tmp_path, monkeypatch):
    monkeypatch.setenv("LOCAL_LLM_KEY", API_KEY)
    out, details = tmp_path / "c.tsv", tmp_path / "c.jsonl"
    args = ["comprehensiveness", toy["run"], "--nuggets", toy["nuggets"], "--e2e", "-o", str(out),
            "--details", str(details), "--cache", toy["cache"], *llm_options(llama_server)]
    output = run(args)
    assert calls(output, r"(\d+) LLM call\(s\)") == 1  # one report, one call
    header, record = [json.loads(line) for line in details.read_text().splitlines()]
    assert header["settings"]["variant"] == "e2e"
    if record.get("status") == "failed":  # listed, and not in the table
        assert not [row for row in read_scores(out) if row.request_id == "t1"]
        return
    labelled = sorted(a for c in record["covered"] + record["uncovered"] for a in c["atoms"])
    assert labelled == ["n1#1", "n2#1", "n3#1", "n4#1"]  # every statement labelled exactly once
    values = {row.metric: row.value for row in read_scores(out) if row.request_id == "t1"}
    assert values["comprehensiveness"] == pytest.approx(len(record["covered"]) / 4)
    assert calls(run(args), r"(\d+) LLM call\(s\)") == 0  # cached
