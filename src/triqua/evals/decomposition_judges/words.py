"""Word helpers shared by the rule judges: normalised text and readable word lists."""

from __future__ import annotations

import re

WORD = re.compile(r"\w+")


def norm(text: str) -> str:
    """``text`` case-folded, as its words joined by single spaces."""
    return " ".join(WORD.findall(text.casefold()))


def word_list(text: str) -> tuple[str, ...]:
    """The whitespace-separated words of ``text``, in order (word lists kept readable)."""
    return tuple(text.split())
