"""Quotes found in passages: case-, accent-, punctuation- and space-insensitive matching.

The grounding rule needs "is this quote in the passage, and where": a judge may change
quote marks, dashes, accents or spacing, and the quote must still be found and shown as the
passage writes it.
"""

from __future__ import annotations

import functools
import re
import unicodedata

__all__ = ["fold_letters", "locate_quote", "normalise", "quoted_titles"]


#: A Latin letter Unicode names after its base letter(s) without decomposing it: "LATIN
#: SMALL LETTER L WITH STROKE" (ł), "LATIN CAPITAL LETTER O WITH STROKE" (Ø), "LATIN SMALL
#: LETTER AE" (æ), "LATIN SMALL LIGATURE OE" (œ), "LATIN SMALL LETTER DOTLESS I" (ı).
_LATIN_NAME = re.compile(
    r"^LATIN (?:SMALL|CAPITAL) (?:LETTER|LIGATURE) (?:DOTLESS )?(?P<base>[A-Z]{1,2})(?: WITH .*)?$"
)


def _base_letters(char: str) -> str:
    """The plain letters a Latin letter with a stroke, bar or ligature stands for, or itself.

    NFKD decomposes "é" into "e" and an accent, but not "ł" (Skłodowska is written
    Sklodowska as often), "ø" or "æ"; their Unicode names say their base letters.
    """
    if char.isascii() or not char.isalpha():
        return char
    match = _LATIN_NAME.match(unicodedata.name(char, ""))
    return match.group("base").lower() if match else char


@functools.cache
def _plain(char: str) -> str:
    """One character without its accents or strokes ("é", "ł" and "æ": "e", "l", "ae")."""
    if char.isascii():
        return char
    if unicodedata.combining(char):
        return ""  # an accent written as its own character ("e\u0301"): its letter is plain
    parts = [p for p in unicodedata.normalize("NFKD", char) if not unicodedata.combining(p)]
    return "".join(_base_letters(p) for p in parts) or char


def fold_letters(word: str) -> str:
    """``word`` with its letters' accents and strokes dropped, case and punctuation kept.

    "Pelé" and "Pele", "Skłodowska" and "Sklodowska" are one name as the grounding rule
    and the offline gates compare words.
    """
    return word if word.isascii() else "".join(_plain(c) for c in word)


@functools.cache  # characters repeat endlessly; unicodedata per character is the cost
def _fold(char: str) -> str:
    """One character folded: accents and strokes gone, case folded, punctuation a space.

    A format character (category Cf: a zero-width space, a soft hyphen) is dropped, as the
    intake drops it from evidence (``core.text.intake``), so a quote that still carries one
    is found in the passage that no longer does.
    """
    out = []
    for part in unicodedata.normalize("NFKD", char):
        if unicodedata.combining(part) or unicodedata.category(part) == "Cf":
            continue
        if unicodedata.category(part)[0] in "PS":  # quotes, dashes, dots, markup, symbols …
            out.append(" ")
        else:
            out.append(_base_letters(part).casefold())
    return "".join(out)


def _normalise_mapped(text: str) -> tuple[str, tuple[int, ...]]:
    """``text`` normalised, and for each normalised character the index it came from."""
    chars: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(text):
        for folded in _fold(char):
            if folded.isspace():
                if not chars or chars[-1] == " ":
                    continue
                folded = " "
            chars.append(folded)
            origin.append(index)
    if chars and chars[-1] == " ":
        chars.pop()
        origin.pop()
    return "".join(chars), tuple(origin)


#: A passage is checked for many facts of a run: its mapping is kept for the next quotes.
_passage_mapped = functools.lru_cache(maxsize=256)(_normalise_mapped)


@functools.lru_cache(maxsize=4096)  # the same quotes, values and passages recur per unit
def normalise(text: str) -> str:
    """Case-, accent-, punctuation- and whitespace-insensitive form of ``text``.

    The text of :func:`_normalise_mapped` without its map: each character folded, then
    runs of whitespace one space, none at either end (``str.split`` knows the whitespace
    ``str.isspace`` knows).
    """
    return " ".join("".join(map(_fold, text)).split())


def locate_quote(passage: str, quote: str) -> tuple[int, int] | None:
    """Character range of ``quote`` in ``passage`` after normalisation, or None if absent.

    The range is widened to whole words, so the slice of the passage is the quote as the
    passage writes it.
    """
    needle = normalise(quote)
    if not needle:
        return None
    haystack, origin = _passage_mapped(passage)
    at = haystack.find(needle)
    if at < 0:
        return None
    start, end = origin[at], origin[at + len(needle) - 1] + 1
    while start > 0 and passage[start - 1].isalnum():
        start -= 1
    while end < len(passage) and passage[end].isalnum():
        end += 1
    return start, end


#: A title the unit writes in quotes ("Sense and Prejudice"): its words, in that order.
_QUOTED = re.compile(r"[\"“]([^\"“”]{2,120})[\"”]")


def quoted_titles(text: str) -> list[str]:
    """Titles ``text`` writes in double quotes: a quote must write each whole, in order.

    Word by word "Sense and Prejudice" is in "Pride and Prejudice and Sense and
    Sensibility"; as a title it is not.
    """
    return [m.group(1).strip() for m in _QUOTED.finditer(text) if m.group(1).strip()]
