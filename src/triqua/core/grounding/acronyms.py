"""Acronyms and the names they spell: "U.S." and "the United States".

A unit writes a name as its initials ("a U.S. state") where its evidence writes it whole
("a state … of the United States"), or the other way round. The initials are read from a
run of capitalised words, which may hold the small words a name keeps inside it ("of",
"the", "and", "for"); an acronym of one letter per word must equal the run's initials, or
a stretch of them.
"""

from __future__ import annotations

import re

from triqua.core.grounding.quotes import normalise

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


def spelled_out(letters: str, text: str) -> bool:
    """True when ``text`` writes a run of capitalised words whose initials are ``letters``."""
    if len(letters) < 2:
        return False
    for match in _RUN.finditer(text):
        words = [w for w in match.group().split() if not re.fullmatch(_INNER, w)]
        initials = "".join(w[0] for w in words).lower()
        if letters in initials and len(words) >= len(letters):
            return True
    return False


def abbreviated(name: str, text: str) -> bool:
    """True when ``text`` writes the acronym of ``name`` (normalised): "U.S." of "united states"."""
    words = [w for w in name.split() if not re.fullmatch(_INNER, w)]
    if len(words) < 2:
        return False
    initials = "".join(w[0] for w in words)
    return any(m.group().replace(".", "").lower() == initials for m in _WRITTEN.finditer(text))
