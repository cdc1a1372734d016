"""`triqua serve` against other web sites and bad clients: Host, Origin, token, bodies, backlog."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from typer.testing import CliRunner

import triqua
from triqua.cli import app
from triqua.web.guard import Guard, host_name, is_loopback, one_line
from triqua.web.server import CheckServer

from .conftest import CURIE
from .test_serve import open_url, post, start

ROOT = Path(__file__).resolve().parents[1]


class Recorder:
    """A checker stand-in that records whether any check ran."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __call__(self, text: str, **settings: Any) -> triqua.Report:
        self.calls.append(text)
        raise ValueError("checked")


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def guarded(recorder: Recorder) -> Iterator[tuple[CheckServer, list[str]]]:
    lines: list[str] = []
    server = start(CheckServer(("127.0.0.1", 0), recorder, {}, read_timeout=0.5, log=lines.append))
    try:
        yield server, lines
    finally:
        server.shutdown()
        server.server_close()


def raw(server: CheckServer, payload: bytes, *, wait: float = 10) -> tuple[bytes, float]:
    """Send raw bytes, read the answer until the server closes; the answer and seconds taken."""
    host, port = server.server_address[:2]
    began = time.monotonic()
    with socket.create_connection((str(host), port), timeout=wait) as client:
        client.sendall(payload)
        answer = b""
        while chunk := client.recv(65536):
            answer += chunk
    return answer, time.monotonic() - began


def test_host_names_are_parsed_strictly() -> None:
    assert host_name("LocalHost:8765") == "localhost"
    assert host_name("[::1]:8765") == "::1" and host_name("[::1]") == "::1"
    assert host_name("127.0.0.1") == "127.0.0.1"
    for bad in (None, "", "  ", "[::1", "[::1]x", "a:b", "::1", "host:80:80"):
        assert host_name(bad) is None, bad
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("[::1]")
    assert is_loopback("localhost") and is_loopback("127.3.2.1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")
    assert not is_loopback("example.org")
    assert one_line("a\x1b[31mb\nc") == "a?[31mb"


@pytest.mark.slow
@pytest.mark.parametrize("host", ["attacker.example", "attacker.example:8765", "", "[::1"])
def test_a_foreign_host_is_refused_dns_rebinding(
    guarded: tuple[CheckServer, list[str]], recorder: Recorder, host: str
) -> None:
    server, _ = guarded
    status, page = open_url(urllib.request.Request(server.url, headers={"Host": host}))
    assert status == 403 and server.guard.token not in page  # the page is not readable
    status, page = post(server, {"text": CURIE}, Host=host)
    assert status == 403 and "host" in page.lower()
    assert recorder.calls == []


@pytest.mark.slow
@pytest.mark.parametrize(
    "host", ["localhost", "127.0.0.1", "[::1]", "LOCALHOST:{port}", "127.0.0.1:{port}"]
)
def test_loopback_names_are_answered(guarded: tuple[CheckServer, list[str]], host: str) -> None:
    server, _ = guarded
    named = host.format(port=server.server_address[1])
    status, page = open_url(urllib.request.Request(server.url, headers={"Host": named}))
    assert status == 200 and server.guard.token in page


def test_a_bound_or_added_host_is_answered(recorder: Recorder) -> None:
    guard = Guard.for_address("0.0.0.0", 8765, ["box.lan"])
    assert guard.host_refusal("box.lan:8765") is None
    assert guard.host_refusal("0.0.0.0:8765") is None
    assert guard.host_refusal("other.lan") is not None
    assert guard.origin_refusal("http://box.lan:8765") is None
    assert guard.origin_refusal("http://box.lan:8766") is not None


@pytest.mark.slow
@pytest.mark.parametrize(
    "origin",
    ["http://attacker.example", "http://127.0.0.1:1", "https://127.0.0.1:{port}", "null"],
)
def test_a_cross_origin_post_is_refused(
    guarded: tuple[CheckServer, list[str]], recorder: Recorder, origin: str
) -> None:
    server, lines = guarded
    status, page = post(
        server, {"text": CURIE}, Origin=origin.format(port=server.server_address[1])
    )
    assert status == 403 and "requests from other sites are refused" in page
    assert recorder.calls == []
    assert lines == ["refused a check (403): requests from other sites are refused"]


def test_the_pages_own_origin_and_a_client_without_origin_are_accepted(
    guarded: tuple[CheckServer, list[str]], recorder: Recorder
) -> None:
    server, _ = guarded
    port = server.server_address[1]
    assert post(server, {"text": "one"}, Origin=f"http://localhost:{port}")[0] == 200
    data = urlencode({"token": server.guard.token, "text": "two"}).encode()
    request = urllib.request.Request(
        server.url + "check",
        data=data,
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert open_url(request)[0] == 200
    assert recorder.calls == ["one", "two"]


def test_a_get_to_the_check_endpoint_is_refused(
    guarded: tuple[CheckServer, list[str]], recorder: Recorder
) -> None:
    server, _ = guarded
    query = urlencode({"text": CURIE, "token": server.guard.token})
    try:
        with urllib.request.urlopen(server.url + "check?" + query, timeout=30) as answer:
            status, allow = answer.status, answer.headers.get("Allow")
    except urllib.error.HTTPError as error:
        status, allow = error.code, error.headers.get("Allow")
    assert (status, allow) == (405, "POST")
    assert recorder.calls == []


@pytest.mark.slow
@pytest.mark.parametrize(
    ("token", "said"),
    [(None, "carries no page token"), ("", "carries no page token"), ("x" * 43, "not this")],
)
def test_a_missing_or_wrong_token_is_refused(
    guarded: tuple[CheckServer, list[str]], recorder: Recorder, token: str | None, said: str
) -> None:
    server, _ = guarded
    fields = {"text": CURIE} if token is None else {"text": CURIE, "token": token}
    data = urlencode(fields).encode()
    request = urllib.request.Request(
        server.url + "check",
        data=data,
        headers={"Content-Type": "application/x-www-form-urlencoded", "Origin": server.url[:-1]},
    )
    status, page = open_url(request)
    assert status == 403 and said in page
    assert recorder.calls == []


def test_an_oversize_body_is_refused_without_reading_it(
    guarded: tuple[CheckServer, list[str]], recorder: Recorder
) -> None:
    server, _ = guarded
    head = (
        b"POST /check HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 50000000\r\n\r\n"
    )
    answer, seconds = raw(server, head)
    assert answer.startswith(b"HTTP/1.0 413 ") and b"the form is over 2,000,000 bytes" in answer
    assert seconds < 5 and recorder.calls == []


@pytest.mark.slow
@pytest.mark.parametrize(
    ("declared", "sent"), [(1000, b"text=abc"), (10, b"")], ids=["short-body", "no-body"]
)
def test_a_short_body_times_out(
    guarded: tuple[CheckServer, list[str]], recorder: Recorder, declared: int, sent: bytes
) -> None:
    server, _ = guarded  # read_timeout=0.5
    head = (
        b"POST /check HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/x-www-form-urlencoded\r\n"
        + f"Content-Length: {declared}\r\n\r\n".encode()
    )
    answer, seconds = raw(server, head + sent)
    assert answer.startswith(b"HTTP/1.0 408 ") and b"did not arrive within 0.5 s" in answer
    assert seconds < 3 and recorder.calls == []


@pytest.mark.slow
def test_a_silent_client_is_dropped(guarded: tuple[CheckServer, list[str]]) -> None:
    server, _ = guarded
    answer, seconds = raw(server, b"POST /check HTTP/1.1\r\nHost: 127.0.0")  # headers never end
    assert answer == b"" and seconds < 3


@pytest.mark.slow
@pytest.mark.parametrize(
    ("length", "status"),
    [("-1", b"400"), ("ten", b"400"), (None, b"411")],
    ids=["negative", "not-a-number", "missing"],
)
def test_a_wrong_content_length_is_refused(
    guarded: tuple[CheckServer, list[str]], length: str | None, status: bytes
) -> None:
    server, _ = guarded
    head = (
        b"POST /check HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/x-www-form-urlencoded\r\n"
    )
    if length is not None:
        head += f"Content-Length: {length}\r\n".encode()
    answer, seconds = raw(server, head + b"\r\n")
    assert answer.startswith(b"HTTP/1.0 " + status + b" ") and seconds < 3


def test_a_burst_of_connections_waits_in_the_backlog() -> None:
    # Nothing accepts yet: every connection must wait in the listen queue, none be refused.
    server = CheckServer(("127.0.0.1", 0), Recorder(), {})
    clients: list[socket.socket] = []
    try:
        host, port = server.server_address[:2]
        for _ in range(100):
            client = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            client.settimeout(1.0)
            clients.append(client)
            client.connect((str(host), port))  # times out once the queue is full
    finally:
        for client in clients:
            client.close()
        server.server_close()
    assert len(clients) == 100


def test_a_non_loopback_host_prints_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    def stop_at_once(self: CheckServer, *args: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(CheckServer, "serve_forever", stop_at_once)
    runner = CliRunner()
    exposed = runner.invoke(app, ["serve", "--host", "0.0.0.0", "--port", "0", "--no-store"])
    assert exposed.exit_code == 0, exposed.output
    assert "warning: listening on 0.0.0.0, not loopback: anyone who can reach" in exposed.stderr
    local = runner.invoke(app, ["serve", "--port", "0", "--no-store"])
    assert local.exit_code == 0 and "warning" not in local.stderr
    assert "triqua serve: open http://127.0.0.1:" in local.stderr


@pytest.mark.slow
def test_an_unknown_collection_is_one_line_in_the_terminal_and_the_page(tmp_path: Path) -> None:
    env = {**os.environ, "TRIQUA_HOME": str(tmp_path / "home"), "HOME": str(tmp_path)}
    env["PYTHONPATH"] = str(ROOT / "src")
    command = [sys.executable, "-m", "triqua", "serve", "--port", "0", "--no-store"]
    process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        first = process.stderr.readline()
        assert first.startswith("triqua serve: open http://127.0.0.1:"), first
        url = first.split("open ", 1)[1].split()[0]
        status, page = open_url(url)
        token = page.split('name="token" value="', 1)[1].split('"', 1)[0]
        data = urlencode({"token": token, "text": CURIE, "collection": "private"}).encode()
        request = urllib.request.Request(
            url + "check",
            data=data,
            headers={"Content-Type": "application/x-www-form-urlencoded", "Origin": url[:-1]},
        )
        status, page = open_url(request)
    finally:
        process.terminate()
        _, rest = process.communicate(timeout=60)
    assert status == 200 and page.rstrip().endswith("</html>")
    said = "error: RetrieverUnavailable: chroma: collection &#x27;private&#x27; not found"
    assert f'<p class="error">{said}' in page
    lines = rest.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in rest, rest
    assert lines[0].startswith(
        "triqua serve: check failed: RetrieverUnavailable: chroma: collection 'private' not found"
    )


def test_a_request_that_fails_outside_a_check_is_one_line(recorder: Recorder) -> None:
    lines: list[str] = []
    server = CheckServer(("127.0.0.1", 0), recorder, {}, log=lines.append)
    try:
        try:
            raise ConnectionResetError("peer reset\nsecond line")
        except ConnectionResetError:
            server.handle_error(None, ("127.0.0.1", 1))
    finally:
        server.server_close()
    assert lines == ["a request failed: ConnectionResetError: peer reset"]


def test_an_ipv6_loopback_server_answers_its_bracketed_name(recorder: Recorder) -> None:
    try:
        server = start(CheckServer(("::1", 0), recorder, {}))
    except OSError as error:
        pytest.skip(f"no IPv6 loopback here: {error}")
    try:
        assert server.url.startswith("http://[::1]:")
        status, page = open_url(server.url)
        assert status == 200 and server.guard.token in page
    finally:
        server.shutdown()
        server.server_close()


def test_a_failed_checks_message_shows_no_key_on_the_page_or_in_the_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    key = "vendor-" + "k3y" * 8
    monkeypatch.setenv("VENDOR_API_KEY", key)
    url_password = "pw-" + "s3cret" * 3

    def failing(text: str, **settings: Any) -> triqua.Report:
        raise RuntimeError(
            f"401 Incorrect API key provided: {key}; "
            f"cannot reach http://alice:{url_password}@chroma.internal:8000/"
        )

    logs: list[str] = []
    server = start(CheckServer(("127.0.0.1", 0), failing, {}, log=logs.append))
    try:
        from triqua.schema.redaction import register_url_secrets

        register_url_secrets(f"http://alice:{url_password}@chroma.internal:8000/")
        status, page = post(server, {"text": CURIE})
    finally:
        server.shutdown()
        server.server_close()
    assert (
        status == 200 and "error: RuntimeError: 401 Incorrect API key provided: [redacted]" in page
    )
    assert key not in page and url_password not in page
    assert len(logs) == 1 and "[redacted]" in logs[0]
    assert key not in logs[0] and url_password not in logs[0]


@pytest.mark.slow
def test_a_client_trickling_its_headers_is_dropped_at_the_deadline(
    guarded: tuple[CheckServer, list[str]],
) -> None:
    # Each byte comes within the socket timeout (0.5 s), so only a deadline over the whole
    # request line and headers stops a client that never finishes them.
    server, _ = guarded
    host, port = server.server_address[:2]
    began = time.monotonic()
    with socket.create_connection((str(host), port), timeout=10) as client:
        client.sendall(b"GET / HTTP/1.1\r\n")
        closed = False
        while time.monotonic() - began < 5:
            try:
                client.sendall(b"X")
            except OSError:  # the server has closed it
                closed = True
                break
            time.sleep(0.2)
            client.setblocking(False)
            try:
                closed = client.recv(65536) == b""
            except BlockingIOError:
                pass
            except OSError:
                closed = True
            client.setblocking(True)
            if closed:
                break
    assert closed and time.monotonic() - began < 2.5


def _held(server: CheckServer, count: int) -> list[socket.socket]:
    """``count`` connections that have sent part of a request and wait (slow clients)."""
    host, port = server.server_address[:2]
    held = []
    for _ in range(count):
        client = socket.create_connection((str(host), port), timeout=10)
        client.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # headers not finished
        held.append(client)
    return held


@pytest.mark.slow
def test_connections_over_the_cap_are_answered_503_with_retry_after(recorder: Recorder) -> None:
    lines: list[str] = []
    server = start(
        CheckServer(
            ("127.0.0.1", 0),
            recorder,
            {},
            read_timeout=3,
            max_checks=1,
            max_connections=3,
            log=lines.append,
        )
    )
    held = _held(server, 3)
    try:
        time.sleep(0.3)  # every held one is being served (each holds a connection slot)
        answer, seconds = raw(server, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert answer.startswith(b"HTTP/1.0 503 ") and seconds < 2, answer[:200]
        assert b"\r\nRetry-After: 10\r\n" in answer
        assert b"3 connections are open, the most this server serves at once" in answer
        assert b"TRIQUA_SERVE_MAX_CONNECTIONS" in answer
        assert any("refused a connection (503)" in line for line in lines)
        held.pop().close()  # one slow client leaves: its slot is free again
        deadline = time.monotonic() + 5
        while True:
            status, page = open_url(server.url)
            if status == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert status == 200 and server.guard.token in page
    finally:
        for client in held:
            client.close()
        server.shutdown()
        server.server_close()


@pytest.mark.slow
def test_slow_clients_cannot_hold_the_server_past_the_read_timeout(recorder: Recorder) -> None:
    server = start(CheckServer(("127.0.0.1", 0), recorder, {}, read_timeout=0.5, max_connections=2))
    held = _held(server, 2)  # every connection slot taken by a client that never finishes
    try:
        deadline = time.monotonic() + 5
        status = 0
        while status != 200 and time.monotonic() < deadline:
            try:
                status, _ = open_url(server.url)
            except urllib.error.HTTPError as exc:  # 503 while they still hold the slots
                status = exc.code
            time.sleep(0.1)
        assert status == 200 and time.monotonic() < deadline  # they were dropped
    finally:
        for client in held:
            client.close()
        server.shutdown()
        server.server_close()


def test_the_connection_cap_comes_from_the_flag_or_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[int] = []

    class Recorded(CheckServer):
        def __init__(self, *args: Any, max_connections: int, **kwargs: Any) -> None:
            made.append(max_connections)
            super().__init__(*args, max_connections=max_connections, **kwargs)

        def serve_forever(self, poll_interval: float = 0.5) -> None:
            raise KeyboardInterrupt

    monkeypatch.setattr("triqua.web.server.CheckServer", Recorded)
    runner = CliRunner()
    monkeypatch.delenv("TRIQUA_SERVE_MAX_CONNECTIONS", raising=False)
    monkeypatch.delenv("TRIQUA_SERVE_MAX_CHECKS", raising=False)
    assert runner.invoke(app, ["serve", "--port", "0", "--no-store"]).exit_code == 0
    assert runner.invoke(app, ["serve", "--port", "0", "--max-connections", "5"]).exit_code == 0
    monkeypatch.setenv("TRIQUA_SERVE_MAX_CONNECTIONS", "7")
    assert runner.invoke(app, ["serve", "--port", "0"]).exit_code == 0
    assert made == [16, 5, 7]
    below = runner.invoke(app, ["serve", "--port", "0", "--max-checks", "8"])
    assert below.exit_code == 2 and made == [16, 5, 7]
    assert "--max-connections (7) must be at least --max-checks (8)" in below.stderr
    with pytest.raises(ValueError, match="max_connections must be >= max_checks"):
        CheckServer(("127.0.0.1", 0), Recorder(), {}, max_checks=3, max_connections=2)


@pytest.mark.slow
def test_a_flood_of_slow_connections_starts_no_more_threads_than_the_cap(
    recorder: Recorder,
) -> None:
    import threading

    from triqua.web.connections import BUSY_SLOTS

    server = start(CheckServer(("127.0.0.1", 0), recorder, {}, read_timeout=5, max_connections=3))
    before = threading.active_count()
    held = _held(server, 40)
    try:
        time.sleep(0.5)
        # Each served connection has its thread and its headers' watchdog; so has each 503.
        assert threading.active_count() - before <= 2 * (3 + BUSY_SLOTS)
        status, _ = 0, None
        for client in held[:3]:
            client.close()
        deadline = time.monotonic() + 5
        while status != 200 and time.monotonic() < deadline:
            try:
                status, _ = open_url(server.url)
            except (urllib.error.HTTPError, urllib.error.URLError, OSError):
                time.sleep(0.1)
        assert status == 200  # the page is served again once slots are free
    finally:
        for client in held:
            client.close()
        server.shutdown()
        server.server_close()
