"""A small DevTools-protocol driver for the system Chromium, for the browser tests and bench/bench_report.py.

It starts ``chromium --headless`` with a fresh profile, no network (a dead proxy, background networking
off), connects to the page over the DevTools websocket (``websocket-client``), and offers what the tests
need: navigate, evaluate JavaScript, take a screenshot, and the script errors and network requests seen.
Nothing is downloaded: the browser is Debian's ``chromium`` package (``.ci/run`` installs it).
"""
from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "chrome")


def find_browser() -> str | None:
    """The Chromium binary: ``$ARGUE_EVAL_CHROMIUM`` or the first of ``BROWSERS`` on the PATH."""
    explicit = os.environ.get("ARGUE_EVAL_CHROMIUM")
    if explicit:
        return explicit
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


class Browser:
    """One headless Chromium with one page, driven through the DevTools protocol."""

    def __init__(self, workdir: Path, width: int = 1400, height: int = 1000, binary: str | None = None,
                 loopback: bool = False):
        """``loopback``: let the page reach servers on this machine (the workbench's tests); any other address
        still goes to a dead proxy."""
        import websocket  # websocket-client, from the test extra

        binary = binary or find_browser()
        if binary is None:
            raise RuntimeError("no Chromium found (install Debian's chromium, or set ARGUE_EVAL_CHROMIUM)")
        self.workdir = Path(workdir)
        profile = self.workdir / "chromium-profile"
        profile.mkdir(parents=True, exist_ok=True)
        (profile / "DevToolsActivePort").unlink(missing_ok=True)  # a reused profile keeps the last run's port
        self.log_path = self.workdir / "chromium.log"
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-extensions", "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
             "--disable-dev-shm-usage",  # containers often have a tiny /dev/shm
             "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=" + ("127.0.0.1" if loopback else "<-loopback>"),
             "--remote-debugging-port=0", "--remote-allow-origins=*", f"--user-data-dir={profile}",
             f"--window-size={width},{height}", "about:blank"],
            stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        )
        try:
            port = self._port(profile / "DevToolsActivePort")
            url = self._page_socket(port)
            self.socket = websocket.create_connection(url, timeout=60, suppress_origin=True, enable_multithread=False)
        except BaseException:
            self.close()
            raise
        self._next = 0
        self.events: list[dict[str, Any]] = []
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def _port(self, marker: Path, timeout: float = 60.0) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"chromium exited with {self.process.returncode}: {self.log_path.read_text(errors='replace')[-2000:]}")
            if marker.exists():
                text = marker.read_text().split("\n")[0].strip()
                if text.isdigit():
                    return int(text)
            time.sleep(0.05)
        raise RuntimeError("chromium did not open its DevTools port in time")

    @staticmethod
    def _page_socket(port: int, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback, never a proxy
        while time.monotonic() < deadline:
            try:
                with opener.open(f"http://127.0.0.1:{port}/json/list", timeout=10) as response:
                    targets = json.loads(response.read())
            except OSError:  # the port file can appear a moment before the server listens
                time.sleep(0.05)
                continue
            pages = [t for t in targets if t.get("type") == "page"]
            if pages:
                return pages[0]["webSocketDebuggerUrl"]
            time.sleep(0.05)
        raise RuntimeError("chromium has no page target")

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send one command and wait for its result; events that arrive meanwhile are kept in ``events``."""
        self._next += 1
        ident = self._next
        self.socket.send(json.dumps({"id": ident, "method": method, "params": params or {}}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (promises awaited); a thrown error raises."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"script error: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 30.0) -> Any:
        """Poll ``expression`` until it is truthy; return its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"still false after {timeout}s: {expression}")
            time.sleep(0.05)

    def open(self, path: Path) -> None:
        """Load a local file and wait until its script marked the page ready."""
        self.evaluate("document.body && document.body.removeAttribute('data-ready')")
        self.call("Page.navigate", {"url": Path(path).resolve().as_uri()})
        self.wait_for("document.readyState === 'complete' && document.body && document.body.getAttribute('data-ready') === '1'", 120)

    def screenshot(self, path: Path, full_page: bool = True) -> Path:
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            params["captureBeyondViewport"] = True
            size = self.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
            params["clip"] = {"x": 0, "y": 0, "width": size[0], "height": min(size[1], 8000), "scale": 1}
        data = self.call("Page.captureScreenshot", params)["data"]
        Path(path).write_bytes(base64.b64decode(data))
        return Path(path)

    def errors(self) -> list[str]:
        """Script errors and console errors seen so far."""
        out = []
        for event in self.events:
            method, params = event["method"], event.get("params", {})
            if method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                out.append(details.get("exception", {}).get("description") or details.get("text", "exception"))
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                out.append(" ".join(str(arg.get("value", arg.get("description", ""))) for arg in params.get("args", [])))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                out.append(params["entry"].get("text", ""))
        return out

    def requests(self) -> list[str]:
        """URLs of every request the page made."""
        return [event["params"]["request"]["url"] for event in self.events if event["method"] == "Network.requestWillBeSent"]

    def close(self) -> None:
        socket = getattr(self, "socket", None)
        if socket is not None:
            try:
                socket.close()
            except Exception:
                pass
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self._log.close()

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
