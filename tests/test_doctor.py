"""``argue-eval doctor``: the extras, models, Java, Chromium, the cache and each endpoint, with exit codes for scripts."""
from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.api.doctor import EXTRAS, doctor
from argue_eval.cli import cli

KEY = "doctor0secret0value"


def statuses(result) -> dict[str, str]:
    return {check: status for check, status, _ in result.rows}


def test_every_extra_is_reported_and_a_needed_one_that_is_missing_fails(monkeypatch):
    import argue_eval.api.doctor as module

    monkeypatch.setattr(module, "_installed", lambda name: name not in ("networkx", "starlette"))
    result = doctor(need=["graph"])
    rows = {check: (status, detail) for check, status, detail in result.rows}
    assert [check for check in rows if check.startswith("extra ")] == [f"extra {name}" for name in EXTRAS]
    assert rows["extra graph"] == ("failed", "comprehensiveness (the entailment graph): not installed (networkx); "
                                             "pip install 'argue-eval[graph]'")
    assert rows["extra workbench"][0] == "missing" and rows["extra llm"][0] == "ok"
    assert result.counts["failed"] >= 1


def test_every_extra_of_setup_cfg_but_test_and_all_is_checked():
    import configparser
    from pathlib import Path

    config = configparser.ConfigParser()
    config.read(Path(__file__).resolve().parent.parent / "setup.cfg")
    assert set(EXTRAS) == set(config["options.extras_require"]) - {"test", "all"}


def test_a_writable_cache_is_ok_and_one_that_cannot_be_written_fails(tmp_path):
    assert statuses(doctor(cache=tmp_path / "new" / "c.sqlite"))[f"cache {tmp_path / 'new' / 'c.sqlite'}"] == "ok"
    blocker = tmp_path / "file"
    blocker.write_text("x")  # a file where the cache's folder should be
    rows = {check: (status, detail) for check, status, detail in doctor(cache=blocker / "c.sqlite").rows}
    status, detail = rows[f"cache {blocker / 'c.sqlite'}"]
    assert status == "failed" and detail.startswith(f"cannot write in {blocker}")


def test_an_nli_model_directory_needs_its_config_and_weights(tmp_path):
    missing = {c: (s, d) for c, s, d in doctor(nli_model=tmp_path / "none").rows}[f"model {tmp_path / 'none'}"]
    assert missing == ("failed", "no such directory (--nli-model takes a local model directory)")
    model = tmp_path / "nli"
    model.mkdir()
    assert {c: d for c, _, d in doctor(nli_model=model).rows}[f"model {model}"] == \
        "no config.json: not a transformers model directory"
    (model / "config.json").write_text(json.dumps({"id2label": {"0": "entailment", "1": "neutral", "2": "contradiction"}}))
    (model / "model.safetensors").write_bytes(b"\0")
    assert {c: (s, d) for c, s, d in doctor(nli_model=model).rows}[f"model {model}"] == \
        ("ok", "labels: entailment, neutral, contradiction")


def test_a_model_and_an_endpoint_go_together():
    with pytest.raises(ValueError, match="--llm-model"):
        doctor(base_urls=["http://127.0.0.1:9/v1"])
    result = CliRunner().invoke(cli, ["doctor", "--need", "everything"])
    assert result.exit_code == 2 and "unknown extra 'everything'" in result.output


def test_endpoints_down_serving_another_model_or_right(tmp_path, monkeypatch):
    """The endpoint checks use the standard library only: no extra is needed to run them."""
    from llm_server import MockChatServer

    monkeypatch.setenv("DOCTOR_KEY", KEY)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        down = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    with MockChatServer() as good, MockChatServer(model="other", listed_models=["mock"]) as wrong:
        result = CliRunner().invoke(cli, ["doctor", "--llm-base-url", f"{good.base_url},{wrong.base_url}",
                                          "--llm-base-url", down, "--llm-model", "mock", "--llm-api-key-env",
                                          "DOCTOR_KEY", "--json"])
        assert good.headers[0]["Authorization"] == f"Bearer {KEY}"
        assert good.requests[0] == {"model": "mock", "messages": [{"role": "user", "content": "Reply with the word OK."}],
                                    "max_tokens": 1, "temperature": 0}
    assert result.exit_code == 1 and KEY not in result.output
    checks = {row["check"]: (row["status"], row["detail"]) for row in json.loads(result.output)["checks"]}
    assert checks[f"endpoint {good.base_url} /models"] == ("ok", "serves mock")
    assert checks[f"endpoint {good.base_url} chat"] == ("ok", "answers as mock")
    assert checks[f"endpoint {wrong.base_url} chat"] == ("failed", "answered as 'other', not as mock: the judge "
                                                                  "refuses such replies")
    status, detail = checks[f"endpoint {down}"]
    assert status == "failed" and detail.startswith("connection refused by 127.0.0.1:")
    with MockChatServer() as good:
        ok = CliRunner().invoke(cli, ["doctor", "--llm-base-url", good.base_url, "--llm-model", "mock"])
    assert ok.exit_code == 0, ok.output
    assert ok.output.splitlines()[-1].endswith(", 0 failed")


def test_the_text_lists_one_check_a_line_and_the_counts(tmp_path):
    result = CliRunner().invoke(cli, ["doctor", "--cache", str(tmp_path / "c.sqlite")])
    lines = result.output.splitlines()
    assert lines[0].split()[:3] == ["extra", "llm", lines[0].split()[2]]
    counts = lines[-1]
    ok, missing, failed = (int(part.split()[0]) for part in counts.split(", "))
    assert ok + missing + failed == len(lines) - 1
    assert result.exit_code == (1 if failed else 0)
    assert Path(tmp_path).is_dir() and not (tmp_path / "c.sqlite").exists()  # checked, not created
