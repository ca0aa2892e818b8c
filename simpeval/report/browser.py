"""Open a page in headless Chromium over the DevTools protocol: a screenshot and the page's errors.

Chromium is started with ``--remote-debugging-pipe`` (commands on file descriptor 3, replies and
events on 4, each message JSON ending in a NUL byte), so nothing listens on a port. Every network
request is sent to an unroutable proxy: a page that is not self-contained logs a failed load.
The test of ``simpeval report`` and ``benchmarks/report_screenshot.py`` use this; no part of the
command line needs a browser.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")


@dataclass
class PageCapture:
    """What the browser saw: the PNG screenshot and every error the page logged."""

    png: bytes
    errors: list[str] = field(default_factory=list)


def find_chromium() -> str | None:
    """The first Chromium on ``PATH`` (Debian's package is ``chromium``)."""
    return next((path for path in map(shutil.which, CHROMIUM_NAMES) if path), None)


class _Pipe:
    """The DevTools protocol over Chromium's pipe: numbered commands, events collected on the way."""

    def __init__(self, process: subprocess.Popen, write_fd: int, read_fd: int) -> None:
        self.process, self.write_fd, self.read = process, write_fd, os.fdopen(read_fd, "rb")
        self.next_id = 0
        self.events: list[dict] = []

    def _message(self, deadline: float) -> dict:
        chunks = []
        while True:
            if time.monotonic() > deadline:
                raise TimeoutError("Chromium did not answer in time")
            byte = self.read.read(1)
            if not byte:
                raise RuntimeError(f"Chromium closed the pipe (exit status {self.process.poll()})")
            if byte == b"\0":
                return json.loads(b"".join(chunks))
            chunks.append(byte)

    def call(self, method: str, params: dict | None = None, session: str | None = None, timeout: float = 60) -> dict:
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.write_fd, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str, timeout: float = 60) -> dict:
        deadline = time.monotonic() + timeout
        for event in self.events:
            if event.get("method") == method:
                return event
        while True:
            event = self._message(deadline)
            self.events.append(event)
            if event.get("method") == method:
                return event


def _errors(events: list[dict]) -> list[str]:
    """Console errors and warnings, uncaught exceptions and browser log errors (failed loads)."""
    out = []
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "warning", "assert"):
            out.append(" ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            out.append(details.get("exception", {}).get("description") or details.get("text", "exception"))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") in ("error", "warning"):
            entry = params["entry"]
            out.append(f"{entry.get('source')}: {entry.get('text')} {entry.get('url', '')}".strip())
    return out


def capture(page: Path, width: int = 1200, height: int = 1600, full_page: bool = False,
            chromium: str | None = None, timeout: float = 60) -> PageCapture:
    """Load ``page`` in headless Chromium and return its screenshot and logged errors.

    :param full_page: capture the whole page, not only the first ``height`` pixels.
    """
    chromium = chromium or find_chromium()
    if chromium is None:
        raise FileNotFoundError("no Chromium on PATH: install Debian's chromium package (apt-get install chromium)")
    to_child, from_parent = os.pipe()
    from_child, to_parent = os.pipe()

    def _child_fds() -> None:
        """Put the pipe ends on the protocol's descriptors 3 and 4, open across exec (every other
        descriptor Python opened closes on exec). ``to_parent`` was opened after three other pipe
        ends, so it is above 4 and the first dup2 cannot overwrite it."""
        os.dup2(to_child, 3)
        os.dup2(to_parent, 4)
        os.set_inheritable(3, True)  # dup2 onto itself (to_child == 3) keeps close-on-exec
        os.set_inheritable(4, True)

    with tempfile.TemporaryDirectory(prefix="simpeval-chromium-") as profile:
        process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars",
             "--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND",
             f"--user-data-dir={profile}", "about:blank"],
            close_fds=False, preexec_fn=_child_fds,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        os.close(to_child)
        os.close(to_parent)
        pipe = _Pipe(process, from_parent, from_child)
        try:
            target = pipe.call("Target.createTarget", {"url": "about:blank"}, timeout=timeout)["targetId"]
            session = pipe.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            for domain in ("Runtime", "Log", "Page"):
                pipe.call(f"{domain}.enable", session=session)
            pipe.call("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=session)
            pipe.call("Page.navigate", {"url": page.resolve().as_uri()}, session=session)
            pipe.wait_for("Page.loadEventFired", timeout)
            shot = pipe.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": full_page},
                             session=session, timeout=timeout)
            errors = _errors(pipe.events)
            try:
                pipe.call("Browser.close", timeout=10)
            except (RuntimeError, TimeoutError):
                pass
        finally:
            os.close(from_parent)
            pipe.read.close()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    return PageCapture(base64.b64decode(shot["data"]), errors)
