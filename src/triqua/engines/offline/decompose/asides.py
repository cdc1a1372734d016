"""Parenthetical asides of the offline decomposer: parse the sentence without them.

``en_core_web_sm`` often loses the main clause of a sentence with short parenthesised
abbreviations or glosses ("Copper (Cu) displaces iron (Fe) from its compounds." parses as
one noun phrase), so each piece of text is parsed with those asides cut out. The cut text
keeps a map back to the original offsets, so sentence spans stay exact, and the asides are
kept, by position, so that a definition ("Copper (Cu)") still becomes a fact of its own.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

__all__ = ["MAX_ASIDE_CHARS", "Aside", "Compacted", "compact"]

MAX_ASIDE_CHARS = 80
"""Longest parenthesised aside (brackets included) that is cut out before parsing."""

# A balanced, unnested "( ... )" holding something other than whitespace, on one line; or
# such a "[ ... ]" that is not a Markdown link's text ("[Paris](…)").
_ASIDE = re.compile(
    rf"\((?=[ \t]*[^()\s])[^()\n]{{1,{MAX_ASIDE_CHARS - 2}}}\)"
    rf"|\[(?=[ \t]*[^\[\]\s])[^\[\]\n]{{1,{MAX_ASIDE_CHARS - 2}}}\](?!\()"
)


@dataclass(frozen=True)
class Aside:
    """A cut aside: its inner text, where it was cut in the compacted text, where it stood.

    ``start`` and ``end`` are the offsets of the bracketed aside in the original text.
    """

    at: int
    text: str
    start: int = field(default=0, compare=False)
    end: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Compacted:
    """A text with its short asides cut out, and the way back to the original offsets.

    ``cuts`` holds, for each cut, its position in the compacted text and the number of
    characters removed there; positions after a cut shift by that many.
    """

    original: str
    text: str
    cuts: tuple[tuple[int, int], ...] = ()
    asides: tuple[Aside, ...] = ()

    def to_original(self, pos: int, *, end: bool = False) -> int:
        """The original offset of compacted position ``pos``.

        A position right at a cut is a sentence start (after the cut text) unless ``end``
        is set (before it), so a span never swallows or splits an aside it does not hold.
        """
        places = [at for at, _ in self.cuts]
        count = bisect_left(places, pos) if end else bisect_right(places, pos)
        return pos + sum(removed for _, removed in self.cuts[:count])


_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def _is_index(text: str, match: re.Match[str]) -> bool:
    """A bracketed name right after a word is code, not an aside: "Try[T]", "row[key]"."""
    start = match.start()
    return (
        match.group().startswith("[")
        and start > 0
        and text[start - 1].isalnum()
        and _IDENTIFIER.fullmatch(match.group()[1:-1]) is not None
    )


def compact(text: str) -> Compacted:
    """``text`` with its short parenthesised asides (and the space before each) cut out.

    An aside that opens the text is kept: with nothing before it, it is no aside. A short
    square-bracketed one (a citation mark "[1]", a pronunciation "[ˈbæzɪldən]") is cut the
    same way, but kept as no aside: it defines nothing and holds no value to check; a name
    in brackets right after a word ("Future[T]") is code and stays.
    """
    parts: list[str] = []
    cuts: list[tuple[int, int]] = []
    asides: list[Aside] = []
    last = 0
    length = 0  # length of the compacted text so far
    for match in _ASIDE.finditer(text):
        start, end = match.span()
        if not text[:start].strip() or _is_index(text, match):
            continue
        while start > last and text[start - 1] in " \t":
            start -= 1
        if start == last or not text[start - 1].strip():  # at a line start: eat the space after
            while end < len(text) and text[end] in " \t":
                end += 1
        parts.append(text[last:start])
        length += start - last
        cuts.append((length, end - start))
        if match.group().startswith("("):
            asides.append(Aside(length, match.group()[1:-1].strip(), *match.span()))
        last = end
    if not cuts:
        return Compacted(text, text)
    parts.append(text[last:])
    return Compacted(text, "".join(parts), tuple(cuts), tuple(asides))
