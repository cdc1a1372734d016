"""The value-slot reader: which number or year the relation's own verb governs.

"Construction of the Sydney Opera House started in 1959, and the building opened in 1973"
holds "opened" and "1959", yet the year "opened" governs is 1973: 1959 is the start's. A
fact whose object is a bare year or number ("opened in | 1959") is stated only where the
relation's verb governs that value. The reader finds, in spaCy's parse, every number the
text writes and the nearest verb that governs it (its first verbal ancestor: "opened *in
1973*", "fell in November *1989*"); an occurrence of the relation's verb that governs
numbers of which none is the fact's, when no occurrence governs the fact's, gives the slot
another value. A verb that governs no number says nothing, and neither does a relation
without a verb of its own ("is", "has").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from triqua.core.reading.words import stem

if TYPE_CHECKING:
    from triqua.nlp.tokens import Token as SpacyToken

__all__ = ["bare_values", "slot_value"]

_NUMBER = re.compile(r"^\d[\d,]*(?:\.\d+)?$")
#: Object words a bare value may carry besides its number ("in 1887", "about 300").
_BARE = frozenset({"in", "on", "at", "of", "by", "the", "year", "about", "around", "circa", "c."})


def bare_values(obj: str) -> frozenset[str]:
    """The numbers of an object that is a bare value ("1887", "in 1887"), else none.

    An object with words of its own ("six legs", "75 minutes") is read by the value and
    unit gates instead.
    """
    words = obj.replace("(", " ").replace(")", " ").split()
    numbers = {_plain(w) for w in words if _NUMBER.match(w.strip(".,;"))}
    if not numbers or any(w.lower() not in _BARE and not _NUMBER.match(w) for w in words):
        return frozenset()
    return frozenset(numbers)


def slot_value(text: str, relation: Iterable[str], values: Iterable[str]) -> str | None:
    """The other number the relation's verb governs in ``text``, when it governs none of ours.

    Args:
        text: The window (1–3 sentences).
        relation: Stems of the relation's content words (with their synonyms).
        values: The fact's bare values (:func:`bare_values`).
    """
    return _slot_value(text, frozenset(relation), frozenset(values))


@functools.lru_cache(maxsize=4096)
def _slot_value(text: str, relation: frozenset[str], values: frozenset[str]) -> str | None:
    """:func:`slot_value`, remembered: one window is asked for each fact cut from a claim."""
    if not relation or not values or not text.strip():
        return None
    from triqua.nlp.clauses import window_parse  # spaCy, loaded when asked

    doc = window_parse(text)
    governed: dict[int, list[str]] = {}
    for token in doc:
        if _NUMBER.match(token.text):
            verb = _verb_of(token)
            if verb is not None:
                governed.setdefault(verb.i, []).append(_plain(token.text))
    others: list[str] = []
    for token in doc:
        if not _is_verb(token) or stem(token.text) not in relation:
            continue
        numbers = governed.get(token.i, [])
        if values & set(numbers):
            return None
        others.extend(numbers)
    return others[0] if others else None


def _plain(number: str) -> str:
    return number.strip(".,;").replace(",", "")


def _is_verb(token: SpacyToken) -> bool:
    return token.tag_.startswith("VB")


def _verb_of(token: SpacyToken) -> SpacyToken | None:
    """The nearest verb that governs ``token`` (a clause's verb), if any."""
    for head in token.ancestors:
        if _is_verb(head):
            return head
    return None
