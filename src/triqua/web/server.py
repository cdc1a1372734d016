"""A local page for checks: paste text and evidence, watch the verdicts arrive, read the report.

The standard library's threading HTTP server, bound to loopback by default: ``GET /`` is the
form; ``POST /check`` (or ``GET /check?text=…``, so a check is a link) streams one line per
fact as the graph verifies it, then the same report the HTML file shows (``rendering.html``).
Runs are checked with the server's settings and stored like CLI runs. Hand-written on
``http.server`` because the page needs no framework: one form, one streamed response.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from triqua.rendering.html import html_page, report_body
from triqua.rendering.html.markup import esc
from triqua.schema import Report

__all__ = ["MAX_FORM_BYTES", "CheckServer", "form_html", "split_evidence"]

#: The largest form accepted (text and pasted evidence together), in bytes.
MAX_FORM_BYTES = 2_000_000
#: A line that separates two pasted evidence documents.
DOCUMENT_BREAK = "---"

_STYLE = (
    "<style>form.check textarea{width:100%;font:inherit}form.check label{display:block;"
    "margin-top:10px;font-weight:600}#live li.supported{color:var(--ok)}"
    "#live li.contradicted{color:var(--bad)}#live li.insufficient_evidence{color:var(--unk)}"
    ".error{color:var(--bad);font-weight:600}</style>"
)

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


def form_html(fields: dict[str, str] | None = None) -> str:
    """The check form, filled with ``fields`` (escaped) when given."""
    given = fields or {}

    def value(name: str) -> str:
        return esc(given.get(name, ""))

    return (
        _STYLE
        + '<form class="check" method="post" action="/check">'
        + '<label for="text">Text to check</label>'
        + f'<textarea id="text" name="text" rows="8" required>{value("text")}</textarea>'
        + '<label for="question">Question it answers (optional)</label>'
        + f'<textarea id="question" name="question" rows="1">{value("question")}</textarea>'
        + '<label for="evidence">Evidence documents (optional; a line "---" between two)</label>'
        + f'<textarea id="evidence" name="evidence" rows="6">{value("evidence")}</textarea>'
        + '<label for="collection">or a Chroma collection to search (optional)</label>'
        + f'<input id="collection" name="collection" value="{value("collection")}">'
        + '<p><button type="submit">Check</button></p></form>'
    )


def _fields(query: dict[str, list[str]]) -> dict[str, str]:
    return {name: values[0] for name, values in query.items() if values}


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
            except (BrokenPipeError, ConnectionResetError):
                self.closed = True


class _Handler(BaseHTTPRequestHandler):
    """The form, the streamed check, and nothing else (404)."""

    server: CheckServer

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        if url.path == "/":
            self._page(200, html_page("triqua", "<h1>triqua</h1>" + form_html()))
        elif url.path == "/check":
            self._check(_fields(parse_qs(url.query)))
        else:
            self._page(404, html_page("triqua", '<p class="error">No such page.</p>'))

    def do_POST(self) -> None:
        if urlsplit(self.path).path != "/check":
            self._page(404, html_page("triqua", '<p class="error">No such page.</p>'))
            return
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_FORM_BYTES:
            if length <= 4 * MAX_FORM_BYTES:  # read it, so the browser sees the answer
                self.rfile.read(length)
            limit = f"error: the form is over {MAX_FORM_BYTES:,} bytes"
            self._page(413, html_page("triqua", f'<p class="error">{esc(limit)}</p>'))
            self.close_connection = True
            return
        kind = self.headers.get("Content-Type", "").split(";")[0].strip()
        if kind != "application/x-www-form-urlencoded":
            message = "error: send the form as application/x-www-form-urlencoded"
            self._page(415, html_page("triqua", f'<p class="error">{esc(message)}</p>'))
            return
        body = self.rfile.read(length).decode("utf-8", errors="replace")
        self._check(_fields(parse_qs(body)))

    def log_message(self, format: str, *args: Any) -> None:
        """Requests are not logged: the page's own text stays out of the terminal."""

    def _page(self, status: int, html: str) -> None:
        data = html.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _check(self, fields: dict[str, str]) -> None:
        text = fields.get("text", "")
        if not text.strip():
            body = '<p class="error">error: there is no text to check</p>' + form_html(fields)
            self._page(400, html_page("triqua", body))
            return
        start, end = html_page("triqua — checking", "\0").split("\0")
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.close_connection = True  # the page ends when the connection does
        stream = _Stream(self.wfile.write, self.wfile.flush)
        stream.send(start + form_html(fields) + '<section id="live"><h2>Verdicts</h2><ol>')

        def on_event(event: dict[str, Any]) -> None:
            if event.get("event") == "fact_verified":
                status = str(event.get("status", ""))
                line = f"{esc(status)}: {esc(str(event.get('claim', '')))}"
                stream.send(f'<li class="{esc(status)}">{line}</li>')

        try:
            report = self.server.run_check(fields, on_event)
        except ValueError as exc:  # bad input: one line, as the CLI says it
            message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            stream.send(f'</ol></section><p class="error">error: {esc(message)}</p>{end}')
            return
        stream.send(f'</ol></section><section id="report">{report_body(report)}</section>{end}')


class CheckServer(ThreadingHTTPServer):
    """The page's server: each check runs with ``settings`` through ``checker``.

    Args:
        address: (host, port) to bind; port 0 takes a free one.
        checker: ``triqua.check`` or a stand-in with its signature.
        settings: Keyword settings every check gets (model, retriever, store, …).
    """

    daemon_threads = True

    def __init__(
        self, address: tuple[str, int], checker: Checker, settings: dict[str, Any]
    ) -> None:
        super().__init__(address, _Handler)
        self.checker = checker
        self.settings = settings

    @property
    def url(self) -> str:
        """The page's address."""
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}/"

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
