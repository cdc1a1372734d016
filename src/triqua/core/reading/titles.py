"""A passage read after its document's title, as a reader of the page reads it.

A Wikipedia-style page titled "Ada Lovelace" goes on "She married William King in 1835."
in a later passage: "She" is the page's subject, though the passage never names her. The
grounding rule reads a quote with the passage text before it (who "she" is); a titled
passage is read with its title as its opening line, so a pronoun after it carries the
title's name exactly as it would after a name written in the passage. An untitled excerpt
opening with "He" still refers back to no one.
"""

from __future__ import annotations

from triqua.core.reading.quotes import normalise

__all__ = ["after_title"]


def after_title(text: str, title: str | None) -> tuple[str, int]:
    """``text`` with ``title`` as its opening line, and how far the text moved.

    A passage that already opens with its title ("# Ada Lovelace" first in a Markdown
    file) is read as it is.
    """
    if not title or not normalise(title):
        return text, 0
    if normalise(text[: len(title) + 8]).startswith(normalise(title)):
        return text, 0
    opening = f"{title.strip()}\n\n"
    return opening + text, len(opening)
