"""A property named by a possessive subject, read as the relation it stands for.

"Turing's birthplace was Maida Vale" and "The birthplace of Turing was Maida Vale" state
(Turing, was born in, Maida Vale): evidence names Turing, not "Turing's birthplace", so a fact
keyed on the property phrase could never bind to a sentence about its owner. The property
nouns are a short closed list of biographical ones, each with the relation it means.
"""

from __future__ import annotations

import re

from triqua.engines.offline.decompose.arguments import RawFact

__all__ = ["owned_property"]

#: Property nouns and the relation each means between its owner and the value.
_RELATIONS = {
    "birthplace": "was born in",
    "place of birth": "was born in",
    "birth place": "was born in",
    "date of birth": "was born on",
    "birth date": "was born on",
    "birthdate": "was born on",
    "birthday": "was born on",
    "place of death": "died in",
    "date of death": "died on",
    "resting place": "is buried in",
    "burial place": "is buried in",
    "place of burial": "is buried in",
    "hometown": "is from",
    "home town": "is from",
    "alma mater": "studied at",
}
_NOUNS = "|".join(sorted((re.escape(k) for k in _RELATIONS), key=len, reverse=True))
_POSSESSIVE = re.compile(rf"^(?P<owner>.+?)['’]s? (?P<noun>{_NOUNS})$", re.I)
_OF = re.compile(rf"^(?:the |his |her |their |its )?(?P<noun>{_NOUNS}) of (?P<owner>.+)$", re.I)
_COPULA = frozenset(("is", "was", "are", "were"))
_YEAR = re.compile(r"^(?:1[0-9]{3}|20[0-9]{2})$")


def owned_property(fact: RawFact) -> RawFact:
    """``fact`` with a possessive property subject read as its relation, else unchanged."""
    if fact.relation.lower() not in _COPULA or not fact.object:
        return fact
    match = _POSSESSIVE.match(fact.subject) or _OF.match(fact.subject)
    if match is None or match.group("owner").lower() in ("his", "her", "their", "its"):
        return fact
    relation = _RELATIONS[match.group("noun").lower()]
    if relation.endswith(" on") and _YEAR.match(fact.object.strip()):
        relation = relation[: -len(" on")] + " in"  # a year is "born in 1912", not "on"
    return RawFact(match.group("owner"), relation, fact.object, fact.qualifiers)
