"""Progress bars for long work (judging, scoring many runs, indexing), on stderr and only for people.

Bars are shown when stderr is a terminal and hidden otherwise (CI logs, pipes, tests), or always hidden
with ``ARGUE_EVAL_PROGRESS=0``; ``ARGUE_EVAL_PROGRESS=1`` forces them on. A command's ``--quiet`` hides them
whatever the environment says (``set_verbosity``).
"""
from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")


def progress_enabled() -> bool:
    if _LEVEL < 0:  # --quiet wins over ARGUE_EVAL_PROGRESS=1
        return False
    setting = os.environ.get("ARGUE_EVAL_PROGRESS")
    if setting is not None:
        return setting not in ("0", "", "false", "no")
    return sys.stderr.isatty()


def progress(iterable: Iterable[T], desc: str, total: int | None = None, unit: str = "it") -> Iterator[T]:
    """Wrap ``iterable`` in a tqdm bar on stderr when bars are enabled; otherwise iterate it unchanged."""
    if not progress_enabled():
        yield from iterable
        return
    from tqdm import tqdm

    yield from tqdm(iterable, desc=desc, total=total, unit=unit, file=sys.stderr, leave=False, dynamic_ncols=True)


class _Silent:
    """Stands in for a bar when bars are off: accepts the calls, shows nothing."""

    total: int | None = None

    def update(self, n: int = 1) -> None:
        pass

    def set_postfix_str(self, text: str, refresh: bool = True) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(desc: str, total: int | None = None, unit: str = "it") -> Any:
    """A manual bar (``update``, ``set_postfix_str``, ``close``) for work that is not one loop."""
    if not progress_enabled():
        return _Silent()
    from tqdm import tqdm

    return tqdm(desc=desc, total=total, unit=unit, file=sys.stderr, leave=False, dynamic_ncols=True)


# --- how much the command line says (``--quiet`` / ``--verbose``) ---------------------------------------------

_LEVEL = 0  # -1 quiet, 0 normal, 1 verbose


def set_verbosity(level: int) -> None:
    """-1 (``--quiet``: no bars, no notes), 0 (normal), 1 (``--verbose``: timings and counts too)."""
    global _LEVEL
    _LEVEL = max(-1, min(1, level))
