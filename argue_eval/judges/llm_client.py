"""An async client for OpenAI-compatible chat endpoints that survives a long judging run.

Why not the ``openai`` package's own retry loop: a TREC round is tens of thousands of calls against one
shared deployment, so the judge must bound its concurrency, keep to a requests-per-minute and a
tokens-per-minute budget, honour ``Retry-After`` on 429, back off with jitter on timeouts, dropped
connections and 5xx, and *count* every call, retry, token and failure for the run manifest. This module
does that with one plain POST per call on ``aiohttp``. Measured while building it (640 calls, 64 at a
time, against a 200 ms endpoint on a busy machine): ``httpx``, which the ``openai`` client uses, reached
about a thirtieth of the ideal rate, its connection pool being the limit; a plain asyncio client reached
half of it on the same machine, and aiohttp comes close (bench/bench_llm.py).

The API key is held in a private attribute and sent only in the ``Authorization`` header: it is never
part of a repr, an error message, a usage record or anything the judge writes.
"""
from __future__ import annotations

import asyncio
import json
import random
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from ..redact import redact_text, redact_url

__all__ = ["ChatClient", "ChatPool", "ChatResult", "CallFailed", "AuthenticationFailed", "StopRun", "Usage",
           "RateLimiter", "TRANSIENT_STATUS", "read_completion", "probe_endpoints"]

TRANSIENT_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
"""HTTP statuses worth retrying: rate limits and server-side trouble. Others (400, 401, 404) fail at once."""


class CallFailed(Exception):
    """A call that failed for good (retries exhausted or a permanent HTTP error); ``reason`` is safe to print."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


class StopRun(CallFailed):
    """A failure every later call would share (refused credentials, no endpoint serving the model): the run
    stops at once, saying why, rather than failing every question the same way."""


class AuthenticationFailed(StopRun):
    """The server refused the credentials (HTTP 401 or 403): every later call would fail the same way."""


AUTH_STATUS = frozenset({401, 403})


@dataclass
class ChatResult:
    """One successful chat completion: the text, the server's model id, the tokens it reported."""

    content: str | None
    model: str | None
    prompt_tokens: int
    completion_tokens: int
    endpoint: int | None = None
    """Which endpoint of a ``ChatPool`` answered (its position), for a reply found unusable after it came."""


@dataclass
class Usage:
    """Token and call accounting for the run manifest (``as_dict`` adds the cost when prices are known)."""

    calls: int = 0
    """HTTP requests sent, retries and re-asks included."""
    retries: int = 0
    """Requests sent again after a transient fault (timeout, dropped connection, 429, 5xx, bad body)."""
    reasks: int = 0
    """Second requests after a reply that did not fit the schema."""
    failed_calls: int = 0
    """Prompts given up on (retries exhausted, permanent error, or two unusable replies)."""
    failed_items: int = 0
    """Questions left unanswered by those prompts (reported, retried on the next run, never "no")."""
    answered_items: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    wall_seconds: float = 0.0
    faults: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    """Transient faults by type (``timeout``, ``connection``, ``http_429``, ``http_500``, ``bad_body``)."""
    by_kind: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per prompt type: ``calls``, ``prompt_tokens``, ``completion_tokens``."""

    def add_tokens(self, kind: str, prompt: int, completion: int) -> None:
        self.prompt_tokens += prompt
        self.completion_tokens += completion
        entry = self.by_kind.setdefault(kind, {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0})
        entry["calls"] += 1
        entry["prompt_tokens"] += prompt
        entry["completion_tokens"] += completion

    def cost(self, price_in: float | None, price_out: float | None) -> float | None:
        """Dollars (or whatever unit the prices are in) at ``price_in``/``price_out`` per million tokens."""
        if price_in is None and price_out is None:
            return None
        return (self.prompt_tokens * (price_in or 0.0) + self.completion_tokens * (price_out or 0.0)) / 1e6

    def as_dict(self, price_in: float | None = None, price_out: float | None = None) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "retries": self.retries,
            "reasks": self.reasks,
            "failed_calls": self.failed_calls,
            "failed_items": self.failed_items,
            "answered_items": self.answered_items,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "wall_seconds": round(self.wall_seconds, 3),
            "faults": dict(sorted(self.faults.items())),
            "by_kind": {kind: dict(v) for kind, v in sorted(self.by_kind.items())},
            "price_in": price_in,
            "price_out": price_out,
            "cost": self.cost(price_in, price_out),
        }


class RateLimiter:
    """A token bucket refilled continuously: at most ``per_minute`` units in any minute, bursts included.

    One instance limits requests (``acquire(1)``), another tokens (``acquire(estimated tokens)``); a
    request larger than the whole budget waits for a full bucket and then goes alone.
    """

    def __init__(self, per_minute: float, clock=time.monotonic):
        if per_minute <= 0:
            raise ValueError("per_minute must be positive")
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self._clock = clock
        self._level = self.capacity
        self._stamp = clock()
        self._lock = asyncio.Lock()

    def _refill(self) -> None:
        now = self._clock()
        self._level = min(self.capacity, self._level + (now - self._stamp) * self.rate)
        self._stamp = now

    async def acquire(self, amount: float = 1.0) -> None:
        amount = min(float(amount), self.capacity)
        async with self._lock:  # first come, first served: a big request is not starved by small ones
            while True:
                self._refill()
                if self._level >= amount:
                    self._level -= amount
                    return
                await asyncio.sleep((amount - self._level) / self.rate)


def _retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds; an HTTP date is rare from these servers)."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        from email.utils import parsedate_to_datetime

        try:
            return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
        except (TypeError, ValueError):
            return None


class ChatClient:
    """POSTs chat completions with bounded concurrency, rate limits, timeouts and retries; counts everything.

    Create it inside the event loop that uses it (an ``aiohttp`` session binds to one loop) and ``aclose`` it.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        *,
        concurrency: int = 8,
        timeout: float = 60.0,
        max_retries: int = 6,
        backoff_base: float = 0.5,
        backoff_max: float = 60.0,
        requests_per_minute: float | None = None,
        tokens_per_minute: float | None = None,
        usage: Usage | None = None,
        jitter_seed: int = 0,
        key_name: str | None = None,
    ):
        self._base = base_url.rstrip("/")
        self._url = self._base + "/chat/completions"
        # what a refusal says: whether a key was sent, and where it is read from (the variable's name, never the key)
        where = f" in ${key_name}" if key_name else ""
        self._auth_hint = (f"check the API key{where} (--llm-api-key-env names the variable that holds it) and the "
                           "endpoint" if api_key else
                           f"no API key was sent (set one{where}, or name its variable with --llm-api-key-env)")
        self._secrets = (api_key,)  # what an error text must never repeat
        self._headers = {"Content-Type": "application/json"}
        if api_key:
            self._headers["Authorization"] = f"Bearer {api_key}"
        self._concurrency = concurrency
        self._timeout = timeout
        self._session: Any = None
        self._semaphore = asyncio.Semaphore(concurrency)
        self.max_retries = max_retries
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self._rpm = RateLimiter(requests_per_minute) if requests_per_minute else None
        self._tpm = RateLimiter(tokens_per_minute) if tokens_per_minute else None
        self.usage = usage if usage is not None else Usage()
        self._random = random.Random(jitter_seed)
        self.pending = 0
        """Calls handed to this endpoint and not finished (waiting for a rate limit or a slot, or in flight)."""

    def _open(self) -> Any:
        if self._session is None:
            import aiohttp

            self._session = aiohttp.ClientSession(
                headers=self._headers,
                timeout=aiohttp.ClientTimeout(total=self._timeout),
                connector=aiohttp.TCPConnector(limit=self._concurrency),
            )
        return self._session

    def __repr__(self) -> str:  # never the headers, which hold the key, nor the URL's credentials
        return f"ChatClient({redact_url(self._url)!r})"

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        """Exponential backoff with full jitter; a server's ``Retry-After`` is a floor, not a suggestion."""
        delay = min(self.backoff_max, self.backoff_base * (2 ** attempt))
        delay = delay * (0.5 + self._random.random() / 2)
        if retry_after is not None:
            delay = max(delay, min(retry_after, self.backoff_max * 10))
        return delay

    async def chat(self, body: dict[str, Any], kind: str, estimated_tokens: int, avoid: int | None = None) -> ChatResult:
        """One chat completion, retried on transient faults; raises ``CallFailed`` when it cannot be had (``avoid``:
        an endpoint to keep away from, meaningful for a pool only)."""
        last = "no attempt"
        for attempt in range(self.max_retries + 1):
            if attempt:
                self.usage.retries += 1
            outcome = await self.attempt(body, kind, estimated_tokens)
            if isinstance(outcome, ChatResult):
                return outcome
            fault, last, retry_after = outcome
            self.usage.faults[fault] += 1
            if attempt < self.max_retries:
                await asyncio.sleep(self._backoff(attempt, retry_after))
        attempts = self.max_retries + 1
        raise CallFailed(f"{last} after {attempts} attempt{'s' if attempts != 1 else ''}")

    async def attempt(self, body: dict[str, Any], kind: str, estimated_tokens: int
                      ) -> ChatResult | tuple[str, str, float | None]:
        """One request within this endpoint's limits: the result, or a transient fault as (fault type, what
        happened, the server's ``Retry-After``); a permanent error raises ``CallFailed``."""
        self.pending += 1
        try:
            return await self._attempt(body, kind, estimated_tokens)
        finally:
            self.pending -= 1

    async def _attempt(self, body: dict[str, Any], kind: str, estimated_tokens: int
                       ) -> ChatResult | tuple[str, str, float | None]:
        if self._rpm is not None:
            await self._rpm.acquire(1)
        if self._tpm is not None:
            await self._tpm.acquire(estimated_tokens)
        retry_after = None
        async with self._semaphore:
            self.usage.calls += 1
            try:
                async with self._open().post(self._url, data=json.dumps(body).encode()) as response:
                    status = response.status
                    raw = await response.read()
                    if status == 200:
                        result = read_completion(json.loads(raw), estimated_tokens)
                        self.usage.add_tokens(kind, result.prompt_tokens, result.completion_tokens)
                        return result
                    if status in AUTH_STATUS:
                        raise AuthenticationFailed(
                            f"authentication failed: the server answered HTTP {status} "
                            f"({_error_text(raw, self._secrets)}); {self._auth_hint}")
                    if status not in TRANSIENT_STATUS and status < 500:
                        raise CallFailed(f"HTTP {status} from the server: {_error_text(raw, self._secrets)}")
                    fault = f"http_{status}"
                    last = f"HTTP {status}"
                    retry_after = _retry_after(response.headers.get("Retry-After"))
            except asyncio.TimeoutError:
                fault, last = "timeout", "timed out"
            except aiohttp_errors() as exc:
                fault, last = "connection", _connection_fault(exc)
            except (ValueError, KeyError, TypeError, IndexError):
                fault, last = "bad_body", "unreadable response body"
        return fault, last, retry_after

    async def models(self) -> list[str]:
        """The model ids the endpoint serves (``GET /models``); ``CallFailed`` when it cannot say."""
        try:
            async with self._open().get(self._base + "/models") as response:
                raw = await response.read()
                if response.status in AUTH_STATUS:
                    raise AuthenticationFailed(f"authentication failed: the server answered HTTP {response.status} "
                                               f"for /models ({_error_text(raw, self._secrets)}); {self._auth_hint}")
                if response.status != 200:
                    raise CallFailed(f"HTTP {response.status} for /models: {_error_text(raw, self._secrets)}")
                listing = json.loads(raw)
                return [str(entry["id"]) for entry in listing["data"]]
        except asyncio.TimeoutError:
            raise CallFailed("timed out asking for /models") from None
        except aiohttp_errors() as exc:
            raise CallFailed(_connection_fault(exc)) from None
        except (ValueError, KeyError, TypeError):
            raise CallFailed("unreadable /models listing") from None

    @property
    def free(self) -> int:
        """Calls this endpoint could start now without waiting (its concurrency less the calls it holds)."""
        return self._concurrency - self.pending

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None


class ChatPool:
    """Several endpoints serving one model (replicas): each call goes to an endpoint with free capacity.

    Each endpoint is a ``ChatClient`` with its own concurrency bound and rate limits. A call goes to the
    endpoint with the most free slots among those not set aside (the first given, on a tie), and waits for a
    slot when all are busy. A transient fault (or an unusable reply) is retried (with the backoff of
    ``ChatClient.chat``) on another endpoint, waiting for one of its slots when there is another not set aside; an endpoint whose last ``fail_limit`` attempts all failed is *set aside* for
    ``cooldown`` seconds (doubling each time again, up to ``cooldown_max``), then tried again, and one
    answer brings it back for good. When every endpoint is set aside, calls wait for the first to come back.
    ``check_models`` says, before any call, whether every endpoint serves the model: answers must not
    depend on which replica gave them. The same ``chat`` as ``ChatClient``, so callers take either.
    """

    def __init__(self, base_urls: list[str] | tuple[str, ...], api_key: str | None, *, usage: Usage | None = None,
                 fail_limit: int = 3, cooldown: float = 5.0, cooldown_max: float = 120.0,
                 clock=time.monotonic, **client_options: Any):
        if not base_urls:
            raise ValueError("a pool needs at least one endpoint")
        self.usage = usage if usage is not None else Usage()
        self.clients = [ChatClient(url, api_key, usage=self.usage, **client_options) for url in base_urls]
        self.urls = list(base_urls)
        self.max_retries = self.clients[0].max_retries
        self.fail_limit = fail_limit
        self.cooldown = cooldown
        self.cooldown_max = cooldown_max
        self._clock = clock
        self._failures = [0] * len(self.clients)
        self._bad = [0] * len(self.clients)  # unusable replies in a row, which a plain HTTP success does not undo
        self._away_until = [0.0] * len(self.clients)
        self._away_for = [cooldown] * len(self.clients)
        self.set_aside = [0] * len(self.clients)
        """How often each endpoint was set aside (for the usage record)."""
        self.refused: dict[int, str] = {}
        """Endpoints taken out of the run for good (they answer as another model), with why."""
        self.answered = [0] * len(self.clients)
        """Calls each endpoint answered."""
        self._changed = asyncio.Condition()

    def __repr__(self) -> str:
        return f"ChatPool({self.urls!r})"

    async def check_models(self, model: str) -> dict[str, str]:
        """Every endpoint's answer to ``GET /models``: ``{}`` when all serve ``model``, else the problem per
        endpoint URL (serves other models, or could not be asked)."""
        problems: dict[str, str] = {}
        listings = await asyncio.gather(*(client.models() for client in self.clients), return_exceptions=True)
        for url, listing in zip(self.urls, listings):
            if isinstance(listing, CallFailed):
                problems[url] = f"could not list its models: {listing.reason}"
            elif isinstance(listing, BaseException):
                raise listing
            elif model not in listing:
                problems[url] = f"serves {', '.join(listing) or 'no model'}, not {model}"
        return problems

    def _pick(self, avoid: int | None) -> int | None:
        """The endpoint to send to now: free, not set aside, preferably not ``avoid``; ``None`` if none is."""
        now = self._clock()
        usable = [i for i in range(len(self.clients)) if self._away_until[i] <= now and i not in self.refused]
        if avoid is not None and len(usable) > 1:  # a retry waits for another endpoint rather than the one that failed
            usable = [i for i in usable if i != avoid]
        ready = [i for i in usable if self.clients[i].free > 0]
        if not ready:
            return None
        return max(ready, key=lambda i: (self.clients[i].free, -i))

    async def _endpoint(self, avoid: int | None) -> int:
        async with self._changed:
            while True:
                chosen = self._pick(avoid)
                if chosen is not None:
                    self.clients[chosen].pending += 1  # held until attempt() takes over the count
                    return chosen
                if len(self.refused) == len(self.clients):
                    raise StopRun("; ".join(self.refused[i] for i in sorted(self.refused)))
                now = self._clock()
                back = min((t for i, t in enumerate(self._away_until) if t > now and i not in self.refused), default=None)
                try:
                    await asyncio.wait_for(self._changed.wait(), None if back is None else max(0.0, back - now) + 0.01)
                except asyncio.TimeoutError:
                    pass

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    def _failed(self, index: int) -> None:
        self._failures[index] += 1
        if self._failures[index] >= self.fail_limit and len(self.clients) > 1:
            self._away_until[index] = self._clock() + self._away_for[index]
            self._away_for[index] = min(self.cooldown_max, self._away_for[index] * 2)
            self._failures[index] = 0
            self.set_aside[index] += 1

    def reply_unusable(self, index: int | None) -> None:
        """A reply from endpoint ``index`` that did not fit its schema: a failure of that endpoint like an error
        (enough in a row set it aside), so a replica answering nonsense stops getting the calls a healthy one
        could answer."""
        if index is not None:
            self.usage.faults["bad_reply"] += 1
            self._bad[index] += 1
            self._failures[index] = max(self._failures[index], self._bad[index] - 1)
            set_aside = self.set_aside[index]
            self._failed(index)
            if self.set_aside[index] != set_aside:
                self._bad[index] = 0

    def reply_usable(self, index: int | None) -> None:
        """A reply from endpoint ``index`` that fit its schema: its run of unusable replies is over."""
        if index is not None:
            self._bad[index] = 0

    async def refuse(self, index: int | None, reason: str) -> None:
        """Take endpoint ``index`` out of the run for good (it answers as another model than the one asked for);
        when none is left, the next call raises ``StopRun`` with every endpoint's reason."""
        if index is None:
            index = 0
        self.refused.setdefault(index, reason)
        await self._notify()
        if len(self.refused) == len(self.clients):
            raise StopRun("; ".join(self.refused[i] for i in sorted(self.refused)))

    def _answered(self, index: int) -> None:
        self._failures[index] = 0
        self._away_for[index] = self.cooldown
        self.answered[index] += 1

    async def chat(self, body: dict[str, Any], kind: str, estimated_tokens: int, avoid: int | None = None) -> ChatResult:
        """One chat completion from whichever endpoint is free, retried on transient faults (on another
        endpoint when one is free; ``avoid``: an endpoint whose last reply was unusable); ``CallFailed`` when it
        cannot be had. The result names the endpoint that answered."""
        last = "no attempt"
        for attempt in range(self.max_retries + 1):
            if attempt:
                self.usage.retries += 1
            index = await self._endpoint(avoid)
            client = self.clients[index]
            client.pending -= 1  # attempt() counts it again
            try:
                outcome = await client.attempt(body, kind, estimated_tokens)
            finally:
                await self._notify()
            if isinstance(outcome, ChatResult):
                self._answered(index)
                outcome.endpoint = index
                return outcome
            fault, last, retry_after = outcome
            self.usage.faults[fault] += 1
            self._failed(index)
            avoid = index
            if len(self.clients) > 1:
                last = f"{last} (at {_host(self.urls[index])})"
            if attempt < self.max_retries:
                await asyncio.sleep(client._backoff(attempt, retry_after))
        attempts = self.max_retries + 1
        raise CallFailed(f"{last} after {attempts} attempt{'s' if attempts != 1 else ''}")

    def endpoint_usage(self) -> list[dict[str, Any]]:
        """Per endpoint, in the order given: calls answered and times set aside (no URL: it may hold a secret)."""
        return [{"endpoint": i + 1, "answered": self.answered[i], "set_aside": self.set_aside[i]}
                for i in range(len(self.clients))]

    async def aclose(self) -> None:
        for client in self.clients:
            await client.aclose()


def _host(url: str) -> str:
    """``host:port`` of an endpoint URL, for messages (never a user name or password it may hold)."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    host = parts.hostname or url
    return f"{host}:{parts.port}" if parts.port else host


def aiohttp_errors() -> tuple[type[BaseException], ...]:
    """Transport faults worth a retry: refused or dropped connections, a reply cut off mid-body."""
    import aiohttp

    return (aiohttp.ClientConnectionError, aiohttp.ClientPayloadError, aiohttp.ClientResponseError, OSError)


def _connection_fault(error: BaseException) -> str:
    """What went wrong with the connection, for people: a refused connection names the address (the server is
    not running there, or --llm-base-url is wrong); anything else names the error's type."""
    cause = getattr(error, "os_error", None)
    host, port = getattr(error, "host", None), getattr(error, "port", None)
    if isinstance(cause, ConnectionRefusedError) and host is not None:
        return f"connection refused by {host}:{port} (is the server running at that address?)"
    return f"connection failed ({type(error).__name__})"


def read_completion(payload: Any, estimated_tokens: int) -> ChatResult:
    """The reply text, model id and token counts of a chat completion body (``KeyError`` etc. if malformed)."""
    choice = payload["choices"][0]
    content = choice["message"].get("content")
    usage = payload.get("usage") or {}
    prompt = usage.get("prompt_tokens")
    completion = usage.get("completion_tokens")
    return ChatResult(
        content=content if isinstance(content, str) else None,
        model=payload.get("model") if isinstance(payload.get("model"), str) else None,
        prompt_tokens=int(prompt) if isinstance(prompt, int) else estimated_tokens,
        completion_tokens=int(completion) if isinstance(completion, int) else 0,
    )


ERROR_EXCERPT = 120
"""Characters of a server's error message kept in a failure's reason (which the manifest records)."""


def _error_text(raw: bytes, secrets: tuple[str | None, ...] = ()) -> str:
    """A short, printable, redacted excerpt of a server's error message: a server may quote the key it refused
    ("Incorrect API key provided: sk-...") or the URL, and the reason is printed and written to the manifest."""
    try:
        detail: Any = json.loads(raw)
        if isinstance(detail, dict) and isinstance(detail.get("error"), dict):
            detail = detail["error"].get("message", detail)
        text = detail if isinstance(detail, str) else json.dumps(detail)
    except ValueError:
        text = raw.decode("utf-8", "replace")
    text = redact_text(" ".join(str(text).split()), secrets)
    text = "".join(char if char.isprintable() else "?" for char in text)
    return text if len(text) <= ERROR_EXCERPT else text[:ERROR_EXCERPT - 3] + "..."


PROBE_SECONDS = 2.0
"""How long the check before any work waits for an endpoint to accept a connection."""


def probe_endpoints(urls: list[str] | tuple[str, ...], timeout: float = PROBE_SECONDS) -> dict[int, str]:
    """Whether something listens at each endpoint: a TCP connection to its host and port, no request sent (the
    check before any work, so that a server that is not running fails a command in seconds, not after every call's
    retries). Returns, per endpoint position, what went wrong (refused, no answer within ``timeout``, a host name
    that does not resolve, a URL without a host); ``{}`` when every one accepts. The standard library only: no
    extra is needed to tell that no server runs."""
    import socket
    from urllib.parse import urlsplit

    problems: dict[int, str] = {}
    for index, url in enumerate(urls):
        try:
            parts = urlsplit(url)
            host, port = parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)
        except ValueError:
            problems[index] = "is not a URL (expected http://HOST:PORT/v1)"
            continue
        if parts.scheme not in ("http", "https") or not host:
            problems[index] = "is not an http(s) URL with a host (expected http://HOST:PORT/v1)"
            continue
        try:
            with socket.create_connection((host, port), timeout=timeout):
                pass
        except ConnectionRefusedError:
            problems[index] = f"connection refused by {host}:{port}: no server listens there"
        except socket.gaierror:
            problems[index] = f"the host name {host!r} does not resolve"
        except TimeoutError:
            problems[index] = f"{host}:{port} did not accept a connection within {timeout:g} s"
        except OSError as error:
            problems[index] = f"cannot connect to {host}:{port} ({error.strerror or type(error).__name__})"
    return problems
