"""Facts must come from their text: a decomposer's invented fact is dropped, not checked.

A chat model asked to decompose may add a fact its sentence never states ("Curie was a
footballer" from a sentence about physics); checked and scored, such a fact moves the
score with text the user never wrote. A fact is founded when:

- its names and numbers (subject, object, qualifier values) are written in the text it was
  allowed to read: its chunk (a pronoun's name comes from an earlier sentence), the
  previous chunk and the question;
- its object and each qualifier value, when they hold lower-case words, have at least one
  of them stated in its source sentence (or the question): stems, word forms and relation
  groups as the grounding rule reads them. Relation words may be paraphrased ("was born
  in" for "native of").

A fact with an empty subject, relation or object ("(Ronaldo, is considered, )") states
nothing a verdict could be about: a judge finds it "supported" by any passage naming its
subject. It is dropped whatever else it holds, as ``triqua verify`` refuses such a fact.
Anything else is dropped as "not in the text" with the words it lacks — the whole fact when
its base is unfounded, only the qualifier when a qualifier is — and recorded on the report
(``Report.unfounded_facts``); the score never counts it.
"""

from __future__ import annotations

from collections.abc import Sequence

from triqua.core.grounding.statement import content_words, unstated_words
from triqua.core.reading.quote_values import missing_values
from triqua.schema import Chunk, Fact, FactUnit, Qualifier, UnfoundedFact

__all__ = ["found_in_text", "unfounded_words"]

_PARTS = ("subject", "relation", "object")


def unfounded_words(fact: Fact, allowed: str, sentence: str) -> list[str]:
    """The fact's values missing from ``allowed`` and object words missing from ``sentence``.

    Empty when the fact is founded. ``allowed`` is all the text the decomposer could read;
    ``sentence`` the fact's source sentence (with the question, when there is one).
    """
    missing: list[str] = []
    for unit in fact.units():
        missing += [w for w in _unit_unfounded(unit, allowed, sentence) if w not in missing]
    return missing


def _unit_unfounded(unit: FactUnit, allowed: str, sentence: str) -> list[str]:
    """One unit's values missing from ``allowed`` and, if none is stated, its object words."""
    missing = missing_values(_values_only(unit), allowed)
    words = content_words(_object_only(unit))
    if words and len(unstated_words(_object_only(unit), sentence)) == len(words):
        missing += words
    return missing


def found_in_text(
    chunk: Chunk,
    facts: Sequence[Fact],
    *,
    previous_chunk: str | None = None,
    question: str | None = None,
) -> tuple[list[Fact], list[UnfoundedFact]]:
    """The facts founded in their text, and what was dropped as unfounded.

    An unfounded base drops the whole fact; an unfounded qualifier drops only itself (the
    fact is kept with its other qualifiers), recorded with that qualifier alone.
    """
    allowed = " ".join(t for t in (previous_chunk, question, chunk.text) if t)
    kept: list[Fact] = []
    dropped: list[UnfoundedFact] = []
    for fact in facts:
        empty = next((n for n in _PARTS if not getattr(fact, n).strip()), None)
        if empty is not None:
            reason = f"its {empty} is empty: the fact states nothing to check"
            dropped.append(UnfoundedFact(chunk_index=chunk.index, fact=fact, reason=reason))
            continue
        sentence = " ".join(t for t in (fact.source_text or chunk.text, question) if t)
        units = fact.units()
        missing = _unit_unfounded(units[0], allowed, sentence)
        if missing:
            dropped.append(_record(chunk, fact, missing))
            continue
        keep: list[Qualifier] = []
        lose: list[Qualifier] = []
        lacking: list[str] = []
        for qualifier, unit in zip(fact.qualifiers, units[1:], strict=True):
            words = _unit_unfounded(unit, allowed, sentence)
            (lose if words else keep).append(qualifier)
            lacking += [w for w in words if w not in lacking]
        if lose:
            dropped.append(_record(chunk, fact.model_copy(update={"qualifiers": lose}), lacking))
            fact = fact.model_copy(update={"qualifiers": keep})
        kept.append(fact)
    return kept, dropped


def _record(chunk: Chunk, fact: Fact, missing: list[str]) -> UnfoundedFact:
    """The record of what was dropped and the words its text lacks."""
    shown = ", ".join(f"'{w}'" for w in missing[:4])
    return UnfoundedFact(
        chunk_index=chunk.index,
        fact=fact,
        reason=f"not in the text: {shown} not found where the fact came from",
    )


def _values_only(unit: FactUnit) -> FactUnit:
    """The unit as the value check reads it, without a qualifier's base anchors."""
    if unit.kind == "base":
        return unit
    return unit.model_copy(update={"subject": "", "object": ""})


def _object_only(unit: FactUnit) -> FactUnit:
    """The unit's object (a qualifier's value) alone, for the word check."""
    if unit.kind == "base":
        return unit.model_copy(update={"relation": ""})
    return unit
