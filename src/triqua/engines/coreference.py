"""Coreference within one text: which earlier element a pronoun or a short name stands for.

ElementCheck merges coreferent mentions into one element ("Marie Curie", "Curie" and "She"
are one node). The resolver reads a text's sentences in order and keeps the elements seen
so far; two general rules decide:

* a third-person pronoun stands for the most recent compatible *subject* seen before it
  (he/she/him/her/his → a person; it/its → a thing; they/them/their → a plural or a
  group), or failing that the most recent compatible mention;
* a proper name whose words begin or end exactly one longer name seen earlier
  ("Curie" after "Marie Curie", "Fischer" after "Gerhard Fischer") is that name.

Hand-written over spaCy's entities and parse: neuralcoref and coreferee no longer install
with spaCy 3.8, and the two rules cover the biographies' pronouns and surnames.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["Resolver", "canonical_key", "pronoun_class"]

Category = Literal["person", "thing", "group", "place"]

_PERSON_PRONOUNS = frozenset({"he", "she", "him", "her", "his", "hers", "himself", "herself"})
_THING_PRONOUNS = frozenset({"it", "its", "itself"})
_GROUP_PRONOUNS = frozenset({"they", "them", "their", "theirs", "themselves"})
_GROUP_LABELS = frozenset({"ORG", "NORP"})
_PLACE_LABELS = frozenset({"GPE", "LOC", "FAC"})
_THING_LABELS = frozenset({"PRODUCT", "WORK_OF_ART", "EVENT", "LAW", "LANGUAGE", "NOUN"})
_ARTICLE = re.compile(r"^(?:the|a|an)\s+")
_PUNCT = re.compile(r"[^\w\s]")
_POSSESSIVE = re.compile(r"\s*['’]s?$")


@functools.lru_cache(maxsize=65536)
def canonical_key(name: str) -> str:
    """Case, punctuation, a possessive and a leading article removed: one key per name.

    Cached: every mention of a text is compared with every element seen before it.
    """
    flat = " ".join(_PUNCT.sub(" ", _POSSESSIVE.sub("", name).casefold()).split())
    return _ARTICLE.sub("", flat)


@functools.lru_cache(maxsize=65536)
def _key_words(name: str) -> tuple[str, ...]:
    """The words of a name's :func:`canonical_key` (cached, like the key)."""
    return tuple(canonical_key(name).split())


def pronoun_class(word: str) -> Category | None:
    """Which kind of antecedent a third-person pronoun takes; None for any other word."""
    lower = word.casefold()
    if lower in _PERSON_PRONOUNS:
        return "person"
    if lower in _THING_PRONOUNS:
        return "thing"
    if lower in _GROUP_PRONOUNS:
        return "group"
    return None


@dataclass
class _Seen:
    """An element seen earlier in the text: its display name and how it may be referred to."""

    name: str
    category: Category
    subject: bool
    proper: bool = False


@dataclass
class Resolver:
    """The elements of a text seen so far, most recent last; resolves later mentions."""

    seen: list[_Seen] = field(default_factory=list)

    def pronoun(self, word: str, *, not_: str | None = None) -> str | None:
        """The name a pronoun stands for, or None when nothing compatible came before.

        ``not_`` is a name the pronoun cannot stand for: the subject of its own clause
        when the pronoun is an object ("she shared it with him": "him" is not "she").
        """
        wanted = pronoun_class(word)
        if wanted is None:
            return None
        # The most recent compatible subject, else the most recent compatible element: one
        # scan back that stops at the first subject (a text's elements number hundreds).
        chosen: _Seen | None = None
        latest: _Seen | None = None
        for seen in reversed(self.seen):
            if _agrees(seen.category, wanted) and seen.name != not_:
                if seen.subject:
                    chosen = seen
                    break
                latest = latest or seen
        chosen = chosen or latest
        if chosen is None and wanted == "person":
            # The small parser labels many people's names as organisations: failing a
            # person, a he/she takes the most recent proper-named subject that is no place.
            chosen = next(
                (
                    s
                    for s in reversed(self.seen)
                    if s.proper and s.subject and s.category != "place"
                ),
                None,
            )
            if chosen is not None:
                chosen.category = "person"
        return chosen.name if chosen else None

    def name(self, text: str, *, proper: bool) -> str:
        """The earlier person's full name a proper name shortens, or the name itself.

        Only a person's name is shortened this way ("Curie"); a place or an organisation
        inside a longer name ("Oxford" in "University of Oxford") is another element.
        """
        if not proper:
            return text
        words = _key_words(text)
        size = len(words)
        if not size:
            return text
        hosts: set[str] = set()
        for seen in self.seen:
            if seen.category != "person" or seen.name in hosts:
                continue
            key = _key_words(seen.name)
            if len(key) > size and (key[:size] == words or key[-size:] == words):
                hosts.add(seen.name)
                if len(hosts) > 1:
                    return text  # two people it may shorten: it stays as written
        return hosts.pop() if hosts else text

    def note(
        self, name: str, label: str, *, plural: bool, subject: bool, proper: bool = False
    ) -> None:
        """Record an element mention (its resolved name) so later mentions may refer to it."""
        category: Category
        if label == "PERSON":
            category = "person"
        elif label in _PLACE_LABELS:
            category = "place"
        elif plural or label in _GROUP_LABELS:
            category = "group"
        else:
            category = "thing"
        if label not in {"PERSON"} | _PLACE_LABELS | _THING_LABELS | _GROUP_LABELS:
            return  # dates and values are not referred to by pronouns
        self.seen.append(_Seen(name, category, subject, proper))

    def again(self, name: str, *, subject: bool) -> None:
        """Record a pronoun's mention of an element seen earlier: it is the most recent."""
        earlier = next((s for s in reversed(self.seen) if s.name == name), None)
        if earlier is not None:
            self.seen.append(_Seen(name, earlier.category, subject, earlier.proper))


def _agrees(category: Category, wanted: Category) -> bool:
    """Whether an element of ``category`` may be the antecedent a pronoun ``wanted``."""
    if wanted == "group":
        return category == "group"
    if wanted == "thing":
        return category in ("thing", "group", "place")
    return category == "person"
