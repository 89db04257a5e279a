"""``argue-eval icat`` on the shipped sample track with the default (lexical) judge."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.formats.scores import read_scores

REPO = Path(__file__).resolve().parent.parent


def icat(repo, tmp_path, *args, runs=("careful", "hallucinating", "misses-topics")):
    out = tmp_path / "icat.tsv"
    details = tmp_path / "icat.jsonl"
    argv = ["icat", *[str(repo / "runs" / "sample" / f"{run}.jsonl") for run in runs],
            "--nuggets", str(repo / "nuggets" / "sample" / "nuggets.jsonl"),
            "--collection", str(repo / "topics" / "sample" / "collection.jsonl"),
            "-o", str(out), "--details", str(details), "-q", "--cache", str(tmp_path / "cache.sqlite"), *args]
    result = CliRunner().invoke(cli, argv)
    return result, out, details


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("icat")
    result, out, details = icat(REPO, tmp)
    assert result.exit_code == 0, result.output
    return out, details


def test_icat_table_is_a_score_table_in_range_and_separates_runs(sample):
    out, _ = sample
    rows = list(read_scores(out))
    values = {(r.run_id, r.request_id, r.metric): r.value for r in rows}
    for r in rows:
        if r.metric in ("icat", "icat_fact", "icat_coverage") or r.metric.endswith(("_micro", "_macro")):
            assert 0.0 <= r.value <= 1.0
    # the careful run's sentences are all supported by the collection; the hallucinating run invents facts
    assert values[("careful", "all", "icat_fact_macro")] > values[("hallucinating", "all", "icat_fact_macro")] + 0.2
    # the run that skips part of each topic covers fewer aspects
    assert values[("careful", "all", "icat_coverage_macro")] > values[("misses-topics", "all", "icat_coverage_macro")]
    assert values[("careful", "all", "topics")] == 8
    assert values[("careful", "all", "param_k")] == 10


def test_details_explain_every_claim_and_aspect(sample):
    out, details = sample
    lines = [json.loads(line) for line in details.read_text().splitlines()]
    assert lines[0]["settings"]["alignment"] == "bindings" and lines[0]["settings"]["judge"]["backend"] == "lexical"
    counts = {(r.run_id, r.request_id, r.metric): r.value for r in read_scores(out)}
    for record in lines[1:]:
        claims, aspects = record["claims"], record["aspects"]
        key = (record["run_id"], record["request_id"])
        assert len(claims) == counts[(*key, "claims")]
        assert sum(c["status"] == "grounded" for c in claims) == counts[(*key, "grounded_claims")]
        assert sum(a["covered"] for a in aspects) == counts[(*key, "covered_aspects")]
        for claim in claims:
            if claim["status"] == "grounded":
                assert claim["evidence"]["doc_id"] and claim["evidence"]["rank"] >= 1


def test_compare_runs_unchanged_on_the_icat_table(sample):
    out, _ = sample
    result = CliRunner().invoke(cli, ["compare", str(out), "--metric", "icat"])
    assert result.exit_code == 0, result.output
    assert "careful" in result.output and "hallucinating" in result.output


def test_rerun_is_byte_identical_and_reuses_the_cache(repo, tmp_path, sample):
    from argue_eval.judges.cache import JudgmentCache

    result, out, details = icat(repo, tmp_path)
    assert result.exit_code == 0
    assert out.read_bytes() == sample[0].read_bytes()
    assert details.read_bytes() == sample[1].read_bytes()
    with JudgmentCache(tmp_path / "cache.sqlite") as cache:
        stored = cache.count()
    assert stored > 0
    # a second run finds every answer in the cache: nothing new is stored, same bytes out
    again, out2, _ = icat(repo, tmp_path)
    assert again.exit_code == 0 and out2.read_bytes() == sample[0].read_bytes()
    with JudgmentCache(tmp_path / "cache.sqlite") as cache:
        assert cache.count() == stored


@pytest.mark.parametrize("args, message", [
    (["--claims", "llm"], "--judge-option: the LLM tasks need the served model's name: --judge-option llm.model=NAME"),
    (["--claims", "llm", "--judge-option", "llm.model=m"], "the LLM tasks need the endpoint"),
    (["--aspects", "llm"], "--aspects llm needs --requests"),
    (["--judge", "bogus"], "unknown judge 'bogus'"),
    (["--passage-overlap", "200"], "must be smaller than --passage-words"),
])
def test_user_errors_are_one_line_exit_2(repo, tmp_path, args, message):
    result, out, _ = icat(repo, tmp_path, *args, runs=("careful",))
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert not out.exists()


def test_icat_m_through_qrels_subtopics(tmp_path):
    # two subtopics of s01 bound to documents the careful run's claims are grounded in, one to an unrelated one
    qrels = tmp_path / "diversity.qrels"
    qrels.write_text("s01 1 nw-0001 1\ns01 2 nw-0002 1\ns01 3 nw-0099 1\ns01 3 nw-0001 0\n")
    out = tmp_path / "q.tsv"
    result = CliRunner().invoke(cli, ["icat", str(REPO / "runs" / "sample" / "careful.jsonl"), "--qrels", str(qrels),
                                      "--collection", str(REPO / "topics" / "sample" / "collection.jsonl"),
                                      "-o", str(out), "-q", "--no-cache", "--details", str(tmp_path / "q.jsonl")])
    assert result.exit_code == 0, result.output
    values = {(r.request_id, r.metric): r.value for r in read_scores(out)}
    assert values[("s01", "aspects")] == 3
    details = [json.loads(line) for line in (tmp_path / "q.jsonl").read_text().splitlines()]
    assert details[0]["settings"]["aspects"] == "qrels" and details[0]["settings"]["alignment"] == "bindings"
    covered = {a["aspect_id"]: a["covered"] for a in details[1]["aspects"]}
    evidence = {c["evidence"]["doc_id"] for c in details[1]["claims"] if c["status"] == "grounded"}
    # a subtopic is covered exactly when some grounded claim's first entailing document is bound to it
    assert covered == {"s01/1": "nw-0001" in evidence, "s01/2": "nw-0002" in evidence, "s01/3": False}
    assert sum(covered.values()) == 2  # the careful run grounds claims in nw-0001 and nw-0002
    assert values[("s01", "icat_coverage")] == sum(covered.values()) / 3
