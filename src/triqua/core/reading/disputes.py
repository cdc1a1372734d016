"""Another sentence about the subject giving a value only one can hold: a disputed support.

Evidence ``["Marie Curie was born in Paris.", "Marie Curie was born in Warsaw in 1867."]``
states the claim and a rival value in another sentence: one of them is wrong, and the run
cannot tell which, so the support does not stand alone. Both engines read disputes here:
the offline verifier among its aligned sentences (``engines.offline.disputes``), the
grounding rule among the other passages of the run (``core.grounding.disputes``).

A sentence about the subject disputes the fact when it writes the fact's relation and puts
another value in the value's slot (:func:`rival_value`):

- a bare relation ("is in"): a name of the object's type after its last word, "is in Paris"
  against "is in Rome";
- a relation with a word of its own that only one value fills, a birth or a death
  (``values.life_dates.life_event``): a name of the object's type right after that word
  ("born in Warsaw"), or a year its verb governs that the claimed year is not ("died in
  Princeton on 18 April 1955" against "died in 1950"). A relation that takes many objects
  ("lived in", "joined") is disputed by nothing: another object is another one.

A sentence that writes the claim's value too ("born in Eisenach … and died in Leipzig")
disputes nothing here, nor does a rival of another extent than the claim's value: a
region (a name with a noun of the country's kind in ``data/class_nouns.json``, "the Kingdom
of Württemberg", or a country the demonyms name) may hold the claimed city. Only a judge
can tell "in Paris" from "in France", so a rival counts only where the judge reads its
sentence as contradicting the fact (:func:`confirmed_rival`; each engine passes its own).
A role only one holds given to another name ("The capital of Canada is Ottawa" against
"… is Toronto") is the crisp reading of ``core.reading.roles`` (:func:`role_dispute`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import NamedTuple

from triqua.core.reading.analysis import TextInfo, analyse, coverage
from triqua.core.reading.class_nouns import class_nouns
from triqua.core.reading.fact_parts import FactParts, object_kind, sentence_relation_hit
from triqua.core.reading.roles import role_rival
from triqua.core.reading.slot_rivals import rival_entity
from triqua.core.reading.value_slot import bare_values, slot_value
from triqua.core.reading.values.dates import date_relation, find_dates
from triqua.core.reading.values.life_dates import life_event
from triqua.core.reading.values.table import RULES
from triqua.core.reading.words import stem, stems_match
from triqua.schema import Fact

__all__ = ["Dispute", "confirmed_rival", "dispute_reason", "rival_value", "role_dispute"]

#: The judge's contradiction of the fact by each sentence text, in order.
Contradiction = Callable[[Sequence[str]], Sequence[float]]


class Dispute(NamedTuple):
    """A sentence that gives the fact's slot another value.

    Attributes:
        at: The sentence's index in the sentences read.
        value: The rival value as the sentence writes it.
        why: What the sentence does, for the reason recorded.
    """

    at: int
    value: str
    why: str


def rival_value(parts: FactParts, sentence: TextInfo, *, owned: bool = True) -> str | None:
    """The rival value ``sentence`` puts in the fact's slot, if it writes the relation.

    ``owned`` False reads only a bare relation ("is in"); True reads a birth's or a
    death's own word too ("born in", "died in"). None where the sentence writes the
    claim's value as well, or where the rival is of another extent (a region, a country).
    """
    hit = sentence_relation_hit(parts, sentence)
    if hit is None or hit is False:
        return None
    if parts.object.content and coverage(parts.object, sentence) >= 1:
        return None
    if hit is not True and not (owned and life_event(parts.relation.text)):
        return None
    if _another_named(parts.subject, sentence) or _another_numbered(parts.subject, sentence):
        return None
    if bare_values(parts.object.text):
        return None if hit is True else _rival_year(parts, sentence.text)
    if parts.object.is_name:
        kind = object_kind(parts)
        if kind is None:
            return None
        spoken = [t.text.lower() for t in parts.relation.tokens]
        cue = set(spoken[-1:]) if hit is True else hit
        rival = rival_entity(sentence, kind, cue, [parts.subject, parts.object])
        if rival is None or _region(rival) != _region(parts.object.text):
            return None
        return rival
    return None


def _another_named(subject: TextInfo, sentence: TextInfo) -> bool:
    """True when each run of the subject's name words runs into another name word.

    "His son Hans Albert Einstein was born in Bern" speaks of another person than "Albert
    Einstein": the name the sentence writes is a longer one.
    """
    if not subject.is_name:
        return False
    stems = {t.stem for t in subject.content}
    tokens = sentence.tokens
    runs: list[tuple[int, int]] = []
    for i, token in enumerate(tokens):
        if token.stem not in stems:
            continue
        if runs and runs[-1][1] == i - 1:
            runs[-1] = (runs[-1][0], i)
        else:
            runs.append((i, i))

    def named(j: int) -> bool:
        return 0 <= j < len(tokens) and tokens[j].is_capitalised and not tokens[j].is_stop

    return bool(runs) and all(named(a - 1) or named(b + 1) for a, b in runs)


def _another_numbered(subject: TextInfo, sentence: TextInfo) -> bool:
    """True when the sentence writes a numbered word of the subject with other digits.

    "Person3 was born in City3" names another than "Person5", though the two stems share a
    long prefix (``words.stems_match``): a word's digits are never a derivation.
    """
    numbered = {t.stem for t in subject.content if _digits(t.stem)}
    if not numbered or numbered <= sentence.stems:
        return False
    return any(
        _digits(s) and s not in numbered and any(stems_match(s, w) for w in numbered)
        for s in sentence.stems
    )


def _digits(word: str) -> bool:
    """True when ``word`` holds a digit."""
    return any(c.isdigit() for c in word)


def _rival_year(parts: FactParts, text: str) -> str | None:
    """A year the relation's verb governs in ``text`` that the claimed bare year is not."""
    values = bare_values(parts.object.text)
    claimed = find_dates(parts.object.text)
    if not values or len(claimed) != 1:
        return None
    relation = frozenset().union(*parts.relation_words)
    if slot_value(text, relation, values) is None:
        return None
    for stated in find_dates(text):
        if date_relation(claimed[0], stated) == "conflict":
            return stated.text
    return None


@lru_cache(maxsize=1)
def _region_nouns() -> frozenset[str]:
    """Stems of the nouns of the country's kind ("kingdom", "province", "state")."""
    groups = [g for g in class_nouns()["kinds"] if "country" in g]
    return frozenset(stem(w) for g in groups for w in g)


def _region(name: str) -> bool:
    """True when ``name`` names a region: a noun of the country's kind, or a country."""
    info = analyse(name)
    bare = " ".join(t.text.lower() for t in info.tokens if t.text.lower() != "the")
    return bare in RULES.demonyms or any(t.stem in _region_nouns() for t in info.content)


def confirmed_rival(
    parts: FactParts,
    sentences: Sequence[TextInfo],
    contradiction: Contradiction,
    threshold: float,
    *,
    owned: bool = True,
) -> tuple[Dispute, float] | None:
    """The first sentence with a rival value that the judge reads as contradicting the fact.

    Args:
        parts: The fact's parts (:func:`~triqua.core.reading.fact_parts.fact_parts`).
        sentences: Sentences about the subject, best first (the caller decides which).
        contradiction: The judge's contradiction of the fact by each sentence text.
        threshold: The contradiction a rival needs (the card's ``rival``); above 1.0 none.
        owned: Read relations with a word of their own too (:func:`rival_value`).

    Returns:
        The dispute and the judge's contradiction, or None.
    """
    if threshold > 1.0:
        return None
    found = [
        (i, rival)
        for i, info in enumerate(sentences)
        if (rival := rival_value(parts, info, owned=owned)) is not None
    ]
    if not found:
        return None
    scores = contradiction([sentences[i].text for i, _ in found])
    for (i, rival), score in zip(found, scores, strict=True):
        if float(score) >= threshold:
            why = (
                f"the sentence names {rival!r} instead, and the judge reads it as "
                f"contradicting ({float(score):.2f})"
            )
            return Dispute(i, rival, why), float(score)
    return None


def role_dispute(fact: Fact, texts: Sequence[str]) -> Dispute | None:
    """A sentence giving the fact's role only one holds to another name (``core.reading.roles``)."""
    if fact.qualifiers:
        return None
    rival = role_rival(fact.subject, fact.relation, fact.object, texts)
    if rival is None:
        return None
    name = rival.name.rstrip(".,;")  # the holder pattern may take a full stop with it
    return Dispute(rival.at, name, f"the sentence gives {rival.role!r} to {name!r}")


def dispute_reason(said: tuple[str, str], other: tuple[str, str], why: str) -> str:
    """The reason a disputed support records: both passages, by id and sentence."""
    return (
        f'the evidence disagrees: [{said[0]}] "{said[1]}" states it, '
        f'and [{other[0]}] "{other[1]}" does not ({why})'
    )
