"""`triqua serve`: the local check page, its streamed verdicts, its limits, in a real browser."""

from __future__ import annotations

import subprocess
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

import triqua
from triqua.web.server import MAX_FORM_BYTES, CheckServer, split_evidence

from .conftest import CURIE

CHROMIUM = Path("/usr/bin/chromium")
EVIDENCE = "Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie."


@pytest.fixture
def server() -> Iterator[CheckServer]:
    running = CheckServer(("127.0.0.1", 0), triqua.check, {"store": False, "cache": False})
    thread = threading.Thread(target=running.serve_forever, daemon=True)
    thread.start()
    try:
        yield running
    finally:
        running.shutdown()
        running.server_close()


def _post(server: CheckServer, fields: dict[str, str], **headers: str) -> tuple[int, str]:
    body = urlencode(fields).encode()
    request = urllib.request.Request(
        server.url + "check",
        data=body,
        headers={"Content-Type": "application/x-www-form-urlencoded", **headers},
    )
    return _open(request)


def _open(request: urllib.request.Request | str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


def test_pasted_evidence_splits_at_dash_lines() -> None:
    assert split_evidence("a\nb\n---\n\nc\n ---\n\n") == ["a\nb", "c"]
    assert split_evidence("  \n") == []


def test_the_form_is_served(server: CheckServer) -> None:
    status, page = _open(server.url)
    assert status == 200
    assert '<form class="check" method="post" action="/check">' in page
    assert 'name="text"' in page and 'name="evidence"' in page and 'name="collection"' in page


def test_a_check_streams_each_verdict_then_shows_the_report(server: CheckServer) -> None:
    status, page = _post(server, {"text": CURIE, "evidence": f"{EVIDENCE}\n---\nOther text."})
    assert status == 200
    live = page[page.index('<section id="live">') : page.index('<section id="report">')]
    assert '<li class="supported">supported: (Marie Curie, won, ' in live
    report = page[page.index('<section id="report">') :]
    assert "<h1>triqua report</h1>" in report and 'id="facts"' in report
    assert "shared with Pierre Curie" in report  # the quote in its passage
    assert page.rstrip().endswith("</html>")


def test_the_page_escapes_what_it_is_given(server: CheckServer) -> None:
    text = "<script>alert(1)</script> Marie Curie won the Nobel Prize in Physics."
    status, page = _post(server, {"text": text, "evidence": EVIDENCE})
    assert status == 200
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


@pytest.mark.parametrize(
    ("fields", "headers", "status", "said"),
    [
        ({"text": "  "}, {}, 400, "error: there is no text to check"),
        ({"text": "x" * (MAX_FORM_BYTES + 10)}, {}, 413, "error: the form is over"),
        ({"text": CURIE}, {"Content-Type": "text/plain"}, 415, "application/x-www-form"),
    ],
    ids=["no-text", "too-big", "not-a-form"],
)
def test_bad_requests_get_a_clear_error(
    server: CheckServer, fields: dict[str, str], headers: dict[str, str], status: int, said: str
) -> None:
    got, page = _post(server, fields, **headers)
    assert got == status and said in page


def test_a_refused_input_is_one_error_line_on_the_page(server: CheckServer) -> None:
    # The offline engine refuses French text: the page says so instead of scoring it.
    french = "Marie Curie a reçu le prix Nobel de physique en 1903 avec son mari Pierre."
    status, page = _post(server, {"text": french, "evidence": EVIDENCE})
    assert status == 200
    assert '<p class="error">error: ' in page and "--language en" in page
    assert '<section id="report">' not in page


def test_unknown_pages_are_404(server: CheckServer) -> None:
    assert _open(server.url + "nothing")[0] == 404


def test_runs_go_through_the_servers_settings() -> None:
    seen: list[dict[str, Any]] = []

    def checker(text: str, **settings: Any) -> triqua.Report:
        seen.append({"text": text, **settings})
        raise ValueError("stop here")

    server = CheckServer(("127.0.0.1", 0), checker, {"store": False, "max_facts": 7})
    fields = {"text": "T", "question": " ", "evidence": "", "collection": "bios"}
    with pytest.raises(ValueError):
        server.run_check(fields, lambda event: None)
    server.server_close()
    (call,) = seen
    assert call["max_facts"] == 7 and call["store"] is False
    assert call["retriever"] == "chroma" and call["collection"] == "bios"
    assert call["question"] is None and call["documents"] is None


@pytest.mark.slow
def test_the_page_works_in_headless_chromium(server: CheckServer, tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.skip("chromium is not installed at /usr/bin/chromium (apt-get install chromium)")
    link = server.url + "check?" + urlencode({"text": CURIE, "evidence": EVIDENCE})
    done = subprocess.run(
        [
            str(CHROMIUM),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--virtual-time-budget=60000",
            "--dump-dom",
            link,
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=180,
    )
    dom = done.stdout
    assert '<li class="supported">supported: (Marie Curie, won, ' in dom
    assert '<section id="report">' in dom and "<h1>triqua report</h1>" in dom
