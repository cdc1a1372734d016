"""A passage read after its document's title, as a reader of the page reads it.

A Wikipedia-style page titled "Ada Lovelace" goes on "She married William King in 1835."
in a later passage: "She" is the page's subject, though the passage never names her. The
grounding rule reads a quote with the passage text before it (who "she" is); a titled
passage is read after its title's line, so a pronoun carries the title's name exactly as it
would after a name written in the passage. A passage that does not open its document is
read after the title and a "…" paragraph standing for the text between them. An untitled
excerpt opening with "He" still refers back to no one. The page's lead, its first
sentence, is read by :mod:`triqua.core.reading.values.leads`.
"""

from __future__ import annotations

from triqua.core.reading.quotes import normalise

__all__ = ["after_title", "heading"]


def heading(title: str | None, opens_document: bool) -> str:
    """What a reader has read before a passage: its title, and "…" for the text between."""
    if not title or not normalise(title):
        return ""
    return f"{title.strip()}\n\n" if opens_document else f"{title.strip()}\n\n…\n\n"


def after_title(text: str, read_before: str) -> tuple[str, int]:
    """``text`` read after ``read_before`` (see :func:`heading`), and how far the text moved.

    A passage that already opens with its title ("# Ada Lovelace" first in a Markdown
    file) is read as it is.
    """
    title = read_before.split("\n", 1)[0]
    if not normalise(title):
        return text, 0
    if normalise(text[: len(title) + 8]).startswith(normalise(title)):
        return text, 0
    return read_before + text, len(read_before)
