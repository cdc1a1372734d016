"""Reading JSON and JSON Lines safely: a bad line is a ``file:line: reason`` problem, never a crash.

Every JSONL reader of triqua (batch input and output, evidence and ingest files, eval data)
goes through :func:`read_jsonl`, so malformed JSON, nesting deep enough to exhaust the
parser's recursion (``[[[[…]]]]``), over-long lines and bytes that are not UTF-8 are
reported for their line and the other lines are still read.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TypeVar

from triqua.support.encoding import not_utf8

__all__ = [
    "MAX_LINE_BYTES",
    "JsonLine",
    "loads",
    "read_jsonl",
]

#: Longest JSONL line read (bytes); longer lines are reported and skipped without being kept
#: in memory. A batch line holding a text at ``max_input_chars`` fits well within it.
MAX_LINE_BYTES = 32 * 1024 * 1024

_SKIP_CHUNK = 1024 * 1024
T = TypeVar("T")


@dataclass(frozen=True)
class JsonLine:
    """A parsed line: its 1-based number and its value."""

    number: int
    value: Any


def loads(text: str | bytes) -> Any:
    """``json.loads`` whose failures (malformed or too deeply nested) are one-line ``ValueError``s.

    Raises:
        ValueError: ``"invalid JSON (…)"`` or ``"JSON nested too deeply"``.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        # Some decoder messages end in "at" ("Unterminated string starting at").
        message = exc.msg.removesuffix(" at")
        raise ValueError(f"invalid JSON ({message} at column {exc.colno})") from None
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def _raw_lines(handle: IO[bytes], max_line_bytes: int) -> Iterator[tuple[int, bytes | None]]:
    """``(number, line)`` of a byte stream; ``None`` for a line longer than ``max_line_bytes``.

    ``readline(limit)`` keeps at most one line's worth of the cap in memory; the rest of an
    over-long line is read past in chunks.
    """
    number = 0
    while True:
        data = handle.readline(max_line_bytes + 1)
        if not data:
            return
        number += 1
        if len(data) > max_line_bytes and not data.endswith(b"\n"):
            while True:
                rest = handle.readline(_SKIP_CHUNK)
                if not rest or rest.endswith(b"\n"):
                    break
            yield number, None
            continue
        yield number, data


def read_jsonl(
    source: str | Path | bytes,
    problem: Callable[[str], None],
    *,
    parse: Callable[[Any], T] | None = None,
    where: str | Path | None = None,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> Iterator[tuple[int, T]]:
    """Yield ``(line number, value)`` for each good line of a JSONL file or its bytes.

    Blank lines are skipped. Every bad line is passed to ``problem`` as
    ``"<where>:<line>: <reason>"`` and skipped; reading goes on with the next line.

    Args:
        source: A file path (streamed, never read whole) or the file's bytes.
        problem: Called with one message per bad line.
        parse: Turns a decoded JSON value into the caller's item; a ``ValueError`` (or
            ``RecursionError``) it raises becomes that line's problem. Default: the value.
        where: The name used in messages (default: the path, or ``<input>`` for bytes).
        max_line_bytes: Longest line accepted.

    Raises:
        ValueError: ``"<path>: <why>"`` when the file cannot be opened.
    """
    default = "<input>" if isinstance(source, bytes) else str(source)
    name = str(where) if where is not None else default
    if isinstance(source, bytes):
        handle: IO[bytes] = io.BytesIO(source)
    else:
        try:
            handle = Path(source).open("rb")  # noqa: SIM115 - closed in the finally below
        except OSError as exc:
            raise ValueError(f"{name}: cannot be read ({exc.strerror or exc})") from None
    try:
        for number, data in _raw_lines(handle, max_line_bytes):
            if data is None:
                problem(f"{name}:{number}: line longer than {max_line_bytes:,} bytes, skipped")
                continue
            try:
                text = data.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as exc:
                problem(not_utf8(f"{name}:{number}", exc))
                continue
            if not text.strip():
                continue
            try:
                value = loads(text)
                item = parse(value) if parse is not None else value
            except RecursionError:
                problem(f"{name}:{number}: JSON nested too deeply")
                continue
            except ValueError as exc:
                problem(f"{name}:{number}: {exc}")
                continue
            yield number, item
    finally:
        if not isinstance(source, bytes):
            handle.close()
