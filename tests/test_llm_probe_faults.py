"""The LLM faults a newcomer's probe found (issue 34), each against the scripted server (``llm_server``, loopback).

No server listening; two endpoints of which one answers nonsense; a live answer from another model, or naming
none; a batch result naming no model; a batch service's error quoting the key; a server echoing the key as its
model name; the key written into the URL's path. Each is run as a user would hit it, and what must (and must not)
reach the terminal, the judgments and the manifest is asserted.
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("aiohttp", reason="needs the llm extra (aiohttp)")

from llm_server import MockChatServer, answer_batch  # noqa: E402

from argue_eval.cli import cli  # noqa: E402
from argue_eval.judges.llm_client import probe_endpoints  # noqa: E402

pytestmark = pytest.mark.llm

REPO = Path(__file__).resolve().parent.parent
INPUTS = ["--run", "runs/sample/careful.jsonl", "--nuggets", "nuggets/sample/nuggets.jsonl", "--requests",
          "topics/sample/requests.jsonl", "--collection", "topics/sample/collection.jsonl", "--judge", "llm",
          "--llm-model", "mock", "--llm-api-key-env", "PROBE_KEY"]
KEY = "plain0secret0value"  # not shaped like a key: only its value can tell it


def argue_eval(*args: str, key: str | None = KEY) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PROBE_KEY"}
    if key is not None:
        env["PROBE_KEY"] = key
    return subprocess.run([sys.executable, "-m", "argue_eval.cli", *args], cwd=REPO, capture_output=True, text=True,
                          env=env, timeout=600)


def free_port() -> int:
    with socket.socket() as sock:  # bound, then closed: nothing listens there
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_no_server_listening_stops_every_llm_command_before_any_work(tmp_path):
    url = f"http://127.0.0.1:{free_port()}/v1"
    assert probe_endpoints([url]) == {0: f"connection refused by 127.0.0.1:{url.split(':')[2].split('/')[0]}: no server listens there"}
    judged = argue_eval("judge", *INPUTS, "--llm-base-url", url, "--no-cache", "-o", str(tmp_path / "j.jsonl"))
    assert judged.returncode == 2 and judged.stderr.splitlines()[0].startswith(f"--llm-base-url: {url}: connection refused")
    assert "attempt" not in judged.stderr and not (tmp_path / "j.jsonl").exists()
    created = argue_eval("nuggets", "create", "--requests", "topics/sample/requests.jsonl", "--runs",
                         "runs/sample/careful.jsonl", "--collection", "topics/sample/collection.jsonl",
                         "--llm-base-url", url, "--llm-model", "mock", "--no-cache", "-o", str(tmp_path / "n.jsonl"))
    assert created.returncode == 2 and f"--llm-base-url: {url}: connection refused" in created.stderr
    planned = argue_eval("judge", *INPUTS, "--llm-base-url", url, "--no-cache", "--dry-run")
    assert planned.returncode == 0  # the estimate needs no server
    assert probe_endpoints(["not a url"]) == {0: "is not an http(s) URL with a host (expected http://HOST:PORT/v1)"}


def test_an_endpoint_whose_replies_fail_their_schema_is_set_aside_and_the_healthy_one_answers(tmp_path):
    out = tmp_path / "j.jsonl"
    with MockChatServer(model="mock") as good, MockChatServer(lambda n, body: ("content", "sure, it is attested"),
                                                              model="mock") as bad:
        result = argue_eval("judge", *INPUTS, "--llm-base-url", f"{bad.base_url},{good.base_url}", "--concurrency", "1",
                            "--no-cache", "-o", str(out))
        bad_calls = len(bad.requests)
    assert result.returncode == 0, result.stderr  # every question judged: none left to the nonsense
    usage = json.loads(Path(f"{out}.manifest.json").read_text())["usage"]
    assert usage["failed_items"] == 0 and usage["faults"]["bad_reply"] == bad_calls
    assert usage["endpoints"][0]["answered"] == bad_calls and usage["endpoints"][0]["set_aside"] >= 1  # replies, unusable
    assert bad_calls <= 3 * usage["endpoints"][0]["set_aside"]  # three unusable replies in a row set it aside


def test_a_live_answer_from_another_model_is_refused_and_its_endpoint_left_out(tmp_path):
    out = tmp_path / "j.jsonl"
    with MockChatServer(model="mock") as good, MockChatServer(model="other-model", listed_models=["mock"]) as wrong:
        # both list the model (so the start-up check passes); one answers as another
        result = argue_eval("judge", *INPUTS, "--llm-base-url", f"{wrong.base_url},{good.base_url}", "--concurrency",
                            "1", "--no-cache", "-o", str(out))
        assert len(wrong.requests) == 1  # its first reply takes it out of the run
    assert result.returncode == 0, result.stderr
    judgments = [json.loads(line) for line in out.read_text().splitlines()]
    assert {j["provenance"]["server_model"] for j in judgments if j["kind"] != "relevant"} == {"mock"}
    with MockChatServer(model="other-model") as alone:
        stopped = argue_eval("judge", *INPUTS, "--llm-base-url", alone.base_url, "--concurrency", "1", "--no-cache",
                             "-o", str(tmp_path / "k.jsonl"))
        assert len(alone.requests) == 1  # one reply tells; the run stops instead of refusing every call
    assert stopped.returncode == 2
    assert (f"{alone.base_url} answered as model 'other-model', not the --llm-model asked for ('mock')"
            in stopped.stderr)


def test_a_live_answer_naming_no_model_is_refused(tmp_path):
    with MockChatServer(model="") as server:
        result = argue_eval("judge", *INPUTS, "--llm-base-url", server.base_url, "--no-cache", "-o", str(tmp_path / "j.jsonl"))
    assert result.returncode == 2
    assert (f"{server.base_url} answered naming no model (its reply's model field is empty), so it cannot be told to "
            "be --llm-model mock") in result.stderr


def batch_round(tmp_path: Path, edit, key: str | None = KEY) -> subprocess.CompletedProcess:
    """Write the calls, answer them as the model asked for, let ``edit`` change the results, read them back."""
    cache = str(tmp_path / "c.sqlite")
    calls, results = tmp_path / "calls.jsonl", tmp_path / "results.jsonl"
    first = argue_eval("judge", *INPUTS, "--cache", cache, "--batch-out", str(calls), "-o", str(tmp_path / "j.jsonl"))
    assert first.returncode == 0, first.stderr
    answer_batch(calls, results, model="mock")
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    edit(lines)
    results.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return argue_eval("judge", *INPUTS, "--cache", cache, "--batch-in", str(results), "--batch-out",
                      str(tmp_path / "calls-2.jsonl"), "-o", str(tmp_path / "j.jsonl"), key=key)


def test_a_batch_result_naming_no_model_is_refused(tmp_path):
    def no_model(lines):
        lines[0]["response"]["body"]["model"] = ""

    result = batch_round(tmp_path, no_model)
    assert result.returncode == 0, result.stderr
    assert f"{tmp_path / 'results.jsonl'}:1: response.body.model: answered by '', not by the model asked for ('mock')" \
        in result.stderr


def test_a_batch_services_error_quoting_the_key_is_printed_redacted(tmp_path):
    def quoting(lines):
        lines[0]["response"] = None
        lines[0]["error"] = {"code": "invalid_api_key", "message": f"Incorrect API key provided: {KEY}."}

    result = batch_round(tmp_path, quoting)
    assert KEY not in result.stderr + result.stdout
    assert ("results.jsonl:1: error: the batch service could not answer (invalid_api_key): Incorrect API key "
            "provided: REDACTED.") in result.stderr


def test_a_server_echoing_the_key_as_its_model_name_never_stores_or_prints_it(tmp_path):
    out = tmp_path / "j.jsonl"
    with MockChatServer(model=f"mock-{KEY}") as server:
        result = argue_eval("judge", *INPUTS, "--llm-base-url", server.base_url, "--no-cache", "-o", str(out))
    assert result.returncode == 2  # another model's name, so refused, and the refusal is redacted
    assert KEY not in result.stderr and "answered as model 'mock-REDACTED'" in result.stderr


def test_a_key_in_the_urls_path_reaches_neither_the_manifest_nor_the_judgments(tmp_path):
    out = tmp_path / "j.jsonl"
    with MockChatServer() as server:
        keyed = server.base_url.replace("/v1", f"/{KEY}/v1")
        shaped = server.base_url.replace("/v1", "/sk-live-0123456789abcdef/v1")
        result = argue_eval("judge", *INPUTS, "--llm-base-url", keyed, "--no-cache", "-o", str(out))
        other = argue_eval("judge", *INPUTS, "--llm-base-url", shaped, "--no-cache", "-o", str(tmp_path / "k.jsonl"),
                           key=None)
        assert len(server.requests) > 0  # the calls went to the real URL
    assert result.returncode == 0 and other.returncode == 0, result.stderr + other.stderr
    for path in (out, Path(f"{out}.manifest.json"), tmp_path / "k.jsonl", tmp_path / "k.jsonl.manifest.json"):
        text = path.read_text()
        assert KEY not in text and "sk-live-0123456789abcdef" not in text, path
    manifest = Path(f"{out}.manifest.json").read_text()
    assert "/REDACTED/v1" in manifest


def test_the_batch_out_summary_says_written_not_failed(tmp_path):
    calls = tmp_path / "calls.jsonl"
    result = CliRunner().invoke(cli, ["judge", *INPUTS, "--no-cache", "--batch-out", str(calls), "-o",
                                      str(tmp_path / "j.jsonl")])
    assert result.exit_code == 0
    written = len(calls.read_text().splitlines())
    judged = next(line for line in result.output.splitlines() if line.startswith("judged with llm: "))
    assert judged.startswith("judged with llm: 0 judgment(s): 0 from the cache, 0 new, 180 written to the batch file; "
                             "1 round(s), ")  # not "180 failed": nothing failed
    assert "not judged" not in result.output
    assert f"wrote {written} call(s) for 180 question(s) to {calls}" in result.output
