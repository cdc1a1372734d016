"""Whether a clause's owner names another than the fact's subject, though it shares a word.

"Mount Everest" is not "Mount Kilimanjaro", "Apollo 13" not "Apollo 11", and "Charlotte
Brontë" may be Emily's sister, not Emily: the clause gates (``core.reading.clause_owners``)
ask these readers of an owner that shares a name word with the subject.
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import TYPE_CHECKING

from triqua.core.reading.analysis import TextInfo
from triqua.core.reading.holders import named_by
from triqua.core.reading.words import stem
from triqua.nlp.clauses import people

if TYPE_CHECKING:
    from triqua.nlp.tokens import Token as SpacyToken

__all__ = ["namesake", "other_named"]


def other_named(owner: SpacyToken, words: list[SpacyToken], subject: TextInfo) -> str | None:
    """The owner's name when it shares a word with the subject's and is another name.

    "Mount Everest" is not "Mount Kilimanjaro", nor "Lake Victoria" "Lake Geneva": the
    owner's own head word is a name word the subject lacks, and the subject's last name word
    is not the owner's. A fuller name ("Wolfgang Amadeus Mozart" for "Amadeus") or a
    shorter one ("Kilimanjaro") is the subject's; people sharing a surname are read as
    namesakes (:func:`namesake`). Where the subject's name holds a number, a name with
    another number is another's: "Boeing 747" is not "Boeing 737", nor "Louis XVI" "Louis
    XIV".
    """
    numbers = _numbers([t.text for t in subject.tokens])
    if numbers and _numbers([t.text for t in words]) - numbers:
        return " ".join(t.text for t in words)  # "Apollo 11" is not "Apollo 13"
    names = [t.stem for t in subject.content if t.is_capitalised]
    if owner.pos_ != "PROPN" or not names:
        return None
    # Words as letters and digits only: markup glued to a name ("Curie</b>") is not another
    # name, and a name's digits are its own ("Person1" is not "Person2").
    # A dotted name is one word too ("DoSomething.org" is the subject's "dosomethingorg").
    stems = {stem(w) for t in words for w in (*_WORD.findall(t.text), _joined(t.text))}
    head = {stem(w) for w in (*_WORD.findall(owner.text), _joined(owner.text))} - {""}
    if head and head & {t.stem for t in subject.content} and owner.ent_type_ != "PERSON":
        # A thing's name on the same head word with a name word of its own, where the
        # subject has one the owner lacks: "the Mariinsky Theatre" is not "the Bolshoi
        # Theatre". A fuller name ("the Royal Swedish Academy") lacks no word of the subject's.
        capitalised = {stem(w) for t in words if t.is_title for w in _WORD.findall(t.text)}
        if capitalised - set(names) and set(names) - stems:
            return " ".join(t.text for t in words)
    if not head or head & {t.stem for t in subject.content} or names[-1] in stems:
        return None
    return " ".join(t.text for t in words)


def _numbers(words: list[str]) -> set[str]:
    """The numbers a name writes after a name word: "747" of "Boeing 747", "XIV" of "Louis XIV".

    Only a number right after a word that is not lower-case is the name's own ("the iPhone
    5", "Pioneer 10"); a number elsewhere in the phrase ("the 1969 flight") is no part of it.
    """
    return {
        w
        for before, w in pairwise(words)
        if (w.isdigit() or _ROMAN.fullmatch(w)) and before.isalpha() and not before.islower()
    }


_ROMAN = re.compile(r"[IVXLC]{2,}")
_WORD = re.compile(r"[^\W_]+")


def _joined(word: str) -> str:
    """A word's letters and digits as one word ("dosomethingorg" of "DoSomething.org")."""
    return "".join(_WORD.findall(word))


def namesake(owner: SpacyToken, subject: TextInfo) -> str | None:
    """The owner's full name when it may be a namesake of the subject (else None).

    The owner is a person's name of two words or more (the entity recogniser's), ending in
    the subject's surname, that lacks a name word of the subject's: "Charlotte Brontë" is
    not "Emily Brontë", and "John Adams" need not be "John Quincy Adams". A fuller name
    ("Wolfgang Amadeus Mozart" for "Amadeus Mozart", "Caroline Bouvier Kennedy" for
    "Caroline Kennedy", whichever words the entity recogniser takes for the person) or the
    surname alone may be the subject.
    """
    names = [t.stem for t in subject.content if t.is_capitalised]
    if len(names) < 2:
        return None
    if set(names) <= {stem(t.text) for t in named_by(owner)}:
        return None  # the owner's whole name holds the subject's: a fuller name, not another
    span = next(((a, b) for a, b in people(owner.doc.text) if a <= owner.i < b), None)
    if span is None:
        return None
    person = owner.doc[span[0] : span[1]]
    words = [stem(t.text) for t in person if t.pos_ == "PROPN"]
    if len(words) < 2 or words[-1] != names[-1] or set(names) <= set(words):
        return None
    # A lower-case particle is a name word too: "bin Laden" is part of "Osama bin Laden".
    if set(words) <= {t.stem for t in subject.content} and words[0] != names[0]:
        return None  # a part of the subject's name, not another's (a name split by the tagger)
    return person.text
