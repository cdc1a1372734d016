"""Who may use the check page: the Host allow-list, the Origin check, the page's token, bodies.

The page runs checks on the user's machine with the user's settings (model keys, private
Chroma collections, the run store), so only the page itself may start one and only names of
this machine may read it:

- **Host**: a request must name an allowed host (the loopback names, the host the server was
  bound to, and any the user added). A site whose DNS name is rebound to 127.0.0.1 sends its
  own name, so it is refused and cannot read the page or its results (DNS rebinding).
- **Origin**: a state-changing request that carries an ``Origin`` must come from this server's
  own origin; browsers send one with every cross-site POST.
- **Token**: every state-changing request carries the token made when the server started
  (256 random bits). Only the page served here holds it, so neither a foreign form nor a
  plain link can start a check.
- **Body**: a declared ``Content-Length`` of at most the limit, read within a deadline, so a
  client that sends less than it declared cannot hold a thread.
"""

from __future__ import annotations

import contextlib
import hmac
import io
import ipaddress
import secrets
import socket
import time
from collections.abc import Iterable
from dataclasses import dataclass
from email.message import Message
from urllib.parse import urlsplit

__all__ = [
    "LOOPBACK_NAMES",
    "BodyError",
    "Guard",
    "host_name",
    "is_loopback",
    "new_token",
    "one_line",
    "read_body",
]

#: The host names a loopback server answers to unless told otherwise.
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
_CHUNK = 64 * 1024


def is_loopback(host: str) -> bool:
    """True when ``host`` (a name or an address, IPv6 with or without brackets) is loopback."""
    name = host.strip().strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def host_name(header: str | None) -> str | None:
    """The host of a ``Host`` header, lower-case, without its port or IPv6 brackets.

    ``None`` when the header is missing or malformed (a port that is not a number, a bare
    IPv6 address, an unclosed bracket).
    """
    if not header or not header.strip():
        return None
    value = header.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        rest = value[end + 1 :] if end > 0 else ""
        if end <= 0 or (rest and not (rest[0] == ":" and rest[1:].isdigit())):
            return None
        return value[1:end]
    name, colon, port = value.partition(":")
    if colon and not port.isdigit():
        return None
    return name or None


def new_token() -> str:
    """A fresh random token for one run of the server (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def one_line(text: object, limit: int = 300) -> str:
    """The first line of ``text``, printable characters only, cut to ``limit`` characters.

    Terminal lines may quote what a client sent; control characters (escape sequences) are
    replaced so a request cannot write to the terminal.
    """
    first = str(text).strip().splitlines()[0] if str(text).strip() else ""
    clean = "".join(c if c.isprintable() else "?" for c in first)
    return clean if len(clean) <= limit else clean[: limit - 1] + "…"


@dataclass(frozen=True)
class Guard:
    """The admission rules of one server.

    Args:
        hosts: Host names (lower-case, no port, no brackets) the server answers to.
        port: The port it listens on; a request's ``Origin`` must name it.
        token: The token every state-changing request must carry.
    """

    hosts: frozenset[str]
    port: int
    token: str

    @classmethod
    def for_address(cls, bound: str, port: int, extra_hosts: Iterable[str] = ()) -> Guard:
        """The rules for a server bound to ``bound``:``port``, with a fresh token.

        The loopback names are always allowed; so is the bound host and each of
        ``extra_hosts`` (the names a server bound to all interfaces is reached by).
        """
        names = set(LOOPBACK_NAMES)
        for name in (bound, *extra_hosts):
            normal = name.strip().strip("[]").lower()
            if normal:
                names.add(normal)
        return cls(frozenset(names), port, new_token())

    def host_refusal(self, header: str | None) -> str | None:
        """Why a request with this ``Host`` header is refused, or ``None`` to answer it."""
        name = host_name(header)
        if name is None:
            return "the request names no valid Host"
        if name not in self.hosts:
            return f"this server does not answer to the host {one_line(name, 80)!r}"
        return None

    def origin_refusal(self, header: str | None) -> str | None:
        """Why a state-changing request from ``Origin`` is refused, or ``None`` to accept it.

        A request without ``Origin`` (a command-line client) is accepted here; it still needs
        the token.
        """
        if header is None:
            return None
        try:
            origin = urlsplit(header.strip())
            port = origin.port or (80 if origin.scheme == "http" else None)
        except ValueError:
            return "the request's Origin is malformed"
        same = origin.scheme == "http" and origin.hostname in self.hosts and port == self.port
        return None if same else "requests from other sites are refused"

    def token_refusal(self, given: str | None) -> str | None:
        """Why a state-changing request carrying ``given`` is refused, or ``None``."""
        if not given:
            return "the request carries no page token; start checks from the page"
        if not hmac.compare_digest(given.encode("utf-8"), self.token.encode("utf-8")):
            return "the page token is not this server's; reload the page"
        return None


class BodyError(Exception):
    """A request body that is refused: its HTTP status and what the page says."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def read_body(
    rfile: io.BufferedIOBase,
    connection: socket.socket,
    headers: Message,
    *,
    limit: int,
    seconds: float,
) -> bytes:
    """The request body, at most ``limit`` bytes, read within ``seconds`` in all.

    Raises:
        BodyError: 411 without a ``Content-Length`` (chunked bodies included), 400 for a
            length that is not a byte count or a body that ends early, 413 over ``limit``,
            408 when the declared bytes do not arrive in time.
    """
    if headers.get("Transfer-Encoding"):
        raise BodyError(411, "send the form with a Content-Length (chunked bodies are refused)")
    declared = headers.get("Content-Length")
    if declared is None:
        raise BodyError(411, "the request has no Content-Length")
    try:
        length = int(declared.strip())
        if length < 0:
            raise ValueError(declared)
    except ValueError:
        raise BodyError(400, f"Content-Length {one_line(declared, 40)!r} is not a size") from None
    if length > limit:
        if length <= 4 * limit:  # read it (within the deadline), so a browser sees the answer
            with contextlib.suppress(BodyError):
                _read(rfile, connection, length, seconds, keep=False)
        raise BodyError(413, f"the form is over {limit:,} bytes")
    return _read(rfile, connection, length, seconds, keep=True)


def _read(
    rfile: io.BufferedIOBase, connection: socket.socket, length: int, seconds: float, *, keep: bool
) -> bytes:
    """``length`` bytes within ``seconds`` in all (kept, or read and dropped)."""
    deadline = time.monotonic() + seconds
    parts: list[bytes] = []
    got = 0
    while got < length:
        left = deadline - time.monotonic()
        try:
            if left <= 0:
                raise TimeoutError
            connection.settimeout(left)
            part = rfile.read1(min(_CHUNK, length - got))
        except TimeoutError:
            message = f"the form did not arrive within {seconds:g} s ({got:,} of {length:,} bytes)"
            raise BodyError(408, message) from None
        if not part:
            raise BodyError(400, f"the form ended after {got:,} of {length:,} bytes")
        if keep:
            parts.append(part)
        got += len(part)
    return b"".join(parts)
