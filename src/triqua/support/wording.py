"""Words a person reads: counted nouns ("1 fact", "2 facts"), text safe to print."""

from __future__ import annotations

__all__ = ["CONTROLS", "counted", "plural", "printable_text"]

#: Control characters but line breaks and tabs, each mapped to "?": text and evidence are
#: data, and an escape sequence in them would drive a terminal (set its title, write the
#: clipboard, clear the screen).
CONTROLS = {c: "?" for c in (*range(0x20), 0x7F, *range(0x80, 0xA0)) if c not in (0x09, 0x0A)}


def printable_text(text: str) -> str:
    """``text`` with every control character but line breaks and tabs shown as ``?``."""
    return text.translate(CONTROLS)


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``noun`` as a count of ``count`` takes it: the singular for exactly 1, else the plural.

    Args:
        count: How many.
        noun: The singular ("fact").
        many: The plural when it is not the singular with an "s" ("entries").
    """
    if count == 1:
        return noun
    return many if many is not None else f"{noun}s"


def counted(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and its noun: "1 fact", "2 facts", "0 facts" (see :func:`plural`)."""
    return f"{count} {plural(count, noun, many)}"
