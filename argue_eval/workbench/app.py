"""The workbench's web app: the page table (``pages``) assembled into a Starlette app, behind the security
headers.

Every page is rendered on the server with autoescaping (run, document and nugget text is untrusted and
only ever appears as text); the only script is ``/static/wb.js`` and the only style sheet
``/static/wb.css``, served by the app itself under a Content-Security-Policy that allows nothing else (no
inline script or style, no other origin). Sessions live in an HttpOnly, SameSite=Strict cookie; every
state-changing request carries the session's CSRF token; an assessor opens only the topics assigned to
them (an admin every topic); failed logins are throttled (``web`` applies these rules to every row of the
table); the request log names method, path, status and time, never a query string, cookie, token or password.
A request whose Host header is not the served address (a loopback name, or a name given) is refused before
any page runs, so a DNS-rebinding page cannot reach even the login form.

Pages (``pages.pages()``): ``/login``, ``/password`` (the one-time password is replaced at first login), ``/``
(topics and progress), ``/t/TOPIC/STAGE`` for each stage of ``stages.STAGES`` (``nuggets``: authoring;
``citations`` and ``sentences``: the two assessment stages; ``citations?doc=D``: by document),
``/t/TOPIC/report`` (a report with its answers so far), ``/adjudicate`` (admin).
"""
from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from typing import Any

from starlette.applications import Starlette
from starlette.routing import Route

from .pages import pages
from .searching import DocumentSearch
from .store import Store
from .web import Workbench, endpoint

__all__ = ["create_app", "CSP", "LOOPBACK_NAMES", "host_name"]

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
"""The Host names a loopback server answers to (any other is refused: a DNS-rebinding page names its own)."""

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
log = logging.getLogger("argue_eval.workbench")


def create_app(store: Store, collection: str | None = None, search_mode: str = "auto",
               hosts: Iterable[str] = ()) -> _Headers:
    """The ASGI app over ``store`` (``collection``: what the authoring page searches): one route per row of the
    page table. It answers requests whose Host is a loopback name or one of ``hosts`` (the served address, a
    TLS proxy's name), and refuses others with 400."""
    workbench = Workbench(store, DocumentSearch(store, collection, search_mode))
    app = Starlette(routes=[Route(page.path, endpoint(workbench, page.view, page.access, page.csrf),
                                  methods=list(page.methods)) for page in pages()])
    app.state.searcher = workbench.searcher
    return _Headers(app, LOOPBACK_NAMES | {host_name(h) for h in hosts})


def host_name(host: str) -> str:
    """The name of a Host header or address without its port and brackets, lower case (``[::1]:8080`` -> ``::1``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _logged(path: str) -> str:
    """The path as the log shows it: a one-time login link's token is a credential, so it is left out."""
    return "/welcome/…" if path.startswith("/welcome/") else path


async def _refuse_host(send: Any) -> None:
    body = b"Host not served here: open the workbench at the address it was started on.\n"
    await send({"type": "http.response.start", "status": 400, "headers": [
        (b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode()),
        (b"content-security-policy", CSP.encode()), (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": body})


class _Headers:
    """ASGI wrapper: the security headers on every response, and a request log line with method, path (never
    the query string: a search), status and time -- no cookie, token or form field."""

    def __init__(self, app: Starlette, hosts: frozenset[str] = LOOPBACK_NAMES):
        self.app = app
        self.state = app.state
        self.hosts = hosts

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        path = _logged(scope.get("path", ""))
        status = [0]
        host = next((value.decode("latin-1") for name, value in scope.get("headers", []) if name == b"host"), "")
        if host_name(host) not in self.hosts:
            await _refuse_host(send)
            log.info("%s %s 400 (Host not served here)", scope.get("method", ""), path)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
                headers = list(message.get("headers", []))
                extra = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
                         (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY")]
                if not path.startswith("/static/"):
                    extra.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers + extra}
            await send(message)

        await self.app(scope, receive, send_with_headers)
        log.info("%s %s %d %.0f ms", scope.get("method", ""), path, status[0], (time.perf_counter() - started) * 1000)
