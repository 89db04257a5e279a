"""Passwords, sessions and login throttling for the workbench.

Passwords are hashed with scrypt (memory-hard: n=2^14, r=8, p=1, 16 MiB per guess) and a random salt, and
compared in constant time. A session is a random token in an HttpOnly, SameSite=Strict cookie; the
database keeps only its SHA-256, so a copy of the database opens no session. Each session has its own
CSRF token, which every form that changes something carries and the server checks. Failed logins are
counted per user name and per client address as they arrive, before the password is hashed; past
``MAX_FAILURES`` in ``WINDOW`` seconds further attempts are refused until the window passes. Nothing here logs a password, token or cookie.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import OrderedDict, deque

from ..errors import OptionError
from .store import Store

__all__ = ["hash_password", "check_password", "add_user", "reset_user", "set_password", "new_session", "session_user",
           "end_session", "LoginThrottle", "MIN_PASSWORD", "SESSION_SECONDS", "LINK_SECONDS", "login_link", "link_user",
           "redeem_link"]

SCRYPT = {"n": 2**14, "r": 8, "p": 1, "maxmem": 64 * 1024 * 1024, "dklen": 32}
MIN_PASSWORD = 10
SESSION_SECONDS = 12 * 3600
LINK_SECONDS = 7 * 24 * 3600


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


def set_password(store: Store, name: str, password: str, keep_session: str | None = None) -> None:
    """``name``'s new password; every session of theirs ends but ``keep_session`` (the one that changed it), so
    a password changed because it leaked also shuts out whoever used it."""
    salt, digest = hash_password(password)
    with store.transaction():
        store.set_password(name, salt, digest, one_time=False)
        store.end_sessions_of(name, keep=_token_hash(keep_session) if keep_session else None)


def login_link(store: Store, name: str) -> str:
    """A one-time login link's token for ``name`` (the database keeps its hash; an earlier link of theirs stops
    working): whoever opens it chooses the user's password and is logged in, once, within ``LINK_SECONDS``.
    The admin hands it over instead of a password, and no password is ever shown to anyone but its owner."""
    if store.user(name) is None:
        raise OptionError("NAME", f"no user {name!r}")
    token = secrets.token_urlsafe(32)
    store.add_login_link(_token_hash(token), name, time.time() + LINK_SECONDS)
    return token


def link_user(store: Store, token: str) -> str | None:
    """The user a live login link is for, else ``None`` (unknown, used or expired)."""
    return store.login_link_user(_token_hash(token)) if token else None


def redeem_link(store: Store, token: str, password: str) -> str | None:
    """Use a login link: the user's password becomes ``password``, their other sessions and links end, and a new
    session's token is returned (``None``: the link is not live; nothing changed). One transaction, so two tabs
    racing on one link cannot both use it."""
    salt, digest = hash_password(password)
    with store.transaction():
        name = link_user(store, token)
        if name is None:
            return None
        store.set_password(name, salt, digest, one_time=False)
        store.end_sessions_of(name)
        store.end_login_links_of(name)
        return new_session(store, name)


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
    """At most ``MAX_FAILURES`` login attempts that fail per user name and per client address in ``WINDOW``
    seconds.

    An attempt is counted when it arrives, before its password is hashed (``attempt``, atomic for all its keys),
    so forty guesses sent at once are forty counted, not forty hashed; one that succeeds takes back only its own
    count (``succeeded``), never another's: a successful login neither resets the name's count (someone else
    guessing at it) nor the address's (one's own account as a way to keep guessing others). The table is bounded
    (``MAX_KEYS``): entries whose window passed are dropped first, then the least recently tried.
    """

    MAX_FAILURES = 5
    WINDOW = 60.0
    MAX_KEYS = 10_000

    def __init__(self) -> None:
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def _recent(self, key: str, at: float) -> deque[float]:
        queue = self._failures.get(key)
        if queue is None:
            queue = self._failures[key] = deque()
        self._failures.move_to_end(key)
        while queue and queue[0] <= at - self.WINDOW:
            queue.popleft()
        return queue

    def _bound(self, at: float) -> None:
        if len(self._failures) <= self.MAX_KEYS:
            return
        for key in [k for k, q in self._failures.items() if not q or q[-1] <= at - self.WINDOW]:
            del self._failures[key]
        while len(self._failures) > self.MAX_KEYS:
            self._failures.popitem(last=False)

    def attempt(self, *keys: str) -> tuple[int, float | None]:
        """Count an attempt against every key, before it is checked: ``(0, ticket)`` when it may go ahead, else
        ``(seconds to wait, None)`` and nothing is counted. The ticket names the attempt to ``succeeded``."""
        at = time.monotonic()
        with self._lock:
            queues = [self._recent(k, at) for k in keys]
            waits = [q[0] + self.WINDOW - at for q in queues if len(q) >= self.MAX_FAILURES]
            if waits:
                return int(max(waits)) + 1, None
            for queue in queues:
                queue.append(at)
            self._bound(at)
        return 0, at

    def wait_seconds(self, *keys: str) -> int:
        """Seconds until another attempt is allowed for all of ``keys`` (0: allowed now); counts nothing."""
        at = time.monotonic()
        with self._lock:
            waits = [self._recent(k, at)[0] + self.WINDOW - at for k in keys
                     if len(self._recent(k, at)) >= self.MAX_FAILURES]
        return int(max(waits)) + 1 if waits else 0

    def succeeded(self, ticket: float | None, *keys: str) -> None:
        """The attempt ``ticket`` succeeded: its own count is taken back, and only it."""
        if ticket is None:
            return
        with self._lock:
            for key in keys:
                queue = self._failures.get(key)
                if queue is not None and ticket in queue:
                    queue.remove(ticket)

    def __len__(self) -> int:
        return len(self._failures)
