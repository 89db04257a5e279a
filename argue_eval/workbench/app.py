"""The workbench's web pages: a Starlette app, server-rendered Jinja2 templates, one small script of ours.

Every page is rendered on the server with autoescaping (run, document and nugget text is untrusted and
only ever appears as text); the only script is ``/static/wb.js`` and the only style sheet
``/static/wb.css``, served by the app itself under a Content-Security-Policy that allows nothing else (no
inline script or style, no other origin). Sessions live in an HttpOnly, SameSite=Strict cookie; every
state-changing request carries the session's CSRF token; an assessor opens only the topics assigned to
them (an admin every topic); failed logins are throttled; the request log names method, path, status and
user, never a query string, cookie, token or password.

Pages: ``/login``, ``/password`` (the one-time password is replaced at first login), ``/`` (topics and
progress), ``/t/TOPIC/nuggets`` (authoring), ``/t/TOPIC/citations`` and ``/t/TOPIC/sentences`` (the two
assessment stages), ``/adjudicate`` (admin).
"""
from __future__ import annotations

import hmac
import logging
import secrets
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from ..organizer.assessment import PROMPTS
from .actions import Answer, BankError, Conflict, bank_action, display_text, record_answers
from .exporting import adjudication_queue, key_of
from .items import Group, Item, TopicItems, find_group, topic_items
from .searching import DocumentSearch
from .security import (
    MIN_PASSWORD,
    SESSION_SECONDS,
    LoginThrottle,
    check_password,
    end_session,
    new_session,
    session_user,
    set_password,
)
from .store import STAGES, Store

__all__ = ["create_app", "CSP"]

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
SESSION_COOKIE = "wb_session"
LOGIN_COOKIE = "wb_login"
FLASH_COOKIE = "wb_flash"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
STAGE_TITLES = {"nuggets": "Nugget authoring", "citations": "Citation assessment", "sentences": "Sentence assessment"}
log = logging.getLogger("argue_eval.workbench")


class Viewer:
    """Who is asking: name, admin, and the session's CSRF token."""

    def __init__(self, name: str, admin: bool, must_change: bool, csrf: str, token: str):
        self.name, self.admin, self.must_change, self.csrf, self.token = name, admin, must_change, csrf, token


def create_app(store: Store, collection: str | None = None, search_mode: str = "auto") -> _Headers:
    """The ASGI app over ``store`` (``collection``: what the authoring page searches)."""
    env = Environment(loader=FileSystemLoader(str(HERE / "templates")), autoescape=select_autoescape(default=True),
                      trim_blocks=True, lstrip_blocks=True)
    throttle = LoginThrottle()
    searcher = DocumentSearch(store, collection, search_mode)
    static_files = {name: (STATIC / name).read_bytes() for name in ("wb.js", "wb.css")}  # read once: never half a file
    cache: OrderedDict[tuple[str, str], tuple[tuple[Any, ...], TopicItems]] = OrderedDict()
    cache_lock = threading.Lock()

    def items_of(topic: str, user: str) -> TopicItems:
        """``topic_items``, reused while nothing it depends on changed (the POST after the page's GET)."""
        version = store.items_version(topic, user)
        with cache_lock:
            hit = cache.get((topic, user))
            if hit is not None and hit[0] == version:
                cache.move_to_end((topic, user))
                return hit[1]
        items = topic_items(store, topic, user)
        with cache_lock:
            cache[(topic, user)] = (version, items)
            while len(cache) > 256:
                cache.popitem(last=False)
        return items

    def render(request: Request, template: str, viewer: Viewer | None, status: int = 200, **context: Any) -> Response:
        flash = request.cookies.get(FLASH_COOKIE)
        html = env.get_template(template).render(viewer=viewer, flash=unquote(flash) if flash else None,
                                                 prompts=PROMPTS, stage_titles=STAGE_TITLES, **context)
        response = HTMLResponse(html, status_code=status)
        if flash:
            response.delete_cookie(FLASH_COOKIE, path="/")
        return response

    def redirect(url: str, flash: str | None = None) -> Response:
        response = RedirectResponse(url, status_code=303)
        if flash:
            response.set_cookie(FLASH_COOKIE, quote(flash[:300]), httponly=True, samesite="strict", path="/")
        return response

    def viewer_of(request: Request) -> Viewer | None:
        token = request.cookies.get(SESSION_COOKIE)
        found = session_user(store, token)
        return Viewer(*found, token=token or "") if found is not None else None

    def refuse(request: Request, viewer: Viewer | None, status: int, message: str) -> Response:
        return render(request, "error.html", viewer, status=status, message=message)

    def csrf_ok(viewer: Viewer, form: Any) -> bool:
        sent = form.get("csrf")
        return isinstance(sent, str) and hmac.compare_digest(sent.encode(), viewer.csrf.encode())

    # -- login ---------------------------------------------------------------------------------------
    async def login_page(request: Request) -> Response:
        nonce = secrets.token_urlsafe(24)
        response = render(request, "login.html", None, login_csrf=nonce, error=None)
        response.set_cookie(LOGIN_COOKIE, nonce, httponly=True, samesite="strict", path="/login", max_age=3600)
        return response

    async def login_post(request: Request) -> Response:
        form = await request.form()
        cookie = request.cookies.get(LOGIN_COOKIE) or ""
        sent = form.get("csrf")
        if not cookie or not isinstance(sent, str) or not hmac.compare_digest(sent.encode(), cookie.encode()):
            return refuse(request, None, 403, "The login form expired or did not come from this site; reload it.")
        name = str(form.get("name") or "").strip()
        password = str(form.get("password") or "")
        client = request.client.host if request.client else "?"
        keys = (f"user:{name}", f"ip:{client}")
        wait = throttle.wait_seconds(*keys)
        if wait:
            return refuse(request, None, 429, f"Too many failed logins; try again in {wait} s.")

        def check() -> bool:
            user = store.user(name)
            if user is None:
                check_password(password, b"0" * 16, b"0" * 32)  # the same time for an unknown name
                return False
            return check_password(password, user[3], user[4])

        if not await run_in_threadpool(check):
            throttle.failed(*keys)
            nonce = secrets.token_urlsafe(24)
            response = render(request, "login.html", None, status=401, login_csrf=nonce,
                              error="Wrong name or password.")
            response.set_cookie(LOGIN_COOKIE, nonce, httponly=True, samesite="strict", path="/login", max_age=3600)
            return response
        throttle.succeeded(*keys)
        token = await run_in_threadpool(new_session, store, name)
        response = redirect("/")
        response.set_cookie(SESSION_COOKIE, token, httponly=True, samesite="strict", path="/", max_age=SESSION_SECONDS,
                            secure=request.url.scheme == "https")
        response.delete_cookie(LOGIN_COOKIE, path="/login")
        return response

    async def logout(request: Request) -> Response:
        form = await request.form()
        viewer = viewer_of(request)
        if viewer is None:
            return redirect("/login")
        if not csrf_ok(viewer, form):
            return refuse(request, viewer, 403, "Missing or wrong CSRF token: the request was refused.")
        await run_in_threadpool(end_session, store, viewer.token)
        response = redirect("/login")
        response.delete_cookie(SESSION_COOKIE, path="/")
        return response

    async def password_page(request: Request) -> Response:
        viewer = viewer_of(request)
        if viewer is None:
            return redirect("/login")
        if request.method == "GET":
            return render(request, "password.html", viewer, error=None, minimum=MIN_PASSWORD)
        form = await request.form()
        if not csrf_ok(viewer, form):
            return refuse(request, viewer, 403, "Missing or wrong CSRF token: the request was refused.")
        new, again = str(form.get("password") or ""), str(form.get("again") or "")
        if len(new) < MIN_PASSWORD or new != again:
            error = (f"Choose at least {MIN_PASSWORD} characters." if len(new) < MIN_PASSWORD
                     else "The two passwords differ.")
            return render(request, "password.html", viewer, status=400, error=error, minimum=MIN_PASSWORD)
        await run_in_threadpool(set_password, store, viewer.name, new)
        return redirect("/", "Password saved.")

    # -- pages behind the login ------------------------------------------------------------------------
    def gate(request: Request) -> tuple[Viewer | None, Response | None]:
        viewer = viewer_of(request)
        if viewer is None:
            return None, redirect("/login")
        if viewer.must_change and request.url.path != "/password":
            return viewer, redirect("/password")
        return viewer, None

    def topic_gate(request: Request) -> tuple[Viewer | None, str, Response | None]:
        """``gate`` for a page of one topic: also 403 when the topic of the URL is not the viewer's."""
        viewer, stop = gate(request)
        topic = request.path_params["topic"]
        if stop is not None or viewer is None:
            return viewer, topic, stop or redirect("/login")
        if not store.may_open(viewer.name, viewer.admin, topic):
            return viewer, topic, refuse(request, viewer, 403, f"Topic {topic} is not assigned to you.")
        return viewer, topic, None

    def dashboard_sync(request: Request, viewer: Viewer) -> Response:
        requests = store.requests()
        topics = list(requests) if viewer.admin else store.assigned(viewer.name)
        rows: list[dict[str, Any]] = []
        for topic in topics:
            items = items_of(topic, viewer.name)
            counts = {stage: items.counts(stage) for stage in STAGES[1:]}
            rows.append({"topic": topic, "title": requests[topic].title, "counts": counts,
                         "nuggets": len(store.topic_nuggets(topic).nuggets), "pool": len(store.pool(topic)),
                         "assessors": store.assessors(topic)})
        queue = len([e for e in adjudication_queue(store) if e["decision"] is None]) if viewer.admin else 0
        if viewer.admin:  # every assessor's answers so far (a count, cheap for many topics)
            done: dict[str, dict[str, dict[str, int]]] = {}
            for topic, user, stage, count in store.read(
                    "SELECT request_id, user, stage, COUNT(*) FROM verdicts WHERE role = 'assessor' "
                    "GROUP BY request_id, user, stage"):
                done.setdefault(topic, {}).setdefault(user, {})[stage] = count
            for row in rows:
                row["answered"] = sorted(done.get(row["topic"], {}).items())
        return render(request, "dashboard.html", viewer, rows=rows, queue=queue)

    async def dashboard(request: Request) -> Response:
        viewer, stop = gate(request)
        if stop is not None or viewer is None:
            return stop or redirect("/login")
        return await run_in_threadpool(dashboard_sync, request, viewer)

    # -- nugget authoring ------------------------------------------------------------------------------
    def authoring_sync(request: Request, viewer: Viewer, topic: str) -> Response:
        pool = store.pool(topic)
        query = request.query_params.get("q", "")
        doc_id = request.query_params.get("doc")
        hits = searcher.search(query, 10) if query else []
        if doc_id is None and pool:
            seen = {row[0] for row in store.read("SELECT doc_id FROM seen WHERE request_id = ? AND user = ?",
                                                 (topic, viewer.name))}
            doc_id = next((d for d in pool if d not in seen), pool[0])
        document = store.document(doc_id) if doc_id else None
        if doc_id and document is not None and doc_id in pool:
            with store.transaction() as db:
                db.execute("INSERT OR IGNORE INTO seen(request_id, doc_id, user) VALUES (?, ?, ?)",
                           (topic, doc_id, viewer.name))
        position = pool.index(doc_id) if doc_id in pool else None
        seen_count = store.read("SELECT COUNT(*) FROM seen WHERE request_id = ? AND user = ?", (topic, viewer.name))[0][0]
        return render(
            request, "nuggets.html", viewer, topic=topic, request_record=store.request(topic),
            nuggets=store.nugget_rows(topic), pool=pool, position=position, doc_id=doc_id,
            document=document, doc_text=display_text(document.text) if document is not None else "",
            query=query, hits=hits, seen_count=seen_count, history=store.history(topic)[-15:][::-1],
        )

    async def authoring(request: Request) -> Response:
        viewer, topic, stop = topic_gate(request)
        if stop is not None or viewer is None:
            return stop or redirect("/login")
        if request.method == "POST":
            form = await request.form()
            if not csrf_ok(viewer, form):
                return refuse(request, viewer, 403, "Missing or wrong CSRF token: the request was refused.")
            fields = {k: str(v) for k, v in form.items() if isinstance(v, str)}
            fields["answer_ids"] = ",".join(str(v) for v in form.getlist("answer_id_split"))
            back = f"/t/{quote(topic)}/nuggets" + (f"?{urlencode({'doc': fields['back_doc']})}"
                                                     if fields.get("back_doc") else "")
            try:
                message = await run_in_threadpool(bank_action, store, topic, viewer.name, fields)
            except BankError as error:
                return redirect(back, f"Not saved: {error}")
            return redirect(back, message)
        return await run_in_threadpool(authoring_sync, request, viewer, topic)

    # -- the assessment stages -------------------------------------------------------------------------
    def stage_sync(request: Request, viewer: Viewer, topic: str, stage: str) -> Response:
        items = items_of(topic, viewer.name)
        groups = items.stage(stage)
        group, index = find_group(items, stage, request.query_params.get("g"))
        done, open_ = items.counts(stage)
        context: dict[str, Any] = {"topic": topic, "stage": stage, "request_record": store.request(topic),
                                   "done": done, "open": open_, "total": done + open_, "index": index,
                                   "count": len(groups), "group": group,
                                   "previous": groups[index - 1].group_id if 0 < index <= len(groups) else None,
                                   "next": groups[index + 1].group_id if group is not None and index + 1 < len(groups) else None}
        if group is not None:
            item = group.first
            document = store.document(item.key.doc_id) if item.key.doc_id else None
            context.update(item=item, document=document,
                           doc_text=display_text(document.text) if document is not None else "",
                           report=_report_of(store, item), bank=_bank_choices(store, topic),
                           relevance_note=_relevance_note(items, item, store))
        return render(request, "stage.html", viewer, **context)

    def answer_sync(viewer: Viewer, topic: str, stage: str, fields: dict[str, Any]) -> Response:
        items = items_of(topic, viewer.name)
        group = next((g for g in items.stage(stage) if g.group_id == fields.get("group")), None)
        here = f"/t/{quote(topic)}/{stage}"
        if group is None:
            return redirect(here, "That item is no longer asked (the bank or an earlier answer changed); "
                            "here is the next one.")
        rationale = (fields.get("rationale") or "").strip()[:2000] or None
        try:
            if fields.get("action") == "another":
                return _another_answer(viewer, topic, stage, group, fields, here)
            answers = []
            ticked = [] if fields.get("none") else fields.get("yes", [])
            for item in group.items:
                if item.item_id not in fields.get("items", []):
                    continue  # opened after the page was drawn: asked next time
                if len(group.items) > 1 or item.kind == "answers":
                    value = item.item_id in ticked
                else:
                    choice = fields.get("value")
                    if choice not in ("yes", "no"):
                        return redirect(f"{here}?g={quote(group.group_id)}", "Choose yes or no.")
                    value = choice == "yes"
                seen_text = fields.get(f"seen_{item.item_id}", "")
                seen = None if seen_text == "" else seen_text == "yes"
                answers.append(Answer(item, value, seen))
            record_answers(store, viewer.name, "assessor", answers, rationale)
        except Conflict as conflict:
            return redirect(f"{here}?g={quote(group.group_id)}", f"Not saved: {conflict}")
        except BankError as error:
            return redirect(f"{here}?g={quote(group.group_id)}", f"Not saved: {error}")
        return redirect(here)

    def _another_answer(viewer: Viewer, topic: str, stage: str, group: Group, fields: dict[str, Any], here: str) -> Response:
        item = group.first
        form = {"action": "add_answer", "nugget_id": fields.get("nugget_id", ""), "answer": fields.get("answer", ""),
                "doc_id": item.key.doc_id or "", "start": fields.get("start", ""), "end": fields.get("end", ""),
                **({"quote": fields["quote"]} if fields.get("quote") else {})}
        message = bank_action(store, topic, viewer.name, form)
        refreshed = items_of(topic, viewer.name)
        added = [i for g in refreshed.stage(stage) for i in g.items
                 if i.kind == "answers" and i.value is None and i.key.sentence == item.key.sentence
                 and i.key.doc_id == item.key.doc_id and i.key.nugget_id == form["nugget_id"]]
        record_answers(store, viewer.name, "assessor", [Answer(i, True, None) for i in added])
        return redirect(f"{here}?g={quote(group.group_id)}", f"{message}; recorded as given by this sentence")

    async def stage_page(request: Request) -> Response:
        viewer, topic, stop = topic_gate(request)
        if stop is not None or viewer is None:
            return stop or redirect("/login")
        stage = request.path_params["stage"]
        if stage not in STAGES[1:]:
            return refuse(request, viewer, 404, "No such page.")
        if request.method == "POST":
            form = await request.form()
            if not csrf_ok(viewer, form):
                return refuse(request, viewer, 403, "Missing or wrong CSRF token: the request was refused.")
            fields: dict[str, Any] = {k: str(v) for k, v in form.items() if isinstance(v, str)}
            fields["items"] = [str(v) for v in form.getlist("item")]
            fields["yes"] = [str(v) for v in form.getlist("yes")]
            return await run_in_threadpool(answer_sync, viewer, topic, stage, fields)
        return await run_in_threadpool(stage_sync, request, viewer, topic, stage)

    # -- adjudication ----------------------------------------------------------------------------------
    def adjudication_sync(request: Request, viewer: Viewer, fields: dict[str, Any] | None) -> Response:
        queue = adjudication_queue(store)
        wanted = request.query_params.get("item") or (fields or {}).get("item_id")
        entry = next((e for e in queue if e["item_id"] == wanted), None)
        if entry is None:
            entry = next((e for e in queue if e["decision"] is None), None)
        if fields is not None and entry is not None and fields.get("item_id") == entry["item_id"]:
            choice = fields.get("value")
            if choice in ("yes", "no"):
                row = entry["row"]
                item = Item(entry["item_id"], key_of(entry), "adjudication", row["sentence"], row.get("run_id") or "",
                            row.get("sentence_index") or 0, None, None, (), None, row.get("answer"), 1, row["ord"])
                decision = entry["decision"]
                seen_text = fields.get("seen", "")
                try:
                    record_answers(store, viewer.name, "adjudication",
                                   [Answer(item, choice == "yes", None if seen_text == "" else seen_text == "yes")],
                                   (fields.get("rationale") or "").strip() or None)
                except Conflict as conflict:
                    return redirect(f"/adjudicate?item={quote(entry['item_id'])}", f"Not saved: {conflict}")
                del decision
                return redirect("/adjudicate", f"Decision on {entry['item_id']} recorded.")
        document = None
        if entry is not None and entry["row"].get("doc_id"):
            document = store.document(entry["row"]["doc_id"])
        nugget_question = None
        if entry is not None and entry["row"].get("nugget_id"):
            found = store.read("SELECT question FROM nuggets WHERE nugget_id = ?", (entry["row"]["nugget_id"],))
            nugget_question = found[0][0] if found else None
        return render(request, "adjudicate.html", viewer, queue=queue, entry=entry, document=document,
                      doc_text=display_text(document.text) if document is not None else "",
                      nugget_question=nugget_question,
                      open_count=sum(1 for e in queue if e["decision"] is None))

    async def adjudicate(request: Request) -> Response:
        viewer, stop = gate(request)
        if stop is not None or viewer is None:
            return stop or redirect("/login")
        if not viewer.admin:
            return refuse(request, viewer, 403, "Adjudication is for admins.")
        fields = None
        if request.method == "POST":
            form = await request.form()
            if not csrf_ok(viewer, form):
                return refuse(request, viewer, 403, "Missing or wrong CSRF token: the request was refused.")
            fields = {k: str(v) for k, v in form.items() if isinstance(v, str)}
        return await run_in_threadpool(adjudication_sync, request, viewer, fields)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ("wb.js", "wb.css"):
            return Response("not found", status_code=404)
        media = "text/javascript" if name.endswith(".js") else "text/css"
        return Response(static_files[name], media_type=media, headers={"Cache-Control": "no-cache"})

    routes = [
        Route("/login", login_page, methods=["GET"]),
        Route("/login", login_post, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        Route("/password", password_page, methods=["GET", "POST"]),
        Route("/", dashboard, methods=["GET"]),
        Route("/t/{topic}/nuggets", authoring, methods=["GET", "POST"]),
        Route("/t/{topic}/{stage}", stage_page, methods=["GET", "POST"]),
        Route("/adjudicate", adjudicate, methods=["GET", "POST"]),
        Route("/static/{name}", static, methods=["GET"]),
        Route("/favicon.ico", lambda request: Response(status_code=204), methods=["GET"]),
    ]
    app = Starlette(routes=routes)
    app.state.searcher = searcher
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


def _report_of(store: Store, item: Item) -> list[tuple[int, str, tuple[str, ...]]]:
    for report in store.reports(item.key.request_id):
        if report.run_id == item.run_id:
            return [(k, s.text, s.citations) for k, s in enumerate(report.sentences)]
    return []


def _bank_choices(store: Store, topic: str) -> list[tuple[str, str]]:
    return [(n["nugget_id"], n["question"]) for n in store.nugget_rows(topic) if not n["negative"]]


def _relevance_note(items: TopicItems, item: Item, store: Store) -> str | None:
    """Under relevance from the bank, what the citation stage says instead of asking "relevant?"."""
    evaluation = items.evaluation
    if evaluation is None or evaluation.policies.relevance != "nuggets" or item.key.doc_id is None:
        return None
    topic = evaluation.topics.get(item.key.request_id)
    if topic is not None and item.key.doc_id in topic.relevant_docs:
        return "Relevant: the nugget bank binds an answer to this document."
    return "Not relevant by the nugget bank: no answer is bound to this document (yet)."
