"""`triqua serve`: the local check page, its progress, its compact fact list, its errors."""

from __future__ import annotations

import re
import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlencode

import pytest

import triqua
from triqua.web.page import Progress
from triqua.web.server import MAX_FORM_BYTES, CheckServer, split_evidence

from .conftest import CURIE

EVIDENCE = "Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie."
TOKEN = re.compile(r'name="token" value="([^"]+)"')


def start(server: CheckServer) -> CheckServer:
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture
def server() -> Iterator[CheckServer]:
    running = start(CheckServer(("127.0.0.1", 0), triqua.check, {"store": False, "cache": False}))
    try:
        yield running
    finally:
        running.shutdown()
        running.server_close()


def open_url(request: urllib.request.Request | str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


def post(server: CheckServer, fields: dict[str, str], **headers: str) -> tuple[int, str]:
    """POST the form as the page does: its token and its own Origin, unless overridden."""
    data = urlencode({"token": server.guard.token, **fields}).encode()
    request = urllib.request.Request(
        server.url + "check",
        data=data,
        headers={
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": server.url.rstrip("/"),
            **headers,
        },
    )
    return open_url(request)


def stand_in(behaviour: Callable[[str, dict[str, Any]], triqua.Report]) -> Any:
    def checker(text: str, **settings: Any) -> triqua.Report:
        return behaviour(text, settings)

    return checker


def test_pasted_evidence_splits_at_dash_lines() -> None:
    assert split_evidence("a\nb\n---\n\nc\n ---\n\n") == ["a\nb", "c"]
    assert split_evidence("  \n") == []


def test_the_form_is_served_with_the_servers_token(server: CheckServer) -> None:
    status, page = open_url(server.url)
    assert status == 200
    assert '<form class="check" method="post" action="/check">' in page
    assert 'name="text"' in page and 'name="evidence"' in page and 'name="collection"' in page
    assert TOKEN.findall(page) == [server.guard.token]
    assert len(server.guard.token) >= 40


def test_progress_lines_count_facts_and_parts_in_the_singular_for_one() -> None:
    progress = Progress()
    assert "1 part of the text read, 1 fact so far" in progress.update(
        {"event": "chunk_decomposed", "facts": 1}
    )
    assert "2 parts of the text read, 3 facts so far" in progress.update(
        {"event": "chunk_decomposed", "facts": 2}
    )
    assert "Verifying 1 fact against the evidence" in Progress().update(
        {"event": "facts_found", "facts": 1}
    )
    assert "Verifying 3 facts against" in progress.update({"event": "facts_found", "facts": 3})
    assert "Verified 1 of 3 facts…" in progress.update({"event": "fact_verified"})
    one = Progress(facts=1)
    assert "Verified 1 of 1 fact…" in one.update({"event": "fact_verified"})
    unknown = Progress()
    assert "Verified 1 fact…" in unknown.update({"event": "fact_verified"})


@pytest.mark.slow
def test_a_check_streams_progress_then_a_compact_fact_list(server: CheckServer) -> None:
    status, page = post(server, {"text": CURIE, "evidence": f"{EVIDENCE}\n---\nOther text."})
    assert status == 200
    live = page[page.index('<section id="live">') : page.index('<section id="result">')]
    assert live.index("Started: reading the text") < live.index("Verifying 1 fact against")
    assert '<span class="badge supported">supported</span> (Marie Curie, won, ' in live
    assert "<style>#live{display:none}</style>" in page  # the final list replaces the live one
    result = page[page.index('<section id="result">') : page.index('<details id="full">')]
    assert "TriQuaScore 100.0% · 1 supported" in result
    (line,) = re.findall(r'<ol class="compact">(.*?)</ol>', result)
    assert line.startswith('<li class="status-supported"><span class="badge supported">')
    assert '<a class="fid" href="#f1">f1</a> (Marie Curie, won, ' in line
    full = page[page.index('<details id="full">') :]
    assert "<h1>triqua report</h1>" in full and 'id="f1"' in full
    assert "shared with Pierre Curie" in full  # the quote in its passage
    assert page.rstrip().endswith("</html>")


def test_progress_is_on_the_page_before_the_check_does_anything() -> None:
    began, release = threading.Event(), threading.Event()

    def blocked(text: str, settings: dict[str, Any]) -> triqua.Report:
        began.set()
        release.wait(30)
        raise ValueError("stopped by the test")

    server = start(CheckServer(("127.0.0.1", 0), stand_in(blocked), {}))
    try:
        data = urlencode({"token": server.guard.token, "text": CURIE}).encode()
        host, port = server.server_address[:2]
        with socket.create_connection((str(host), port), timeout=30) as client:
            client.sendall(
                b"POST /check HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/x-www-form-urlencoded\r\n"
                + f"Content-Length: {len(data)}\r\n\r\n".encode()
                + data
            )
            seen = b""
            while b"Started: reading the text" not in seen:
                chunk = client.recv(65536)
                assert chunk, seen.decode()
                seen += chunk
            assert began.wait(30) and not release.is_set()  # the check is still running
            release.set()
            while chunk := client.recv(65536):
                seen += chunk
        assert b'<p class="error">error: stopped by the test</p>' in seen
    finally:
        release.set()
        server.shutdown()
        server.server_close()


@pytest.mark.slow
def test_forty_facts_are_forty_lines_with_the_details_folded(server: CheckServer) -> None:
    sentences = [f"Person {n} was born in Town {n}." for n in range(40)]
    status, page = post(server, {"text": " ".join(sentences), "evidence": sentences[0]})
    assert status == 200
    (compact,) = re.findall(r'<ol class="compact">(.*?)</ol>', page)
    assert compact.count("<li ") == 40 and "<blockquote>" not in compact
    assert page.index('<section id="result">') < page.index('<details id="full">')
    assert '<details id="full" open' not in page  # the evidence of 40 facts stays folded


def test_the_page_escapes_what_it_is_given(server: CheckServer) -> None:
    text = "<script>alert(1)</script> Marie Curie won the Nobel Prize in Physics."
    status, page = post(server, {"text": text, "evidence": EVIDENCE})
    assert status == 200
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


@pytest.mark.slow
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
    got, page = post(server, fields, **headers)
    assert got == status and said in page


@pytest.mark.slow
def test_a_refused_input_is_one_error_line_on_the_page(server: CheckServer) -> None:
    # The offline engine refuses French text: the page says so instead of scoring it.
    french = "Marie Curie a reçu le prix Nobel de physique en 1903 avec son mari Pierre."
    status, page = post(server, {"text": french, "evidence": EVIDENCE})
    assert status == 200
    assert '<p class="error">error: ' in page and "--language en" in page
    assert '<section id="report">' not in page


def test_a_failing_check_is_one_line_on_the_page_and_in_the_terminal() -> None:
    def failing(text: str, settings: dict[str, Any]) -> triqua.Report:
        raise RuntimeError("chroma: collection 'private' not found\nmore detail")

    lines: list[str] = []
    server = start(CheckServer(("127.0.0.1", 0), stand_in(failing), {}, log=lines.append))
    try:
        status, page = post(server, {"text": CURIE, "collection": "private"})
    finally:
        server.shutdown()
        server.server_close()
    assert status == 200 and page.rstrip().endswith("</html>")
    said = "error: RuntimeError: chroma: collection &#x27;private&#x27; not found</p>"
    assert '<p class="error">' + said in page and "more detail" not in page
    assert lines == ["check failed: RuntimeError: chroma: collection 'private' not found"]


def test_unknown_pages_are_404(server: CheckServer) -> None:
    assert open_url(server.url + "nothing")[0] == 404


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


def test_a_full_server_answers_503_with_retry_after_until_a_check_ends() -> None:
    began, release = threading.Semaphore(0), threading.Event()

    def blocked(text: str, settings: dict[str, Any]) -> triqua.Report:
        began.release()
        release.wait(60)
        raise ValueError(f"done: {text}")

    lines: list[str] = []
    server = start(
        CheckServer(("127.0.0.1", 0), stand_in(blocked), {}, max_checks=2, log=lines.append)
    )
    running = [
        threading.Thread(target=post, args=(server, {"text": f"check {n}"})) for n in range(2)
    ]
    try:
        for thread in running:
            thread.start()
        assert began.acquire(timeout=30) and began.acquire(timeout=30)  # the cap is full
        data = urlencode({"token": server.guard.token, "text": "one too many"}).encode()
        request = urllib.request.Request(
            server.url + "check",
            data=data,
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)
        assert refused.value.code == 503
        assert refused.value.headers["Retry-After"] == "10"
        page = refused.value.read().decode("utf-8")
        assert "error: 2 checks are running, the most this server runs at once" in page
        assert "TRIQUA_SERVE_MAX_CHECKS" in page and "one too many" in page  # the text kept
        assert not began.acquire(timeout=0.2)  # the refused check never started
        release.set()
        for thread in running:
            thread.join(30)
        status, page = post(server, {"text": "after"})  # a slot is free again
        assert status == 200 and "error: done: after" in page
        assert [line for line in lines if "(503)" in line] == [
            "refused a check (503): 2 checks are running, the most this server runs at once "
            "(--max-checks, TRIQUA_SERVE_MAX_CHECKS); try again in 10 s"
        ]
    finally:
        release.set()
        server.shutdown()
        server.server_close()


def test_the_cap_comes_from_the_flag_or_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from triqua.cli import app

    made: list[int] = []

    class Recorded(CheckServer):
        def __init__(self, *args: Any, max_checks: int, **kwargs: Any) -> None:
            made.append(max_checks)
            super().__init__(*args, max_checks=max_checks, **kwargs)

        def serve_forever(self, poll_interval: float = 0.5) -> None:
            raise KeyboardInterrupt

    monkeypatch.setattr("triqua.web.server.CheckServer", Recorded)
    runner = CliRunner()
    monkeypatch.delenv("TRIQUA_SERVE_MAX_CHECKS", raising=False)
    assert runner.invoke(app, ["serve", "--port", "0", "--no-store"]).exit_code == 0
    assert runner.invoke(app, ["serve", "--port", "0", "--max-checks", "5"]).exit_code == 0
    monkeypatch.setenv("TRIQUA_SERVE_MAX_CHECKS", "3")
    assert runner.invoke(app, ["serve", "--port", "0"]).exit_code == 0
    assert made == [2, 5, 3]
    refused = runner.invoke(app, ["serve", "--port", "0", "--max-checks", "0"])
    assert refused.exit_code == 2 and made == [2, 5, 3]
    with pytest.raises(ValueError, match="max_checks must be >= 1"):
        CheckServer(("127.0.0.1", 0), stand_in(lambda text, settings: None), {}, max_checks=0)
