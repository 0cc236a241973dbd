"""Headless Chromium driven over the DevTools protocol on a pipe (no extra package): open a page,
record every request it makes and every script error, run script in it, click in it.

    with Browser(profile_dir) as browser:
        page = browser.open(path.as_uri())
        page.eval("document.title"), page.requests, page.errors
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--remote-debugging-pipe",
)

WATCH_CSP = """
window.__blocked = [];
document.addEventListener("securitypolicyviolation", (e) => window.__blocked.push(e.blockedURI));
"""
"""Runs before the page's own scripts: a fetch the page's policy blocked is a request it tried."""


def chromium() -> str:
    """Debian's chromium; installed here if missing and we may (CI installs it too)."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], env=env,
                       capture_output=True, timeout=900, check=False)  # fmt: skip
        found = shutil.which("chromium")
    if found is None:
        pytest.fail("chromium is not installed: apt-get install -y chromium")
    return found


class Page:
    def __init__(self, browser: Browser, session: str):
        self.browser = browser
        self.session = session
        self.requests: list[str] = []
        """URL of every request the page made, its own document included."""
        self.errors: list[str] = []
        """Uncaught exceptions and console errors."""
        self.loaded = False

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        return self.browser.send(method, params, self.session)

    def eval(self, expression: str) -> Any:
        """The value of a JavaScript expression (a promise is awaited)."""
        reply = self.send(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in reply:
            raise AssertionError(f"{expression!r} raised: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def blocked(self) -> list[str]:
        """What the page tried to fetch and its Content-Security-Policy refused."""
        return list(self.eval("window.__blocked"))

    def wait_for(self, expression: str, timeout_s: float = 30.0) -> Any:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            value = self.eval(expression)
            if value:
                return value
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {expression!r}")


class Browser:
    """One headless Chromium for several pages; a fresh profile in ``profile``."""

    def __init__(self, profile: Path):
        to_chrome_r, self._write = os.pipe()
        self._read, from_chrome_w = os.pipe()
        # Chromium reads commands on fd 3 and writes replies on fd 4
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 100) for fd in (to_chrome_r, from_chrome_w)]

        def wire() -> None:
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        self.process = subprocess.Popen(
            [chromium(), *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(3, 4, *high), preexec_fn=wire,
        )  # fmt: skip
        for fd in (to_chrome_r, from_chrome_w, *high):
            os.close(fd)
        self._buffer = b""
        self._next_id = 0
        self._pages: dict[str, Page] = {}

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with contextlib.suppress(AssertionError, OSError):
            self.send("Browser.close", {}, None, timeout_s=10)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._write)
        os.close(self._read)

    def send(
        self, method: str, params: dict[str, Any], session: str | None, timeout_s: float = 60.0
    ) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._receive(timeout_s)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise AssertionError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def _receive(self, timeout_s: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout_s
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._read], [], [], left)[0]:
                raise AssertionError("no answer from chromium")
            chunk = os.read(self._read, 1 << 20)
            if not chunk:
                raise AssertionError("chromium closed the pipe")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\0", 1)
        message = json.loads(line)
        self._event(message)
        return message

    def _event(self, message: dict[str, Any]) -> None:
        page = self._pages.get(message.get("sessionId", ""))
        if page is None or "method" not in message:
            return
        params = message["params"]
        if message["method"] == "Network.requestWillBeSent":
            page.requests.append(params["request"]["url"])
        elif message["method"] == "Runtime.exceptionThrown":
            page.errors.append(json.dumps(params["exceptionDetails"])[:2000])
        elif message["method"] == "Runtime.consoleAPICalled" and params["type"] == "error":
            page.errors.append(json.dumps(params["args"])[:2000])
        elif message["method"] == "Log.entryAdded" and params["entry"]["level"] == "error":
            page.errors.append(params["entry"].get("text", "")[:2000])
        elif message["method"] == "Page.loadEventFired":
            page.loaded = True

    def open(self, url: str, width: int = 1280, height: int = 900) -> Page:
        """A new tab at ``url``, watched from before its first request, once it has loaded."""
        target = self.send("Target.createTarget", {"url": "about:blank"}, None)["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True}, None)
        page = Page(self, session["sessionId"])
        self._pages[page.session] = page
        for domain in ("Network", "Page", "Runtime", "Log"):
            page.send(f"{domain}.enable")
        page.send("Page.addScriptToEvaluateOnNewDocument", source=WATCH_CSP)
        page.send(
            "Emulation.setDeviceMetricsOverride",
            width=width, height=height, deviceScaleFactor=1, mobile=False,
        )  # fmt: skip
        page.send("Page.navigate", url=url)
        deadline = time.monotonic() + 60
        while not page.loaded:
            if time.monotonic() > deadline:
                raise AssertionError(f"{url} did not load")
            self._receive(60)
        return page
