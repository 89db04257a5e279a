"""A scripted OpenAI-compatible chat server on 127.0.0.1 for the LLM judge's fault tests and benchmarks.

A real server cannot be made to time out, answer 429 or drop a connection on cue, so this one does, per
request, whatever its ``script`` says; otherwise it answers like a deterministic model: every boolean the
request's JSON schema asks for, true or false from a hash of the prompt and the key. It records every
request (body and headers) so tests count calls and check what was sent. Loopback only.
"""
from __future__ import annotations

import hashlib
import json
import socket
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["MockChatServer", "deterministic_reply", "schema_keys", "answer_batch"]


def schema_keys(body: dict[str, Any]) -> list[str]:
    """The boolean keys the request's response_format schema requires (or those the prompt names)."""
    fmt = body.get("response_format") or {}
    schema = (fmt.get("json_schema") or {}).get("schema") or fmt.get("schema") or {}
    return list(schema.get("required", []))


def _data(body: dict[str, Any]) -> dict[str, Any]:
    """The prompt's quoted data block, parsed (the judge's prompts hold exactly one)."""
    text = body["messages"][1]["content"]
    return json.loads(text[text.index("<data>\n") + 7:text.index("\n</data>")])


def _schema(body: dict[str, Any]) -> dict[str, Any]:
    fmt = body.get("response_format") or {}
    return (fmt.get("json_schema") or {}).get("schema") or fmt.get("schema") or {}


def deterministic_reply(body: dict[str, Any]) -> dict[str, Any]:
    """A fixed answer per question: a hash of the sentence and the item (a nugget answer's text, not its
    number in the prompt), so a prompt re-asked with fewer items after a resume answers each one the same.

    Booleans for the judge's yes/no questions; for the measures' structured tasks (``judges/llm_tasks.py``)
    a value of the shape the schema asks for: one of its enum values (coverage labels), a subset of an
    enum list (the candidates a choice selects), a list of texts taken from the data (the sentence's
    first 30 words as its one claim, the request's text as its one aspect), or a list of one record
    (``nuggets create``'s proposal: its texts the first words of the batch's first document)."""
    data = _data(body)
    items = data.get("answers") or data.get("nuggets") or {}
    properties = _schema(body).get("properties") or {}
    reply: dict[str, Any] = {}
    for key in schema_keys(body):
        what = json.dumps(items[key], sort_keys=True) if key in items else key
        digest = hashlib.sha256(f"{data.get('sentence')}|{what}".encode()).digest()
        spec = properties.get(key) or {}
        if "enum" in spec:
            reply[key] = spec["enum"][digest[0] % len(spec["enum"])]
        elif spec.get("type") == "array":
            reply[key] = _list_reply(spec, data, digest)
        else:
            reply[key] = digest[0] % 2 == 0
    return reply


def _list_reply(spec: dict[str, Any], data: dict[str, Any], digest: bytes) -> list[Any]:
    items = spec.get("items") or {}
    choices = items.get("enum")
    if choices is not None:  # a choice among ids: every other one, by the hash (at least minItems of them)
        chosen = [choice for index, choice in enumerate(choices) if (digest[index % len(digest)] % 2) == 0]
        return chosen or choices[:spec.get("minItems", 0)]
    if items.get("type") == "object":  # a list of records (nuggets create's proposals): one, filled from the data
        return [_object_reply(items, data, digest)] if spec.get("maxItems", 1) else []
    request = data.get("request") if isinstance(data.get("request"), dict) else {}
    texts = [value for value in (data.get("sentence"), request.get("problem_statement"), request.get("title"))
             if isinstance(value, str) and value.strip()]
    return [" ".join(texts[0].split()[:30])] if texts and spec.get("maxItems", 1) else []  # short, as a model writes


def _object_reply(spec: dict[str, Any], data: dict[str, Any], digest: bytes) -> dict[str, Any]:
    """An object of the schema ``spec``: every required property, a text from the data for a string (the first
    words of the data's first document, else of its request), lists and nested objects as above."""
    out: dict[str, Any] = {}
    for name in spec.get("required", []):
        field = (spec.get("properties") or {}).get(name) or {}
        if field.get("type") == "array":
            out[name] = _list_reply(field, data, digest)
        elif field.get("type") == "object":
            out[name] = _object_reply(field, data, digest)
        else:
            documents = data.get("documents") if isinstance(data.get("documents"), dict) else {}
            first = next(iter(documents.values()), {}) if documents else {}
            request = data.get("request") if isinstance(data.get("request"), dict) else {}
            text = first.get("text") or request.get("problem_statement") or request.get("title") or "text"
            out[name] = " ".join(str(text).split()[:6])
    return out


def completion(content: str, model: str = "mock-model-2026", prompt_tokens: int = 100, completion_tokens: int = 9) -> dict:
    return {
        "id": "chatcmpl-mock",
        "object": "chat.completion",
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }


def answer_batch(requests: Any, results: Any, model: str = "mock-model-2026",
                 script: Callable[[int, dict], Action] | None = None) -> int:
    """Answer an OpenAI-batch input file as vLLM's ``run-batch`` or the Batch API would: one result line per
    request line (``custom_id``, ``response.status_code``/``body``, ``error``), each body the reply the server
    gives the same request (``deterministic_reply``), so a batch round trip and a direct run see the same answers.
    ``script(n, body)`` may say ``("content", text)`` (that reply), ``("status", code)`` (an error response),
    ``("error",)`` (an error result) or ``("skip",)`` (no result line: a partial results file). Returns the lines."""
    from pathlib import Path

    lines = []
    for n, raw in enumerate(Path(requests).read_text(encoding="utf-8").splitlines()):
        request = json.loads(raw)
        body = request["body"]
        action = (script or (lambda n, body: ("ok",)))(n, body)
        if action[0] == "skip":
            continue
        response = None
        error = None
        if action[0] == "error":
            error = {"code": "batch_expired", "message": "This request could not be executed before the batch expired."}
        elif action[0] == "status":
            response = {"status_code": action[1], "request_id": f"req-{n}",
                        "body": {"error": {"message": f"mock status {action[1]}"}}}
        else:
            content = action[1] if action[0] == "content" else json.dumps(deterministic_reply(body))
            response = {"status_code": 200, "request_id": f"req-{n}", "body": completion(content, model)}
        lines.append(json.dumps({"id": f"batch_req_{n}", "custom_id": request["custom_id"], "response": response,
                                 "error": error}))
    Path(results).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return len(lines)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # the listen backlog: 64 clients connecting at once must not be dropped

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hangs up before its reply is written (a run stopped by a refused key closes its other
        calls) is what these tests make happen, not a server fault: say nothing, as a real server logs nothing
        on the client's stderr. Anything else is printed as the standard library does."""
        import sys

        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


Action = tuple
"""What to do with one request: ``("ok",)`` (the deterministic reply), ``("content", text)``,
``("status", code, headers)``, ``("sleep", seconds)`` (then reply normally: a client timeout),
``("garbage",)`` (HTTP 200 with a body that is not JSON), ``("drop",)`` (headers, part of the body, close),
``("block", threading.Event)`` (hold the reply until the event is set)."""


class MockChatServer:
    """``with MockChatServer(script) as server: server.base_url``; ``server.requests`` lists what came in.

    ``script(n, body)`` returns the action for the n-th request (0-based); ``latency`` delays every reply.
    """

    def __init__(self, script: Callable[[int, dict], Action] | None = None, latency: float = 0.0,
                 model: str | None = None, listed_models: list[str] | None = None):
        self.script = script or (lambda n, body: ("ok",))
        self.latency = latency
        self.model = model
        """The model every reply names; ``None``: the one the request asks for, as vLLM and llama.cpp answer."""
        self.listed_models = list(listed_models) if listed_models is not None else [model or "mock"]
        """What ``GET /models`` lists (the served names; by default the model it reports)."""
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def setup(self) -> None:
                super().setup()
                # no Nagle: a reply's headers and body go out at once, not after the client's delayed ACK
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def do_GET(self) -> None:  # noqa: N802 -- the model listing (several endpoints are checked with it)
                if self.path.rstrip("/").endswith("/models"):
                    self._json(200, {"object": "list", "data": [{"id": name, "object": "model"}
                                                                for name in server.listed_models]})
                else:
                    self._json(404, {"error": {"message": f"no route {self.path}"}})

            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length))
                with server._lock:
                    n = len(server.requests)
                    server.requests.append(body)
                    server.headers.append(dict(self.headers))
                action = server.script(n, body)
                answering = server.model if server.model is not None else str(body.get("model", "mock-model-2026"))
                if server.latency:
                    time.sleep(server.latency)
                kind = action[0]
                if kind == "block":  # hold the reply until the test releases it (bounded)
                    action[1].wait(timeout=60)
                    action, kind = ("ok",), "ok"
                if kind == "sleep":
                    time.sleep(action[1])
                    action = ("ok",)
                    kind = "ok"
                try:
                    if kind == "ok":
                        try:
                            content = json.dumps(deterministic_reply(body))
                        except (IndexError, KeyError, TypeError, ValueError):  # not one of the kit's prompts
                            content = "OK"  # (doctor's one-token check)
                        self._json(200, completion(content, answering))
                    elif kind == "content":
                        self._json(200, completion(action[1], answering))
                    elif kind == "status":
                        self._json(action[1], {"error": {"message": f"mock status {action[1]}"}}, action[2] if len(action) > 2 else {})
                    elif kind == "error":  # ("error", status, message): a server's own words, e.g. quoting the key
                        self._json(action[1], {"error": {"message": action[2]}})
                    elif kind == "garbage":
                        self._raw(200, b"{this is not json")
                    elif kind == "drop":
                        payload = json.dumps(completion("{}", answering)).encode()
                        self.send_response(200)
                        self.send_header("Content-Type", "application/json")
                        self.send_header("Content-Length", str(len(payload)))
                        self.end_headers()
                        self.wfile.write(payload[:20])
                        self.wfile.flush()
                        self.connection.shutdown(socket.SHUT_RDWR)
                        self.close_connection = True
                    else:
                        raise ValueError(f"unknown action {action!r}")
                except (BrokenPipeError, ConnectionResetError, OSError):
                    self.close_connection = True  # the client gave up first (its timeout)

            def _json(self, status: int, payload: dict, headers: dict | None = None) -> None:
                self._raw(status, json.dumps(payload).encode(), headers)

            def _raw(self, status: int, data: bytes, headers: dict | None = None) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

        self._server = _Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> MockChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


if __name__ == "__main__":  # a server in its own process (bench/bench_llm.py): prints its URL, serves until killed
    import argparse
    import sys

    parser = argparse.ArgumentParser(description="Mock OpenAI-compatible chat endpoint on 127.0.0.1")
    parser.add_argument("--latency", type=float, default=0.0)
    args = parser.parse_args()
    with MockChatServer(latency=args.latency) as running:
        print(running.base_url, flush=True)
        sys.stdin.read()  # until the parent closes our stdin or kills us
