"""How a page is served: who is asking, what they may open, the CSRF check, and the page's reply.

Every page is a view (``pages/``) registered in one table (``pages.pages()``) with the rule it is served
under (``Page.access``, ``Page.csrf``); ``endpoint`` turns a row into a Starlette endpoint that applies the
rule before the view runs, so no view checks a session, a topic permission or a token itself and a new page
cannot forget one. Views are plain synchronous methods run in the server's thread pool (each thread has its
own database connection, ``store.Store``; a view that touches nothing but memory, ``View.blocking = False``,
runs on the event loop); they read and write the database through the store only.

The rules, in the order they are applied:

- ``public``: anyone (the login page, the static files);
- ``session``: a logged-in user, even one who must still replace their one-time password (that page, logout);
- ``user``: a logged-in user who has chosen their password (else they are sent to ``/password``);
- ``topic``: as ``user``, and the topic of the URL is assigned to them (an admin opens every topic), else 403;
- ``admin``: as ``user``, and an admin, else 403.

A POST is then checked against the session's CSRF token (``csrf="session"``) or the login form's own token
(``csrf="login"``, kept in a cookie scoped to ``/login``), else 403; ``csrf=None`` only for a view that
changes nothing.
"""
from __future__ import annotations

import hmac
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote, unquote

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, QueryParams
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from ..organizer.assessment import PROMPTS
from .items import TopicItems, topic_items
from .searching import DocumentSearch
from .security import LoginThrottle, session_user
from .stages import ASSESSMENT_STAGES, AUTHORING, STAGES
from .store import Store

__all__ = ["Access", "CsrfRule", "Viewer", "Workbench", "Visit", "View", "endpoint", "SESSION_COOKIE", "LOGIN_COOKIE",
           "FLASH_COOKIE"]

HERE = Path(__file__).resolve().parent
SESSION_COOKIE = "wb_session"
LOGIN_COOKIE = "wb_login"
FLASH_COOKIE = "wb_flash"
CSRF_REFUSED = "Missing or wrong CSRF token: the request was refused."

Access = Literal["public", "session", "user", "topic", "admin"]
CsrfRule = Literal["session", "login"] | None


class Viewer:
    """Who is asking: name, admin, and the session's CSRF token."""

    def __init__(self, name: str, admin: bool, must_change: bool, csrf: str, token: str):
        self.name, self.admin, self.must_change, self.csrf, self.token = name, admin, must_change, csrf, token


class Workbench:
    """What every page shares: the store, the templates, the search, the login throttle and the items cache."""

    def __init__(self, store: Store, searcher: DocumentSearch):
        self.store = store
        self.searcher = searcher
        self.throttle = LoginThrottle()
        self.templates = Environment(loader=FileSystemLoader(str(HERE / "templates")),
                                     autoescape=select_autoescape(default=True), trim_blocks=True, lstrip_blocks=True)
        # the stage list reaches every template from here: no template names a stage by hand
        self.templates.globals.update(prompts=PROMPTS, stages=STAGES, authoring=AUTHORING,
                                      assessment_stages=ASSESSMENT_STAGES)
        self._items: OrderedDict[tuple[str, str], tuple[tuple[Any, ...], TopicItems]] = OrderedDict()
        self._items_lock = threading.Lock()

    def items(self, topic: str, user: str) -> TopicItems:
        """``topic_items``, reused while nothing it depends on changed (the POST after the page's GET)."""
        version = self.store.items_version(topic, user)
        with self._items_lock:
            hit = self._items.get((topic, user))
            if hit is not None and hit[0] == version:
                self._items.move_to_end((topic, user))
                return hit[1]
        items = topic_items(self.store, topic, user)
        with self._items_lock:
            self._items[(topic, user)] = (version, items)
            while len(self._items) > 256:
                self._items.popitem(last=False)
        return items


@dataclass
class Visit:
    """One request as a view sees it: the request, who asks, the topic of the URL, the posted form."""

    workbench: Workbench
    request: Request
    viewer: Viewer | None = None
    topic: str = ""
    form: FormData | None = None

    @property
    def store(self) -> Store:
        return self.workbench.store

    @property
    def query(self) -> QueryParams:
        return self.request.query_params

    def field(self, name: str) -> str:
        """A posted text field ('' when absent or a file)."""
        value = self.form.get(name) if self.form is not None else None
        return value if isinstance(value, str) else ""

    def fields(self) -> dict[str, str]:
        """Every posted text field (the last value of a repeated one)."""
        return {k: str(v) for k, v in self.form.items() if isinstance(v, str)} if self.form is not None else {}

    def values(self, name: str) -> list[str]:
        """Every value posted under ``name`` (checkboxes, the items of a group)."""
        return [str(v) for v in self.form.getlist(name)] if self.form is not None else []

    def render(self, template: str, status: int = 200, **context: Any) -> Response:
        flash = self.request.cookies.get(FLASH_COOKIE)
        html = self.workbench.templates.get_template(template).render(
            viewer=self.viewer, flash=unquote(flash) if flash else None, **context)
        response = HTMLResponse(html, status_code=status)
        if flash:
            response.delete_cookie(FLASH_COOKIE, path="/")
        return response

    def redirect(self, url: str, flash: str | None = None) -> Response:
        response = RedirectResponse(url, status_code=303)
        if flash:
            response.set_cookie(FLASH_COOKIE, quote(flash[:300]), httponly=True, samesite="strict", path="/")
        return response

    def refuse(self, status: int, message: str) -> Response:
        return self.render("error.html", status=status, message=message)


class View:
    """A page: ``get`` and, for a page that changes something, ``post``; each returns the response."""

    what = "This page"
    """What the page is called where a refusal names it ("Adjudication is for admins.")."""
    blocking = True
    """Whether the view reads the database (or otherwise blocks): it then runs in the thread pool; a view that
    only returns bytes in memory (the static files) runs on the event loop, never queued behind the database."""

    def get(self, visit: Visit) -> Response:
        return visit.refuse(405, "Not possible here.")

    def post(self, visit: Visit) -> Response:
        return visit.refuse(405, "Not possible here.")


def _viewer(store: Store, request: Request) -> Viewer | None:
    token = request.cookies.get(SESSION_COOKIE)
    found = session_user(store, token)
    return Viewer(*found, token=token or "") if found is not None else None


def _admit(visit: Visit, view: View, access: Access) -> Response | None:
    """``None`` when the visit may see the page under ``access``, else the response that refuses it."""
    if access == "public":
        return None
    visit.viewer = viewer = _viewer(visit.store, visit.request)
    if viewer is None:
        return visit.redirect("/login")
    if access == "session":
        return None
    if viewer.must_change:
        return visit.redirect("/password")
    if access == "topic":
        visit.topic = visit.request.path_params["topic"]
        if not visit.store.may_open(viewer.name, viewer.admin, visit.topic):
            return visit.refuse(403, f"Topic {visit.topic} is not assigned to you.")
    if access == "admin" and not viewer.admin:
        return visit.refuse(403, f"{view.what} is for admins.")
    return None


def _csrf_ok(visit: Visit, rule: CsrfRule) -> bool:
    if rule is None:
        return True
    sent = visit.field("csrf")
    if rule == "login":
        expected = visit.request.cookies.get(LOGIN_COOKIE) or ""
    else:
        expected = visit.viewer.csrf if visit.viewer is not None else ""
    return bool(sent) and bool(expected) and hmac.compare_digest(sent.encode(), expected.encode())


def _serve(visit: Visit, view: View, access: Access, csrf: CsrfRule) -> Response:
    stop = _admit(visit, view, access)
    if stop is not None:
        return stop
    if visit.request.method != "POST":
        return view.get(visit)
    if not _csrf_ok(visit, csrf):
        if csrf == "login":
            return visit.refuse(403, "The login form expired or did not come from this site; reload it.")
        return visit.refuse(403, CSRF_REFUSED)
    return view.post(visit)


def endpoint(workbench: Workbench, view: View, access: Access, csrf: CsrfRule) -> Callable[[Request], Any]:
    """The Starlette endpoint of one page: read the form, then admit, check and run the view in the thread pool."""

    async def handle(request: Request) -> Response:
        form = await request.form() if request.method == "POST" else None
        visit = Visit(workbench, request, form=form)
        if not view.blocking and access == "public":
            return _serve(visit, view, access, csrf)
        return await run_in_threadpool(_serve, visit, view, access, csrf)

    return handle
