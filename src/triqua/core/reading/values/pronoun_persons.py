"""A person named before a pronoun in its own sentence: the pronoun is that person's.

"Einstein wrote that he was born in Ulm": "he" is Einstein, the nearer person, not the
subject a sentence before named. Read by the name reader (``name_rivals.named``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from triqua.core.reading.quotes import normalise
from triqua.core.reading.values.names import name_runs
from triqua.nlp.parses import parse_many

if TYPE_CHECKING:
    from triqua.nlp.tokens import Token

__all__ = ["person_before_pronoun"]

#: Entity types of a person, or of what the entity recogniser often takes a person for.
_PERSON_TYPES = frozenset(("PERSON", "ORG", ""))


def person_before_pronoun(name: str, quote: str, personal: re.Pattern[str]) -> bool:
    """True when the quote names another person before its first personal pronoun.

    The pronoun then refers to that person, the nearer one, not to the subject named in an
    earlier sentence ("Einstein wrote that he was born in Ulm"). A place or a date before it
    is no person ("In Paris she studied physics"): the parser's entity types tell them apart.
    ``personal`` finds the pronouns that stand for a person.
    """
    found = personal.search(quote)
    if found is None:
        return False
    own = set(name.split())
    others = {
        w
        for run in name_runs(quote[: found.start()])
        if not own & set(run.name.split())
        for w in run.name.split()
    }
    if not others:
        return False
    doc = parse_many([quote])[0]
    return any(
        t.idx < found.start()
        and normalise(t.text) in others
        and t.pos_ == "PROPN"
        and t.ent_type_ in _PERSON_TYPES
        and not _setting(t)
        for t in doc or ()
    )


#: Prepositions whose object sets a scene, not a person: "In The Recruit, she played …".
_SCENE = frozenset(("in", "at", "on", "during", "throughout"))


def _setting(token: Token) -> bool:
    """True when the name ``token`` writes is the object of a scene-setting preposition.

    "In The Recruit, she played …" and "In Serendipity she …" name a film, a place or an
    event the sentence happens in, whatever the recogniser makes of it; "With Pierre, she
    …" or "According to Pierre, he …" may name a person. A name inside a phrase of "as"
    gives the role the pronoun's own one holds ("As Chancellor, she …", "As a member of
    the House of Lords, she …"), no other person; "As Einstein wrote, he …" (a clause, no
    phrase) still names one.
    """
    if any(a.dep_ == "prep" and a.lower_ == "as" for a in token.ancestors):
        return True
    head = token
    while head.dep_ in ("compound", "flat") and head.head.i != head.i:
        head = head.head
    return head.dep_ == "pobj" and head.head.lower_ in _SCENE
