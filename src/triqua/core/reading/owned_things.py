"""A subject naming a thing a person's pronoun owns: "his debut album LP1", "Her film roles".

"He released a single, and his debut album LP1 was released in 2019. He …": the clause's
subject names an album that "his" holds, so a "he" after it goes on about the one "his"
stands for, not about LP1. The nouns of such things are data (``data/owned_things.json``,
with examples run as tests); a person's noun ("Her sister Bronya", "his coach") is never
one, so such a subject is still another person.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

from triqua.core.reading.rules_file import read_rules_file

if TYPE_CHECKING:
    from triqua.nlp.tokens import Token

__all__ = ["OWNED_THINGS_PATH", "owned_thing"]

OWNED_THINGS_PATH = Path(__file__).parent / "data" / "owned_things.json"

#: Dependents that write a word of the thing's phrase ("debut album" of "his debut album LP1").
_PHRASE = frozenset(("compound", "amod", "nmod"))


@functools.cache
def _nouns() -> frozenset[str]:
    return frozenset(read_rules_file(OWNED_THINGS_PATH, "owned things")["nouns"])


def owned_thing(token: Token, owners: frozenset[str]) -> bool:
    """True when the subject word ``token`` heads a listed thing one of ``owners`` possesses.

    ``owners`` are the possessive pronouns of the quote's own gender ("his" for a "he"):
    "his debut album LP1" is his, and a "he" after it is not LP1.
    """
    if not owners or not any(c.dep_ == "poss" and c.lower_ in owners for c in token.children):
        return False
    # The parser may tag the noun an adjective ("His novel One Hundred Years …", "debut
    # single"): the listed word is read whatever its tag.
    words = [token, *(c for c in token.children if c.dep_ in _PHRASE)]
    return any(w.lower_ in _nouns() for w in words)
