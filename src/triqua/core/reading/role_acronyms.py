"""Role titles written out in lower case, read as their acronyms: "chief executive officer".

A name gives its initials by its capitals ("United States": US), but a role is written in
lower case ("He stepped down as chief executive officer of Microsoft"), and the initials of
lower-case words would spell acronyms by chance ("cats eat often" is no CEO). So a role
gives letters only in the spellings ``data/role_acronyms.json`` lists, as whole words, in
any case. Both engines read them through :mod:`triqua.core.reading.acronyms`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from triqua.core.reading.quotes import normalise
from triqua.core.reading.rules_file import read_rules_file

__all__ = ["ROLE_ACRONYMS_PATH", "role_letters", "role_spellings", "same_role"]

ROLE_ACRONYMS_PATH = Path(__file__).parent / "data" / "role_acronyms.json"


@lru_cache(maxsize=1)
def _roles() -> tuple[tuple[str, re.Pattern[str], frozenset[str]], ...]:
    """Each acronym, a pattern of its spellings (longest first) and those spellings."""
    raw = read_rules_file(ROLE_ACRONYMS_PATH, "role acronyms")["roles"]
    out = []
    for letters, spellings in raw.items():
        ordered = sorted(spellings, key=len, reverse=True)
        words = [r"[\s-]+".join(map(re.escape, s.split())) for s in ordered]
        pattern = re.compile(rf"(?<![\w-])(?:{'|'.join(words)})(?![\w-])", re.IGNORECASE)
        out.append((letters.lower(), pattern, frozenset(normalise(s) for s in spellings)))
    return tuple(out)


def role_letters(text: str) -> frozenset[str]:
    """The acronyms of the roles ``text`` writes out: "cfo" of "chief financial officer"."""
    return frozenset(letters for letters, pattern, _ in _roles() if pattern.search(text))


def role_spellings(letters: str, text: str) -> set[str]:
    """The roles of ``letters`` that ``text`` writes out, each as :func:`same_role` names it."""
    for own, pattern, _ in _roles():
        if own == letters:
            found = (normalise(m.group().replace("-", " ")) for m in pattern.finditer(text))
            return {same_role(s) for s in found}
    return set()


def same_role(spelling: str) -> str:
    """One name for the spellings of one role: "chief executive" of "chief executive officer".

    A listed spelling (normalised) loses a last "officer", so the full title and its short
    form count as one role; any other name is returned as it is.
    """
    if any(spelling in spellings for _, _, spellings in _roles()):
        return spelling.removesuffix(" officer")
    return spelling
