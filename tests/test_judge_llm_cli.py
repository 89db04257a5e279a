"""`argue-eval judge --judge llm` end to end on the sample track against a local mock endpoint.

Checks the CLI options, the dry-run plan against counts taken from the run file by hand, the usage in
the manifest, and that a judging process killed mid-run and started again repeats no call for a committed
answer and writes the same bytes as an uninterrupted run (calls counted at the server).
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("aiohttp", reason="needs the llm extra (aiohttp)")

from llm_server import MockChatServer  # noqa: E402

from argue_eval.model import normalize_text  # noqa: E402

pytestmark = pytest.mark.llm

REPO = Path(__file__).resolve().parent.parent
ARGS = ["--nuggets", "nuggets/sample/nuggets.jsonl", "--requests", "topics/sample/requests.jsonl"]


def argue_eval(*args: str, env: dict | None = None, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "argue_eval.cli", *args], cwd=REPO, capture_output=True, text=True,
                          env=env, timeout=600, **kwargs)


def hand_counts(run_file: Path) -> dict[str, int]:
    """Prompts the llm judge needs for one run, counted straight from the files (not through argue_eval)."""
    bound: dict[str, set[str]] = {}
    for line in (REPO / "nuggets/sample/nuggets.jsonl").read_text().splitlines():
        topic = json.loads(line)
        docs = bound.setdefault(topic["request_id"], set())
        for nugget in topic["nuggets"]:
            for answer in nugget["answers"]:
                docs.update(answer["doc_ids"])
    pairs, relevant_pairs, uncited = set(), set(), set()
    for line in run_file.read_text().splitlines():
        report = json.loads(line)
        for sentence in report["sentences"]:
            text = normalize_text(sentence["text"])
            if not sentence["citations"]:
                uncited.add((report["request_id"], text))
            for doc in sentence["citations"]:
                pairs.add((report["request_id"], text, doc))
                if doc in bound.get(report["request_id"], set()):
                    relevant_pairs.add((report["request_id"], text, doc))
    return {"answers": len(relevant_pairs), "attested": len(pairs), "negative": len(uncited)}


def test_dry_run_json_plans_auto_argue_batching_and_no_more_for_a_repeated_report(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    common = ["judge", *ARGS, "--judge", "llm", "--llm-base-url", "http://127.0.0.1:9/v1", "--llm-model", "m",
              "--dry-run", "--json", "--no-cache", "--collection", "topics/sample/collection.jsonl",
              "--price-in", "3", "--price-out", "15"]
    one = argue_eval(*common, "--run", "runs/sample/careful.jsonl", env=env)
    assert one.returncode == 0, one.stderr
    plan = json.loads(one.stdout)
    counts = hand_counts(REPO / "runs/sample/careful.jsonl")
    assert counts == {"answers": 49, "attested": 51, "negative": 5}
    for kind, expected in counts.items():
        assert plan["calls"][kind] == expected
    # the second uncited prompt: one per uncited sentence at most (nugget-agrees or first-instance)
    assert plan["calls"].get("nugget_agrees", 0) + plan["calls"].get("first_instance", 0) <= counts["negative"]
    assert plan["calls"].get("requires_citation", 0) == 0  # asked together with negative
    auto_argue = 2 * counts["attested"] + 2 * counts["negative"]
    assert sum(plan["calls"].values()) <= auto_argue
    estimate = plan["estimate"]
    assert estimate["total_calls"] == sum(plan["calls"].values())
    assert estimate["cost"] == pytest.approx((estimate["prompt_tokens"] * 3 + estimate["completion_tokens"] * 15) / 1e6)
    # the same reports again under another run id: deduplicated, so no more calls
    copy = tmp_path / "careful-again.jsonl"
    copy.write_text((REPO / "runs/sample/careful.jsonl").read_text().replace('"run_id":"careful"', '"run_id":"again"'))
    two = argue_eval(*common, "--run", "runs/sample/careful.jsonl", "--run", str(copy), env=env)
    assert two.returncode == 0, two.stderr
    plan_two = json.loads(two.stdout)
    assert plan_two["reports"] == 2 * plan["reports"]
    assert plan_two["calls"] == plan["calls"]


def judge_args(server: MockChatServer, out: Path, cache: Path) -> list[str]:
    return ["judge", "--run", "runs/sample/careful.jsonl", *ARGS, "--collection", "topics/sample/collection.jsonl",
            "--judge", "llm", "--llm-base-url", server.base_url, "--llm-model", "mock", "--concurrency", "1",
            "--llm-api-key-env", "MOCK_KEY", "--cache", str(cache), "-o", str(out)]


def test_judge_writes_judgments_manifest_and_never_the_key(tmp_path: Path) -> None:
    env = {**os.environ, "MOCK_KEY": "sk-mock-SECRET-99"}
    with MockChatServer() as server:
        out = tmp_path / "j.jsonl"
        done = argue_eval(*judge_args(server, out, tmp_path / "c.sqlite"), "--price-in", "1", "--price-out", "2", env=env)
    assert done.returncode == 0, done.stderr
    judgments = [json.loads(line) for line in out.read_text().splitlines()]
    manifest = json.loads(Path(str(out) + ".manifest.json").read_text())
    usage = manifest["usage"]
    assert usage["calls"] == len(server.requests) and usage["failed_items"] == 0
    assert usage["answered_items"] == len(judgments) - sum(1 for j in judgments if j["kind"] == "relevant")
    assert "model calls: " + str(usage["calls"]) in done.stderr
    assert all(j["judge"] == "llm:mock" and j["provenance"]["server_model"] == "mock"
               for j in judgments if j["kind"] != "relevant")
    assert all(h["Authorization"] == "Bearer sk-mock-SECRET-99" for h in server.headers)
    for path in tmp_path.iterdir():
        assert b"SECRET" not in path.read_bytes(), path
    assert "SECRET" not in done.stderr + done.stdout


def not_negative(n: int, body: dict) -> tuple:
    """The deterministic reply, but every uncited sentence is not negative: its requires-citation question is
    asked (in the next round)."""
    if body["response_format"]["json_schema"]["name"] == "uncited":
        return ("content", json.dumps({"negative": False, "requires_citation": True}))
    return ("ok",)


def test_killed_run_resumes_without_repeating_committed_calls_and_writes_the_same_bytes(tmp_path: Path) -> None:
    env = {**os.environ, "MOCK_KEY": "k"}
    # the uninterrupted reference
    with MockChatServer(not_negative) as server:
        reference = tmp_path / "reference.jsonl"
        done = argue_eval(*judge_args(server, reference, tmp_path / "ref.sqlite"), env=env)
        assert done.returncode == 0, done.stderr
        total_calls = len(server.requests)
        sent = {json.dumps(body["messages"]) for body in server.requests}
    # killed while the server holds its 14th reply, the first topic's first-instance call (its second round),
    # after the first uncited sentence's combined prompt (the 13th call); every earlier reply arrived 0.6 s
    # after the one before, so the runner (which commits a model's answers at least every 0.5 s) has committed
    # each one before the next
    release = threading.Event()
    kill_at = 13
    with MockChatServer(lambda n, body: ("block", release) if n == kill_at else not_negative(n, body),
                        latency=0.6) as server:
        out = tmp_path / "resumed.jsonl"
        cache = tmp_path / "resumed.sqlite"
        process = subprocess.Popen([sys.executable, "-m", "argue_eval.cli", *judge_args(server, out, cache)],
                                   cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 300
        while len(server.requests) <= kill_at and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
        process.wait()
        release.set()
        replied = [json.dumps(body["messages"]) for body in server.requests[:kill_at]]
        uncited = {json.dumps(body["messages"]) for body in server.requests[:kill_at]
                   if body["response_format"]["json_schema"]["name"] == "uncited"}
        assert len(server.requests) == kill_at + 1 and not out.exists()
    with MockChatServer(not_negative) as server:
        done = argue_eval(*judge_args(server, out, cache), env=env)
        assert done.returncode == 0, done.stderr
        resumed = [json.dumps(body["messages"]) for body in server.requests]
    # exactly the prompts the uninterrupted run sent, and none that the killed run had answered: the runner
    # judges topic by topic, so the first topic's second round came before the kill, and the requires-citation
    # answer the uncited prompt gave with its negative one (that round's question, remembered from the prompt)
    # was committed then
    assert set(resumed) <= sent
    assert not set(resumed) & set(replied) and len(uncited) == 1
    assert kill_at + len(resumed) >= total_calls  # nothing lost either
    assert len(resumed) < total_calls
    assert out.read_bytes() == reference.read_bytes()


def test_cascade_lexical_llm_sends_the_model_only_what_lexical_is_unsure_of(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    plans = {}
    for spec in ("llm", "lexical,llm"):
        done = argue_eval("judge", "--run", "runs/sample/careful.jsonl", *ARGS, "--judge", spec, "--llm-base-url",
                          "http://127.0.0.1:9/v1", "--llm-model", "mock", "--collection",
                          "topics/sample/collection.jsonl", "--dry-run", "--json", "--no-cache", env=env)
        assert done.returncode == 0, done.stderr
        plans[spec] = json.loads(done.stdout)
    alone, cascade = plans["llm"]["estimate"], plans["lexical,llm"]["estimate"]
    assert cascade["total_calls"] < alone["total_calls"]
    assert cascade["saved_calls"] == alone["total_calls"] - cascade["total_calls"]
    assert sum(plans["lexical,llm"]["calls"].values()) == cascade["total_calls"]
    with MockChatServer() as server:
        out = tmp_path / "cascade.jsonl"
        done = argue_eval("judge", "--run", "runs/sample/careful.jsonl", *ARGS, "--collection",
                          "topics/sample/collection.jsonl", "--judge", "lexical,llm", "--llm-base-url",
                          server.base_url, "--llm-model", "mock", "--no-cache", "-o", str(out), env=env)
        assert done.returncode == 0, done.stderr
    manifest = json.loads(Path(str(out) + ".manifest.json").read_text())
    assert manifest["usage"]["calls"] == len(server.requests) <= cascade["total_calls"]
    judges = {json.loads(line)["judge"] for line in out.read_text().splitlines()}
    assert {"lexical", "llm:mock"} <= judges


def test_a_failed_llm_run_says_why_on_stderr_not_only_in_the_manifest(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "MOCK_KEY"}
    common = ["judge", "--run", "runs/sample/careful.jsonl", *ARGS, "--collection", "topics/sample/collection.jsonl",
              "--judge", "llm", "--llm-model", "m", "--llm-max-retries", "0", "--llm-api-key-env", "MOCK_KEY",
              "--no-cache", "-o", str(tmp_path / "j.jsonl")]
    with socket.socket() as sock:  # a port nothing listens on: bound, then closed
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    refused = argue_eval(*common, "--llm-base-url", f"http://127.0.0.1:{port}/v1", env=env)
    # no server: one check before any work stops the run (exit 2), naming the URL; nothing is written
    assert refused.returncode == 2 and refused.stderr.startswith(
        f"--llm-base-url: http://127.0.0.1:{port}/v1: connection refused by 127.0.0.1:{port}: no server listens there")
    assert not (tmp_path / "j.jsonl").exists() and not (tmp_path / "j.jsonl.manifest.json").exists()
    with MockChatServer(lambda n, body: ("status", 401)) as server:
        unauthorized = argue_eval(*common, "--llm-base-url", server.base_url, env=env)
    assert unauthorized.returncode == 2  # a refused key stops the run: every other call would be refused too
    assert ("authentication failed: the server answered HTTP 401 (mock status 401); no API key was sent (set one "
            "in $MOCK_KEY, or name its variable with --llm-api-key-env)") in unauthorized.stderr
