"""The LLM judge's calls as an OpenAI-batch file, and the results of one read back: the shapes, no file I/O.

Past one endpoint, organizers run a round's calls offline: vLLM's ``run-batch`` on their own GPUs, or OpenAI's
Batch API at half price. Both read the same JSON Lines file, one request per line::

    {"custom_id": "argue-...", "method": "POST", "url": "/v1/chat/completions", "body": {<the chat request>}}

and write one result per line::

    {"id": "...", "custom_id": "argue-...", "response": {"status_code": 200, "request_id": "...",
     "body": {<the chat completion>}}, "error": null}

The body is exactly what the judge would POST to an endpoint (``LLMJudge._body``), and the ``custom_id`` is a
hash of it: a result names the very call it answers, so a result file made for another plan (other runs,
nuggets, model, prompts or decoding) matches no call of this one and is never read as an answer to it. A
result is checked against its call before its answers are used: the HTTP status, the completion's shape, the
model that answered, the reply's schema; a result that fails is reported with its line and the call is asked
again (written to the next batch file), never read as "no".

``BatchExchange`` is what the judge holds during a run: the results read so far (by ``custom_id``), and, when
collecting, the calls still to be answered, in send order. ``api.batch`` reads and writes the files.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..redact import redact_text
from .llm_client import ChatResult, read_completion

__all__ = ["BATCH_URL", "MAX_BATCH_CALLS", "BatchExchange", "BatchResult", "custom_id", "request_line",
           "read_result_line", "model_matches", "WAITING"]

BATCH_URL = "/v1/chat/completions"
MAX_BATCH_CALLS = 50_000
"""Requests per batch file: the OpenAI Batch API's limit (a larger round is written as several files)."""

WAITING = "waiting for its answer in the batch file"
"""The reason a question of a call written to the batch file is not judged yet (the runner reports it)."""


def custom_id(body: dict[str, Any]) -> str:
    """``argue-`` and 40 hex digits of the SHA-256 of the request body (canonical JSON): the same call always
    has the same id, another call (another prompt, model or decoding) another id. 46 characters: within the
    64 that batch services allow."""
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "argue-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:40]


def request_line(body: dict[str, Any]) -> dict[str, Any]:
    """One line of the batch input file for the chat request ``body``."""
    return {"custom_id": custom_id(body), "method": "POST", "url": BATCH_URL, "body": body}


@dataclass(frozen=True)
class BatchResult:
    """One line of a result file: where it is, the call it answers, and either the completion or what is wrong."""

    where: str
    """``FILE:LINE``, for messages."""
    custom_id: str
    completion: ChatResult | None
    problem: str | None = None
    """``field: message`` when the line answers nothing (an error result, a status other than 200, no
    completion); the completion is then ``None``."""


def read_result_line(value: Any, where: str, secrets: tuple[str | None, ...] = ()) -> BatchResult | str:
    """The result of one parsed line of a result file, or ``field: message`` when it is not a result line. The
    service's own words (an error message, a model name) are redacted with ``secrets`` (the API key) and every
    key-shaped token: a service may quote the key it refused, and the problems are printed and kept."""
    if not isinstance(value, dict):
        return f"expected a JSON object (a batch result line), found {type(value).__name__}"
    cid = value.get("custom_id")
    if not isinstance(cid, str) or not cid:
        return "custom_id: missing (not a batch result line)"
    error = value.get("error")
    if error:
        message = error.get("message") if isinstance(error, dict) else error
        code = f" ({error.get('code')})" if isinstance(error, dict) and error.get("code") else ""
        return BatchResult(where, cid, None, f"error: the batch service could not answer{code}: {_short(message, secrets)}")
    response = value.get("response")
    if not isinstance(response, dict):
        return BatchResult(where, cid, None, "response: missing")
    body = response.get("body") if "body" in response else response  # some runners write the completion itself
    status = response.get("status_code", 200 if "choices" in response else None)
    if status != 200:
        return BatchResult(where, cid, None, f"response.status_code: {status}: {_short(_error_message(body), secrets)}")
    try:
        completion = read_completion(body, 0)
    except (KeyError, TypeError, IndexError, ValueError):
        return BatchResult(where, cid, None, "response.body: not a chat completion (no choices[0].message)")
    if completion.model:
        completion.model = redact_text(completion.model, secrets)
    return BatchResult(where, cid, completion)


def _error_message(body: Any) -> Any:
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        return body["error"].get("message", body)
    return body


def _short(text: Any, secrets: tuple[str | None, ...] = ()) -> str:
    return redact_text(" ".join(str(text).split()), secrets)[:200]


_VERSION_SUFFIX = re.compile(r"-\d[\d-]*")


def model_matches(asked: str, answered: str | None) -> bool:
    """Whether a result's model is the model asked for: the same name, or the name with a date or version
    number after it (OpenAI answers ``gpt-4o-mini`` as ``gpt-4o-mini-2024-07-18``; ``gpt-4o-mini`` is not
    ``gpt-4o``)."""
    if answered is None:
        return False
    return answered == asked or (answered.startswith(asked) and bool(_VERSION_SUFFIX.fullmatch(answered[len(asked):])))


@dataclass
class BatchExchange:
    """A run's batch state: results to answer calls from, and (``collect``) the calls still without one.

    ``results``: by ``custom_id``; ``used``: the ids a call of this run took; ``problems``: ``FILE:LINE:
    field: message`` of every result that answered nothing (read errors, error results, failed checks);
    ``requests``: the calls to write, in send order, each once."""

    results: dict[str, BatchResult] = field(default_factory=dict)
    collect: bool = False
    requests: dict[str, dict[str, Any]] = field(default_factory=dict)
    used: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)
    answered: int = 0
    """Calls answered from the results."""
    waiting: set[Any] = field(default_factory=set)
    """The judgment keys of the questions whose call has no answer yet (written to the batch file, or, with
    no endpoint, still to be answered by a batch)."""

    def add(self, body: dict[str, Any]) -> None:
        line = request_line(body)
        self.requests.setdefault(line["custom_id"], line)

    def unused(self) -> list[BatchResult]:
        """Results no call of this run took: from another plan, or answered before (in the cache already)."""
        return [result for cid, result in self.results.items() if cid not in self.used]
