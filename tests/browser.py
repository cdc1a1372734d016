"""Headless Chromium driven over the DevTools protocol, for tests that use a page as a user does.

Debian's ``chromium`` (``.ci/run`` installs it) is started with a remote-debugging port; its
first tab is driven over a websocket (``websocket-client``, which the Chroma client brings).
Only what the tests need: open a URL, evaluate JavaScript, wait for a condition.
"""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import websocket

from .services import unavailable

CHROMIUM = Path("/usr/bin/chromium")
_LISTENING = re.compile(r"DevTools listening on (ws://\S+)")


class Tab:
    """One browser tab: navigate, evaluate, wait."""

    def __init__(self, url: str) -> None:
        self._socket = websocket.create_connection(url, timeout=60, suppress_origin=True)
        self._ids = itertools.count(1)

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one DevTools command and return its result (events in between are skipped)."""
        number = next(self._ids)
        self._socket.send(json.dumps({"id": number, "method": method, "params": params}))
        while True:
            message = json.loads(self._socket.recv())
            if message.get("id") == number:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return dict(message.get("result", {}))

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def open(self, url: str, ready: str = "document.readyState === 'complete'") -> None:
        """Navigate to ``url`` and wait until ``ready`` holds."""
        self.call("Page.navigate", url=url)
        time.sleep(0.2)
        self.wait_for(ready)

    def wait_for(self, condition: str, timeout: float = 120) -> None:
        """Poll a JavaScript condition until it is true, or fail with the page's text."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if self.evaluate(f"Boolean({condition})"):
                    return
            except RuntimeError:  # between two documents while navigating
                pass
            time.sleep(0.1)
        text = self.evaluate("document.body ? document.body.innerText : ''")
        raise AssertionError(f"{condition} not true after {timeout} s; page: {text[:2000]}")

    def close(self) -> None:
        """Close the websocket."""
        self._socket.close()


@contextmanager
def chromium_tab(profile: Path) -> Iterator[Tab]:
    """A tab of a fresh headless Chromium (skipped without one, except under CI)."""
    if not CHROMIUM.exists():
        unavailable(
            "chromium is not installed at /usr/bin/chromium",
            ci="CI must run the browser tests (.ci/run installs chromium)",
            hint="apt-get install chromium",
        )
    process = subprocess.Popen(
        [
            str(CHROMIUM),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--remote-debugging-address=127.0.0.1",
            "--remote-debugging-port=0",
            f"--user-data-dir={profile}",
            "--window-size=1280,900",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    tab: Tab | None = None
    try:
        assert process.stderr is not None
        browser_url = ""
        for line in process.stderr:
            found = _LISTENING.search(line)
            if found:
                browser_url = found.group(1)
                break
        assert browser_url, "chromium did not open its DevTools port"
        # Keep reading its log, so a full pipe never stalls the browser.
        threading.Thread(target=process.stderr.read, daemon=True).start()
        port = browser_url.split("//", 1)[1].split("/", 1)[0]
        with urllib.request.urlopen(f"http://{port}/json/list", timeout=30) as answer:
            targets = json.load(answer)
        page = next(t for t in targets if t.get("type") == "page")
        tab = Tab(page["webSocketDebuggerUrl"])
        tab.call("Page.enable")
        yield tab
    finally:
        if tab is not None:
            tab.close()
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
