"""A headless Chromium driven through its DevTools protocol, for tests that use a page
as a person does: press keys, read what the page shows, see every request it makes.

Why not playwright: its Python package carries its own Node.js driver and expects
browser builds of its own version (``playwright install`` downloads them, which CI
cannot do); with Debian's Chromium it works only while the two protocol versions
happen to agree.  The protocol itself is what playwright speaks underneath, and over
``--remote-debugging-pipe`` (fd 3 in, fd 4 out, messages ended by NUL) it needs
nothing but the standard library: no package, no port, no download, so the only
thing a CI machine needs is the ``chromium`` package it already installs.
"""

from __future__ import annotations

import base64
import json
import os
import select
import subprocess
import tempfile
import time
from typing import Any

#: Keys as the protocol's Input.dispatchKeyEvent wants them: key, code, virtual key code.
KEYS = {"ArrowRight": 39, "ArrowLeft": 37, "Home": 36, "End": 35, "PageDown": 34,
        "PageUp": 33}


class ProtocolError(RuntimeError):
    pass


class Browser:
    """One headless Chromium with one page.  Use as a context manager."""

    def __init__(self, chromium: str, width: int = 1920, height: int = 1080,
                 timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.events: list[dict[str, Any]] = []
        self._next_id = 0
        self._buffer = b""
        self._profile = tempfile.TemporaryDirectory()
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        def on_fds_3_and_4() -> None:   # in the child, before exec
            # copies first (a pipe end may itself be fd 3 or 4); dup2 makes the copies
            # inheritable, where a pipe end already at 3 would stay close-on-exec
            ends = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(ends[0], 3)
            os.dup2(ends[1], 4)

        self.proc = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--remote-debugging-pipe", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--disable-quic",
             "--hide-scrollbars", "--mute-audio", "--disable-dev-shm-usage",
             # nothing may leave the machine even if the page tried: every request that
             # is not a local file goes to a closed local port (and shows in the events)
             "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
             f"--user-data-dir={self._profile.name}", f"--window-size={width},{height}",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            # close_fds would close 3 and 4 after preexec_fn set them; the pipes' own
            # descriptors are closed here right after the start
            preexec_fn=on_fds_3_and_4, close_fds=False)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target,
                                 flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.call(f"{domain}.enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride", session=True, width=width,
                  height=height, deviceScaleFactor=1, mobile=False)

    # -- the protocol ------------------------------------------------------------------
    def _send(self, message: dict[str, Any]) -> None:
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self._to_chrome, data):]

    def _receive(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_chrome], [], [], left)[0]:
                raise TimeoutError("chromium did not answer in time")
            chunk = os.read(self._from_chrome, 1 << 16)
            if not chunk:
                raise ProtocolError("chromium closed its pipe (did it start?)")
            self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(raw)

    def call(self, method: str, *, session: bool = False, **params: Any) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        self._send(message)
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._receive(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise ProtocolError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str) -> dict[str, Any]:
        """The first event ``method`` not seen yet (events seen before are kept)."""
        deadline = time.monotonic() + self.timeout
        for ev in self.events:
            if ev.get("method") == method and not ev.get("_waited"):
                ev["_waited"] = True
                return ev
        while True:
            ev = self._receive(deadline)
            self.events.append(ev)
            if ev.get("method") == method:
                ev["_waited"] = True
                return ev

    # -- what a test does --------------------------------------------------------------
    def open(self, url: str) -> None:
        """Load ``url`` afresh (through about:blank: a change of fragment alone would
        be a same-document navigation, with no load and no script run again)."""
        for target in ("about:blank", url):
            for ev in self.events:
                ev["_waited"] = True
            self.call("Page.navigate", session=True, url=target)
            self.wait_for("Page.loadEventFired")

    def js(self, expression: str) -> Any:
        reply = self.call("Runtime.evaluate", session=True, expression=expression,
                          returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in reply:
            raise ProtocolError(f"{expression}: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def press(self, key: str) -> None:
        code = KEYS[key]
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", session=True, type=kind, key=key, code=key,
                      windowsVirtualKeyCode=code, nativeVirtualKeyCode=code)

    def screenshot(self, path: str) -> None:
        data = self.call("Page.captureScreenshot", session=True, format="png")["data"]
        with open(path, "wb") as fh:
            fh.write(base64.b64decode(data))

    def requests(self) -> list[str]:
        """The URL of every request the page made."""
        return [ev["params"]["request"]["url"] for ev in self.events
                if ev.get("method") == "Network.requestWillBeSent"]

    def console_errors(self) -> list[str]:
        """Console errors, uncaught exceptions and the browser's own error log lines."""
        found = []
        for ev in self.events:
            method, params = ev.get("method"), ev.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append(" ".join(str(a.get("value", a.get("description")))
                                      for a in params.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                found.append(details.get("exception", {}).get("description")
                             or details.get("text", "exception"))
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                found.append(params["entry"].get("text", ""))
        return found

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except (ProtocolError, TimeoutError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_chrome, self._from_chrome):
            try:
                os.close(fd)
            except OSError:
                pass
        self._profile.cleanup()

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
