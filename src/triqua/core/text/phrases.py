"""Whole-word phrase matching over sentences, for the word-list readers of ``core.text``.

Word lists (check-worthiness, opinions) are matched as whole words, case-insensitively unless
said otherwise, with either form of apostrophe. Most sentences match no phrase of a list, so
each list is first searched as one pattern (``gate``) and only a sentence that passes is
searched phrase by phrase.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

__all__ = ["first", "gate", "phrase", "starts"]


def phrase(words: str, *, case_sensitive: bool = False) -> re.Pattern[str]:
    """A whole-word pattern for ``words`` (apostrophes match either form)."""
    body = re.escape(words).replace("'", "['’]")
    return re.compile(rf"(?<![\w]){body}(?![\w])", 0 if case_sensitive else re.IGNORECASE)


@cache
def _heads(phrases: tuple[str, ...]) -> frozenset[str]:
    """The first two characters of each phrase (a text starting with none starts with none)."""
    return frozenset(p[:2] for p in phrases)


@cache
def gate(patterns: tuple[re.Pattern[str], ...]) -> re.Pattern[str]:
    """One pattern that matches where any of ``patterns`` does (each keeps its own case rule)."""
    scoped = (f"(?{'i' if p.flags & re.IGNORECASE else ''}:{p.pattern})" for p in patterns)
    return re.compile("|".join(scoped))


def starts(text: str, phrases: Sequence[str]) -> str | None:
    """The phrase ``text`` starts with (whole words, case-insensitive), if any."""
    lower = text.lower()
    heads = _heads(tuple(phrases))
    if lower[:2] not in heads and lower[:1] not in heads:
        return None
    for p in phrases:
        boundary = not p[-1:].isalnum() or not lower[len(p) : len(p) + 1].isalnum()
        if lower.startswith(p) and boundary:
            return p
    return None


def first(patterns: tuple[re.Pattern[str], ...], text: str) -> str | None:
    """The words of the first pattern, in list order, that ``text`` holds; None if none."""
    if not gate(patterns).search(text):
        return None
    for pattern in patterns:
        match = pattern.search(text)
        if match:
            return match.group()
    return None
