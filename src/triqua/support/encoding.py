"""The one wording of a "not UTF-8" error, with the fix, for every reader of text."""

from __future__ import annotations

#: How to fix a file in a legacy encoding (Latin-1 is the usual culprit).
UTF8_FIX = "convert it first, e.g. iconv -f latin1 -t utf-8 FILE > FILE.utf8"


def not_utf8(where: str, exc: UnicodeDecodeError) -> str:
    """``"<where>: not valid UTF-8 (byte 0xNN at offset N); convert it first, …"``."""
    byte = exc.object[exc.start] if exc.start < len(exc.object) else None
    which = f"byte 0x{byte:02x} at offset {exc.start}" if byte is not None else "at the end"
    return f"{where}: not valid UTF-8 ({which}); {UTF8_FIX}"
