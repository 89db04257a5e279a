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
from dataclasses import dataclass, field

from ..errors import OptionError
from .store import Store

__all__ = ["hash_password", "is_user_name", "check_password", "add_user", "reset_user", "set_password", "new_session", "session_user",
           "end_session", "LoginThrottle", "Attempt", "MIN_PASSWORD", "SESSION_SECONDS", "LINK_SECONDS", "login_link", "link_user",
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


def is_user_name(name: str) -> bool:
    """Whether ``name`` is a name ``users add`` takes: letters, digits, '.', '_' or '-', at most 64."""
    return bool(name) and len(name) <= 64 and all(c.isalnum() or c in "._-" for c in name)


def _valid_name(name: str) -> str:
    name = name.strip()
    if not is_user_name(name):
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


@dataclass
class _Tries:
    failures: deque[float] = field(default_factory=deque)
    in_flight: int = 0


@dataclass(frozen=True)
class Attempt:
    """A login attempt let through ``LoginThrottle.attempt``: it counts against its keys until it is settled."""

    keys: tuple[str, ...]


class LoginThrottle:
    """Login attempts per user name and per client address, counted as they arrive, before the password is hashed.

    A name takes at most ``MAX_FAILURES`` attempts in ``WINDOW`` seconds, failed or still being checked, so forty
    guesses sent at once are five hashed and thirty-five refused, not forty hashed. An address takes at most
    ``MAX_FAILURES`` failures in the window, and at most ``MAX_IN_FLIGHT`` attempts at once (a round's assessors
    behind one proxy log in together; a burst of guesses at many names is still bounded). A successful login
    settles only its own attempt: it resets neither its name's failures (someone else guessing at it) nor its
    address's (one's own account as a way to keep guessing others). The table is bounded (``MAX_KEYS``): keys
    whose window passed go first, then the least recently tried; a key with an attempt in flight stays.
    """

    MAX_FAILURES = 5
    MAX_IN_FLIGHT = 20
    WINDOW = 60.0
    MAX_KEYS = 10_000

    def __init__(self) -> None:
        self._tries: OrderedDict[str, _Tries] = OrderedDict()
        self._lock = threading.Lock()

    def _recent(self, key: str, at: float) -> _Tries:
        tries = self._tries.get(key)
        if tries is None:
            tries = self._tries[key] = _Tries()
        self._tries.move_to_end(key)
        while tries.failures and tries.failures[0] <= at - self.WINDOW:
            tries.failures.popleft()
        return tries

    def _bound(self, at: float) -> None:
        if len(self._tries) <= self.MAX_KEYS:
            return
        for key in [k for k, t in self._tries.items()
                    if not t.in_flight and (not t.failures or t.failures[-1] <= at - self.WINDOW)]:
            del self._tries[key]
        for key in [k for k, t in self._tries.items() if not t.in_flight][:max(0, len(self._tries) - self.MAX_KEYS)]:
            del self._tries[key]

    def _wait(self, key: str, tries: _Tries, at: float) -> float | None:
        """Seconds until ``key`` takes another attempt (``None``: now)."""
        full = self.MAX_FAILURES if key.startswith("user:") else None
        if len(tries.failures) >= self.MAX_FAILURES:
            return tries.failures[0] + self.WINDOW - at
        if full is not None and len(tries.failures) + tries.in_flight >= full:
            return 1.0  # the attempts in flight decide: a second is enough to know
        if tries.in_flight >= self.MAX_IN_FLIGHT:
            return 1.0
        return None

    def attempt(self, *keys: str) -> tuple[int, Attempt | None]:
        """Let an attempt through for every key (``user:NAME``, ``ip:ADDRESS``), counted now: ``(0, attempt)``, to
        be settled with ``failed`` or ``succeeded``; else ``(seconds to wait, None)`` and nothing is counted."""
        at = time.monotonic()
        with self._lock:
            tries = [self._recent(k, at) for k in keys]
            waits = [w for k, t in zip(keys, tries) if (w := self._wait(k, t, at)) is not None]
            if waits:
                return int(max(waits)) + 1, None
            for t in tries:
                t.in_flight += 1
            self._bound(at)
        return 0, Attempt(tuple(keys))

    def failed(self, attempt: Attempt) -> None:
        """The attempt's password was wrong: a failure for each of its keys."""
        at = time.monotonic()
        with self._lock:
            for key in attempt.keys:
                tries = self._recent(key, at)
                tries.in_flight = max(0, tries.in_flight - 1)
                tries.failures.append(at)

    def succeeded(self, attempt: Attempt) -> None:
        """The attempt was right (or never checked): it no longer counts, and nothing else changes."""
        with self._lock:
            for key in attempt.keys:
                tries = self._tries.get(key)
                if tries is not None:
                    tries.in_flight = max(0, tries.in_flight - 1)

    def __len__(self) -> int:
        return len(self._tries)
