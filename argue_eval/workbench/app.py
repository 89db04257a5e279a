"""The workbench's web app: the page table (``pages``) assembled into a Starlette app, behind the security
headers.

Every page is rendered on the server with autoescaping (run, document and nugget text is untrusted and
only ever appears as text); the only script is ``/static/wb.js`` and the only style sheet
``/static/wb.css``, served by the app itself under a Content-Security-Policy that allows nothing else (no
inline script or style, no other origin). Sessions live in an HttpOnly, SameSite=Strict cookie; every
state-changing request carries the session's CSRF token; an assessor opens only the topics assigned to
them (an admin every topic); failed logins are throttled (``web`` applies these rules to every row of the
table); the request log names method, path, status and time, never a query string, cookie, token or password.

Pages (``pages.pages()``): ``/login``, ``/password`` (the one-time password is replaced at first login), ``/``
(topics and progress), ``/t/TOPIC/STAGE`` for each stage of ``stages.STAGES`` (``nuggets``: authoring;
``citations`` and ``sentences``: the two assessment stages), ``/adjudicate`` (admin).
"""
from __future__ import annotations

import logging
import time
from typing import Any

from starlette.applications import Starlette
from starlette.routing import Route

from .pages import pages
from .searching import DocumentSearch
from .store import Store
from .web import Workbench, endpoint

__all__ = ["create_app", "CSP"]

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
log = logging.getLogger("argue_eval.workbench")


def create_app(store: Store, collection: str | None = None, search_mode: str = "auto") -> _Headers:
    """The ASGI app over ``store`` (``collection``: what the authoring page searches): one route per row of the
    page table."""
    workbench = Workbench(store, DocumentSearch(store, collection, search_mode))
    app = Starlette(routes=[Route(page.path, endpoint(workbench, page.view, page.access, page.csrf),
                                  methods=list(page.methods)) for page in pages()])
    app.state.searcher = workbench.searcher
    return _Headers(app)


class _Headers:
    """ASGI wrapper: the security headers on every response, and a request log line with method, path (never
    the query string: a search), status and time -- no cookie, token or form field."""

    def __init__(self, app: Starlette):
        self.app = app
        self.state = app.state

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        path = scope.get("path", "")
        status = [0]

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
