"""Life dates in parentheses after a name: "Isaac Newton (1643–1727) was …".

Encyclopaedic text states when someone was born and died in a parenthesis after their
name, with no "born" or "died" to read a relation on. Its first date is the birth, its last
the death; a missing side ("(born 1912)", "(died 1954)", "(b. 1912)") states only the
other. The offline verifier supports or contradicts a birth or death date by it; the
grounding rule vetoes a window whose life dates give another one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from triqua.core.reading.values.dates import DateValue, date_relation, find_dates

__all__ = ["life_date_readings", "life_dates", "life_event"]

_PARENTHESIS = re.compile(r"\(([^()]{4,80})\)")
_BORN = re.compile(r"\b(?:born|birth)\b", re.I)
_DIED = re.compile(r"\b(?:died|death|dies)\b", re.I)
_RANGE = re.compile(r"\s[–—-]\s|[–—-]")


def life_event(relation: str) -> str | None:
    """The event ("born" or "died") that ``relation`` dates, else None."""
    if _BORN.search(relation):
        return "born"
    if _DIED.search(relation):
        return "died"
    return None


def _side(inside: str, event: str) -> str | None:
    """The part of a life-date parenthesis that dates ``event``, if it states one."""
    text = re.sub(r"^\s*(?:b\.|born)\s+", "born ", inside.strip(), flags=re.I)
    text = re.sub(r"^\s*(?:d\.|died)\s+", "died ", text, flags=re.I)
    if text.startswith("born "):
        return text[5:] if event == "born" else None
    if text.startswith("died "):
        return text[5:] if event == "died" else None
    parts = _RANGE.split(text, maxsplit=1)
    if len(parts) != 2:
        return None
    return parts[0] if event == "born" else parts[1]


def life_dates(text: str, name: str, event: str) -> Iterator[DateValue]:
    """The dates of ``event`` that parentheses right after ``name`` give in ``text``.

    ``name`` is the word the parenthesis must follow (a person's last name word); a side
    that writes no single date ("(c. 1640s or 1650s)") gives none.
    """
    for match in _PARENTHESIS.finditer(text):
        if not text[: match.start()].rstrip().endswith(name):
            continue
        side = _side(match.group(1), event)
        stated = find_dates(side) if side else []
        if len(stated) == 1:
            yield stated[0]


def life_date_readings(
    relation: str, name: str, claimed: DateValue, text: str
) -> Iterator[tuple[str, DateValue]]:
    """How the life dates after ``name`` in ``text`` read a claimed date of ``relation``'s event.

    Each date the parenthesis gives for the birth or death ``relation`` dates, in order, with
    "match" or "conflict" (:func:`~triqua.core.reading.values.dates.date_relation`: at the
    claim's granularity); a date that does neither is left out, as is a relation that dates
    no birth or death.
    """
    event = life_event(relation)
    if event is None:
        return
    for stated in life_dates(text, name, event):
        outcome = date_relation(claimed, stated)
        if outcome in ("match", "conflict"):
            yield outcome, stated
