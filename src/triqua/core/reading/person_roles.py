"""A name the recogniser types as an organisation or a place that its sentence makes a person.

The small entity recogniser takes some people for bodies or places: "Enrico Fermi
corresponded with Leo Szilard" types Szilard an organisation, "studied under Haydn" Haydn a
place. A "he" or "she" after such a sentence may mean that person as well as the subject, so
the readers of a pronoun must see them. A name is read as a person's, whatever its type, when
the sentence gives it a role only a person holds: the object of a verb and preposition that
take a person ("corresponded with", "studied under", "taught … to", "was tutored by"), a
name after a person's title ("Sir", "Professor"), or a name of two words or more that opens
with a common given name ("Edith Piaf": ``core.reading.gender``'s lists; one word alone, such
as "Florence", may be a place's). A name that closes with an organisation's
word ("Oxford University", "the Prussian Academy") is none. The words and their worked
examples are data (``data/person_roles.json``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from triqua.core.reading.gender import name_gender
from triqua.core.reading.rules_file import read_rules_file

if TYPE_CHECKING:
    from triqua.nlp.tokens import Token

__all__ = ["PERSON_ROLES_PATH", "person_role"]

PERSON_ROLES_PATH = Path(__file__).parent / "data" / "person_roles.json"


class _Roles(NamedTuple):
    pairs: frozenset[tuple[str, str]]
    titles: frozenset[str]
    organisations: frozenset[str]


@functools.cache
def _roles() -> _Roles:
    """The verb-preposition pairs, titles and organisation words of the data file."""
    raw = read_rules_file(PERSON_ROLES_PATH, "person roles")
    return _Roles(
        pairs=frozenset((verb, prep) for verb, prep in raw["head_prepositions"]),
        titles=frozenset(raw["titles"]),
        organisations=frozenset(raw["organisation_words"]),
    )


def _forms(word: str) -> set[str]:
    """The words an inflected ``word`` may be written for ("corresponded", "quarrelled")."""
    w = word.lower()
    return {w, w[:-1], w[:-2], w[:-3], w[:-3] + "e"} - {""}


def person_role(name: Sequence[Token], preposition: Token) -> bool:
    """True when the name ``name`` (its words) after ``preposition`` holds a person's role.

    The preposition's head must be a verb that takes a person there ("corresponded with",
    "taught philosophy to"), or a title stands in the name ("Sir Isaac Newton"), or a given
    name opens a name of two words or more ("Edith Piaf"); a name closing with an
    organisation's word is none.
    """
    if not name:
        return False
    roles = _roles()
    if name[-1].lower_.rstrip(".") in roles.organisations:
        return False
    if any(t.lower_.rstrip(".") in roles.titles for t in name[:-1]):
        return True
    if len(name) >= 2 and name_gender([t.text for t in name]) is not None:
        return True  # "with Edith Piaf": a given name opens it
    head, prep = preposition.head, preposition.lower_
    return head.pos_ in ("VERB", "AUX") and any(
        (form, prep) in roles.pairs for form in _forms(head.text)
    )
