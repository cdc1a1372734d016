"""Sentence ends at line breaks: a paragraph break, and the end of a heading or a label line.

SpaCy's rule sentencizer ends sentences at punctuation only, so a heading without a final
period ran on into the paragraph below it: a heading "# The bridge is in Seattle", a blank
line and "The bridge is in San Francisco." were one sentence, and a window quoting it
stated both. A blank line (a paragraph break) always ends a sentence, and so does the line
break after a Markdown heading ("# …"), a setext underline ("==="), a label line left
without final punctuation ("Title: …") and a line in title case without final punctuation
opening its paragraph ("The Great Wall of China Is Visible from Space" over a byline). A
single line break elsewhere ends nothing: hard-wrapped text breaks its sentences across
lines.

Headings state nothing: a heading, a page title or a record's label line names what the
text below is about, and is no sentence of that text ("Golden Gate Bridge moved to
Seattle" may head a page that says it was not). :func:`heading_lines` finds them, so a
reader can keep them as context without reading them as statements: a Markdown heading
line, and a label line or a paragraph of one line without final punctuation that heads more
text (how HTML headings and titles arrive, one block each).
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from triqua.nlp.tokens import Doc, Language

__all__ = ["COMPONENT", "add_to", "heading_lines", "line_ends", "title_case"]

COMPONENT = "line_ends"
"""Name of the pipeline component that runs :func:`line_ends` after the sentence rules."""

#: A paragraph break: a line break, an empty (or blank) line, and another line break.
_BLANK_LINE = re.compile(r"\n[^\S\n]*\n")
#: A Markdown (ATX) heading line: one to six "#" and a space.
_ATX = re.compile(r"[^\S\n]{0,3}#{1,6}(?:[^\S\n]|$)")
#: A setext heading's underline, or a thematic break: a line of "=" or "-" only.
_UNDERLINE = re.compile(r"[^\S\n]*(?:=+|-{2,})[^\S\n]*")
#: A label line: a capitalised label of up to three words, a colon, and a value.
_LABEL = re.compile(r"[^\S\n]*[A-Z][\w'’-]*(?:[^\S\n][\w'’-]+){0,2}:[^\S\n]+\S")
#: A list item's line: a bullet or a number, then a space. An item heads nothing.
_ITEM = re.compile(r"[^\S\n]*(?:[-*+•]|\d{1,3}[.)])[^\S\n]")
#: Punctuation that ends a sentence, possibly inside closing quotes or brackets.
_FINAL = re.compile(r"[.!?…][\"'”’)\]]*\s*$")


def _line_at(text: str, index: int) -> tuple[int, int]:
    """The (start, end) of the line holding ``index``, without its line break."""
    start = text.rfind("\n", 0, index) + 1
    end = text.find("\n", index)
    return start, len(text) if end < 0 else end


def _ends_unpunctuated(line: str) -> bool:
    return _FINAL.search(line) is None


#: Words a title leaves in lower case: articles, conjunctions, short prepositions.
_TITLE_SMALL = frozenset(
    ("a", "an", "the", "and", "but", "or", "nor", "for", "so", "yet", "of", "in", "on", "at",
     "to", "by", "up", "as", "from", "with", "into", "onto", "over", "upon", "than", "via",
     "per", "off", "out")
)  # fmt: skip
_TITLE_WORDS = 4  # a title line has at least these words ("Pierre Curie" is a name line)


def title_case(line: str) -> bool:
    """True for a line in title case: every word but articles and short prepositions capitalised."""
    words = re.findall(r"[^\W\d_][\w'’-]*", line)
    return len(words) >= _TITLE_WORDS and all(
        w[0].isupper() for w in words if w.lower() not in _TITLE_SMALL
    )


def _is_heading_line(line: str) -> bool:
    """A Markdown heading, or a label line whose value has no final punctuation."""
    if _ATX.match(line):
        return True
    return bool(_LABEL.match(line)) and _ends_unpunctuated(line)


def _opens_paragraph(text: str, start: int) -> bool:
    """Whether the line starting at ``start`` opens its paragraph (or the text)."""
    if not text[:start].strip():
        return True
    previous = text[text.rfind("\n", 0, start - 1) + 1 : start - 1]
    return not previous.strip()


def _breaks(text: str, gap_start: int, gap_end: int) -> bool:
    """Whether the whitespace ``text[gap_start:gap_end]`` between two words ends a sentence."""
    gap = text[gap_start:gap_end]
    if "\n" not in gap:
        return False
    if _BLANK_LINE.search(gap):
        return True
    line = _line_at(text, max(gap_start - 1, 0))
    before, after = text[slice(*line)], text[slice(*_line_at(text, gap_end))]
    return (
        _is_heading_line(before)
        or (_opens_paragraph(text, line[0]) and _ends_unpunctuated(before) and title_case(before))
        or _UNDERLINE.fullmatch(before) is not None
        or _UNDERLINE.fullmatch(after) is not None
    )


def line_ends(doc: Doc) -> Doc:
    """Start a sentence after every paragraph break, heading line and label line of ``doc``."""
    text = doc.text
    previous = None
    for token in doc:
        if token.is_space:
            continue
        if previous is not None and _breaks(text, previous.idx + len(previous.text), token.idx):
            token.is_sent_start = True
        previous = token
    return doc


@functools.lru_cache(maxsize=4096)  # the grounding rule asks it again for each unit cited
def heading_lines(text: str) -> tuple[tuple[int, int], ...]:
    """The (start, end) of each heading line of ``text``: lines that state nothing.

    A Markdown heading, a setext heading, and, when more text follows, a label line without
    final punctuation ("Title: …"), a one-line paragraph without final punctuation (a list
    item, "- …" or "1. …", is none) or a line in title case without final punctuation that
    opens its paragraph ("The Great Wall of China Is Visible from Space" over a byline). A
    passage that is one label line heads nothing: it is read as it stands (a record's line,
    "Released: 14 April 1986").
    """
    found = []
    offset = 0
    lines = text.split("\n")
    last = max((n for n, line in enumerate(lines) if line.strip()), default=-1)
    for number, line in enumerate(lines):
        start, end = offset, offset + len(line)
        offset = end + 1
        if not line.strip():
            continue
        following = lines[number + 1] if number + 1 < len(lines) else ""
        previous = lines[number - 1] if number > 0 else ""
        opens = not previous.strip()  # the line opens its paragraph (or the text)
        alone = opens and not following.strip()
        more_below = number < last
        if (
            _ATX.match(line)
            or (_UNDERLINE.fullmatch(following) is not None and following.strip())
            or (more_below and _LABEL.match(line) and _ends_unpunctuated(line))
            or (alone and more_below and _ends_unpunctuated(line) and not _ITEM.match(line))
            or (opens and more_below and _ends_unpunctuated(line) and title_case(line))
        ) and _UNDERLINE.fullmatch(line) is None:
            found.append((start, end))
    return tuple(found)


def add_to(nlp: Language) -> None:
    """Add the component to ``nlp``, last (after the sentencizer and abbreviation ends)."""
    from spacy.language import Language as SpacyLanguage

    if not SpacyLanguage.has_factory(COMPONENT):
        SpacyLanguage.component(COMPONENT, func=line_ends)
    nlp.add_pipe(COMPONENT, last=True)
