"""Class nouns: the class a window gives a subject, against the class a fact gives it.

"YouTube is an American band" states nothing of "YouTube is a website", whatever a judge
reads in the shared subject: the copular or appositive phrase of the window ("X is an
American band", "X, a Danish website,") gives the subject its class, and its head noun
("band") is neither the fact's head ("website") nor of a kind the reader knows as the
same thing. Modifiers between the article and the head ("a 2011 music video", "a
pornographic production company") do not hide the head: the parse names it. Which heads
name no class of their own ("a place", "one of", "a member of") and which heads may name
the same thing ("musician" and "singer", "city" and "capital", "film" and "thriller") is
data (``data/class_nouns.json``, with facts and windows that must and must not be read as
giving another class, run as tests). The offline verifier's value gates ask
:func:`class_rival` of every window its judge reads for support, and the statement gates
(``core.reading.statements``) of every window an LLM judge cites.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from triqua.core.reading.analysis import TextInfo, analyse, has_stem, stems_match
from triqua.core.reading.apposition import apposed_nouns
from triqua.core.reading.rules_file import read_rules_file
from triqua.core.reading.words import stem
from triqua.nlp.clauses import window_parse

__all__ = [
    "CLASS_NOUNS_PATH",
    "class_nouns",
    "class_rival",
    "fact_class",
    "general_head_unwritten",
    "window_classes",
]

CLASS_NOUNS_PATH = Path(__file__).parent / "data" / "class_nouns.json"

_COPULAS = frozenset({"is", "was", "are", "were", "be", "been", "being"})
_INDEFINITE = frozenset({"a", "an"})
_NOUNS = frozenset({"NOUN"})


@lru_cache(maxsize=1)
def class_nouns() -> dict[str, Any]:
    """The class nouns file as written.

    Raises:
        RuntimeError: when the file is missing or unreadable.
    """
    return read_rules_file(CLASS_NOUNS_PATH, "class nouns")


@lru_cache(maxsize=1)
def _general() -> frozenset[str]:
    """Stems of the heads that name no class of their own."""
    return frozenset(stem(w) for w in class_nouns()["general"])


@lru_cache(maxsize=1)
def _kinds() -> tuple[frozenset[str], ...]:
    """Each group of heads that may name the same thing, as stems."""
    return tuple(frozenset(stem(w) for w in group) for group in class_nouns()["kinds"])


def _same_kind(a: str, b: str) -> bool:
    """True when two head stems may name the same thing: equal, or in one group."""
    return a == b or any(a in group and b in group for group in _kinds())


def fact_class(subject: str, relation: str, obj: str) -> str | None:
    """The stem of the class a fact "X is a Y" gives its subject; None for any other fact.

    The relation is a bare copula and the object an indefinite noun phrase ("a website",
    "an American band", "a pop music performer"); its head noun, read from the parse of
    the fact as a sentence, is the class. A head that names no class of its own ("a
    place", "a member of") gives None.
    """
    words = [t.text.lower() for t in analyse(relation).tokens]
    if len(words) != 1 or words[0] not in _COPULAS:
        return None
    tokens = analyse(obj).tokens
    if not tokens or tokens[0].text.lower() not in _INDEFINITE:
        return None
    heads = _heads(subject, f"{subject} {relation} {obj}.")
    head = heads[0] if heads else None
    return None if head is None or head in _general() else head


def window_classes(subject: str, text: str) -> tuple[str, ...]:
    """The stems of the class nouns ``text`` gives ``subject`` in copular or appositive phrases.

    "YouTube is an American band" and "Velmora, a Danish website, …" give "band" and
    "website"; conjoined heads are each a class ("a singer, songwriter and producer"); so
    does a class noun in one phrase with the name ("the boy band One Direction", "films,
    including Green Hollow": :func:`~triqua.core.reading.apposition.apposed_nouns`).
    """
    return _heads(subject, text)


@lru_cache(maxsize=4096)
def _heads(subject: str, text: str) -> tuple[str, ...]:
    """:func:`window_classes`, cached by subject and text (a window is read for each unit)."""
    own = {t.text.lower() for t in analyse(subject).content}
    if not own:
        return ()
    # The run's shared parse: a window the element graph or a clause gate parsed is not
    # parsed again, nor one text for each subject it is read for.
    doc = window_parse(text)
    found: list[str] = []
    for token in doc:
        if token.pos_ not in _NOUNS or token.text[:1].isupper():
            continue
        if token.dep_ == "attr" and token.head.lemma_ == "be":
            if any(c.dep_ == "neg" for c in token.head.children):
                continue  # "it is not an emotion" gives no class
            holders = [c for c in token.head.children if c.dep_ in ("nsubj", "nsubjpass")]
            # The subject must be named, every word of it: "She is an American actress" may
            # speak of the actress who plays the subject ("… her role as Erin Reagan"), and
            # "Battery Shelf Life is the time …" of another life than "Cycle life". And the
            # phrase must be about it, its head a word of the subject: "Reliability evaluation
            # is an essential task" gives the evaluation a class, not the reliability.
            if not any(
                h.text.lower() in own and own <= {w.text.lower() for w in h.subtree}
                for h in holders
            ):
                continue
        elif token.dep_ == "appos":
            if token.head.text.lower() not in own or not own <= {
                w.text.lower() for w in token.head.subtree
            }:
                continue
        else:
            continue
        found.append(stem(token.text))
        found += [stem(c.text) for c in token.conjuncts if c.pos_ in _NOUNS]
    # A class noun in one phrase with the name ("films, including Green Hollow"), read from
    # its words where the parse misses it (``core.reading.apposition``).
    nouns = {t.idx: t for t in doc if t.pos_ in _NOUNS and not t.text[:1].isupper()}
    for at, _ in apposed_nouns(subject, text):
        word = nouns[at].text if at in nouns else ""
        # A list's class is a plural: "movies" is read as "movie" too (the stems differ).
        found += [stem(w) for w in (word, word[:-1] if word.endswith("s") else "") if w]
    return tuple(dict.fromkeys(found))


def class_rival(subject: str, relation: str, obj: str, window: TextInfo) -> str | None:
    """The class the window gives the subject instead of the fact's, if it gives another.

    "band" for "Youtube | is | a website" in "YouTube is an American band": every class
    noun the window gives the subject is of another kind than the fact's head, the window
    writes that head nowhere, no class noun names nothing of its own ("one of the simplest
    methods"), and none is a word of the fact's object. A denied class ("it is not an
    emotion") is none. None when the fact gives no class, or the window none.
    """
    head = fact_class(subject, relation, obj)
    if head is None:
        return None
    if any(t.stem == head for t in window.tokens if not t.text[:1].isupper()):
        return None
    classes = window_classes(subject, window.text)
    written = [t.stem for t in analyse(obj).content]
    if not classes or any(
        c in _general() or _same_kind(c, head) or any(stems_match(c, w) for w in written)
        for c in classes
    ):
        return None  # a class the fact's object restates ("emotional attachment": "emotion")
    return classes[0]


def general_head_unwritten(relation: str, obj: str, window: TextInfo) -> str | None:
    """The object's word a window leaves out when a general noun heads the object.

    "Morse code | is | a method of sending secret messages": "method" names no class of its
    own (``general``), so the words around it name the class, and a window that puts the
    subject among many ("one of the oldest methods of sending messages") must write each
    one: it leaves out "secret". Only for a fact "X is a Y" (a bare copula); None when
    every word is written, the head is not general or the window says no "one of".
    """
    words = [t.text.lower() for t in analyse(relation).tokens]
    if len(words) != 1 or words[0] not in _COPULAS:
        return None
    said = [t.text.lower() for t in window.tokens]
    if not any(a == "one" and b == "of" for a, b in pairwise(said)):
        return None
    info = analyse(obj)
    if not info.content or not any(t.stem in _general() for t in info.content):
        return None
    for token in info.content:
        if token.stem not in _general() and not has_stem(window.stems, token.stem):
            return token.text
    return None
