"""Modifiers that change what a clause claims, and whether a text states them.

"X has yet to win the title" claims the opposite of "X won the title"; "was positively
reviewed" more than "was reviewed"; "more than $1 million" another value than "$1 million";
"the only dwarf planet" more than "a dwarf planet". The groups of such phrases are data
(``data/modifiers.json``, with worked examples run as tests; the exclusive restrictors of
``data/restrictors.json`` join them as one group). A claim carrying a group's phrase is
stated by a text only where the text writes one of the group's phrases: a gate that may keep
a window from supporting a fact, never make it support one.

A fact written from a sentence may have lost the modifier its sentence gives it ("Leonardo
DiCaprio | has to win | an Academy Award" from "… has yet to win …"): :func:`carried` reads
the modifiers of the fact's own stretch of its source sentence, so the window must state
them too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from triqua.core.reading.restrictors.words import WORDS
from triqua.core.reading.rules_file import read_rules_file
from triqua.core.reading.words import folded_stem, stemmed_words

__all__ = [
    "MODIFIERS_PATH",
    "Group",
    "carried",
    "groups",
    "lost",
    "relation_adverbs",
    "unstated",
]

MODIFIERS_PATH = Path(__file__).parent / "data" / "modifiers.json"

#: A number written in digits: the value reader compares it with a bounded claim.
_NUMBER = re.compile(r"\d")

#: Punctuation that sets a part of a sentence off from its clause.
_ASIDE = re.compile(r"[,;:()\u2013\u2014]")


@dataclass(frozen=True)
class Group:
    """One modifier: the phrases a claim carries it by, and every phrase that states it."""

    name: str
    claim: tuple[tuple[str, ...], ...]  # words as written: "positively", never "positions"
    stated: tuple[tuple[str, ...], ...]  # stems: "positive reviews" states "positively"
    values: bool = False  # a bound on a number: a text writing a number leaves it to values


def _words(text: str) -> tuple[str, ...]:
    """The lower-case words of ``text``, as written."""
    return tuple(w.replace("’", "'") for w in stemmed_words(text.casefold()))


def _phrase(text: str) -> tuple[str, ...]:
    return tuple(folded_stem(w) for w in _words(text))


@lru_cache(maxsize=1)
def groups() -> tuple[Group, ...]:
    """The modifier groups of the rules file, the exclusive restrictors as one more."""
    raw = read_rules_file(MODIFIERS_PATH, "modifier rules")
    found = []
    for entry in raw["groups"]:
        claim = tuple(_words(p) for p in entry["claim"])
        stated = tuple(_phrase(p) for p in [*entry["claim"], *entry["stated"]])
        found.append(Group(entry["name"], claim, stated, bool(entry.get("values"))))
    exclusive = sorted(WORDS.exclusive)
    found.append(
        Group(
            "exclusive",
            tuple(_words(w) for w in exclusive),
            tuple(_phrase(w) for w in exclusive),
        )
    )
    return tuple(found)


def _stems(text: str) -> tuple[str, ...]:
    return tuple(folded_stem(w) for w in stemmed_words(text.casefold()))


def _at(words: tuple[str, ...], phrase: tuple[str, ...]) -> list[int]:
    """Every position where ``phrase`` starts in ``words``."""
    n = len(phrase)
    return [i for i in range(len(words) - n + 1) if n and words[i : i + n] == phrase]


@lru_cache(maxsize=1)
def relation_adverbs() -> frozenset[str]:
    """A verb's adverbs that change its claim, kept in a relation ("has yet to win")."""
    return frozenset(read_rules_file(MODIFIERS_PATH, "modifier rules")["relation_adverbs"])


@lru_cache(maxsize=1)
def _light() -> frozenset[str]:
    """Stems too common to place a fact in its sentence: its other words span its stretch."""
    return frozenset(
        folded_stem(w) for w in read_rules_file(MODIFIERS_PATH, "modifier rules")["light"]
    )


def _carried_at(words: tuple[str, ...], low: int, high: int) -> list[Group]:
    """The groups one of whose claim phrases starts in ``words`` between ``low`` and ``high``.

    Only the places of a phrase's first word are tried (found in one pass over the words),
    not every place of every phrase of every group.
    """
    starts: dict[str, list[int]] = {}
    for i in range(max(low, 0), min(high, len(words) - 1) + 1):
        starts.setdefault(words[i], []).append(i)

    def inside(phrase: tuple[str, ...]) -> bool:
        n = len(phrase)
        return n > 0 and any(words[i : i + n] == phrase for i in starts.get(phrase[0], ()))

    return [g for g in groups() if any(inside(p) for p in g.claim)]


def _states(stems: tuple[str, ...], group: Group) -> bool:
    return any(_at(stems, p) for p in group.stated)


def carried(claim: str, source: str = "") -> list[Group]:
    """The modifier groups ``claim`` carries, with those of its stretch of ``source``.

    The stretch runs from the first to the last word of the source sentence that is a
    content word of the claim, leaving out the parts set off by punctuation that hold none
    of them: "Marie Curie | was born in | Warsaw" spans "Marie Curie was born in Warsaw" in
    "… born in Warsaw and only later moved to Paris" and in "Marie Curie, who was only …,
    was born in Warsaw", which leaves "only" to the other clause.
    """
    return list(_carried(claim, source))


@lru_cache(maxsize=4096)
def _carried(claim: str, source: str) -> tuple[Group, ...]:
    """:func:`carried`, cached by claim and source: the gates ask again for each window."""
    own = _words(claim)
    found = _carried_at(own, 0, len(own))
    if not source:
        return tuple(found)
    content = {folded_stem(w) for w in own} - _light()
    parts = [_words(part) for part in _ASIDE.split(source)]
    stems = [tuple(folded_stem(w) for w in part) for part in parts]
    places = [i for i, s in enumerate(s for part in stems for s in part) if s in content]
    if not places:
        return tuple(found)
    start = 0
    for part, part_stems in zip(parts, stems, strict=True):
        if content.intersection(part_stems):
            low, high = max(places[0] - start, 0), places[-1] - start
            found += [g for g in _carried_at(part, low, high) if g not in found]
        start += len(part)
    return tuple(found)


def lost(claim: str, source: str) -> list[str]:
    """The names of the modifier groups ``source`` gives the claim's stretch and it dropped."""
    own = carried(claim)
    return [g.name for g in carried(claim, source) if g not in own]


def unstated(claim: str, text: str, source: str = "") -> str | None:
    """The first modifier the claim (or its stretch of ``source``) carries that ``text`` lacks.

    None when ``text`` states every one of them (or the claim carries none).
    """
    stems = _stems(text)
    numbered = _NUMBER.search(text) is not None
    for group in carried(claim, source):
        if not _states(stems, group) and not (group.values and numbered):
            return group.name
    return None
