"""What a count counts: "163 floors" counts floors, "23 gold medals" only the gold ones.

A number that modifies a noun counts that noun, and only the kind its modifiers name: "The
Burj Khalifa, which has 163 floors, is 828 metres tall" states no "828 floors", and "He won
23 gold medals" states no "23 medals" (he may have won more). A count of a part of a whole
("He won 28 Olympic medals, 23 of them gold") is read as the part it states ("23 gold
medals", :func:`triqua.core.reading.restated.part_count`), so its number never counts the
whole's noun. Both engines ask :func:`counted_slot` of every window they read as stating a
fact (the clause gates of ``core.reading.statements``).

Only lower-case modifiers restrict a count ("gold", "illuminated", "studio"): a capitalised
one is a name or an adjective of one ("Olympic medals") that a claim may leave out, and a
few words only stress the count ("23 different medals"). A number between "a" and a singular
noun labels it ("a 2003 comedy film"): no count.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from triqua.core.reading.restated import part_count
from triqua.core.reading.values.table import RULES
from triqua.core.reading.words import stem
from triqua.sentences import sentence_spans

if TYPE_CHECKING:
    from triqua.nlp.tokens import Token as SpacyToken

__all__ = ["Count", "counted_slot", "counts", "states_count"]

_NUMBER = re.compile(r"^\d[\d,]*(?:\.\d+)?$")
#: Modifiers that stress a count and restrict nothing ("23 different medals").
_STRESSING = frozenset(
    ("different", "separate", "distinct", "individual", "total", "whole", "entire", "such")
)
#: Dependencies of the words that name a kind of the counted noun ("gold" of "gold medals").
_MODIFIERS = frozenset(("amod", "compound", "nmod"))


@dataclass(frozen=True)
class Count:
    """One count a text writes: ``number`` (digits, no commas) of the noun ``noun`` (a stem).

    ``kinds`` are the stems of the lower-case modifiers that restrict the noun ("gold");
    ``phrase`` is the count as written, its number first ("23 gold medals").
    """

    number: str
    noun: str
    kinds: frozenset[str]
    phrase: str


def counted_slot(text: str, obj: str) -> str | None:
    """The count ``text`` writes in place of the object's, when it writes no count of its own.

    "The Burj Khalifa, which has 163 floors, is 828 metres tall" for "828 floors": 828
    counts metres and the floors number 163; "He won 23 Olympic gold medals" (or "28
    Olympic medals, 23 of them gold") for "23 Olympic medals": 23 counts gold medals only.
    Each number of the object that modifies a noun is looked for in the window's parse:
    the window states it where it writes that number for that noun with no modifier of a
    kind the object lacks. When every count of the number and noun is of a narrower kind,
    or the window writes the number for another noun and the noun with another number,
    that count is the window's reading.

    Args:
        text: The window (1–3 sentences).
        obj: The object as the fact writes it ("828 floors").
    """
    return _counted(text, obj)


@functools.lru_cache(maxsize=4096)
def _counted(text: str, obj: str) -> str | None:
    """:func:`counted_slot`, remembered."""
    if not text.strip() or not obj.strip():
        return None
    wanted = counts(obj)
    if not wanted:
        return None
    written = _written(text)
    for claimed in wanted:
        same = [w for w in written if (w.number, w.noun) == (claimed.number, claimed.noun)]
        if any(w.kinds <= claimed.kinds for w in same):
            continue
        if same:
            return same[0].phrase  # "23 gold medals" for "23 medals"
        other = next((w for w in written if w.number == claimed.number), None)
        if other is not None and any(w.noun == claimed.noun for w in written):
            return other.phrase
    return None


def states_count(text: str, obj: str) -> bool:
    """True when ``text`` writes every count of ``obj`` for the object's own kind.

    "He won ten Olympic medals, including nine gold medals" writes "nine gold medals" for
    "nine Olympic gold medals": its "ten Olympic medals" counts the whole, another value
    of another slot, and contradicts nothing. An object without a count gives False.
    """
    wanted = counts(obj)
    if not wanted:
        return False
    written = _written(text)
    return all(
        any((w.number, w.noun) == (c.number, c.noun) and w.kinds <= c.kinds for w in written)
        for c in wanted
    )


def _written(text: str) -> frozenset[Count]:
    """The counts ``text`` writes, with those of the part each sentence counts."""
    written = set(counts(text))
    for sentence in (text[a:b] for a, b in sentence_spans(text)):
        parted = part_count(sentence)
        if parted is not None:
            written |= counts(parted)
    return frozenset(written)


@functools.lru_cache(maxsize=4096)
def counts(text: str) -> frozenset[Count]:
    """The counts ``text`` writes: each number (digits or a number word) modifying a noun."""
    if not any(c.isdigit() for c in text) and not _words(text):
        return frozenset()
    from triqua.nlp.clauses import window_parse  # spaCy, loaded when asked

    found = set()
    for token in window_parse(text):
        number = _value(token.text)
        if token.dep_ != "nummod" or number is None or token.head.pos_ not in ("NOUN", "PROPN"):
            continue
        noun = token.head
        if _labels(number, noun):
            continue  # "a 2003 comedy film": a year naming one film, not 2003 films
        kinds = [t for t in _modifiers(noun) if _restricts(t)]
        words = sorted((token, *kinds, noun), key=lambda t: t.i)
        phrase = " ".join(t.text for t in words)
        found.add(Count(number, stem(noun.text), frozenset(stem(t.text) for t in kinds), phrase))
    return frozenset(found)


def _labels(number: str, noun: SpacyToken) -> bool:
    """True when a number before a singular noun labels it instead of counting it.

    "a 2003 romantic comedy film": one film, its number a year, as the indefinite article
    before a singular noun shows. "one medal" and "163 floors" count, and so does a day or
    a year before a month, which the date readers compare ("7 November 1867").
    """
    if number == "1" or noun.tag_ not in ("NN", "NNP"):
        return False
    return any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in noun.lefts)


def _modifiers(noun: SpacyToken) -> Iterable[SpacyToken]:
    """The words before ``noun`` that name its kind, with their own modifiers ("Olympic gold")."""
    stack = [c for c in noun.lefts if c.dep_ in _MODIFIERS]
    while stack:
        word = stack.pop()
        yield word
        stack.extend(c for c in word.lefts if c.dep_ in _MODIFIERS)


def _restricts(word: SpacyToken) -> bool:
    """True for a modifier that restricts a count to a kind: lower-case, no stress word."""
    text = word.text
    return text.isalpha() and text.islower() and text not in _STRESSING


def _words(text: str) -> bool:
    """True when ``text`` writes a number word ("nine")."""
    return any(w in RULES.word_numbers for w in re.findall(r"[a-z]+", text.lower()))


def _value(word: str) -> str | None:
    """The number a word writes, as plain digits ("1,280" -> "1280", "nine" -> "9")."""
    if _NUMBER.match(word):
        return word.strip(".,;").replace(",", "")
    value = RULES.word_numbers.get(word.lower())
    return str(value) if value is not None else None
