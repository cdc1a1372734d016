"""Restrictors: "one of the largest" does not state "the largest".

A sentence may write every word of a unit and still claim less: "Acme is one of the largest
companies" does not state "Acme is the largest company", nor "Ada was one of the founders"
that she was the founder. A restrictor ("one of", "among", "some of", …) before a word
makes that word one of a group; a unit that writes the word without a restrictor of its own
claims more than such a sentence states. "A top state" (indefinite) claims no more than
"one of the top states".

A status word ("former", "ex-") before a word says the subject no longer is one: "John Smith
is the former CEO" does not state that he is the CEO, though it states that he was.

The phrases, status words and their worked examples are data (``data/restrictors.json``,
its ``groups`` rule).
"""

from __future__ import annotations

import re

from triqua.core.reading.restrictors.words import WORDS
from triqua.core.reading.values.table import RULES
from triqua.core.reading.words import word_stems
from triqua.schema import FactUnit

__all__ = ["restriction"]

_RESTRICTORS = WORDS.group_phrases
_DETERMINERS = WORDS.group_determiners
_TOKEN = re.compile(r"[^\W_]+")
_LAPSED = WORDS.lapsed
#: A nationality's word ("Brazilian"): a status word before it ends no role.
_DEMONYMS = frozenset(d for names in RULES.demonyms.values() for d in names if " " not in d)
_PREPOSITIONS = WORDS.role_prepositions
_PAST = WORDS.past


def _tokens(text: str) -> list[str]:
    return [t.casefold() for t in _TOKEN.findall(text)]


def _restricted_heads(tokens: list[str]) -> dict[int, int]:
    """Index of each word a restrictor restricts, and the index where its restrictor starts."""
    heads: dict[int, int] = {}
    for start in range(len(tokens)):
        for phrase in _RESTRICTORS:
            if tuple(tokens[start : start + len(phrase)]) != phrase:
                continue
            at = start + len(phrase)
            while at < len(tokens) and tokens[at] in _DETERMINERS:
                at += 1
            if at < len(tokens):
                heads[at] = start
    return heads


def _said(unit: FactUnit) -> str:
    return f"{unit.relation} {unit.object}" if unit.kind == "base" else unit.value or ""


def _definite(said: list[str]) -> frozenset[str]:
    """Stems of the words a unit writes as the one of their kind: "the largest", "the founder".

    "A top state" is already one of a group, and so is any word after a restrictor.
    """
    heads = _restricted_heads(said)
    stems: set[str] = set()
    for i, word in enumerate(said):
        if word != "the":
            continue
        at = i + 1
        while at < len(said) and said[at] in ("most", "least", "very"):
            at += 1
        if at < len(said) and at not in heads:
            stems |= word_stems(said[at])
    return frozenset(stems)


def _lapsed(unit: FactUnit, tokens: list[str]) -> str | None:
    """The phrase of ``tokens`` putting a role of a present-tense unit in the past, or None.

    "the former CEO" for "is the CEO": every time the text writes the role word of the
    unit's object (its head before any preposition), a status word (``_LAPSED``) stands
    right before it (determiners between), and the unit neither writes a status word
    itself nor speaks of the past ("was the CEO").
    """
    said = _tokens(_said(unit))
    relation = _tokens(unit.relation or "") if unit.kind == "base" else []
    if not _LAPSED.isdisjoint(said) or not _PAST.isdisjoint(relation):
        return None
    if any(w.endswith("ed") for w in relation):
        return None
    phrase = _tokens(unit.object or "") if unit.kind == "base" else said
    cut = next((i for i, w in enumerate(phrase) if w in _PREPOSITIONS), len(phrase))
    head = [w for w in phrase[:cut] if w not in _DETERMINERS]
    if not head:
        return None
    if head[-1] in _DEMONYMS:
        return None  # "a retired Brazilian footballer" is Brazilian still: no role lapses
    claimed = word_stems(head[-1])  # the role: "CEO" of "the CEO of Acme Corp"
    found: str | None = None
    for i, token in enumerate(tokens):
        if word_stems(token).isdisjoint(claimed) or token in _DETERMINERS:
            continue
        before = i - 1
        while before >= 0 and tokens[before] in _DETERMINERS:
            before -= 1
        if before < 0 or tokens[before] not in _LAPSED:
            return None  # the word stands once without a status word: the role is stated
        found = found or " ".join(tokens[before : i + 1])
    return found


def restriction(unit: FactUnit, text: str) -> str | None:
    """The restricting phrase of ``text`` ("one of the largest") that the unit lacks, or None.

    A word the unit writes as the one of its kind ("the largest", "the founder") is
    restricted when every time ``text`` writes it (same stem) a restrictor stands before it;
    a role of a present-tense unit ("is the CEO") when a status word puts it in the past
    every time ("the former CEO").
    """
    tokens = _tokens(text)
    lapsed = _lapsed(unit, tokens)
    if lapsed:
        return lapsed
    heads = _restricted_heads(tokens)
    if not heads:
        return None
    claimed = _definite(_tokens(_said(unit)))
    if not claimed:
        return None
    for head, start in heads.items():
        stems = word_stems(tokens[head])
        if not stems or stems.isdisjoint(claimed):
            continue
        others = [
            i
            for i, t in enumerate(tokens)
            if i not in heads and not word_stems(t).isdisjoint(stems)
        ]
        if not others:
            return " ".join(tokens[start : head + 1])
    return None
