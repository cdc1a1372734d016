"""A local page for checks: paste text and evidence, watch the progress, read the result.

The standard library's threading HTTP server, bound to loopback by default. ``GET /`` is the
form; ``POST /check`` from that form streams the page: a progress line from the first moment,
one line per fact as the graph verifies it, then the compact fact list with the full report
(``rendering.html``) folded underneath. ``GET /check`` is refused (405): a check is never a
link. Every request must name an allowed host and every check must carry the page's token and
come from the page's own origin (``web.guard``), so other sites can neither drive nor read it.

Built on ``http.server`` rather than an ASGI server because the page is one form and one
streamed response: a thread per check is what the checker (synchronous, CPU-bound) needs
anyway, and it adds no dependency. The listen backlog is raised to 128; the connections
served at once are capped and every request has a deadline (``web.connections``).
"""

from __future__ import annotations

import socket
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from triqua.rendering.html import html_page
from triqua.rendering.html.markup import esc
from triqua.schema import Report
from triqua.schema.redaction import redact
from triqua.web.connections import (
    DEFAULT_MAX_CONNECTIONS,
    MAX_CONNECTIONS_ENV,
    RETRY_AFTER_S,
    SAFETY_HEADERS,
    ConnectionCap,
    TimedHandler,
)
from triqua.web.guard import BodyError, Guard, one_line, read_body
from triqua.web.page import Progress, error_page, form_html, form_page, result_html

__all__ = [
    "DEFAULT_MAX_CHECKS",
    "DEFAULT_MAX_CONNECTIONS",
    "MAX_CHECKS_ENV",
    "MAX_CONNECTIONS_ENV",
    "MAX_FORM_BYTES",
    "READ_TIMEOUT_S",
    "RETRY_AFTER_S",
    "CheckServer",
    "split_evidence",
]

#: The largest form accepted (text and pasted evidence together), in bytes.
MAX_FORM_BYTES = 2_000_000
#: Seconds a request (its headers, then its whole body) may take to arrive.
READ_TIMEOUT_S = 30.0
#: Checks run at once unless told otherwise: each is CPU-bound on the offline engine.
DEFAULT_MAX_CHECKS = 2
#: The variable that sets the cap when ``--max-checks`` is not given.
MAX_CHECKS_ENV = "TRIQUA_SERVE_MAX_CHECKS"
#: A line that separates two pasted evidence documents.
DOCUMENT_BREAK = "---"
Checker = Callable[..., Report]


def split_evidence(pasted: str) -> list[str]:
    """Pasted evidence as documents: split at lines holding only ``---``; blanks dropped."""
    documents: list[list[str]] = [[]]
    for line in pasted.splitlines():
        if line.strip() == DOCUMENT_BREAK:
            documents.append([])
        else:
            documents[-1].append(line)
    return [text for text in ("\n".join(d).strip() for d in documents) if text]


def _fields(query: dict[str, list[str]]) -> dict[str, str]:
    return {name: values[0] for name, values in query.items() if values}


def _to_stderr(line: str) -> None:
    print(f"triqua serve: {line}", file=sys.stderr, flush=True)


@dataclass
class _Stream:
    """Writes page parts to the client as they come; a closed browser stops the writing."""

    write: Callable[[bytes], Any]
    flush: Callable[[], Any]
    lock: threading.Lock = field(default_factory=threading.Lock)
    closed: bool = False

    def send(self, html: str) -> None:
        with self.lock:
            if self.closed:
                return
            try:
                self.write(html.encode("utf-8"))
                self.flush()
            except OSError:  # the browser went away or stopped reading
                self.closed = True


class _Handler(TimedHandler):
    """The form, the streamed check, and nothing else (404)."""

    server: CheckServer

    def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
        if not self._host_allowed():
            return
        path = urlsplit(self.path).path
        if path == "/":
            self._page(200, form_page(self.server.guard.token))
        elif path == "/check":
            message = "a check starts from the page's form (POST /check); open / to run one"
            self._page(405, error_page(message), Allow="POST")
        else:
            self._page(404, error_page("no such page"))

    def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
        if not self._host_allowed():
            return
        if urlsplit(self.path).path != "/check":
            self._page(404, error_page("no such page"))
            return
        guard = self.server.guard
        refusal = guard.origin_refusal(self.headers.get("Origin"))
        if refusal:
            self._refuse(403, refusal)
            return
        kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind != "application/x-www-form-urlencoded":
            self._refuse(415, "send the form as application/x-www-form-urlencoded")
            return
        try:
            body = read_body(
                self.rfile,
                self.connection,
                self.headers,
                limit=MAX_FORM_BYTES,
                seconds=self.server.read_timeout,
            )
        except BodyError as error:
            self._refuse(error.status, error.message)
            return
        finally:
            self.connection.settimeout(self.server.read_timeout)
        fields = _fields(parse_qs(body.decode("utf-8", errors="replace")))
        refusal = guard.token_refusal(fields.get("token"))
        if refusal:
            self._refuse(403, refusal)
            return
        self._check(fields)

    def _host_allowed(self) -> bool:
        refusal = self.server.guard.host_refusal(self.headers.get("Host"))
        if refusal:
            self._page(403, error_page(refusal))
            self.close_connection = True
        return refusal is None

    def _refuse(self, status: int, message: str, form: str = "", **extra: str) -> None:
        """Answer a refused check with ``status`` and say why, on the page and in one line."""
        self.server.log(f"refused a check ({status}): {one_line(message)}")
        self._page(status, error_page(message, form), **extra)
        self.close_connection = True

    def _headers(self, status: int, **extra: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        for name, value in {**SAFETY_HEADERS, **extra}.items():
            self.send_header(name, value)

    def _page(self, status: int, html: str, **extra: str) -> None:
        data = html.encode("utf-8")
        self._headers(status, **extra, **{"Content-Length": str(len(data))})
        self.end_headers()
        self.wfile.write(data)

    def _check(self, fields: dict[str, str]) -> None:
        token = self.server.guard.token
        if not fields.get("text", "").strip():
            self._page(400, error_page("there is no text to check", form_html(token, fields)))
            return
        if not self.server.slots.acquire(blocking=False):
            cap = self.server.max_checks
            message = (
                f"{cap} {'check is' if cap == 1 else 'checks are'} running, the most this "
                f"server runs at once (--max-checks, {MAX_CHECKS_ENV}); "
                f"try again in {RETRY_AFTER_S} s"
            )
            retry = {"Retry-After": str(RETRY_AFTER_S)}
            self._refuse(503, message, form_html(token, fields), **retry)
            return
        try:
            self._run(fields)
        finally:
            self.server.slots.release()

    def _run(self, fields: dict[str, str]) -> None:
        """Stream one admitted check: progress, then the result or its one-line failure."""
        token = self.server.guard.token
        start, end = html_page("triqua — checking", "\0").split("\0")
        self._headers(200)
        self.end_headers()
        self.close_connection = True  # the page ends when the connection does
        stream = _Stream(self.wfile.write, self.wfile.flush)
        progress, counting = Progress(), threading.Lock()
        stream.send(start + form_html(token, fields) + progress.start())

        def on_event(event: dict[str, Any]) -> None:
            with counting:  # events may come from the graph's worker threads
                html = progress.update(event)
                if html:
                    stream.send(html)

        try:
            result = result_html(self.server.run_check(fields, on_event))
        except Exception as exc:  # any failure: one line on the page and in the terminal
            message = one_line(redact(str(exc))) or type(exc).__name__  # keys echoed, masked
            if not isinstance(exc, ValueError):  # not refused input: say what kind of failure
                message = f"{type(exc).__name__}: {message}"
            self.server.log(f"check failed: {message}")
            failed = f'<p class="error">error: {esc(message)}</p>'
            stream.send(f"</section><style>#live{{display:none}}</style>{failed}{end}")
            return
        stream.send(f"</section>{result}{end}")


class CheckServer(ConnectionCap, ThreadingHTTPServer):
    """The page's server: each check runs with ``settings`` through ``checker``.

    Args:
        address: (host, port) to bind; port 0 takes a free one. An IPv6 host binds IPv6.
        checker: ``triqua.check`` or a stand-in with its signature.
        settings: Keyword settings every check gets (model, retriever, store, …).
        allowed_hosts: Host names besides loopback and the bound host that requests may name
            (the names a server bound to all interfaces is reached by).
        read_timeout: Seconds a request may take to arrive, headers and body each.
        max_checks: Checks run at once; one more is refused with 503 and ``Retry-After``
            until one ends.
        max_connections: Connections served at once (at least ``max_checks``); one more is
            answered 503 with ``Retry-After`` (:mod:`triqua.web.connections`).
        log: Where one-line notes go (failed and refused checks); stderr by default.
    """

    daemon_threads = True
    request_queue_size = 128  # the listen backlog: bursts of requests wait, not reset

    def __init__(
        self,
        address: tuple[str, int],
        checker: Checker,
        settings: dict[str, Any],
        *,
        allowed_hosts: Iterable[str] = (),
        read_timeout: float = READ_TIMEOUT_S,
        max_checks: int = DEFAULT_MAX_CHECKS,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
        log: Callable[[str], None] = _to_stderr,
    ) -> None:
        if max_checks < 1:
            raise ValueError(f"max_checks must be >= 1, got {max_checks}")
        if max_connections < max_checks:
            raise ValueError(
                f"max_connections must be >= max_checks, got {max_connections} < {max_checks}"
            )
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__((address[0].strip("[]"), address[1]), _Handler)
        self.checker = checker
        self.settings = settings
        self.read_timeout = read_timeout
        self.max_checks = max_checks
        self.slots = threading.BoundedSemaphore(max_checks)
        self.log = log
        self._init_cap(max_connections)
        self.guard = Guard.for_address(address[0], self.server_address[1], allowed_hosts)

    @property
    def url(self) -> str:
        """The page's address."""
        host, port = self.server_address[:2]
        shown = f"[{host!s}]" if ":" in str(host) else str(host)
        return f"http://{shown}:{port}/"

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A request that failed outside a check: one line, never a traceback."""
        error = sys.exc_info()[1]
        self.log(f"a request failed: {type(error).__name__}: {one_line(error)}")

    def run_check(
        self, fields: dict[str, str], on_event: Callable[[dict[str, Any]], None]
    ) -> Report:
        """One check of the form's text, question, evidence and collection."""
        settings = dict(self.settings)
        documents = split_evidence(fields.get("evidence", ""))
        if fields.get("collection", "").strip():
            settings["retriever"] = "chroma"
            settings["collection"] = fields["collection"].strip()
        return self.checker(
            fields["text"],
            question=fields.get("question", "").strip() or None,
            documents=documents or None,
            on_event=on_event,
            **settings,
        )
