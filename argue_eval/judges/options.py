"""Checks of a judge backend's numeric options, shared by every backend and the registry.

A threshold or a passage size set to something no heuristic can use (``yes``, ``abc``, ``NaN``, ``1.5``
words) must stop the command with one line naming the flag that set it (``--judge-option
lexical.answer_threshold=VALUE``), before anything is judged, not fail halfway through a round. The same
rules hold for every backend: a number is any finite real number but a bool (numpy scalars from a sweep
included; not NaN or infinity, which no JSON number can record: the judgments' provenance would say null);
a whole number any integral number but a bool. Values come back as plain ``float`` / ``int``, so ``=1``
and ``=1.0`` give one judge identity for the cache.
"""
from __future__ import annotations

import math
from numbers import Integral, Real
from typing import Any

from ..errors import InputError

FLAG = "--judge-option"


def is_number(value: Any) -> bool:
    """A finite real number that is not a bool (``yes`` on the command line): not NaN, not infinity."""
    if not isinstance(value, Real) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an integer too large for a float (1e400 written out)
        return False


def is_whole(value: Any) -> bool:
    """An integral number that is not a bool."""
    return isinstance(value, Integral) and not isinstance(value, bool)


def option_error(backend: str, option: str, message: str) -> InputError:
    """A bad option value, located like the flag that sets it (``--judge-option BACKEND.OPTION=VALUE``)."""
    return InputError(FLAG, None, f"{backend}.{option}", message)


def number_option(backend: str, option: str, value: Any, low: float | None = None, high: float | None = None,
                  noun: str = "a number") -> float:
    """``value`` as a float, or the user error saying what was expected (``noun``, within ``[low, high]``)."""
    if is_number(value) and (low is None or value >= low) and (high is None or value <= high):
        return float(value)
    wanted = noun if low is None or high is None else f"{noun} between {low:g} and {high:g}"
    raise option_error(backend, option, f"expected {wanted}, found {value!r}")


LARGEST_WHOLE = 1_000_000_000
"""The largest whole-number option a backend takes (passage words, batch sizes, cache sizes): far above any use,
and a number the judgments' provenance (64-bit JSON integers) and the libraries below can hold."""


def whole_option(backend: str, option: str, value: Any, least: int = 1, most: int = LARGEST_WHOLE) -> int:
    """``value`` as an int of at least ``least`` and at most ``most``, or the user error saying so."""
    if is_whole(value) and value >= least:
        if value <= most:
            return int(value)
        raise option_error(backend, option, f"expected a whole number of at most {most}, found {value!r}")
    raise option_error(backend, option, f"expected a whole number of at least {least}, found {value!r}")


def passage_options(backend: str, words: Any, stride: Any) -> tuple[int, int]:
    """The passage length and stride in words: whole numbers of at least 1, the stride at most the length
    (a longer stride would skip text between passages)."""
    words = whole_option(backend, "passage_words", words)
    stride = whole_option(backend, "passage_stride", stride)
    if stride > words:
        raise option_error(backend, "passage_stride", f"expected at most passage_words ({words}), found {stride}")
    return words, stride


def device_option(backend: str, value: Any) -> str:
    """``value`` as a device spec (``auto``, ``cpu``, ``cuda``, ``cuda:N``, ``mps``: ``search.devices``), checked
    without importing torch, or the user error saying what a spec may be."""
    from ..errors import OptionError
    from ..search.devices import parse_device

    try:
        return parse_device(value)
    except OptionError as error:
        raise option_error(backend, "device", error.problem.message) from None
