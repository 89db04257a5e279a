"""`judge --batch-out` / `--batch-in`: an LLM round through OpenAI-batch files, on the sample track.

The results files are answered by ``llm_server.answer_batch``, which gives every request the reply the scripted
server gives the same request (``deterministic_reply``): a batch round trip must then write exactly the bytes a
direct run against that server writes. Bad result files (another plan's, cut off, error results, replies that
fail their schema, another model) are reported line by line, and their calls are written again: never "no".
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("aiohttp", reason="needs the llm extra (aiohttp)")

from llm_server import MockChatServer, answer_batch  # noqa: E402

from argue_eval.cli import cli  # noqa: E402
from argue_eval.judges.llm_batch import custom_id, model_matches, read_result_line  # noqa: E402

pytestmark = pytest.mark.llm

MODEL = "mock-2026-01-01"
"""What the scripted server and the batch emulation say answered: ``--llm-model mock`` with a date after it, as
OpenAI names a dated model."""

REPO = Path(__file__).resolve().parent.parent
RUN = str(REPO / "runs/sample/careful.jsonl")
INPUTS = ["--run", RUN, "--nuggets", str(REPO / "nuggets/sample/nuggets.jsonl"), "--requests",
          str(REPO / "topics/sample/requests.jsonl"), "--collection", str(REPO / "topics/sample/collection.jsonl"),
          "--judge", "llm", "--llm-model", "mock"]


def judge(*args: str) -> object:
    return CliRunner().invoke(cli, ["judge", *INPUTS, *args], catch_exceptions=False)


def cycle(tmp_path: Path, cache: Path, output: Path, script=None) -> list[int]:
    """Batch cycles until no call is left: the number of calls written by each (the last one 0)."""
    written = []
    results: list[str] = []
    for number in range(1, 10):
        calls = tmp_path / f"calls-{number}.jsonl"
        result = judge("--cache", str(cache), "--batch-out", str(calls), "-o", str(output), *results)
        assert result.exit_code == 0, result.output + result.stderr
        lines = calls.read_text().splitlines()
        written.append(len(lines))
        if not lines:
            return written
        answers = tmp_path / f"results-{number}.jsonl"
        answer_batch(calls, answers, model=MODEL, script=script)
        results = ["--batch-in", str(answers)]
    raise AssertionError(f"no end after {written}")


def test_a_batch_round_trip_writes_the_same_judgments_as_a_direct_run(tmp_path: Path) -> None:
    with MockChatServer(model=MODEL) as server:
        direct = tmp_path / "direct.jsonl"
        result = judge("--llm-base-url", server.base_url, "--cache", str(tmp_path / "direct.sqlite"), "-o", str(direct))
        assert result.exit_code == 0, result.stderr
        sent = [request for request in server.requests]
    batched = tmp_path / "batched.jsonl"
    written = cycle(tmp_path, tmp_path / "batch.sqlite", batched)
    # the direct run's calls (counted at the server: 51 attested, 49 answers, 5 uncited, 2 nugget-agrees, 1
    # first-instance), each once: the first file holds the first round (citations, and negative? with
    # requires-citation for the 5 uncited sentences); the second the calls those answers open (nugget-agrees
    # for the 2 negative ones, first-instance for the 1 that needs a citation and is not the report's first
    # sentence; requires-citation itself came with negative, so no file of its own); then nothing is left
    kinds = [body["response_format"]["json_schema"]["name"] for body in sent]
    assert len(sent) == 108 and kinds.count("uncited") == 5 and kinds.count("nugget_agrees") == 2
    assert written == [105, 3, 0]
    assert batched.read_bytes() == direct.read_bytes()
    # each line is what the endpoint was sent, under the hash of that body
    first = [json.loads(line) for line in (tmp_path / "calls-1.jsonl").read_text().splitlines()]
    assert {line["method"] for line in first} == {"POST"} and {line["url"] for line in first} == {"/v1/chat/completions"}
    assert all(line["custom_id"] == custom_id(line["body"]) for line in first)
    assert {custom_id(body) for body in sent} >= {line["custom_id"] for line in first}
    body = first[0]["body"]
    assert body["model"] == "mock" and body["response_format"]["type"] == "json_schema" and body["max_tokens"] > 0
    assert body["temperature"] == 0.0 and body["seed"] == 0
    manifest = json.loads(Path(str(batched) + ".manifest.json").read_text())
    assert manifest["batch"]["results_used"] == written[-2] and manifest["batch"]["problems"] == []


def test_bad_partial_and_foreign_results_are_reported_per_line_and_asked_again(tmp_path: Path) -> None:
    cache = tmp_path / "cache.sqlite"
    calls = tmp_path / "calls-1.jsonl"
    assert judge("--cache", str(cache), "--batch-out", str(calls)).exit_code == 0
    total = len(calls.read_text().splitlines())
    # line 1: a reply that is not the schema's object; 2: an error result; 3: HTTP 500; 4: no line (partial file)
    script = {0: ("content", '{"attested": "maybe"}'), 1: ("error",), 2: ("status", 500), 3: ("skip",)}
    results = tmp_path / "results-1.jsonl"
    answer_batch(calls, results, model=MODEL, script=lambda n, body: script.get(n, ("ok",)))
    answered = total - 4
    with results.open("a", encoding="utf-8") as handle:  # another plan's result, then a line cut off
        handle.write(json.dumps({"id": "x", "custom_id": "argue-" + "0" * 40, "response": {
            "status_code": 200, "body": {"model": "mock", "choices": [{"message": {"content": "{}"}}]}}}) + "\n")
        handle.write('{"id": "y", "custom_id": "argue-')
    lines = total - 1 + 2  # one skipped, two appended
    again = tmp_path / "calls-2.jsonl"
    result = judge("--cache", str(cache), "--batch-in", str(results), "--batch-out", str(again))
    assert result.exit_code == 0, result.stderr
    stderr = result.stderr
    assert f"{results}:1: response.body.choices[0].message.content: the reply is not the call's JSON object" in stderr
    assert f"{results}:2: error: the batch service could not answer (batch_expired)" in stderr
    assert f"{results}:3: response.status_code: 500" in stderr
    assert f"{results}:{lines}: not a JSON line (the file ends in the middle of it: a partial file?)" in stderr
    assert "1 result(s) match no call this run still needs" in stderr and f"{results}:{lines - 1}" in stderr
    assert f"batch results: {answered} of {lines} result line(s) answered a call" in stderr
    # the four unanswered calls are written again, beside the next round's
    again_ids = {json.loads(line)["custom_id"] for line in again.read_text().splitlines()}
    first_ids = [json.loads(line)["custom_id"] for line in calls.read_text().splitlines()]
    assert set(first_ids[:4]) <= again_ids and not set(first_ids[4:]) & again_ids


def test_results_from_another_model_are_not_used(tmp_path: Path) -> None:
    cache = tmp_path / "cache.sqlite"
    calls = tmp_path / "calls.jsonl"
    assert judge("--cache", str(cache), "--batch-out", str(calls)).exit_code == 0
    results = tmp_path / "results.jsonl"
    count = answer_batch(calls, results, model="other-model")
    result = judge("--cache", str(cache), "--batch-in", str(results), "--batch-out", str(tmp_path / "again.jsonl"))
    assert result.exit_code == 0
    assert f"{results}:1: response.body.model: answered by 'other-model', not by the model asked for ('mock')" in result.stderr
    assert len((tmp_path / "again.jsonl").read_text().splitlines()) == count  # every call asked again


def test_batch_in_without_an_endpoint_or_batch_out_leaves_the_rest_unjudged_and_says_why(tmp_path: Path) -> None:
    cache = tmp_path / "cache.sqlite"
    calls = tmp_path / "calls.jsonl"
    assert judge("--cache", str(cache), "--batch-out", str(calls)).exit_code == 0
    results = tmp_path / "results.jsonl"
    answer_batch(calls, results, model=MODEL)
    out = tmp_path / "j.jsonl"
    result = judge("--cache", str(cache), "--batch-in", str(results), "-o", str(out))
    assert result.exit_code == 1  # the next round's questions have no answer: not judged, never "no"
    assert "not judged: no answer in the --batch-in results" in result.stderr
    assert out.exists()


def test_batch_options_are_checked() -> None:
    result = CliRunner().invoke(cli, ["judge", *INPUTS[:-4], "--batch-out", "b.jsonl"])
    assert result.exit_code == 2 and "--batch-out: batch files hold the llm judge's calls" in result.stderr
    result = judge("--batch-out", "b.jsonl", "--dry-run")
    assert result.exit_code == 2 and "--batch-out: not with --dry-run" in result.stderr


def test_result_lines_and_model_names() -> None:
    # the custom_id is the body's hash: key order does not matter, any other value does
    assert custom_id({"a": 1, "b": [1, 2]}) == custom_id({"b": [1, 2], "a": 1}) != custom_id({"a": 2, "b": [1, 2]})
    assert len(custom_id({})) == 46
    assert model_matches("gpt-4o-mini", "gpt-4o-mini-2024-07-18") and model_matches("m", "m")
    assert model_matches("gpt-4", "gpt-4-0613")
    assert not model_matches("gpt-4o", "gpt-4o-mini") and not model_matches("gpt-4o", "gpt-4o-mini-2024-07-18")
    assert not model_matches("llama", "mistral") and not model_matches("m", None)
    assert read_result_line([], "f:1") == "expected a JSON object (a batch result line), found list"
    assert read_result_line({"response": {}}, "f:2") == "custom_id: missing (not a batch result line)"
    line = read_result_line({"custom_id": "c", "response": {"status_code": 200, "body": {"choices": []}}}, "f:3")
    assert not isinstance(line, str) and line.problem == "response.body: not a chat completion (no choices[0].message)"
