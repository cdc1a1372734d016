"""Reading the text a command checks: the argument, a file or stdin, within ``max_input_chars``."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from triqua.cli._common import fail
from triqua.context import DEFAULT_MAX_INPUT_CHARS
from triqua.support.encoding import not_utf8

__all__ = ["decode_text", "input_limit", "read_input"]


def decode_text(data: bytes, where: str) -> str:
    """``data`` as text, or a one-line error: NUL bytes (binary) and invalid UTF-8 refused."""
    nul = data.find(b"\x00")
    if nul >= 0:
        raise fail(f"{where}: binary data (NUL byte at offset {nul}), expected text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise fail(not_utf8(where, exc)) from exc


#: Most bytes one character takes in UTF-8: more bytes than this many a character are too many.
_UTF8_MAX_BYTES = 4


def _read_capped(read: Callable[[int], bytes], where: str, max_chars: int) -> bytes:
    """At most the bytes ``max_chars`` characters can take, read with ``read``; more is refused.

    A huge file, a sparse file or an endless stream is refused after the first bytes past the
    cap instead of being read whole into memory.
    """
    cap = _UTF8_MAX_BYTES * max_chars
    data = read(cap + 1)
    if len(data) > cap:
        raise fail(
            f"{where}: over {cap:,} bytes, so above the limit of {max_chars:,} characters "
            "(max_input_chars); give a shorter text or raise --max-input-chars"
        )
    return data


def input_limit(settings: dict[str, Any]) -> int:
    """The ``max_input_chars`` the command's settings give (the default when unset)."""
    value = settings.get("max_input_chars")
    return int(value) if value else DEFAULT_MAX_INPUT_CHARS


def read_input(
    text: str | None, file: Path | None, max_chars: int = DEFAULT_MAX_INPUT_CHARS
) -> str:
    """The text to check: the argument, a file, or stdin ('-', ``--file -`` or piped).

    A file or stdin is read only up to the bytes ``max_chars`` characters can take.
    """
    if text is not None and file is not None:
        raise fail("give the text as an argument or with --file, not both")
    if file is not None and str(file) == "-":
        file, text = None, "-"  # "--file -": stdin, as the shell convention has it
    if file is not None:
        from triqua.tools.evidence_files import check_readable_file

        try:
            check_readable_file(file)  # a FIFO or device would block or never end
        except ValueError as exc:
            raise fail(str(exc)) from exc
        try:
            with file.open("rb") as handle:
                data = _read_capped(handle.read, str(file), max_chars)
        except OSError as exc:
            raise fail(f"{file}: {exc.strerror or exc}") from exc
        decoded = decode_text(data, str(file))
        if file.suffix.lower() in {".html", ".htm", ".xhtml"}:
            from triqua.tools.documents import html_to_text

            return html_to_text(decoded, checked=True)[0]
        return decoded
    if text is None or text == "-":
        if sys.stdin is None or sys.stdin.isatty():
            raise fail("no text given: pass TEXT, --file FILE, or pipe text on stdin")
        # Bytes, decoded here: the locale's decoder may let invalid bytes through as
        # surrogates that fail much later, far from their cause.
        stream = getattr(sys.stdin, "buffer", None)
        try:
            if stream is not None:
                data = _read_capped(stream.read, "stdin", max_chars)
            else:
                data = _read_capped(lambda n: sys.stdin.read(n).encode(), "stdin", max_chars)
        except UnicodeError as exc:
            raise fail("stdin: not valid UTF-8: convert it first") from exc
        return decode_text(data, "stdin")
    if "\x00" in text:
        raise fail("TEXT: binary data (NUL byte), expected text")
    from triqua.cli._hints import file_name_problem

    problem = file_name_problem(text)
    if problem is not None:
        raise fail(problem)
    return text
