"""A judge profile named among the judge options (``--judge-option profile=P.json``), read and checked against the
judge it is to configure, and turned into the plain keyword options the judge backends take.

Backends never read files: the profile is read here, on the way from what a user names to the judge, and its
options join the options given on the command line (those win: ``--judge-option lexical.answer_threshold=0.5``
beside a profile overrides the profile's threshold, and the identity then says so). A profile that does not
fit the judge is a one-line error naming the file and the field: another format or version, fitted for another
judge, for an older version of one of its backends (the heuristics it was fitted on have changed), or setting an
option the backend does not have.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from ..errors import InputError
from ..formats.profiles import JudgeProfile, read_profile

__all__ = ["PROFILE_OPTION", "load_profile", "apply_profile"]

PROFILE_OPTION = "profile"
"""The key of the judge options (``--judge-option profile=P.json``) that names a profile: no backend is called so."""


def load_profile(path: str | os.PathLike[str], judge: str) -> JudgeProfile:
    """The profile at ``path``, checked to fit ``judge`` (a ``--judge`` spec); see the module docstring."""
    from ..judges.registry import backend_class, check_option, parse_judge_spec

    profile = read_profile(path)
    where = profile.path
    names = parse_judge_spec(judge)
    try:
        fitted = parse_judge_spec(profile.judge)
    except InputError:
        fitted = [profile.judge]
    if fitted != names:
        raise InputError(where, None, "judge", f"fitted for --judge {','.join(fitted)}, not --judge {','.join(names)}: "
                         f"use --judge {','.join(fitted)}, or calibrate this judge (argue-eval judge calibrate "
                         f"--judge {','.join(names)} ...)")
    members = [*names, "cascade"] if len(names) > 1 else names
    for name in members:
        current = backend_class(name).version
        recorded = profile.backends.get(name)
        if recorded is None:
            raise InputError(where, None, "backends", f"does not say which version of the {name} judge it was fitted "
                             "for: calibrate again")
        if recorded != current:
            raise InputError(where, None, f"backends.{name}", f"fitted for version {recorded} of the {name} judge; "
                             f"this argue-eval's is version {current} (its answers have changed since): calibrate again")
    for backend, values in profile.options.items():
        if backend not in members:
            raise InputError(where, None, f"options.{backend}", f"options for {backend!r}, which is not in --judge "
                             f"{','.join(names)}")
        for option, value in values.items():
            try:
                check_option(backend, option, value)
            except InputError as error:
                raise InputError(where, None, f"options.{backend}.{option}", error.problem.message) from None
    return profile


def apply_profile(judge: str, judge_options: Mapping[str, Any] | None) -> tuple[dict[str, dict[str, Any]], str | None]:
    """``judge_options`` with a named profile (the ``profile`` key: a path or a ``JudgeProfile``) replaced by its
    options, under the ones given, and the profile's id (``None`` without a profile)."""
    options = {name: dict(values) for name, values in (judge_options or {}).items() if name != PROFILE_OPTION}
    named = (judge_options or {}).get(PROFILE_OPTION)
    if named is None:
        return options, None
    profile = named if isinstance(named, JudgeProfile) else load_profile(named, judge)
    merged = {backend: dict(values) for backend, values in profile.options.items()}
    for backend, values in options.items():
        merged.setdefault(backend, {}).update(values)
    return merged, profile.id
