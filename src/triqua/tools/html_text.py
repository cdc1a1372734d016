"""Visible text of an HTML page: what a reader of the page sees, by blocks, and its title.

Text never shown (scripts, styles, templates, the head, an element the page hides with
``hidden`` or an inline ``display: none`` / ``visibility: hidden`` / ``opacity: 0`` /
``font-size: 0``) and text struck out
(``del``, ``s``, ``strike``) is never read: evidence is what the page says to its reader.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any, ClassVar

__all__ = ["TextExtractor"]

#: Elements without content or an end tag: hiding one hides no text.
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta"})
#: An inline style that hides its element from every reader of the page.
_HIDING_STYLE = re.compile(
    r"(?:display\s*:\s*none|visibility\s*:\s*hidden"
    r"|(?<![\w-])(?:opacity|font-size)\s*:\s*0(?:\.0*)?(?:px|em|rem|pt|%)?\s*(?:;|!|$))",
    re.IGNORECASE,
)


def _hides(attrs: list[tuple[str, str | None]]) -> bool:
    """Whether an element's attributes hide it from the page's reader (``hidden``, a style)."""
    return any(
        name == "hidden" or (name == "style" and value and _HIDING_STYLE.search(value))
        for name, value in attrs
    )


class TextExtractor(HTMLParser):
    """Collects visible text and the title of an HTML page.

    The standard library parser is enough for evidence text and avoids a heavier
    dependency (BeautifulSoup, lxml) for one job.
    """

    #: Never shown, or struck out (deleted text: ``del``, ``s``, ``strike``), so never read.
    _SKIP = frozenset(
        {"script", "style", "noscript", "template", "svg", "head", "del", "s", "strike"}
    )
    _BLOCK = frozenset(
        {
            "p", "div", "br", "li", "ul", "ol", "tr", "table", "section", "article",
            "header", "footer", "aside", "nav", "main", "blockquote", "pre", "hr",
            "h1", "h2", "h3", "h4", "h5", "h6", "dd", "dt", "figcaption", "title",
        }
    )  # fmt: skip

    #: Page furniture left out of a page whose text is checked (not of evidence).
    _NAVIGATION = frozenset({"nav", "header", "footer", "aside", "form", "button"})
    _HEADINGS: ClassVar[dict[str, int]] = {f"h{n}": n for n in range(1, 7)}

    def __init__(self, *, checked: bool = False) -> None:
        super().__init__(convert_charrefs=True)
        self._checked = checked
        self._skip_depth = 0
        self._hidden: list[list[Any]] = []  # hidden elements open: [tag, same tags inside]
        self._in_title = False
        self.title_parts: list[str] = []
        self.blocks: list[list[str]] = [[]]

    def _skipped(self, tag: str) -> bool:
        return tag in self._SKIP or (self._checked and tag in self._NAVIGATION)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Open a block, a title, or a part never read (skipped or hidden)."""
        if self._hidden and tag == self._hidden[-1][0]:
            self._hidden[-1][1] += 1  # the same tag opened inside a hidden element
        if tag == "title":
            self._in_title = True
        elif self._skipped(tag):
            self._skip_depth += 1
        elif tag not in _VOID and _hides(attrs):
            self._hidden.append([tag, 0])
            self._skip_depth += 1
        if tag in self._BLOCK:
            self.blocks.append([])
        if self._checked and tag in self._HEADINGS and not self._skip_depth:
            self.blocks[-1].append("#" * self._HEADINGS[tag] + " ")
        elif not self._checked and tag == "li" and not self._skip_depth:
            # A list item stays one: its own paragraph, but no heading of the text below.
            self.blocks[-1].append("- ")

    def handle_endtag(self, tag: str) -> None:
        """Close what ``tag`` opened."""
        if tag == "title":
            self._in_title = False
        elif self._skipped(tag) and self._skip_depth:
            self._skip_depth -= 1
        elif self._hidden and tag == self._hidden[-1][0]:
            if self._hidden[-1][1]:
                self._hidden[-1][1] -= 1
            else:
                self._hidden.pop()
                self._skip_depth -= 1
        if tag in self._BLOCK:
            self.blocks.append([])

    def handle_data(self, data: str) -> None:
        """Keep text a reader of the page sees."""
        if self._in_title:
            self.title_parts.append(data)
        elif not self._skip_depth:
            self.blocks[-1].append(data)
