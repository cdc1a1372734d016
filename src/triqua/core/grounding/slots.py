"""The relation's slot: who a window says the unit's relation holds with.

A window may name the unit's object and write its relation, and still give the relation to
another one: "He lost the election in 1981, when Ada Novak was nominated by his rival"
names no one but Emil Haddad before it, yet Ada Novak was nominated by the rival, not by
him. Where a window writes the unit's relation verb with its preposition ("nominated by",
"born in"), the phrase right after it is the relation's slot; a slot that opens with
another holder — a possessive or indefinite phrase ("his rival", "a committee") — says
the relation holds with someone else. A slot naming the object, a pronoun ("by him"), a
definite description ("by the president", which may refer back), a date or another name
(the name gates read those) decides nothing, and neither does a window that never writes
the relation so.
"""

from __future__ import annotations

import re

from triqua.core.reading.quotes import normalise
from triqua.core.reading.values.name_rivals import How, named
from triqua.core.reading.values.names import names as read_names
from triqua.core.reading.words import word_stems
from triqua.schema import FactUnit

__all__ = ["slot_holder"]

#: Prepositions that open a relation's slot ("nominated by", "born in", "married to").
_SLOT_PREPOSITIONS = frozenset(
    ("by", "in", "to", "for", "from", "at", "with", "of", "on", "as", "into", "under")
)
#: Verbs that carry no relation of their own ("is in", "was at").
_LINKING = frozenset(("is", "was", "are", "were", "be", "been", "being", "has", "have", "had"))
#: Words opening a phrase that names someone other than a thing named before it: a
#: possessive ("his rival" is not him) or an indefinite ("a rival" refers back to no one).
_OTHER_OPENERS = frozenset(
    ("his", "her", "their", "its", "my", "our", "your", "a", "an", "another", "some")
)
_SLOT_REACH = 12  # words after the preposition that may still name the object ("…, Emil Haddad")
_WORD = re.compile(r"[^\W_][\w'’.-]*")
_CLAUSE_END = re.compile(r"[.;!?]")


def slot_holder(unit: FactUnit, window: str) -> str | None:
    """The phrase ``window`` puts in the unit's relation slot instead of its object, or None.

    Only a unit whose relation ends with a verb and a preposition ("was nominated by") and
    whose object is a name alone is read. Every place the window writes that verb (any form)
    with that preposition is a slot; when one of them names the object, or none holds
    another one, nothing is refused.
    """
    relation = unit.relation.split()
    if len(relation) < 2:
        return None
    preposition, verb = relation[-1].casefold(), relation[-2].casefold()
    if preposition not in _SLOT_PREPOSITIONS or verb in _LINKING or not verb.isalpha():
        return None
    objects = read_names(unit.object)
    if not objects or not _a_name(unit.object):
        return None
    stems = word_stems(verb)
    tokens = list(_WORD.finditer(window))
    held: str | None = None
    for i, token in enumerate(tokens[:-1]):
        after = tokens[i + 1]
        if after.group().casefold() != preposition or word_stems(token.group()) != stems:
            continue
        if _CLAUSE_END.search(window, token.end(), after.start()):
            continue
        rest = tokens[i + 2 : i + 2 + _SLOT_REACH]
        if not rest:
            continue
        stop = _CLAUSE_END.search(window, after.end())
        end = min(rest[-1].end(), stop.start() if stop else len(window))
        filler = window[after.end() : end].strip()
        padded = f" {normalise(filler)} "
        if any(named(name, filler, padded, "", How()) for name in objects):
            return None  # a slot names the object: the window gives it the relation
        held = held or _other_holder(filler)
    return held


#: Small words a name may hold inside it or open with ("the Bank of England").
_NAME_INNER = frozenset(("the", "of", "and", "de", "for", "in", "on", "at", "von", "van", "da"))


def _a_name(phrase: str) -> bool:
    """True when ``phrase`` is a name alone ("Emil Haddad", "the Bank of England").

    An object that says something of a name ("Doug Sheehan's roles in soap operas", written
    "his roles" in the window) is a description the judge reads, not a holder to find.
    """
    words = [w for w in phrase.split() if w.casefold() not in _NAME_INNER]
    return bool(words) and all(
        w[:1].isupper() and not w.endswith(("'s", "’s", "'", "’")) for w in words
    )


def _other_holder(filler: str) -> str | None:
    """The opening of a slot's phrase when it names another one than the object, else None.

    A possessive ("his rival") or indefinite ("a rival") phrase never is a thing named
    before it. A capitalised name in the slot is left to the name gates, which know a
    containing place ("introduced to Europe … popular in Spain") from a rival.
    """
    words = filler.split()
    if not words:
        return None
    first = words[0].strip(',;:()"“”').casefold()
    if first in _OTHER_OPENERS:
        return " ".join(words[:2]).strip(",;:")
    return None
