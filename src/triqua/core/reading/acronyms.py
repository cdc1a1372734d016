"""Acronyms and the names they spell: "U.S." and "the United States".

A unit writes a name as its initials ("a U.S. state") where its evidence writes it whole
("a state … of the United States"), or the other way round. The initials are read from a
run of capitalised words, which may hold the small words a name keeps inside it ("of",
"the", "and", "for"); an acronym of one letter per word must equal the initials of the run,
or of a stretch of it. Two letters spell many names, so a name of two initials is two
words with nothing between them ("United States", never "University of Sydney").
"""

from __future__ import annotations

import re

from triqua.core.reading.quotes import normalise

__all__ = ["abbreviated", "acronym_of", "spelled_out"]

#: Small words inside a name that give no initial ("United States of America": USA).
_INNER = r"(?:of|the|and|for|de|du|des|la|le)"
_CAPITALISED = r"[A-Z][\w'’-]*"
#: A run of capitalised words, small inner words allowed between them.
_RUN = re.compile(rf"{_CAPITALISED}(?:\s+(?:{_INNER}\s+)*{_CAPITALISED})*")
#: An acronym as written: capitals with dots ("U.S.", "U.K.") or two to six capitals.
_WRITTEN = re.compile(r"\b(?:[A-Z]\.){2,6}|\b[A-Z]{2,6}\b")


def acronym_of(name: str, said: str) -> str:
    """The letters of ``name`` (normalised) when ``said`` writes it as an acronym, else ""."""
    for match in _WRITTEN.finditer(said):
        letters = match.group().replace(".", "").lower()
        if normalise(match.group()) == name or letters == name.replace(" ", ""):
            return letters
    return ""


def _initials(words: list[str]) -> str | None:
    """The initials of a name's words, small inner words skipped; None when ambiguous.

    Two letters spell many names ("U.S.": the United States, the University of Sydney), so
    a name of two initials must be two words with nothing between them ("United States");
    a longer acronym may skip the small words a name keeps inside it ("USA").
    """
    kept = [w for w in words if not re.fullmatch(_INNER, w, re.IGNORECASE)]
    if len(kept) < 2 or (len(kept) == 2 and len(words) != 2):
        return None
    return "".join(w[0] for w in kept).lower()


def spelled_out(letters: str, text: str) -> bool:
    """True when ``text`` writes a name whose initials are ``letters``.

    The name is a run of capitalised words, or a stretch of one ("the United States
    Supreme Court" writes "U.S.").
    """
    if len(letters) < 2:
        return False
    for match in _RUN.finditer(text):
        words = match.group().split()
        for start in range(len(words)):
            for end in range(start + 2, len(words) + 1):
                if _initials(words[start:end]) == letters:
                    return True
    return False


def abbreviated(name: str, text: str) -> bool:
    """True when ``text`` writes the acronym of ``name`` (normalised): "U.S." of "united states"."""
    initials = _initials(name.split())
    return initials is not None and any(
        m.group().replace(".", "").lower() == initials for m in _WRITTEN.finditer(text)
    )
