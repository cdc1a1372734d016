"""The value-slot reader: which number or year the relation's own verb governs.

"Construction of the Sydney Opera House started in 1959, and the building opened in 1973"
holds "opened" and "1959", yet the year "opened" governs is 1973: 1959 is the start's. A
fact whose object is a bare year or number ("opened in | 1959") is stated only where the
relation's verb governs that value. The reader finds, in spaCy's parse, every number the
text writes and the nearest verb that governs it (its first verbal ancestor: "opened *in
1973*", "fell in November *1989*"); an occurrence of the relation's verb that governs
numbers of which none is the fact's, when no occurrence governs the fact's, gives the slot
another value. A verb that governs no number says nothing, and neither does a relation
without a verb of its own ("is", "has").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from triqua.core.reading.analysis import analyse
from triqua.core.reading.counts import counted_slot
from triqua.core.reading.values.table import RULES
from triqua.core.reading.words import stem
from triqua.schema import FactUnit

if TYPE_CHECKING:
    from triqua.nlp.tokens import Token as SpacyToken

__all__ = [
    "bare_values",
    "conjoined_object",
    "coordinated_slot",
    "counted_slot",
    "measured_values",
    "noun_slot",
    "other_occurrence",
    "own_slot",
    "qualifier_slot",
    "slot_value",
]

_NUMBER = re.compile(r"^\d[\d,]*(?:\.\d+)?$")
#: Object words a bare value may carry besides its number ("in 1887", "about 300").
_BARE = frozenset({"in", "on", "at", "of", "by", "the", "year"})
#: Words that make a value approximate ("around 1400"): the value reader's tolerance reads it.
_APPROXIMATE = frozenset({"about", "around", "circa", "c.", "ca.", "approximately", "roughly"})


def bare_values(obj: str) -> frozenset[str]:
    """The numbers of an object that is a bare value ("1887", "in 1887"), else none.

    An object with words of its own ("six legs", "75 minutes") is read by the value and
    unit gates instead, and so is an approximate one ("around 1400" is met by 1403).
    """
    words = obj.replace("(", " ").replace(")", " ").split()
    if any(w.lower() in _APPROXIMATE for w in words):
        return frozenset()
    numbers = {_plain(w) for w in words if _NUMBER.match(w.strip(".,;"))}
    if not numbers or any(w.lower() not in _BARE and not _NUMBER.match(w) for w in words):
        return frozenset()
    return frozenset(numbers)


def measured_values(obj: str) -> frozenset[str]:
    """The number of an object that is a measure: one number and its unit ("3 metres").

    A measure names no thing of its own: "rose 3 metres" is stated only where the verb
    governs that 3 ("was 3 metres below its banks, and it rose 1 metre" gives the rise 1).
    A count of things ("six legs"), an approximate value and a bare value are none.
    """
    words = obj.replace("(", " ").replace(")", " ").split()
    numbers = [w for w in words if _NUMBER.match(w.strip(".,;"))]
    rest = [w.lower().strip(".,;") for w in words if w not in numbers]
    if len(numbers) != 1 or len(rest) != 1 or rest[0] not in RULES.units:
        return frozenset()
    return frozenset({_plain(numbers[0])})


def slot_value(text: str, relation: Iterable[str], values: Iterable[str]) -> str | None:
    """The other number the relation's verb governs in ``text``, when it governs none of ours.

    Args:
        text: The window (1–3 sentences).
        relation: Stems of the relation's content words (with their synonyms).
        values: The fact's bare values (:func:`bare_values`).
    """
    return _slot_value(text, frozenset(relation), frozenset(values))


@functools.lru_cache(maxsize=4096)
def _slot_value(text: str, relation: frozenset[str], values: frozenset[str]) -> str | None:
    """:func:`slot_value`, remembered: one window is asked for each fact cut from a claim."""
    if not relation or not values or not text.strip():
        return None
    from triqua.nlp.clauses import window_parse  # spaCy, loaded when asked

    doc = window_parse(text)
    governed: dict[int, list[str]] = {}
    for token in doc:
        if _NUMBER.match(token.text):
            verb = verb_of(token)
            if verb is not None:
                governed.setdefault(verb.i, []).append(_plain(token.text))
    others: list[str] = []
    for token in doc:
        if not is_verb(token) or stem(token.text) not in relation:
            continue
        numbers = governed.get(token.i, [])
        if values & set(numbers):
            return None
        others.extend(numbers)
    return others[0] if others else None


def qualifier_slot(unit: FactUnit, window: str) -> str | None:
    """The other number the relation's verb governs, for a qualifier that is a bare value.

    The grounding rule's reading of :func:`slot_value` for a qualifier unit ("opened" |
    "point in time: 1959"): the relation's content words are its verbs.
    """
    if unit.kind != "qualifier" or not unit.value:
        return None
    values = bare_values(unit.value)
    relation = frozenset(t.stem for t in analyse(unit.relation).content)
    return slot_value(window, relation, values) if values else None


def coordinated_slot(text: str, relation: Iterable[str], obj: Iterable[str]) -> str | None:
    """What the relation's verb has in the slot another, coordinated verb fills with the object.

    "… was nominated for an award for Blood Diamond and won it for The Revenant" holds "won"
    and "Blood Diamond", yet "Blood Diamond" is the nomination's: the verb that governs it
    is "nominated", and "won", coordinated with it, fills the same slot ("for …") with The
    Revenant. A coordinated verb with no such slot of its own shares the other's ("was born
    and raised in Salzburg" states a birth in Salzburg).

    Args:
        text: The window (1–3 sentences).
        relation: Stems of the relation's content words (with their synonyms).
        obj: The stem of the object's head word (its last content word).
    """
    return _coordinated(text, frozenset(relation), frozenset(obj))


@functools.lru_cache(maxsize=4096)
def _coordinated(text: str, relation: frozenset[str], obj: frozenset[str]) -> str | None:
    """:func:`coordinated_slot`, remembered."""
    if not relation or not obj or not text.strip():
        return None
    from triqua.nlp.clauses import window_parse  # spaCy, loaded when asked

    other: str | None = None
    for token in window_parse(text):
        if stem(token.text) not in obj or token.dep_ not in _FILLERS:
            continue
        verb = verb_of(token)
        if verb is None:
            continue
        if stem(verb.text) in relation:
            return None  # the relation's own verb governs the object
        slot = next((a for a in (token, *token.ancestors) if a.head.i == verb.i), None)
        if slot is None:
            continue
        for sibling in verb.conjuncts:
            if not is_verb(sibling) or stem(sibling.text) not in relation:
                continue
            filler = _filler(sibling, slot)
            if filler is not None:
                other = other or filler
    return other


_FILLERS = frozenset({"dobj", "pobj", "attr"})


def conjoined_object(text: str, start: int, written: str) -> bool:
    """True when the name at ``start`` and the object are conjoined objects of one verb.

    "She won the Pulitzer Prize in 1988 and the Nobel Prize in Literature in 1993" fills the
    slot of "won" with both prizes: the first is no rival of the second, each is a prize she
    won. A name another verb takes ("won the Pulitzer Prize and was nominated for the Nobel
    Prize") is still one: only a conjunct of the same verb's object, written with the
    object's own words, shares the slot.

    Args:
        text: The window (1–3 sentences).
        start: Where the name in the relation's slot begins in ``text``.
        written: The object as the fact writes it, lower-cased, without a leading "the".
    """
    return _conjoined(text, start, written)


@functools.lru_cache(maxsize=4096)
def _conjoined(text: str, start: int, written: str) -> bool:
    """:func:`conjoined_object`, remembered."""
    if not written or not text.strip():
        return False
    from triqua.nlp.clauses import window_parse  # spaCy, loaded when asked

    doc = window_parse(text)
    first = next((t for t in doc if t.idx >= start), None)
    if first is None:
        return False
    root = first
    while root.head.i != root.i and root.head.idx >= start and root.head.pos_ in _NOMINAL:
        root = root.head  # "Prize" of "the Pulitzer Prize"
    conjuncts = list(root.conjuncts)
    if root.dep_ in ("dobj", "attr") and is_verb(root.head):
        # An elided verb's object hangs on the verb itself ("won A in 1988 and B in 1993").
        conjuncts += [c for c in root.head.children if c.dep_ == "conj" and c.i > root.i]
    for conjunct in conjuncts:
        if conjunct.pos_ not in _NOMINAL:
            continue
        rest = text[conjunct.left_edge.idx :].lower().removeprefix("the ")
        if rest.startswith(written):
            return True
    return False


_NOMINAL = frozenset({"NOUN", "PROPN"})


def own_slot(
    text: str, relation: Iterable[str], preposition: str, obj: Iterable[str]
) -> str | None:
    """The value the relation's verb has in its own slot, when only other verbs govern the object.

    "Galileo Galilei was born in 1564 and died near Florence in 1642" holds "born in" and
    "Florence", yet "born in" holds 1564 and Florence is where he died; so too "Steve Jobs,
    born in 1955, built … in Cupertino" and "IKEA was founded in 1943 and opened its first
    store in Stockholm". The window states no "born in Florence" when every occurrence of the
    object's head word is governed by a verb that is not the relation's, and an occurrence
    of the relation's verb fills the relation's own preposition ("in") with a number or a
    name of its own. A filler that is a description ("born in the same city") may refer back
    and decides nothing, nor does an object no verb governs.

    Args:
        text: The window (1–3 sentences).
        relation: Stems of the relation's content words (with their synonyms).
        preposition: The preposition that closes the relation ("in" of "was born in").
        obj: The stem of the object's head word (its last content word).
    """
    return _own_slot(text, frozenset(relation), preposition.lower(), frozenset(obj))


@functools.lru_cache(maxsize=4096)
def _own_slot(
    text: str, relation: frozenset[str], preposition: str, obj: frozenset[str]
) -> str | None:
    """:func:`own_slot`, remembered."""
    if not relation or not obj or not preposition or not text.strip():
        return None
    from triqua.nlp.clauses import window_parse  # spaCy, loaded when asked

    doc = window_parse(text)
    governors = [verb_of(t) for t in doc if stem(t.text) in obj]
    if not governors or any(v is None or stem(v.text) in relation for v in governors):
        return None
    for token in doc:
        if not is_verb(token) or stem(token.text) not in relation:
            continue
        for prep in token.children:
            if prep.dep_ != "prep" or prep.text.lower() != preposition:
                continue
            filler = next((c for c in prep.children if c.dep_ == "pobj"), None)
            if filler is not None and (filler.tag_ == "CD" or filler.pos_ == "PROPN"):
                return " ".join(t.text for t in filler.subtree)
    return None


def noun_slot(text: str, relation: Iterable[str], obj: str) -> str | None:
    """The number the relation's noun takes, when only another noun takes the object's.

    "In 2020 Netflix had revenue of $25 billion and a profit of $2.8 billion" holds "profit"
    and "$25 billion", yet 25 billion is the revenue's and the profit is 2.8 billion: it
    states no "had a profit of $25 billion". A relation written with a noun ("had a profit
    of") is stated where that noun takes the object's number; when every occurrence of the
    number hangs on another noun and the relation's noun takes another number, the window
    gives the value to another relation.

    Args:
        text: The window (1–3 sentences).
        relation: Stems of the relation's content words (with their synonyms).
        obj: The object as the fact writes it ("$25 billion").
    """
    numbers = frozenset(
        _plain(w.lstrip("$€£¥")) for w in obj.split() if _NUMBER.match(w.lstrip("$€£¥"))
    )
    return _noun_slot(text, frozenset(relation), numbers)


@functools.lru_cache(maxsize=4096)
def _noun_slot(text: str, relation: frozenset[str], numbers: frozenset[str]) -> str | None:
    """:func:`noun_slot`, remembered."""
    if not relation or not numbers or not text.strip():
        return None
    from triqua.nlp.clauses import window_parse  # spaCy, loaded when asked

    ours: list[SpacyToken] = []
    others: list[SpacyToken] = []
    for token in window_parse(text):
        if token.tag_ != "CD" or not _NUMBER.match(token.text):
            continue
        # The counted noun ("1,280 metres") is the unit; the figure's owner stands above it.
        counted = token.head if token.dep_ == "nummod" else token
        noun = next((a for a in counted.ancestors if a.pos_ == "NOUN"), None)
        if noun is None:
            continue
        if _plain(token.text) in numbers:
            ours.append(noun)
        elif stem(noun.text) in relation:
            others.append(token)
    if not ours or any(stem(noun.text) in relation for noun in ours) or not others:
        return None
    head = others[0]
    while head.head.tag_ == "CD" and head.head.i != head.i:
        head = head.head  # "2.8" of "$2.8 billion": the whole figure
    return head.doc[head.left_edge.i : head.right_edge.i + 1].text


def _filler(verb: SpacyToken, slot: SpacyToken) -> str | None:
    """The phrase ``verb`` has in the slot ``slot`` fills for its own verb, if any.

    A preposition's slot may hang on the verb's object ("won *one for* The Reader").
    """
    if slot.dep_ != "prep":
        found = [c for c in verb.children if c.dep_ == slot.dep_]
        return " ".join(t.text for t in found[0].subtree) if found else None
    for prep in verb.subtree:
        if prep.dep_ != "prep" or prep.text.lower() != slot.text.lower():
            continue
        governor = verb_of(prep)
        objects = [g for g in prep.children if g.dep_ == "pobj"]
        if governor is not None and governor.i == verb.i and objects:
            return " ".join(t.text for t in objects[0].subtree)
    return None


def _plain(number: str) -> str:
    return number.strip(".,;").replace(",", "")


def other_occurrence(
    text: str, relation: Iterable[str], obj: Iterable[str], value: Iterable[str]
) -> str | None:
    """Another occurrence of the relation's verb, when it alone governs a qualifier's value.

    "The ferry runs from Dover to Dunkirk, and the shuttle train runs from Folkestone to
    Calais" writes "runs" twice: the one governing the object ("Dover") is the fact's, and
    "Calais" is the other's. Returns the other's subject (or verb) when only occurrences of
    the relation's verb that govern none of the object's words govern the value.

    Args:
        text: The window (1–3 sentences).
        relation: Stems of the relation's content words (with their synonyms).
        obj: Stems of the object's content words.
        value: Stems of the qualifier value's content words.
    """
    return _other_occurrence(text, frozenset(relation), frozenset(obj), frozenset(value))


@functools.lru_cache(maxsize=4096)
def _other_occurrence(
    text: str, relation: frozenset[str], obj: frozenset[str], value: frozenset[str]
) -> str | None:
    """:func:`other_occurrence`, remembered."""
    if not relation or not obj or not value or not text.strip():
        return None
    from triqua.nlp.clauses import window_parse  # spaCy, loaded when asked

    doc = window_parse(text)

    def governing(stems: frozenset[str]) -> list[SpacyToken | None]:
        verbs = [verb_of(t) for t in doc if stem(t.text) in stems]
        return [v if v is not None and stem(v.text) in relation else None for v in verbs]

    objects, values = governing(obj - value), governing(value - obj)
    if not objects or not values or None in values:
        return None
    own = {v.i for v in objects if v is not None}
    if not own or own & {v.i for v in values if v is not None}:
        return None
    verb = next(v for v in values if v is not None)
    # The parse may read a subject before a verb it takes for a noun as a compound.
    owner = next((c for c in verb.lefts if c.dep_ in ("nsubj", "nsubjpass", "compound")), None)
    return " ".join(t.text for t in owner.subtree) if owner is not None else verb.text


def is_verb(token: SpacyToken) -> bool:
    """Whether the parse tags ``token`` a verb of any tense or form."""
    return token.tag_.startswith("VB")


def verb_of(token: SpacyToken) -> SpacyToken | None:
    """The nearest verb that governs ``token`` (a clause's verb), if any."""
    for head in token.ancestors:
        if is_verb(head):
            return head
    return None
