"""A description by a class noun refers to the one thing of that class its sentence names.

"… said Jensen Huang, founder and CEO of NVIDIA. The company expects …": the sentence before
names a person and a company, and "the company" can only be the company. Both engines read
a reference after a sentence that names its subject beside another name as referring to no
one (:func:`triqua.core.reading.values.name_rivals.beside_another`); a description by a
class noun of ``data/described.json`` sets aside the people that sentence names, when the
described one is no person and the sentence names no other thing of that class ("Jensen
Huang of NVIDIA met Lisa Su of AMD. The company …" stays either company). The legal form
after a company's name ("Tesla, Inc.") is part of that name, no other one.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from triqua.core.reading.quotes import normalise
from triqua.core.reading.rules_file import read_rules_file
from triqua.nlp.parses import parse_many

__all__ = ["DESCRIBED_PATH", "described_types", "legal_form", "persons_aside", "thing_name"]

DESCRIBED_PATH = Path(__file__).parent / "data" / "described.json"

#: A description: "the company", "this city", "the company's".
_DESCRIPTION = re.compile(r"\b(?:the|this)\s+([a-z]+)(?=['’]s\b|\b)", re.IGNORECASE)
#: Pronouns that stand for a person: the quote may be about one of the people after all.
_PERSONAL = re.compile(r"\b(?:he|she|him|his|her|hers|they|them|their)\b", re.IGNORECASE)


@lru_cache(maxsize=1)
def _rules() -> dict[str, Any]:
    return read_rules_file(DESCRIBED_PATH, "described classes")


def described_types(quote: str) -> frozenset[str]:
    """The entity types of the things ``quote`` describes by a listed class noun.

    Empty when it describes none, or also writes a personal pronoun ("He said the company
    …" may be about the person).
    """
    classes: dict[str, list[str]] = _rules()["classes"]
    return frozenset(t for noun in _described_nouns(quote) for t in classes[noun])


def _described_nouns(quote: str) -> frozenset[str]:
    """The listed class nouns ``quote`` describes by ("company"); none beside "he" or "she"."""
    if _PERSONAL.search(quote):
        return frozenset()
    classes: dict[str, list[str]] = _rules()["classes"]
    found = {m.group(1).lower() for m in _DESCRIPTION.finditer(quote)}
    return frozenset(noun for noun in found if noun in classes)


def legal_form(name: str) -> bool:
    """True when ``name`` is only a company's legal form ("Inc.", "Ltd"), no name of its own."""
    words = normalise(name).split()
    return bool(words) and set(words) <= set(_rules()["name_suffixes"])


def thing_name(name: str) -> bool:
    """True when ``name`` holds a listed class noun, or is a legal form: it names a thing.

    "University of Queensland", "Brisbane State High School", "Melrose Place Inc." name no
    person, whatever the parser's entity type; "Kate Beckinsale" holds none.
    """
    classes: dict[str, list[str]] = _rules()["classes"]
    words = normalise(name).split()
    singular = {w[:-1] for w in words if w.endswith("s")}
    suffixes = set(_rules()["name_suffixes"])
    return bool((set(words) | singular) & set(classes)) or bool(words and words[-1] in suffixes)


def persons_aside(name: str, sentence: str, quote: str) -> bool:
    """True when the people ``sentence`` names beside ``name`` are no rivals for ``quote``.

    ``quote`` describes a thing by its class ("the company"); ``name`` (normalised) is not
    a person in ``sentence`` (a name holding the class noun is of that class whatever the
    parser reads: "Lake Baikal" for "the lake"), and no other thing the sentence names is
    of that class.
    """
    types = described_types(quote)
    doc = parse_many([sentence])[0] if types else None
    if doc is None:
        return False
    words = set(name.split())
    classed = bool(words & _described_nouns(quote))
    for entity in doc.ents:
        own = bool(set(normalise(entity.text).split()) & words)
        if own and entity.label_ == "PERSON" and not classed:
            return False  # the one named is a person: "the company" is not them
        if not own and entity.label_ in types:
            return False  # another thing of the class: either may be meant
    return True
