"""``/people`` (admins): the round's users, their topics and answers so far; add a user, give someone a new
login link, assign topics (double assessment included). ``/welcome/TOKEN``: a one-time login link, where its
user chooses their password and is logged in.

An admin never sees or hands over a password: adding a user or resetting one gives a link (shown once, on the
page that made it), and whoever opens it first chooses the password (``security.login_link``). The rules are
``assess users`` and ``assess assign``'s own (``security``, ``admin.assign_topics``), so the pages and the
command line cannot differ.
"""
from __future__ import annotations

from typing import Any

from starlette.responses import Response

from ...errors import OptionError
from ..admin import assign_topics
from ..security import (
    LINK_SECONDS,
    MIN_PASSWORD,
    SESSION_SECONDS,
    add_user,
    link_user,
    login_link,
    redeem_link,
    reset_user,
)
from ..web import SESSION_COOKIE, View, Visit

__all__ = ["PeoplePage", "WelcomePage"]


class PeoplePage(View):
    what = "The people page"

    def get(self, visit: Visit) -> Response:
        return self._page(visit)

    def post(self, visit: Visit) -> Response:
        action, name = visit.field("action"), visit.field("name").strip()
        try:
            if action == "add":
                add_user(visit.store, name, visit.field("admin") == "1")  # the one-time password is nobody's
                return self._page(visit, link=(name, login_link(visit.store, name)), message=f"user {name} added")
            if action == "reset":
                reset_user(visit.store, name)  # their sessions end; the password is nobody's until the link is used
                return self._page(visit, link=(name, login_link(visit.store, name)),
                                  message=f"{name}'s password and sessions ended")
            if action == "assign":
                topics = assign_topics(visit.store, visit.field("topics"), name, visit.field("double") == "1")
                return visit.redirect("/people", f"{', '.join(topics)} assigned to {name}")
        except OptionError as error:
            return self._page(visit, status=400, error=str(error).split(": ", 1)[-1])
        return self._page(visit, status=400, error=f"unknown action {action!r}")

    @staticmethod
    def _page(visit: Visit, status: int = 200, link: tuple[str, str] | None = None, message: str | None = None,
              error: str | None = None) -> Response:
        store = visit.store
        assignments = store.all_assignments()
        answers = store.answer_counts()
        people: list[dict[str, Any]] = []
        for name, admin, must_change in store.users():
            topics = [t for t, users in assignments.items() if name in users]
            people.append({"name": name, "admin": admin, "must_change": must_change, "topics": topics,
                           "answers": sum(sum(answers.get(t, {}).get(name, {}).values()) for t in answers)})
        url = None
        if link is not None:
            url = f"{visit.request.url.scheme}://{visit.request.headers.get('host', '')}/welcome/{link[1]}"
        return visit.render("people.html", status=status, people=people, topics=list(store.requests()),
                            link_for=link[0] if link else None, link_url=url, message=message, error=error,
                            link_days=LINK_SECONDS // 86400)


class WelcomePage(View):
    """``/welcome/TOKEN``: the form to choose a password; its POST uses the link (once) and logs in."""

    def get(self, visit: Visit) -> Response:
        return self._form(visit, 200, None)

    def post(self, visit: Visit) -> Response:
        new, again = visit.field("password"), visit.field("again")
        if len(new) < MIN_PASSWORD or new != again:
            error = (f"Choose at least {MIN_PASSWORD} characters." if len(new) < MIN_PASSWORD
                     else "The two passwords differ.")
            return self._form(visit, 400, error)
        session = redeem_link(visit.store, str(visit.request.path_params["token"]), new)
        if session is None:
            return self._form(visit, 410, None)
        response = visit.redirect("/", "Password saved: welcome.")
        response.set_cookie(SESSION_COOKIE, session, httponly=True, samesite="strict", path="/",
                            max_age=SESSION_SECONDS, secure=visit.request.url.scheme == "https")
        return response

    @staticmethod
    def _form(visit: Visit, status: int, error: str | None) -> Response:
        token = str(visit.request.path_params["token"])
        return visit.render("welcome.html", status=status, user=link_user(visit.store, token), token=token,
                            error=error, minimum=MIN_PASSWORD)
