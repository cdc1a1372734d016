"""Counted nouns in the words a person reads: "1 fact", "2 facts", "0 facts"."""

from __future__ import annotations

__all__ = ["counted", "plural"]


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
