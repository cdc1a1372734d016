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

The same fit decides a pronoun read past sentences about no one to the subject's earlier
name (:func:`rival_referent`): "Marie Curie was born in Warsaw. Warsaw was then Russian.
She moved to Paris." is Marie's, but a sentence between that names another the pronoun may
stand for ("Bronislawa, her elder sister, moved to Paris in 1885. She …") makes it no one's.
"""

from __future__ import annotations

import functools

from triqua.core.reading.gender import Gender, may_be_person, name_gender, pronoun_gender
from triqua.core.reading.quotes import normalise
from triqua.core.reading.values.names import name_runs
from triqua.nlp.clauses import window_parse
from triqua.nlp.passages import entities
from triqua.sentences import sentence_spans

__all__ = [
    "opens_document",
    "orphan_description",
    "orphan_pronoun",
    "referring_pronoun",
    "rival_referent",
]

#: Pronouns a sentence may open with for a subject it never names, and the gender each asks.
_OPENERS: dict[str, Gender | None] = {"he": "male", "she": "female", "it": None, "they": None}
_PERSON = "PERSON"
#: Entity kinds "it" or "they" may stand for when the subject's own kind is not known.
_THINGS = frozenset({"PLACE_ORG", "WORK", "EVENT"})
#: A pronoun's other forms, by the form a sentence opens with.
_FORMS = {"him": "he", "his": "he", "her": "she", "its": "it", "them": "they", "their": "they"}
_OPENING = 8  # words at the start of a sentence that may hold the pronoun it refers back by
#: Dependents that make "the <noun>" a description of something else ("the director of
#: the film", "the band's album", "the other film", "the film that followed").
_ELSEWHERE = frozenset({"prep", "poss", "relcl", "acl", "compound", "nmod", "appos", "nummod"})
_OTHER = frozenset({"other", "another", "same", "former", "latter", "second", "next", "previous"})


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
    kinds = _referent_kinds(subject, opening)
    if kinds is None or _other_of_kind(f"{before}\n{sentence}", kinds, values):
        return None
    return opening


@functools.lru_cache(maxsize=4096)
def orphan_description(subject: str, sentence: str, before: str, values: str = "") -> str | None:
    """The "the <noun>" subject of ``sentence`` as written, where it can only be ``subject``.

    An encyclopaedia's excerpt names its topic in its title and calls it "the film", "the
    city" after ("Distributed by Sony, the film was released on March 23, 2007."). As with
    :func:`orphan_pronoun`, nothing read before may write a name, nor may the sentence name
    another entity of the subject's kind before the description (after it stand the
    sentence's own values: "the city celebrated … with Stavanger"); the subject is a
    thing's name (no person's: a person is "he" or "she"), and the description names its
    own referent only bare: "the director of the film", "the band's album", "the other
    film" describe something else.
    """
    if not name_runs(subject) or name_runs(before) or name_gender(subject.split()) is not None:
        return None
    if "the " not in " ".join(sentence.casefold().split()[:_OPENING]) or any(
        kind == _PERSON for _, _, kind in entities(subject)
    ):
        return None
    doc = window_parse(sentence)
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    head = (
        next((t for t in root.children if t.dep_ in ("nsubj", "nsubjpass")), None) if root else None
    )
    if head is None or head.pos_ != "NOUN" or head.i >= _OPENING or head.ent_type_:
        return None
    kids = list(head.children)
    if [k.lower_ for k in kids if k.dep_ == "det"] != ["the"] or any(
        k.dep_ in _ELSEWHERE or k.lower_ in _OTHER or k.pos_ == "PROPN" for k in kids
    ):
        return None
    if _other_of_kind(sentence[: head.idx], _own_kinds(subject), values):
        return None  # a name before the description may be what it refers back to
    return doc[kids[0].i if kids[0].i < head.i else head.i : head.i + 1].text


def referring_pronoun(sentence: str) -> str | None:
    """The first "he", "she", "it" or "they" (in any form) among the sentence's opening words."""
    for word in sentence.split()[:_OPENING]:
        low = word.strip(",;:.").casefold()
        if low in _OPENERS or low in _FORMS:
            return _FORMS.get(low, low)
    return None


@functools.lru_cache(maxsize=4096)
def rival_referent(subject: str, sentence: str, between: str, values: str = "") -> bool:
    """True when ``sentence`` may refer back to something ``between`` names, not ``subject``.

    ``between`` is what a reader read since the subject was last named (that sentence
    included). Its pronoun must fit the subject (a "she" no man, an "it" no person), and no
    name in ``between`` but the subject's own and the fact's ``values`` may be of the
    pronoun's kind: a person whose name shows no other gender for "he" or "she", a thing of
    the subject's kind or any name the recogniser calls a person for "it" or "they"; for "he"
    or "she" any name in a sentence that speaks of a person by a pronoun. A sentence with no
    pronoun ("The city …") may refer back to a person or thing alike.
    """
    pronoun = referring_pronoun(sentence)
    kinds = _referent_kinds(subject, pronoun) if pronoun else _own_kinds(subject)
    if kinds is None:
        return True
    gender = _OPENERS.get(pronoun or "")
    if gender is None:  # the recogniser takes a place for a person often enough
        return _other_of_kind(between, kinds | {_PERSON}, f"{values} {subject}")
    # … and a person for a place: a sentence that speaks of a person by a pronoun
    # ("Chelsea, her closest friend, moved to Boston") may name one by its first name.
    for start, end in sentence_spans(between):
        text = between[start:end]
        if _other_of_kind(text, kinds, f"{values} {subject}", gender, bool(pronoun_gender(text))):
            return True
    return False


def _referent_kinds(subject: str, pronoun: str) -> frozenset[str] | None:
    """The entity kinds ``pronoun`` may stand for, or None when it cannot stand for ``subject``."""
    gender = _OPENERS[pronoun]
    if gender is not None:
        return frozenset({_PERSON}) if may_be_person(subject, gender) else None
    if name_gender(subject.split()) is not None:
        return None
    kinds = _own_kinds(subject)
    return kinds | {_PERSON} if pronoun == "they" else kinds  # a band, a team, or people


def _own_kinds(subject: str) -> frozenset[str]:
    """The kinds of thing the subject's name is (any thing's, when the recogniser says none)."""
    return frozenset({kind for _, _, kind in entities(subject)} - {_PERSON}) or _THINGS


def _other_of_kind(
    text: str, kinds: frozenset[str], values: str, gender: Gender | None = None, first: bool = False
) -> bool:
    """True when ``text`` names an entity of ``kinds`` that ``values`` does not write.

    With a ``gender``, a person whose name shows the other one is not of the kind; with
    ``first``, the first entity is read as a person, whatever the recogniser calls it.
    """
    padded = f" {normalise(values)} "
    for at, (start, end, kind) in enumerate(entities(text)):
        name = [w for w in normalise(text[start:end]).split() if w != "the"]
        kind = _PERSON if first and at == 0 else kind
        if kind not in kinds or (name and f" {' '.join(name)} " in padded):
            continue
        if gender is None or kind != _PERSON or may_be_person(text[start:end], gender):
            return True
    return False
