"""Passwords, sessions and login throttling for the workbench.

Passwords are hashed with scrypt (memory-hard: n=2^14, r=8, p=1, 16 MiB per guess) and a random salt, and
compared in constant time. A session is a random token in an HttpOnly, SameSite=Strict cookie; the
database keeps only its SHA-256, so a copy of the database opens no session. Each session has its own
CSRF token, which every form that changes something carries and the server checks. Failed logins are
counted per user name and per client address; past ``MAX_FAILURES`` in ``WINDOW`` seconds further
attempts are refused until the window passes. Nothing here logs a password, token or cookie.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import deque

from ..errors import OptionError
from .store import Store

__all__ = ["hash_password", "check_password", "add_user", "reset_user", "set_password", "new_session", "session_user",
           "end_session", "LoginThrottle", "MIN_PASSWORD", "SESSION_SECONDS"]

SCRYPT = {"n": 2**14, "r": 8, "p": 1, "maxmem": 64 * 1024 * 1024, "dklen": 32}
MIN_PASSWORD = 10
SESSION_SECONDS = 12 * 3600


def hash_password(password: str, salt: bytes | None = None) -> tuple[bytes, bytes]:
    salt = salt if salt is not None else secrets.token_bytes(16)
    return salt, hashlib.scrypt(password.encode("utf-8"), salt=salt, **SCRYPT)


def check_password(password: str, salt: bytes, digest: bytes) -> bool:
    return hmac.compare_digest(hash_password(password, salt)[1], digest)


def _valid_name(name: str) -> str:
    name = name.strip()
    if not name or len(name) > 64 or not all(c.isalnum() or c in "._-" for c in name):
        raise OptionError("NAME", f"expected a user name of letters, digits, '.', '_' or '-' (at most 64), found {name!r}")
    return name


def add_user(store: Store, name: str, admin: bool) -> str:
    """Create a user with a one-time password (returned, never stored): they choose their own at first login."""
    name = _valid_name(name)
    if store.user(name) is not None:
        raise OptionError("NAME", f"user {name!r} exists already (`assess users reset {name}` gives a new password)")
    password = secrets.token_urlsafe(12)
    salt, digest = hash_password(password)
    store.add_user(name, admin, salt, digest)
    return password


def reset_user(store: Store, name: str) -> str:
    """A new one-time password for ``name``; their sessions end."""
    if store.user(name) is None:
        raise OptionError("NAME", f"no user {name!r}")
    password = secrets.token_urlsafe(12)
    salt, digest = hash_password(password)
    with store.transaction():
        store.set_password(name, salt, digest, one_time=True)
        store.end_sessions_of(name)
    return password


def set_password(store: Store, name: str, password: str) -> None:
    salt, digest = hash_password(password)
    store.set_password(name, salt, digest, one_time=False)


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("ascii", "replace")).hexdigest()


def new_session(store: Store, user: str) -> str:
    """A new session for ``user``: the cookie's token (the database keeps its hash and a CSRF token)."""
    token = secrets.token_urlsafe(32)
    store.add_session(_token_hash(token), user, secrets.token_urlsafe(32), time.time() + SESSION_SECONDS)
    return token


def session_user(store: Store, token: str | None) -> tuple[str, bool, bool, str] | None:
    """``(user, admin, must_change_password, csrf)`` of a live session, else ``None``."""
    if not token:
        return None
    return store.session(_token_hash(token))


def end_session(store: Store, token: str | None) -> None:
    if token:
        store.end_session(_token_hash(token))


class LoginThrottle:
    """At most ``MAX_FAILURES`` failed logins per user name and per client address in ``WINDOW`` seconds."""

    MAX_FAILURES = 5
    WINDOW = 60.0

    def __init__(self) -> None:
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: str, at: float) -> deque[float]:
        queue = self._failures.setdefault(key, deque())
        while queue and queue[0] <= at - self.WINDOW:
            queue.popleft()
        return queue

    def wait_seconds(self, *keys: str) -> int:
        """Seconds until another attempt is allowed for all of ``keys`` (0: allowed now)."""
        at = time.monotonic()
        with self._lock:
            waits = [self._recent(k, at)[0] + self.WINDOW - at for k in keys
                     if len(self._recent(k, at)) >= self.MAX_FAILURES]
        return int(max(waits)) + 1 if waits else 0

    def failed(self, *keys: str) -> None:
        at = time.monotonic()
        with self._lock:
            for key in keys:
                self._recent(key, at).append(at)

    def succeeded(self, *keys: str) -> None:
        with self._lock:
            for key in keys:
                self._failures.pop(key, None)
