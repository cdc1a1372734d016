"""How many connections the local page serves at once, and how long a request may take.

A thread serves each connection. :class:`ConnectionCap` bounds them: at most
``max_connections`` are served; one more is answered ``503`` with ``Retry-After`` by one of
a few spare threads (a browser sees why), and once those are busy too it is closed at once,
so a flood of connections cannot start a thread each. :class:`TimedHandler` bounds each
request: every socket read and write has the read timeout, and the request line and headers
together must arrive within it, so a client that trickles them (a byte at a time, each just
within the socket timeout) cannot keep its thread, and its slot, for long. The body has its
own deadline (``web.guard.read_body``).
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler
from socketserver import BaseServer
from typing import Any, cast

from triqua.web.page import error_page

__all__ = [
    "BUSY_SLOTS",
    "DEFAULT_MAX_CONNECTIONS",
    "MAX_CONNECTIONS_ENV",
    "RETRY_AFTER_S",
    "SAFETY_HEADERS",
    "ConnectionCap",
    "TimedHandler",
]

#: Connections served at once unless told otherwise (checks, forms and refusals together).
DEFAULT_MAX_CONNECTIONS = 16
#: The variable that sets the connection cap when ``--max-connections`` is not given.
MAX_CONNECTIONS_ENV = "TRIQUA_SERVE_MAX_CONNECTIONS"
#: Spare threads that answer connections over the cap with 503; beyond them, closed at once.
BUSY_SLOTS = 4
#: Seconds a connection over the cap may take to send its request before the 503.
_BUSY_READ_S = 2.0
#: Seconds a refused client or check is told to wait before trying again (``Retry-After``).
RETRY_AFTER_S = 10
#: Seconds between two terminal lines about refused connections (a flood is one line a while).
_LOG_EVERY_S = 10.0
#: Headers on every answer: no caching, no framing, no scripts, forms post only here.
SAFETY_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",  # "no-referrer" makes browsers send Origin: null
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
}


class TimedHandler(BaseHTTPRequestHandler):
    """A request handler whose request line and headers must arrive within the read timeout.

    A watchdog shuts the socket at the deadline unless the headers are in by then: the read
    waiting for them ends, and no request is handled.
    """

    server: Any

    def _seconds(self) -> float:
        return float(self.server.read_timeout)

    def setup(self) -> None:
        """Bound every read and write, and start the headers' deadline."""
        super().setup()
        self.connection.settimeout(self._seconds())  # every read and write is bounded
        self._watch_lock = threading.Lock()
        self._headers_in = False
        self._late = False
        self._watch = threading.Timer(self._seconds(), self._deadline)
        self._watch.daemon = True
        self._watch.start()

    def _deadline(self) -> None:
        with self._watch_lock:
            if self._headers_in:
                return
            self._late = True
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)

    def parse_request(self) -> bool:
        """Read the headers; a request whose headers came after the deadline is dropped."""
        parsed = super().parse_request()
        with self._watch_lock:
            self._headers_in = True
            late = self._late
        self._watch.cancel()
        if late:
            self.close_connection = True
            return False
        return parsed

    def finish(self) -> None:
        """Stop the watchdog with the connection."""
        self._watch.cancel()
        super().finish()

    def log_message(self, format: str, *args: Any) -> None:
        """Requests are not logged: the page's own text stays out of the terminal."""


class _Busy(TimedHandler):
    """Answers a connection over the cap: 503 with ``Retry-After``, whatever it asked."""

    def _seconds(self) -> float:
        return min(_BUSY_READ_S, float(self.server.read_timeout))

    def handle_one_request(self) -> None:
        """Read the request line and headers (not the body), answer 503, close gently."""
        self.close_connection = True
        try:
            self.raw_requestline = self.rfile.readline(65537)
            if not self.raw_requestline or not self.parse_request():
                return
        except OSError:
            return
        cap = self.server.max_connections
        message = (
            f"{cap} {'connection is' if cap == 1 else 'connections are'} open, the most this "
            f"server serves at once (--max-connections, {MAX_CONNECTIONS_ENV}); "
            f"try again in {RETRY_AFTER_S} s"
        )
        data = error_page(message).encode("utf-8")
        headers = {
            **SAFETY_HEADERS,
            "Content-Type": "text/html; charset=utf-8",
            "Content-Length": str(len(data)),
            "Retry-After": str(RETRY_AFTER_S),
        }
        with contextlib.suppress(OSError):
            self.send_response(503)
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()
            self._linger()

    def _linger(self) -> None:
        """Let the client read the answer: end writing, then drop what it still sends.

        Closing with its unread body in the socket would reset the connection, and the
        client could lose the answer with it.
        """
        self.connection.shutdown(socket.SHUT_WR)
        deadline = time.monotonic() + self._seconds()
        while (left := deadline - time.monotonic()) > 0:
            self.connection.settimeout(left)
            if not self.connection.recv(65536):
                return


class ConnectionCap:
    """A threading server's mixin: at most ``max_connections`` connections served at once.

    Put before ``ThreadingHTTPServer`` in the bases, and call :meth:`_init_cap` in
    ``__init__``.
    """

    max_connections: int
    log: Any

    def _init_cap(self, max_connections: int) -> None:
        self.max_connections = max_connections
        self._slots = threading.BoundedSemaphore(max_connections)
        self._busy_slots = threading.BoundedSemaphore(BUSY_SLOTS)
        self._admitted: dict[int, tuple[threading.BoundedSemaphore, bool]] = {}
        self._admitted_lock = threading.Lock()
        self._refused = 0
        self._logged_at: float | None = None

    def process_request(self, request: Any, client_address: Any) -> None:
        """Serve ``request`` in a thread of its own if a slot is free, else turn it away."""
        if self._slots.acquire(blocking=False):
            slot, served = self._slots, True
        elif self._busy_slots.acquire(blocking=False):
            slot, served = self._busy_slots, False
            self._note_refusal()
        else:  # a flood: not even a 503 (each answer would be a thread)
            self._note_refusal()
            self.shutdown_request(request)  # type: ignore[attr-defined]
            return
        with self._admitted_lock:
            self._admitted[request.fileno()] = (slot, served)
        try:
            super().process_request(request, client_address)  # type: ignore[misc]
        except BaseException:
            with self._admitted_lock:
                self._admitted.pop(request.fileno(), None)
            slot.release()
            raise

    def finish_request(self, request: Any, client_address: Any) -> None:
        """Serve the connection with the page, or with the 503 when it came over the cap."""
        with self._admitted_lock:
            slot, served = self._admitted.pop(request.fileno())
        try:
            if served:
                super().finish_request(request, client_address)  # type: ignore[misc]
            else:
                _Busy(request, client_address, cast("BaseServer", self))
        finally:
            slot.release()

    def _note_refusal(self) -> None:
        """One terminal line for refused connections, at most every few seconds."""
        with self._admitted_lock:
            self._refused += 1
            now = time.monotonic()
            if self._logged_at is not None and now - self._logged_at < _LOG_EVERY_S:
                return
            count, self._refused, self._logged_at = self._refused, 0, now
        what = "a connection" if count == 1 else f"{count} connections since the last note"
        self.log(
            f"refused {what} (503): {self.max_connections} connections are open, the most "
            f"this server serves at once (--max-connections, {MAX_CONNECTIONS_ENV})"
        )
