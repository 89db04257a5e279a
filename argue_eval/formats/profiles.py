"""Judge profiles: the options ``argue-eval judge calibrate`` fitted to human labels, as one versioned JSON file.

A profile is what an organizer hands to every later command (``--judge-option profile=P.json``) so that the
round is judged as calibrated. It says which judge it was fitted for (the ``--judge`` spec, e.g. ``lexical`` or
``lexical,semantic``) and the version of every backend in it (a heuristic that changed since makes the fit
stale), the options it sets per backend (``cascade`` for a cascade's confidence band), and, for people, what
it was fitted on and the cross-validated agreement with the labels before and after. Shape (version 1)::

    {"format": "argue-eval-judge-profile", "version": 1,
     "judge": "lexical", "backends": {"lexical": "6"},
     "options": {"lexical": {"answer_threshold": 0.55, "answer_question_weight": 0.4, ...}},
     "fitted_on": {...}, "fitting": {...}, "cross_validation": {...}, "argue_eval": "0.9.0"}

The profile's id is the SHA-256 of its canonical JSON (keys sorted, no spaces), so any edit makes another
profile: the id is part of the judge's identity in the judgment cache, and answers made under two profiles
never mix. This module checks the file's shape; whether it fits the judge a command runs (the judge, the
backend versions, the option names) is checked where the judge is made (``inputs.profiles``).
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError, type_name
from ..reading import read_json
from ..writing import write_json

__all__ = ["FORMAT", "VERSION", "JudgeProfile", "profile_id", "read_profile", "write_profile", "profile_record"]

FORMAT = "argue-eval-judge-profile"
VERSION = 1


@dataclass(frozen=True)
class JudgeProfile:
    """A judge profile as read: the judge it was fitted for, its backends' versions and its options."""

    judge: str
    backends: dict[str, str]
    options: dict[str, dict[str, Any]]
    id: str
    path: str = ""
    record: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """The whole JSON object (what it was fitted on, the cross-validation figures)."""


def profile_id(record: dict[str, Any]) -> str:
    """``sha256:`` and the first 16 hex digits of the SHA-256 of ``record``'s canonical JSON."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def profile_record(judge: str, backends: dict[str, str], options: dict[str, dict[str, Any]],
                   **described: Any) -> dict[str, Any]:
    """The JSON object of a profile: the fields that decide answers first, then ``described`` (``fitted_on``,
    ``fitting``, ``cross_validation``, ``argue_eval``) in the order given."""
    return {"format": FORMAT, "version": VERSION, "judge": judge, "backends": dict(backends),
            "options": {backend: dict(values) for backend, values in options.items()}, **described}


def write_profile(path: str | os.PathLike[str], record: dict[str, Any]) -> str:
    """Write ``record`` atomically (indented JSON); return its id."""
    write_json(path, record)
    return profile_id(record)


def read_profile(path: str | os.PathLike[str]) -> JudgeProfile:
    """Read and check a profile's shape; a file that is no profile of this version is a located error."""
    record = read_json(path)
    where = os.fspath(path)
    if not isinstance(record, dict):
        raise InputError(where, None, None, f"expected a judge profile (a JSON object written by `argue-eval judge "
                         f"calibrate`), found {type_name(record)}")
    found = record.get("format")
    if found != FORMAT:
        raise InputError(where, None, "format", f"expected {FORMAT!r} (a judge profile written by `argue-eval judge "
                         f"calibrate`), found {type_name(found) if found is not None else 'nothing'}")
    version = record.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise InputError(where, None, "version", f"expected a profile version (1), found {type_name(version)}")
    if version > VERSION:
        raise InputError(where, None, "version", f"profile version {version} is newer than this argue-eval reads "
                         f"({VERSION}): upgrade argue-eval, or calibrate again with this one")
    judge = record.get("judge")
    if not isinstance(judge, str) or not judge.strip():
        raise InputError(where, None, "judge", f"expected the judge it was fitted for (e.g. 'lexical'), found "
                         f"{type_name(judge)}")
    backends = record.get("backends")
    if not isinstance(backends, dict) or not all(isinstance(v, str) for v in backends.values()):
        raise InputError(where, None, "backends", "expected an object of backend name -> version string, found "
                         f"{type_name(backends)}")
    options = record.get("options")
    if not isinstance(options, dict):
        raise InputError(where, None, "options", f"expected an object of backend name -> options, found "
                         f"{type_name(options)}")
    for backend, values in options.items():
        if not isinstance(values, dict):
            raise InputError(where, None, f"options.{backend}", f"expected an object of option -> value, found "
                             f"{type_name(values)}")
        for option, value in values.items():
            if isinstance(value, (dict, list)) or value is None:
                raise InputError(where, None, f"options.{backend}.{option}", f"expected a number, a boolean or a "
                                 f"string, found {type_name(value)}")
    return JudgeProfile(judge, dict(backends), {b: dict(v) for b, v in options.items()}, profile_id(record), where,
                        record)
