"""Keeping credentials out of everything the kit writes or prints.

An endpoint may be given with its credentials in it (``https://user:password@host/v1``,
``...?api_key=sk-...``), and a server's error message may quote the key it refused. Manifests, provenance,
the judgment cache, logs and error messages must hold none of them. ``redact_url`` replaces the user
information and the values of key-like query parameters, and leaves a URL without credentials exactly as it
was (the cache and the manifests of earlier runs keep matching); ``redact_text`` does the same inside any
text, and removes the secrets it is given wherever they appear.

The CLI hands a judge the redacted URL and keeps the real one aside (``hold_credentials``), as it keeps the
API key in an environment variable: only the HTTP client asks for it back (``with_credentials``).
"""
from __future__ import annotations

import re
from collections.abc import Iterable

REDACTED = "REDACTED"

_USERINFO = re.compile(r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.-]*://)(?P<userinfo>[^/?#@\s]+)@")
_SECRET_NAME = r"(?:[A-Za-z0-9_.-]*?(?:key|token|secret|passw(?:or)?d|pwd|signature|sig|auth|credential)[A-Za-z0-9_.-]*)"
_QUERY_SECRET = re.compile(rf"(?P<name>[?&;]{_SECRET_NAME}=)(?P<value>[^&#;\s]*)", re.IGNORECASE)
_BEARER = re.compile(r"(?P<name>\bBearer\s+)(?P<value>[A-Za-z0-9._~+/=-]+)", re.IGNORECASE)
_KEY_LIKE = re.compile(r"\b(?:sk|pk|rk|key|hf|ghp|gho|xox[abp])[-_][A-Za-z0-9_-]{8,}")
"""Tokens shaped like API keys (``sk-...``, ``hf_...``) that a server may quote back in an error."""


def redact_url(url: str, secrets: Iterable[str | None] = ()) -> str:
    """``url`` with its user information, key-like query values, key-shaped path segments (``/sk-...``) and the
    ``secrets`` given replaced by ``REDACTED``; unchanged when it holds none."""
    for secret in sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True):
        url = url.replace(secret, REDACTED)
    text = _USERINFO.sub(lambda m: f"{m['scheme']}{REDACTED}@", url)
    text = _QUERY_SECRET.sub(lambda m: f"{m['name']}{REDACTED}", text)
    return _KEY_LIKE.sub(REDACTED, text)


def redact_text(text: str, secrets: Iterable[str | None] = ()) -> str:
    """``text`` with every given secret, the credentials of any URL in it, bearer tokens and key-shaped tokens
    replaced by ``REDACTED``."""
    for secret in sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True):
        text = text.replace(secret, REDACTED)
    text = redact_url(text)
    text = _BEARER.sub(lambda m: f"{m['name']}{REDACTED}", text)
    return _KEY_LIKE.sub(REDACTED, text)


_held: dict[str, str] = {}


def hold_credentials(url: str, secrets: Iterable[str | None] = ()) -> str:
    """The redacted form of ``url`` (``redact_url``, the ``secrets`` too), remembering the real one for
    ``with_credentials`` (a URL without credentials is returned as it is, and nothing is held)."""
    redacted = redact_url(url, secrets)
    if redacted != url:
        _held[redacted] = url
    return redacted


def with_credentials(url: str) -> str:
    """The URL ``hold_credentials`` redacted, with its credentials back (any other URL as it is)."""
    return _held.get(url, url)
