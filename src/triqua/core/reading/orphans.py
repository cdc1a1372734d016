"""A pronoun that opens a document with no name before it: the fact's subject, or no one.

An excerpt cut from a longer text ("He played point guard for the Lakers.") refers back to
someone it never names. It may stand for the fact's subject only where nothing else could be
meant: nothing a reader has read before it in its document (its title included) writes a
name; neither that text nor the sentence itself names another entity of the pronoun's kind
(a person for "he" or "she", a thing of the subject's kind for "it", either for "they") outside the
fact's own values ("He co-founded Microsoft with Paul Allen" may be anyone who did, so it is
no one's; "She starred in the film Broken Bridges" names only the film the fact names); and
the pronoun fits the subject: "he" or "she" a person whose name shows no other gender and
names no thing, "it" or "they" a name that shows no person's gender. A subject without a
name ("the system") is never carried so. "James Turing was a banker. He was born in London."
is James's, not Alan Turing's: a name stands before the pronoun.

The reading is weaker than a name, so the offline verifier asks more of the judge there
(``engines.offline.verify.reading.orphan_bar``), every value gate on. Only a passage that
opens its document is read so (:func:`opens_document`): a chunk cut from the middle of one
may follow a name the reader never sees.
"""

from __future__ import annotations

import functools

from triqua.core.reading.gender import Gender, may_be_person, name_gender
from triqua.core.reading.quotes import normalise
from triqua.core.reading.values.names import name_runs
from triqua.nlp.passages import entities

__all__ = ["opens_document", "orphan_pronoun"]

#: Pronouns a sentence may open with for a subject it never names, and the gender each asks.
_OPENERS: dict[str, Gender | None] = {"he": "male", "she": "female", "it": None, "they": None}
_PERSON = "PERSON"
#: Entity kinds "it" or "they" may stand for when the subject's own kind is not known.
_THINGS = frozenset({"PLACE_ORG", "WORK", "EVENT"})


def opens_document(start: int | None) -> bool:
    """True when a passage starting at offset ``start`` of its document opens it.

    A passage with no offset is an excerpt handed over as it is (a caller's evidence text,
    an evaluation case): it is read as a document of its own, so it opens it. One with an
    offset past 0 is a chunk from inside a document, after text the reader has not seen.
    """
    return start is None or start == 0


@functools.lru_cache(maxsize=4096)
def orphan_pronoun(subject: str, sentence: str, before: str, values: str = "") -> str | None:
    """The pronoun ``sentence`` opens with when it can only stand for ``subject``, else None.

    Args:
        subject: The fact's subject as written ("Magic Johnson").
        sentence: The sentence (or window) read for the subject.
        before: Everything a reader has read before ``sentence`` in its document, title
            included; any name in it may be the pronoun's referent instead.
        values: The fact's object and qualifier values: a name among them is a value in the
            relation's slot, not a candidate referent.
    """
    words = sentence.split(maxsplit=1)
    opening = words[0].strip(",;:").casefold() if words else ""
    if opening not in _OPENERS or not name_runs(subject) or name_runs(before):
        return None
    gender = _OPENERS[opening]
    if gender is not None:
        fits = may_be_person(subject, gender)
        kinds = frozenset({_PERSON})
    else:
        fits = name_gender(subject.split()) is None
        own = {kind for _, _, kind in entities(subject)}
        kinds = frozenset(own - {_PERSON}) or _THINGS
        if opening == "they":  # a band, a team, or people
            kinds |= {_PERSON}
    if not fits or _other_of_kind(f"{before}\n{sentence}", kinds, values):
        return None
    return opening


def _other_of_kind(text: str, kinds: frozenset[str], values: str) -> bool:
    """True when ``text`` names an entity of ``kinds`` that ``values`` does not write."""
    padded = f" {normalise(values)} "
    for start, end, kind in entities(text):
        name = [w for w in normalise(text[start:end]).split() if w != "the"]
        if kind in kinds and not (name and f" {' '.join(name)} " in padded):
            return True
    return False
