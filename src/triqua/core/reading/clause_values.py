"""The clause a value is written in: a value stated for the relation only in the relation's clause.

"Born in 1867, Marie Curie moved to Paris in 1891" writes "born" and 1891, yet 1891 is the
year of the move: the verb that governs 1891 is "moved", and "born" has a clause of its own.
So too "The Golden Gate Bridge has a main span of 1,280 metres; its towers rise 227 metres"
for a span of 227 metres, "The Louvre (opened as a museum in 1793) welcomed 8.9 million
visitors in 2023" for an opening in 2023, and "Condoleezza Rice was provost of Stanford
University and served as Secretary of State under George W. Bush" for a provost under Bush.

A unit's value (the numbers its object writes, else its object's name) is stated for its
relation only when the clause that writes the relation governs it. The relation is found by
its verb ("founded"), or, for a relation with none ("has a main span of", "was … long"), by
its other words and the object's words besides the value, each read in the clause of the
verb that governs it (spaCy's parse, the nearest verbal ancestor). The text gives the value
to another verb when every occurrence of the value is governed by a verb none of the
relation's words stand in, and a clause of the relation completes itself with a complement
of its own ("born *in 1867*"): a verb with none shares the next one's ("was born and raised
in Salzburg"). A name the relation itself writes ("joined *Sun Microsystems* in 1992") is
read alike. The dependency labels of a complement, and sentences with units that must and
must not be read so, are data (``data/clause_values.json``, run as tests).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from triqua.core.reading.analysis import analyse
from triqua.core.reading.rules_file import read_rules_file
from triqua.core.reading.value_slot import is_verb, verb_of
from triqua.core.reading.values.table import RULES
from triqua.core.reading.words import stem
from triqua.schema import FactUnit

if TYPE_CHECKING:
    from triqua.nlp.tokens import Token as SpacyToken

__all__ = ["CLAUSE_VALUE_RULES", "unit_value_clause", "value_clause", "value_clause_refusal"]

CLAUSE_VALUE_RULES: dict[str, Any] = read_rules_file(
    Path(__file__).parent / "data" / "clause_values.json", "clause value rules"
)
_COMPLEMENTS = frozenset(CLAUSE_VALUE_RULES["complements"])
_FILLERS = frozenset(CLAUSE_VALUE_RULES["object_fillers"])
_CLAUSES = frozenset(CLAUSE_VALUE_RULES["clause_verbs"])
_NUMBER = re.compile(r"^\d[\d,]*(?:\.\d+)?$")


def unit_value_clause(unit: FactUnit, text: str) -> str | None:
    """:func:`value_clause` for a unit: a base triple's object, or a qualifier's value.

    "After graduating from Harvard in 1940, he served in the Navy" gives the qualifier
    "served in the Navy" | "point in time: 1940" to "graduating".
    """
    if unit.kind == "base":
        return value_clause(unit.relation, unit.object, text)
    return value_clause(unit.relation, unit.value, text) if unit.value else None


def value_clause_refusal(unit: FactUnit, text: str) -> str | None:
    """Why ``text`` does not state the unit's value for its relation (a gate's reason), or None."""
    elsewhere = unit_value_clause(unit, text)
    return f"the cited text gives the value to another clause ({elsewhere})" if elsewhere else None


def value_clause(relation: str, obj: str, text: str) -> str | None:
    """The verb that governs the unit's value in ``text`` when no clause of its relation does.

    Args:
        relation: The unit's relation ("was born in").
        obj: The unit's object ("1891", "227 metres", "George W. Bush").
        text: The window (1–3 sentences).

    Returns:
        The governing verb and the value ("moved: 1891"), or None when a clause of the
        relation governs the value, or nothing can be told.
    """
    if not text.strip() or not obj.strip():
        return None
    return _value_clause(relation, obj, text)


@functools.lru_cache(maxsize=4096)
def _value_clause(relation: str, obj: str, text: str) -> str | None:
    """:func:`value_clause`, remembered: one window is read for each unit of a fact."""
    words = obj.replace("(", " ").replace(")", " ").split()
    numbers = {_plain(w) for w in words if _NUMBER.match(w.strip(".,;"))}
    rel = frozenset(t.stem for t in analyse(relation).content)
    names = frozenset(t.stem for t in analyse(relation).content if t.text[:1].isupper())
    if numbers:
        rest = [
            w.lower().strip(".,;")
            for w in words
            if not _NUMBER.match(w.strip(".,;")) and w.lower() not in _FILLERS
        ]
        described = frozenset(stem(w) for w in rest if w and w not in RULES.units)
    else:
        head = [t for t in analyse(obj).content if t.text[:1].isupper()][-1:]
        if not head or not rel:
            return None
        described = frozenset()
    from triqua.nlp.clauses import window_parse  # spaCy, loaded when asked

    doc = window_parse(text)
    anchors = [t for t in doc if is_verb(t) and stem(t.text) in rel]
    if not anchors:
        found = [t for t in doc if stem(t.text) in (rel | described) and t.pos_ != "PROPN"]
        anchors = [v for v in (t if is_verb(t) else verb_of(t) for t in found) if v is not None]
    if not anchors or not any(_completed(v) for v in anchors):
        return None
    if numbers:
        values = [t for t in doc if _NUMBER.match(t.text) and _plain(t.text) in numbers]
    else:
        values = [t for t in doc if t.text == head[0].text]
    # A clause of the relation that qualifies the value, or the noun it names, is dated or
    # placed by it ("in 1981, when she was nominated"; "the University of Queensland, where
    # he completed a degree").
    nominal = {n.i for v in values for n in (v, *_nouns_above(v))}
    if any(nominal & {a.i for a in anchor.ancestors} for anchor in anchors):
        return None
    written = frozenset(w.casefold() for w in f"{relation} {obj}".split())
    # A name another verb takes may be the relation's too where the verbs are conjuncts
    # ("was elected President of Latvia in 1999, and served until 2007"); a number may not.
    tied = anchors if numbers else [*anchors, *(c for a in anchors for c in a.conjuncts)]
    other = _elsewhere(values, tied, written)
    if other is not None or not numbers:
        return other
    # A name the relation writes ("joined Sun Microsystems in 1992") is the relation's too,
    # where another verb of the same sentence governs it and is no conjunct of the
    # relation's, whose object it may share ("was nominated for an Oscar … and won one").
    near = {a.sent.start for a in anchors}
    tied = [*anchors, *(c for a in anchors for c in a.conjuncts)]
    for name in names - {stem(t.text) for t in anchors}:
        named = [t for t in doc if stem(t.text) == name and t.text[:1].isupper()]
        if any(t.sent.start not in near for t in named):
            continue
        other = _elsewhere(named, tied, written)
        if other is not None:
            return other
    return None


def _nouns_above(token: SpacyToken) -> list[SpacyToken]:
    """The nouns a value stands in, up to its verb ("University" for "Queensland")."""
    nouns = []
    for head in token.ancestors:
        if is_verb(head):
            break
        nouns.append(head)
    return nouns


def _clause_of(token: SpacyToken, own: set[int], written: frozenset[str]) -> SpacyToken | None:
    """The verb of the clause ``token`` stands in: the relation's, or one heading a clause.

    A verb that only modifies a noun or opens a list ("films *including* Serendipity", "the
    last *completed* in 1824") is passed over for the clause verb above it, and so is a word
    of the unit's own ("do" of "the Copa do Brasil", whatever the parse tags it) and a verb
    written with a capital inside a sentence (a title's: "Kick the Moon").
    """
    for head in token.ancestors:
        if not is_verb(head):
            continue
        if head.i in own:
            return head
        titled = head.text[:1].isupper() and head.i != head.sent.start
        unit_word = head.text.casefold() in written
        if head.pos_ == "VERB" and head.dep_ in _CLAUSES and not (titled or unit_word):
            return head
    return None


def _clause_verb(verb: SpacyToken, own: set[int], written: frozenset[str]) -> bool:
    """Whether ``verb`` (a clause's, :func:`_clause_of`) may take a value from the relation's.

    Not a clause hung on the relation's verb with no subject of its own, which goes on
    telling the relation ("was elected in 2007, *representing* Blair in the House").
    """
    subject = any(c.dep_ in ("nsubj", "nsubjpass", "csubj") for c in verb.children)
    # A conjoined verb is an event of its own ("opened in 1871 … and welcomed readers in 2019").
    return subject or verb.dep_ == "conj" or verb.head.i not in own or verb.head.i == verb.i


def _elsewhere(
    values: list[SpacyToken], anchors: list[SpacyToken], written: frozenset[str]
) -> str | None:
    """The verb governing every occurrence of a value, when none is the relation's.

    Only the verb of a clause of its own governs a value for another clause
    (:func:`_clause_verb`).
    """
    if not values:
        return None
    own = {a.i for a in anchors}
    governors = [_clause_of(t, own, written) for t in values]
    if any(v is None or v.i in own for v in governors):
        return None
    if any(v is None or not _clause_verb(v, own, written) for v in governors):
        return None
    # The relation told in a relative clause of the value's own clause ("joined King's
    # College London in 1951, where she worked on X-ray diffraction") is told of its value.
    inside = {t.i for v in governors if v is not None for t in v.subtree}
    if any(anchor.dep_ == "relcl" and anchor.i in inside for anchor in anchors):
        return None
    verb = governors[0]
    return f"{verb.text}: {values[0].text}" if verb is not None else None


def _completed(verb: SpacyToken) -> bool:
    """Whether a clause of the relation writes a complement of its own ("born *in 1867*")."""
    return any(child.dep_ in _COMPLEMENTS for child in verb.children)


def _plain(number: str) -> str:
    return number.strip(".,;").replace(",", "")
