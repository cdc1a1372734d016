"""Qualifier misuse: a qualifier of another qualifier, an entity property, a preposition label."""

from __future__ import annotations

import re

from triqua.evals.decomposition_judges.verdicts import CriterionVerdict
from triqua.evals.decomposition_judges.words import norm, word_list
from triqua.schema import Fact, Qualifier

#: Bare prepositions. "including" and "excluding" are left out: they are Wikidata qualifier
#: properties (P1012, P1011), the labels the offline decomposer gives such phrases.
_PREPOSITIONS = frozenset(
    word_list(
        """about above across after against along amid among around as at before behind below
    beneath beside besides between beyond by despite down during except following
    for from in inside into like near of off on onto out outside over past per
    plus since than through throughout till to toward towards under underneath unlike until
    up upon versus via with within without"""
    )
)
#: Properties of an entity itself (Wikidata main-statement properties), not of one statement:
#: as a qualifier they describe the subject or object instead of qualifying the triple.
_ENTITY_PROPERTIES = frozenset(
    {
        "nationality",
        "citizenship",
        "country of citizenship",
        "occupation",
        "profession",
        "job",
        "gender",
        "sex",
        "religion",
        "ethnicity",
        "ethnic group",
        "date of birth",
        "birth date",
        "place of birth",
        "birthplace",
        "birth place",
        "date of death",
        "place of death",
        "spouse",
        "height",
        "weight",
        "eye color",
        "hair color",
        "native language",
        "genre",
        "official language",
        "capital",
        "population",
        "area",
        "currency",
        "founder",
        "founded",
        "inception",
        "headquarters",
        "headquarters location",
        "description",
        "instance of",
        "subclass of",
        "title",
        "known for",
        "alias",
        "nickname",
    }
)
_OF_TARGET = re.compile(r"\bof (the )?(.+)$")


def _is_preposition_label(label: str) -> bool:
    words = norm(label).split()
    return bool(words) and all(w in _PREPOSITIONS for w in words)


def _modifies(qualifier: Qualifier, other: Qualifier) -> bool:
    """True when ``qualifier`` qualifies ``other`` rather than the base triple.

    Its label names the other's label or value ("country of location", "league of Real
    Madrid"), or its value restates the other's value with more words.
    """
    label = norm(qualifier.label)
    target = _OF_TARGET.search(label)
    other_label, other_value = norm(other.label), norm(other.value)
    if target and target.group(2) in {other_label, other_value}:
        return True
    if (
        other_value
        and not other_value.isdigit()
        and re.search(rf"\b{re.escape(other_value)}\b", label)
    ):
        return True
    value = norm(qualifier.value)
    return bool(other_value) and value != other_value and value.startswith(other_value + " ")


def judge_qualifiers(fact: Fact) -> CriterionVerdict:
    """No qualifier of another qualifier, no entity property as qualifier, no preposition label."""
    problems: list[tuple[str, str]] = []
    for qualifier in fact.qualifiers:
        name = str(qualifier)
        if _is_preposition_label(qualifier.label):
            problems.append((name, f"preposition {qualifier.label!r} as label"))
        if norm(qualifier.label) in _ENTITY_PROPERTIES:
            problems.append((name, f"general property {qualifier.label!r} as qualifier"))
        for other in fact.qualifiers:
            if other is not qualifier and _modifies(qualifier, other):
                problems.append((name, f"qualifies {other} instead of the triple"))
                break
    return CriterionVerdict.of(problems)
