"""What a count counts: "163 floors" counts floors, "23 gold medals" only the gold ones.

A number that modifies a noun counts that noun, and only the kind its modifiers name: "The
Burj Khalifa, which has 163 floors, is 828 metres tall" states no "828 floors", and "He won
23 gold medals" states no "23 medals" (he may have won more). A count of a part of a whole
("He won 28 Olympic medals, 23 of them gold") is read as the part it states ("23 gold
medals", :func:`triqua.core.reading.restated.part_count`), so its number never counts the
whole's noun. Both engines ask :func:`counted_slot` of every window they read as stating a
fact (the clause gates of ``core.reading.statements``).

A count of groups counts the groups: "19 chromosome pairs" and "23 pairs of chromosomes" count
pairs, not chromosomes, so they neither state "19 chromosomes" nor contradict "38 chromosomes"
(the group nouns are ``group_nouns`` of ``data/restating.json``).

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

from triqua.core.reading.label_lines import RULES_PATH
from triqua.core.reading.restated import part_count
from triqua.core.reading.rules_file import read_rules_file
from triqua.core.reading.values.table import RULES
from triqua.core.reading.words import stem
from triqua.sentences import sentence_spans

if TYPE_CHECKING:
    from triqua.nlp.tokens import Token as SpacyToken

__all__ = ["Count", "counted_slot", "counts", "counts_groups", "states_count"]

_NUMBER = re.compile(r"^\d[\d,]*(?:\.\d+)?$")
#: Modifiers that stress a count and restrict nothing ("23 different medals").
_STRESSING = frozenset(
    ("different", "separate", "distinct", "individual", "total", "whole", "entire", "such")
)
#: Dependencies of the words that name a kind of the counted noun ("gold" of "gold medals").
_MODIFIERS = frozenset(("amod", "compound", "nmod"))
#: Nouns of a group of things: a count of them counts groups ("19 chromosome pairs").
GROUP_NOUNS = frozenset(
    stem(str(w)) for w in read_rules_file(RULES_PATH, "restating")["group_nouns"]["words"]
)


@dataclass(frozen=True)
class Count:
    """One count a text writes: ``number`` (digits, no commas) of the noun ``noun`` (a stem).

    ``kinds`` are the stems of the lower-case modifiers that restrict the noun ("gold");
    ``phrase`` is the count as written, its number first ("23 gold medals"); ``of`` is the
    stem of what a count of groups groups ("chromosom" of "19 chromosome pairs"), else "".
    """

    number: str
    noun: str
    kinds: frozenset[str]
    phrase: str
    of: str = ""


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
        groups = next((w for w in written if _groups(w, claimed)), None)
        if groups is not None:
            return groups.phrase  # "23 chromosome pairs" for "23 chromosomes"
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


def counts_groups(text: str, obj: str) -> bool:
    """True when ``text`` counts only groups of what each count of ``obj`` counts.

    "Pigs have 19 chromosome pairs" for "38 chromosomes": its number counts pairs, another
    slot than the object's, and contradicts nothing. A text that also counts the thing
    itself ("19 pairs, 38 chromosomes in all") is read as written; an object without a
    count gives False.
    """
    wanted = counts(obj)
    if not wanted:
        return False
    written = _written(text)
    return all(
        any(w.of == c.noun for w in written) and not any(w.noun == c.noun for w in written)
        for c in wanted
    )


def _groups(written: Count, claimed: Count) -> bool:
    """True when ``written`` counts groups of the claimed count's thing, with its number."""
    return written.number == claimed.number and written.of == claimed.noun


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
        if token.dep_ != "nummod" or number is None or not _noun(token.head):
            continue
        noun = token.head
        if _labels(number, noun):
            continue  # "a 2003 comedy film": a year naming one film, not 2003 films
        if _names(token):
            continue  # "two Ligue 1 titles": "Ligue 1" is the league's name, no count
        kinds = [t for t in _modifiers(noun) if _restricts(t)]
        words = sorted((token, *kinds, noun), key=lambda t: t.i)
        phrase = " ".join(t.text for t in words)
        stems = frozenset(stem(t.text) for t in kinds)
        found.add(Count(number, stem(noun.text), stems, phrase, _grouped(noun)))
    return frozenset(found)


def _grouped(noun: SpacyToken) -> str:
    """The stem of what a group noun groups ("chromosome pairs", "pairs of chromosomes")."""
    if stem(noun.text) not in GROUP_NOUNS:
        return ""
    before = [c for c in noun.lefts if c.dep_ == "compound" and c.text.isalpha()]
    if before:
        return stem(before[-1].text)
    for prep in (c for c in noun.rights if c.dep_ == "prep" and c.text.lower() == "of"):
        things = [c for c in prep.children if c.dep_ == "pobj" and c.pos_ in ("NOUN", "PROPN")]
        if things:
            return stem(things[0].text)
    return ""


def _noun(word: SpacyToken) -> bool:
    """True for a noun a number may count: a word, never a sign ("2 n = 38" counts no "=")."""
    return word.pos_ in ("NOUN", "PROPN") and any(c.isalpha() for c in word.text)


def _labels(number: str, noun: SpacyToken) -> bool:
    """True when a number before a singular noun labels it instead of counting it.

    "a 2003 romantic comedy film": one film, its number a year, as the indefinite article
    before a singular noun shows. "one medal" and "163 floors" count, and so does a day or
    a year before a month, which the date readers compare ("7 November 1867").
    """
    if number == "1" or noun.tag_ not in ("NN", "NNP"):
        return False
    return any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in noun.lefts)


def _names(number: SpacyToken) -> bool:
    """True when digits close a name with the proper noun right before them.

    "Ligue 1", "Formula 1", "Windows 10": the number is a word of the name ("two Ligue 1
    titles" counts two titles, not one), as a capitalised number word after a capitalised
    word is ("Apollo Eleven", :mod:`triqua.core.reading.values.numbers`).
    """
    if number.i == 0 or not number.text[:1].isdigit() or number.ent_type_ == "DATE":
        return False  # "7 November 1867": a year after its month is a date, no name
    before = number.doc[number.i - 1]
    return before.pos_ == "PROPN" and before.text[:1].isupper()


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
