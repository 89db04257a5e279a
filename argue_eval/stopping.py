"""Stopping when asked: Ctrl-C (SIGINT) or SIGTERM ends a long command at its next step, its answers committed.

A round of judging runs for hours, and the people running it stop it: Ctrl-C at the terminal, ``scancel`` or the
end of a Slurm time limit (SIGTERM), a CI runner's timeout. Python's default turns SIGINT into a
``KeyboardInterrupt`` raised wherever the main thread happens to be, inside a model's forward pass or an SQLite
call, and ignores nothing: a run stopped that way could take tens of seconds to unwind (or crash in the model's
threads), and SIGTERM killed it without a word.

With ``handling_signals()`` (the command line enters it around every command) the first SIGINT or SIGTERM only
*asks* to stop. The loops that do a run's long work (the judge runner and ``judges.asking``, the embedding loop
of ``search.embeddings``, the LLM judge waiting on its calls) enter ``stoppable()`` and call ``check()`` between
two steps, a fraction of a second apart: it raises ``Stopped`` once a stop was asked, after they committed what
they had, and the command says how to resume and exits with 128 + the signal's number (130 for SIGINT, 143 for
SIGTERM), as a shell reports a process killed by that signal. Outside such a loop (reading inputs, writing
outputs) the signal has its usual effect at once. A second signal ends the process immediately; committed
answers are safe in the cache even then (SQLite's journal), and a rerun asks the rest.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .errors import ArgueError

__all__ = ["Stopped", "handling_signals", "stoppable", "check", "requested", "SIGNALS"]

SIGNALS = (signal.SIGINT, signal.SIGTERM)

_asked: int | None = None
"""The signal that asked to stop (``None``: none yet)."""
_depth = 0
"""How many ``stoppable`` loops the main thread is inside."""
_installed = False


class Stopped(ArgueError):
    """The run stopped because a signal asked it to; ``exit_code`` is 128 + the signal's number."""

    def __init__(self, signum: int, detail: str = ""):
        self.signum = signum
        self.exit_code = 128 + signum
        self.detail = detail
        name = signal.Signals(signum).name
        super().__init__(f"stopped by {name}" + (f": {detail}" if detail else ""))


def requested() -> int | None:
    """The signal that asked the run to stop, or ``None``."""
    return _asked


def check() -> None:
    """Raise ``Stopped`` if a signal asked to stop (call it between two steps of a long loop)."""
    if _asked is not None:
        raise Stopped(_asked)


@contextmanager
def stoppable() -> Iterator[None]:
    """A loop that calls ``check()`` between its steps: within it, a signal asks to stop instead of interrupting."""
    global _depth
    main = threading.current_thread() is threading.main_thread()
    if main:
        _depth += 1
    try:
        yield
    finally:
        if main:
            _depth -= 1


def _handle(signum: int, frame: Any) -> None:
    global _asked
    if _asked is not None:  # the second signal: now, whatever is in flight (committed answers are kept)
        sys.stderr.write(f"\nstopping at once ({signal.Signals(signum).name} again)\n")
        sys.stderr.flush()
        os._exit(128 + signum)
    _asked = signum
    if _depth == 0:  # no loop that checks: the signal's usual effect
        _default(signum)
    else:
        sys.stderr.write(f"\n{signal.Signals(signum).name}: stopping after the step in progress "
                         "(the answers so far are kept; again to stop at once)\n")
        sys.stderr.flush()


def _default(signum: int) -> None:
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


@contextmanager
def handling_signals() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM ask the stoppable loops to stop (see the module docstring).

    Only the main thread can install handlers; elsewhere (a server's worker thread running a command) this
    does nothing. The handlers before are restored afterwards, and the request forgotten."""
    global _asked, _installed
    if threading.current_thread() is not threading.main_thread() or _installed:
        yield
        return
    before = {signum: signal.getsignal(signum) for signum in SIGNALS}
    for signum in SIGNALS:
        signal.signal(signum, _handle)
    _installed = True
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
        _installed = False
        _asked = None
