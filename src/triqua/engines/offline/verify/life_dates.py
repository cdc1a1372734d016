"""Life dates in parentheses after a name: "Isaac Newton (1643–1727) was …".

Encyclopaedic text states when someone was born and died in a parenthesis after their
name, with no "born" or "died" to align a relation on. A fact that a person was born or
died on a date is judged against such a parenthesis: its first date is the birth, its last
the death (a missing side, "(born 1912)" or "(died 1954)", states only the other).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from triqua.core.reading.analysis import date_relation, find_dates
from triqua.engines.offline.verify.fact_match import FactParts
from triqua.engines.offline.verify.findings import Finding, Sentence
from triqua.schema import Fact, Status

__all__ = ["life_date_finding"]

_PARENTHESIS = re.compile(r"\(([^()]{4,80})\)")
_BORN = re.compile(r"\b(?:born|birth)\b", re.I)
_DIED = re.compile(r"\b(?:died|death|dies)\b", re.I)
_RANGE = re.compile(r"\s[–—-]\s|[–—-]")
_NOUN = {"born": "birth", "died": "death"}


def _event(relation: str) -> str | None:
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


def life_date_finding(fact: Fact, parts: FactParts, top: Sequence[Sentence]) -> Finding | None:
    """Support or contradict a birth or death date by the subject's life-date parenthesis.

    Only a sentence naming the subject in full right before the parenthesis counts, and
    only a claimed date (day, month or year): the dates compare at the claim's granularity.
    """
    event = _event(fact.relation)
    claimed = parts.object.dates
    if event is None or len(claimed) != 1 or not parts.subject.is_name:
        return None
    last = parts.subject.content[-1].text
    for sentence in top:
        if sentence.subject < 1.0:
            continue
        text = sentence.info.text
        for match in _PARENTHESIS.finditer(text):
            if not text[: match.start()].rstrip().endswith(last):
                continue
            side = _side(match.group(1), event)
            stated = find_dates(side) if side else []
            if len(stated) != 1:
                continue
            outcome = date_relation(claimed[0], stated[0])
            if outcome == "match":
                return Finding(
                    Status.SUPPORTED,
                    sentence,
                    None,
                    f"the life dates after the name state the date of {_NOUN[event]}",
                    sentence.score,
                )
            if outcome == "conflict":
                return Finding(
                    Status.CONTRADICTED,
                    sentence,
                    claimed[0].text,
                    f"the life dates after the name give another date of {_NOUN[event]}",
                    sentence.score,
                )
    return None
