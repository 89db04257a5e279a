"""Logging in and out, and choosing one's password (the one-time password is replaced at first login)."""
from __future__ import annotations

import secrets

from starlette.responses import Response

from ..security import MIN_PASSWORD, SESSION_SECONDS, check_password, end_session, new_session, set_password
from ..web import LOGIN_COOKIE, SESSION_COOKIE, View, Visit

__all__ = ["LoginPage", "LogoutPage", "PasswordPage"]


class LoginPage(View):
    """``/login``: name and password. Failed logins are throttled per name and per client address; an unknown
    name costs the same scrypt time as a known one."""

    def get(self, visit: Visit) -> Response:
        return self._form(visit, 200, None)

    def post(self, visit: Visit) -> Response:
        name = visit.field("name").strip()
        password = visit.field("password")
        client = visit.request.client.host if visit.request.client else "?"
        keys = (f"user:{name}", f"ip:{client}")
        throttle = visit.workbench.throttle
        wait = throttle.wait_seconds(*keys)
        if wait:
            return visit.refuse(429, f"Too many failed logins; try again in {wait} s.")
        user = visit.store.user(name)
        if user is None:
            check_password(password, b"0" * 16, b"0" * 32)  # the same time for an unknown name
            right = False
        else:
            right = check_password(password, user[3], user[4])
        if not right:
            throttle.failed(*keys)
            return self._form(visit, 401, "Wrong name or password.")
        throttle.succeeded(*keys)
        token = new_session(visit.store, name)
        response = visit.redirect("/")
        response.set_cookie(SESSION_COOKIE, token, httponly=True, samesite="strict", path="/", max_age=SESSION_SECONDS,
                            secure=visit.request.url.scheme == "https")
        response.delete_cookie(LOGIN_COOKIE, path="/login")
        return response

    @staticmethod
    def _form(visit: Visit, status: int, error: str | None) -> Response:
        """The form with a fresh login token, which the POST must bring back (its cookie is scoped to /login)."""
        nonce = secrets.token_urlsafe(24)
        response = visit.render("login.html", status=status, login_csrf=nonce, error=error)
        response.set_cookie(LOGIN_COOKIE, nonce, httponly=True, samesite="strict", path="/login", max_age=3600)
        return response


class LogoutPage(View):
    """``/logout`` (POST): the session ends."""

    def post(self, visit: Visit) -> Response:
        assert visit.viewer is not None
        end_session(visit.store, visit.viewer.token)
        response = visit.redirect("/login")
        response.delete_cookie(SESSION_COOKIE, path="/")
        return response


class PasswordPage(View):
    """``/password``: choose a password of at least ``MIN_PASSWORD`` characters, typed twice."""

    def get(self, visit: Visit) -> Response:
        return visit.render("password.html", error=None, minimum=MIN_PASSWORD)

    def post(self, visit: Visit) -> Response:
        assert visit.viewer is not None
        new, again = visit.field("password"), visit.field("again")
        if len(new) < MIN_PASSWORD or new != again:
            error = (f"Choose at least {MIN_PASSWORD} characters." if len(new) < MIN_PASSWORD
                     else "The two passwords differ.")
            return visit.render("password.html", status=400, error=error, minimum=MIN_PASSWORD)
        set_password(visit.store, visit.viewer.name, new)
        return visit.redirect("/", "Password saved.")
