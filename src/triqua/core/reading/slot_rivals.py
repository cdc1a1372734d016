"""A rival name in a value's slot: another entity of the value's type where it would stand.

"joined Barcelona" against "joined Real Madrid": a name of the object's type right after
the relation's word (dates and prepositions between do not break the slot, and a name
after "in", "to", "from", "at" fills a place slot whatever the entity recogniser typed it
as) is a rival value (:func:`rival_entity`, :func:`slot_rival`); so is the agent an active
sentence names before the verb for a passive relation (:func:`agent_rival`), and a name of
a qualifier's type after its label's cue word (:func:`qualifier_rival`; the cue words are
data, ``data/label_cues.json``, with examples that must and must not find a rival, run as
tests). Readings of analysed text; the offline verifier decides what a rival means for a
unit (``engines.offline.verify``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from triqua.core.reading.analysis import TextInfo, Token, analyse
from triqua.core.reading.fact_parts import (
    NAME_KINDS,
    FactParts,
    entity_type,
    object_kind,
    takes_many,
)
from triqua.core.reading.lexicon import LEXICON
from triqua.core.reading.name_match import name_match
from triqua.core.reading.part_rivals import passive_at
from triqua.core.reading.rules_file import read_rules_file
from triqua.core.reading.words import stem
from triqua.nlp.passages import entities

__all__ = [
    "LABEL_CUES",
    "LABEL_CUES_PATH",
    "agent_rival",
    "label_cue_rules",
    "qualifier_rival",
    "rival_entity",
    "slot_rival",
]

LABEL_CUES_PATH = Path(__file__).parent / "data" / "label_cues.json"


@lru_cache(maxsize=1)
def label_cue_rules() -> dict[str, Any]:
    """The label cues file as written.

    Raises:
        RuntimeError: when the file is missing or unreadable.
    """
    return read_rules_file(LABEL_CUES_PATH, "label cues")


def _label_cues(rules: Mapping[str, Any]) -> dict[str, set[str]]:
    """Cue words by the stem of the label word that brings them ("locat" of "location")."""
    return {stem(word): set(cues) for word, cues in rules["cues"].items()}


#: Cue words a qualifier label's word (by its stem) puts before its value in a sentence,
#: besides the label's own words ("location": "in", "at", "near").
LABEL_CUES = _label_cues(label_cue_rules())

_SLOT_WORDS = frozenset({"on", "in", "at", "of", "the", "a", "an", "around", "about", ","})
_MONTH_WORDS = frozenset(LEXICON.month_numbers)


def _slot_filler(word: str) -> bool:
    """True for words that may sit between a relation and its value without changing slot."""
    lowered = word.lower()
    return lowered.isdigit() or lowered in _MONTH_WORDS or lowered in _SLOT_WORDS


_PLACE_PREPOSITIONS = frozenset({"in", "to", "from", "at", "near"})


def _place_slot(kind: str, e_kind: str, before: Sequence[Token]) -> bool:
    """True when a name after "in/to/from/at" fills a place slot whatever NER typed it as.

    The small model reads unfamiliar place names ("Kraków", "Vénissieux") as persons.
    """
    return (
        {kind, e_kind} <= NAME_KINDS
        and bool(before)
        and before[-1].text.lower() in _PLACE_PREPOSITIONS
    )


def rival_entity(
    sentence: TextInfo, kind: str, cue: Token | set[str], exclude: Sequence[TextInfo]
) -> str | None:
    """An entity of type ``kind`` right after the cue (a relation word or a label cue).

    That position is the slot the claimed value fills, so another name there is a rival
    value ("joined Barcelona" against "joined Real Madrid"). Names of ``exclude`` (the
    subject, for one) are never rivals.
    """
    for start, end, e_kind in entities(sentence.text):
        before = [t for t in sentence.tokens if t.end <= start]
        if e_kind != kind and not _place_slot(kind, e_kind, before):
            continue
        if isinstance(cue, Token):
            # Dates and prepositions between the cue and the name do not break the slot:
            # "born on 18 September 1976 in Rio de Janeiro" still puts the place in it.
            gap = [t for t in before if t.start >= cue.end and not _slot_filler(t.text)]
            if cue.end > start or len(gap) > 3:
                continue
        elif not any(t.text.lower() in cue for t in before[-3:]):
            continue
        if not _names_one_of(sentence.text[start:end], exclude):
            return sentence.text[start:end]
    return None


def _names_one_of(name: str, parts: Sequence[TextInfo]) -> bool:
    """True when ``name`` names one of ``parts`` (either way round): no rival of theirs."""
    named = analyse(name)
    return any(name_match(part, named) > 0 or name_match(named, part) > 0 for part in parts)


def agent_rival(
    sentence: TextInfo, kind: str, hit: Token, relation: TextInfo, exclude: Sequence[TextInfo]
) -> str | None:
    """The agent a sentence in the active voice names for a passive relation, if another.

    "The telephone was invented by Thomas Edison" puts the agent after "by"; "Alexander Graham
    Bell invented the telephone" puts it before the verb: an entity of the same type ending
    right before the relation word (at most three words between) is the rival there.
    """
    if not passive_at(relation.tokens, None) or passive_at(sentence.tokens, hit):
        return None
    for start, end, e_kind in entities(sentence.text):
        if e_kind != kind or end > hit.start:
            continue
        gap = [t for t in sentence.tokens if t.start >= end and t.end <= hit.start]
        if len(gap) <= 3 and not _names_one_of(sentence.text[start:end], exclude):
            return sentence.text[start:end]
    return None


def slot_rival(parts: FactParts, info: TextInfo, hit: Token) -> str | None:
    """A same-type entity in the object's slot of the sentence, if there is one.

    None for a relation that takes many objects ("lived in London" leaves Rome open),
    unless passive: a book has the authors it names ("was written by Jane Austen").
    """
    words = parts.relation.tokens
    passive = bool(words) and words[-1].text.lower() == "by"
    if not passive and takes_many(parts):
        return None
    kind = object_kind(parts)
    if kind is None:
        return None
    return rival_entity(info, kind, hit, [parts.subject]) or agent_rival(
        info, kind, hit, parts.relation, [parts.subject, parts.object]
    )


def qualifier_rival(parts: FactParts, label: str, value: str, info: TextInfo) -> str | None:
    """A same-type entity after the qualifier's cue word ("in", "at", the label)."""
    text = f"{parts.query} {label} {value}"
    cues = {t.text.lower() for t in analyse(label).tokens}
    for token in analyse(label).tokens:
        cues |= LABEL_CUES.get(token.stem, set())
    # A name NER cannot type in the odd joined text is typed alone, or as a place when
    # its label is a place preposition ("to Villeurbanne").
    kind = (
        entity_type(text, len(text) - len(value), len(text))
        or entity_type(value, 0, len(value))
        or ("PLACE_ORG" if cues & {"in", "at", "to", "from", "near"} else None)
    )
    if kind is None:
        return None
    return rival_entity(info, kind, cues, [parts.subject, parts.object])
