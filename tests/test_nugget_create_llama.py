"""``nuggets create`` end to end against a real OpenAI-compatible server: llama.cpp's (llama-cpp-python) with
SmolLM2-135M and structured output (a grammar from the JSON schema), one server per session
(``conftest.llama_server``).

The model is far too small to write good nuggets; what is checked is the protocol through the real command:
the schema-constrained replies parse into proposals whose document labels are the batch's, the bank the
command writes is one ``nuggets validate`` accepts, every call is accounted for with the server's token
counts, the key is sent and never written, and a rerun asks nothing and writes the same bytes.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("aiohttp", reason="needs the llm extra (aiohttp)")
pytest.importorskip("llama_cpp.server.app", reason="needs llama-cpp-python[server] (tools/_venv.sh installs it with the all extras)")

from llama_server import API_KEY, MODEL_ALIAS  # noqa: E402
from nugget_model import write_track  # noqa: E402

from argue_eval.cli import cli  # noqa: E402

pytestmark = [pytest.mark.llm, pytest.mark.slow]


def test_create_through_a_real_server_validates_is_accounted_for_and_resumes(llama_server: str, tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOCAL_LLM_KEY", API_KEY)
    track = write_track(tmp_path)
    out, details = tmp_path / "created.jsonl", tmp_path / "details.jsonl"
    args = ["nuggets", "create", "--requests", track["requests"], "--pool", track["pool"], "--collection",
            track["collection"], "--llm-base-url", llama_server, "--llm-model", MODEL_ALIAS, "--llm-api-key-env",
            "LOCAL_LLM_KEY", "--llm-response-format", "json_object", "--llm-max-retries", "2", "--concurrency", "2",
            "--batch-size", "2", "--cache", str(tmp_path / "cache.sqlite"), "-o", str(out), "--details", str(details)]
    first = CliRunner().invoke(cli, args)
    # exit 1 exactly when a call failed (the tiny model may ramble past its token limit), which a warning says
    assert first.exit_code in (0, 1), first.output
    assert (first.exit_code == 1) == ("warning:" in first.output), first.output
    records = [json.loads(line) for line in details.read_text().splitlines()]
    creates = [r for r in records if r["step"] == "create"]
    # t1: d1 d2 | d3; t2: d4 -- three create calls, each shown its own batch's labels
    assert [(r["request_id"], r["batch"], r["documents"]) for r in creates] == [
        ("t1", 1, {"D1": "d1", "D2": "d2"}), ("t1", 2, {"D1": "d3"}), ("t2", 1, {"D1": "d4"})]
    answered = [r for r in creates if r["status"] == "answered"]
    assert answered, first.output  # the grammar makes replies of the schema's shape
    for record in answered:
        for proposal in record["proposals"]:
            for answer in proposal["answers"]:
                # the schema's enum: only the batch's labels (so no binding is dropped as unseen)
                assert set(answer["documents"]) <= set(record["documents"])
    checked = CliRunner().invoke(cli, ["nuggets", "validate", str(out), "--collection", track["collection"]])
    assert checked.exit_code == 0, checked.output
    assert re.search(r": \d+ topics, \d+ nuggets, 0 errors", checked.output)
    calls = re.search(r"model calls: (\d+) \((\d+) retried, (\d+) re-asked, (\d+) failed\), (\d+) prompt \+ (\d+) "
                      r"completion tokens", first.output)
    assert calls, first.output
    sent, retried, reasked, failed, prompt_tokens, completion_tokens = map(int, calls.groups())
    labels = [r for r in records if r["step"] == "label"]
    assert sent == 3 + len(labels) + reasked + retried
    assert 300 * 3 < prompt_tokens < 4096 * sent  # the server's own counts: a few hundred tokens a prompt
    assert 0 < completion_tokens
    assert API_KEY not in out.read_text() + details.read_text() + first.output
    bank, notes = out.read_bytes(), details.read_bytes()
    second = CliRunner().invoke(cli, args)
    if failed == 0:  # the same bank again (exit 1 again if a topic kept no nugget: a warning names it)
        assert second.exit_code == first.exit_code and "model calls: 0 (" in second.output
        assert out.read_bytes() == bank and details.read_bytes() == notes
    else:  # only the failed calls (and what follows from them) are asked again
        again = re.search(r"model calls: (\d+)", second.output)
        assert again and 0 < int(again.group(1)) < sent
