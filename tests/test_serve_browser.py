"""`triqua serve` in headless Chromium: a check run from the page, and a foreign page refused."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

import triqua
from triqua.web.server import CheckServer

from .browser import chromium_tab
from .conftest import CURIE
from .test_serve import start

EVIDENCE = "Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie."


@pytest.fixture
def server() -> Iterator[tuple[CheckServer, list[str]]]:
    calls: list[str] = []

    def checker(text: str, **settings: Any) -> triqua.Report:
        calls.append(text)
        return triqua.check(text, **settings)

    running = start(CheckServer(("127.0.0.1", 0), checker, {"store": False, "cache": False}))
    try:
        yield running, calls
    finally:
        running.shutdown()
        running.server_close()


def _foreign_site(target: str) -> ThreadingHTTPServer:
    """Another origin whose page posts a check form to ``target`` as soon as it loads."""
    page = (
        "<!DOCTYPE html><html><body>"
        f'<form id="f" method="post" action="{target}check">'
        f'<input name="text" value="{CURIE}"><input name="token" value="guessed"></form>'
        "<script>document.getElementById('f').submit()</script></body></html>"
    ).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return ThreadingHTTPServer(("127.0.0.1", 0), Handler)


@pytest.mark.slow
def test_a_check_runs_from_the_page_in_headless_chromium(
    server: tuple[CheckServer, list[str]], tmp_path: Path
) -> None:
    check_server, calls = server
    with chromium_tab(tmp_path / "profile") as tab:
        tab.open(check_server.url, "document.querySelector('form.check button')")
        tab.evaluate(
            f"document.getElementById('text').value = {json.dumps(CURIE)};"
            f"document.getElementById('evidence').value = {json.dumps(EVIDENCE)};"
            "document.querySelector('form.check button').click(); true"
        )
        tab.wait_for("document.querySelector('#result ol.compact li')")
        compact = tab.evaluate("document.querySelector('#result ol.compact').innerText")
        assert compact.startswith("supported")
        assert "(Marie Curie, won, the Nobel Prize in Physics)" in compact
        assert tab.evaluate("getComputedStyle(document.getElementById('live')).display") == "none"
        assert tab.evaluate("document.getElementById('full').open") is False
        assert tab.evaluate("document.getElementById('text').value") == CURIE  # form kept
        height = tab.evaluate("document.documentElement.scrollHeight")
        assert height < 1600, height  # the report's evidence stays folded
        # The fact's link opens the folded report at that fact.
        tab.evaluate("document.querySelector('#result a.fid').click(); true")
        tab.wait_for("document.getElementById('full').open")

        foreign = _foreign_site(check_server.url)
        threading.Thread(target=foreign.serve_forever, daemon=True).start()
        try:
            port = foreign.server_address[1]
            tab.open(f"http://127.0.0.1:{port}/", "document.querySelector('p.error')")
            said = tab.evaluate("document.querySelector('p.error').innerText")
        finally:
            foreign.shutdown()
            foreign.server_close()
    assert said == "error: requests from other sites are refused"
    assert calls == [CURIE]  # only the page's own check ran
