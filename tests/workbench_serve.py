"""``argue-eval assess serve`` as a child process on a free loopback port, for the benches and the screenshot tool
that drive the workbench from outside (the tests use the in-process server of test_workbench_server.py)."""
from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A loopback port nothing listens on now (the OS picks it)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def served(db: Path | str, log: Path | None = None, timeout: float = 60.0) -> Iterator[int]:
    """Serve the workbench database ``db`` (in-memory search) until the block ends; yields the port once the
    server accepts connections. Its output goes to ``log`` (or nowhere); a server that exits or does not listen
    within ``timeout`` seconds is a ``RuntimeError`` naming the log."""
    port = free_port()
    sink = open(log, "wb") if log is not None else subprocess.DEVNULL
    server = subprocess.Popen([sys.executable, "-m", "argue_eval.cli", "assess", "serve", "--db", str(db),
                               "--port", str(port), "--search", "memory"],
                              stdout=sink, stderr=subprocess.STDOUT, cwd=REPO)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError(f"the workbench did not start{f': see {log}' if log else ''}") from None
                time.sleep(0.1)
        yield port
    finally:
        server.terminate()
        server.wait(30)
        if log is not None:
            sink.close()  # type: ignore[union-attr]
