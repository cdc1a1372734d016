"""A fact's parts as both engines read them: subject, relation words, object, polarity.

A fact "<subject> <relation> <object>" is analysed once (``core.reading.analysis``): the
relation's content words each with the lexicon's synonyms ("won" with "lifted", "born" with
"came into the world"), whether the fact is negated, its restrictors ("once", "the first").
Then whether a sentence writes the relation (:func:`sentence_relation_hit`), denies what
the fact affirms (:func:`polarity_differs`, the shared negation reading) or holds an
antonym of its words ("unable" for "able"), and the coarse type of the object's name
(:func:`object_kind`). The statement gates (``core.reading.statements``) and the offline
verifier's rules read a fact through these parts.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from triqua.core.reading.analysis import (
    TextInfo,
    Token,
    analyse,
    has_stem,
    is_negated,
    relation_stems,
    stems_match,
)
from triqua.core.reading.copular import (
    copula_hit,
    copula_hits,
    copular_prepositions,
    copular_rules,
)
from triqua.core.reading.lexicon import LEXICON
from triqua.core.reading.modifiers import relation_adverbs
from triqua.core.reading.negation import negated
from triqua.core.reading.restrictors.markers import Marker, markers
from triqua.core.reading.words import relation_group, relation_phrases, stem
from triqua.nlp.passages import entities
from triqua.schema import Fact, FactUnit

__all__ = [
    "LIGHT_VERBS",
    "NAME_KINDS",
    "FactParts",
    "antonym_in",
    "entity_type",
    "fact_parts",
    "object_kind",
    "polarity_differs",
    "relation_hit",
    "relation_hits",
    "relation_words",
    "sentence_relation_hit",
    "takes_many",
]

LIGHT_VERBS = frozenset({"be", "have", "do", "get", "becom", "make", "take", "includ"})
#: Entity types the small NER model confuses: it reads an unfamiliar place ("Kraków") as a
#: person, so in a place slot either one names a place.
NAME_KINDS = frozenset({"PERSON", "PLACE_ORG"})
#: Stems of relation words that take many objects (``LEXICON.multi_valued``).
_MULTI_VALUED = frozenset(stem(w) for w in LEXICON.multi_valued)


@dataclass
class FactParts:
    """The analysed parts of a fact and its embedding query."""

    subject: TextInfo
    relation: TextInfo
    object: TextInfo
    relation_words: list[frozenset[str]]
    negated: bool
    query: str
    restrictors: tuple[Marker, ...] = ()
    subject_restrictors: tuple[Marker, ...] = ()
    #: The prepositions after which a copula writes the relation ("is in" for "is located
    #: in", ``core.reading.copular``); empty for a relation no copula states.
    copular: frozenset[str] = frozenset()


def fact_parts(fact: Fact) -> FactParts:
    """Analyse subject, relation and object; relation words come with their synonyms."""
    relation = analyse(fact.relation)
    words = relation_words(relation)
    negated = is_negated(list(relation.tokens)) or is_negated(list(analyse(fact.object).tokens))
    return FactParts(
        subject=analyse(fact.subject),
        relation=relation,
        object=analyse(fact.object),
        relation_words=words,
        negated=negated,
        query=f"{fact.subject} {fact.relation} {fact.object}".strip(),
        restrictors=markers(fact.relation) + markers(fact.object),
        subject_restrictors=markers(fact.subject),
        copular=copular_prepositions(fact.relation),
    )


def relation_words(relation: TextInfo) -> list[frozenset[str]]:
    """The relation's content stems (light verbs and claim-changing adverbs dropped).

    Each comes with its synonyms; an adverb that changes the claim ("has yet to win") is
    read by ``core.reading.modifiers``, not matched as the relation's word.

    A multi-word synonym of the lexicon ("came into the world") stands for its group as
    one word, so "came into the world in" is matched by "born in".
    """
    words: list[frozenset[str]] = []
    covered: list[tuple[int, int]] = []
    for phrase, index, at in relation_phrases(relation.text):
        words.append(relation_group(index))
        covered.append((at, at + len(phrase)))
    for t in relation.content:
        if t.stem in LIGHT_VERBS or any(s <= t.start < e for s, e in covered):
            continue
        if t.text.casefold() in relation_adverbs():
            continue  # "positively" of "was positively reviewed by": the modifier gates' to read
        words.append(relation_stems(t.stem))
    return words


def relation_hit(words: list[frozenset[str]], sentence: TextInfo) -> Token | bool | None:
    """The sentence token expressing the relation (or one of its synonyms).

    True when the relation has no content word to look for (``is``, ``has``); None when
    no word of it is in the sentence.
    """
    if not words:
        return True
    index = _relation_index(tuple(words), sentence.text)
    return None if index is None else sentence.tokens[index]


@functools.lru_cache(maxsize=65536)
def _relation_index(words: tuple[frozenset[str], ...], text: str) -> int | None:
    """The index of the first token of ``analyse(text)`` matching a relation word, or None.

    Cached by relation and sentence: the facts of one relation meet the same sentences. Two
    stems match only when they share their first five letters or are equal, so other words
    are passed over unread.
    """
    wanted = frozenset().union(*words)
    for index, token in enumerate(analyse(text).tokens):
        head = token.stem[:5]
        if any(w[:5] == head and stems_match(token.stem, w) for w in wanted):
            return index
    return None


def sentence_relation_hit(parts: FactParts, sentence: TextInfo) -> Token | bool | None:
    """The sentence token expressing the fact's relation (True: it has no word to find).

    A relation a copula states ("is located in") is written by the copula before its
    preposition too ("The Eiffel Tower is in Paris"): that copula is the token then. The
    relation's own word comes before its synonyms wherever the sentence writes it: in
    "created by Guillermo del Toro and produced by DreamWorks" the relation "produced" is
    "produced", not the earlier "created" of its synonym group.
    """
    own = frozenset(
        t.stem
        for t in parts.relation.content
        if t.stem not in LIGHT_VERBS and t.text.casefold() not in relation_adverbs()
    )
    if own and parts.relation_words:
        index = _relation_index((own,), sentence.text)
        if index is not None:
            return sentence.tokens[index]
    hit = relation_hit(parts.relation_words, sentence)
    if hit is None and parts.copular:
        return copula_hit(parts.copular, sentence)
    return hit


def relation_hits(parts: FactParts, sentence: TextInfo) -> list[Token]:
    """The sentence token writing the fact's relation, and each later one writing it again.

    "The Mariinsky Theatre is based in Saint Petersburg, and the Bolshoi Theatre is based in
    Moscow" writes "based" twice; :func:`sentence_relation_hit` gives the first alone. Only
    the first token's own word counts again ("won an Academy Award" writes "won" once:
    "Award", of its group, is the object's). None for a relation with no word ("is").
    """
    first = sentence_relation_hit(parts, sentence)
    if not isinstance(first, Token):
        return []
    if first.text.lower() in copular_rules()["copulas"]:
        return [first, *(t for t in copula_hits(parts.copular, sentence) if t.start > first.start)]
    return [first, *(t for t in sentence.tokens if t.start > first.start and t.stem == first.stem)]


def antonym_in(part: TextInfo, sentence: TextInfo) -> Token | None:
    """A sentence word that is a part's word with a negating prefix ("unable" for "able")."""
    stems = {t.stem for t in part.content if len(t.stem) >= 3}
    for index, rests in _prefixed(sentence.text):
        if any(rest in stems for rest in rests):
            return sentence.tokens[index]
    return None


@functools.lru_cache(maxsize=8192)
def _prefixed(text: str) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """The tokens of ``analyse(text)`` that open with a negating prefix, by index, in order.

    Each with its stem less each such prefix ("unable": "able"), in the lexicon's order.
    Cached by text: a sentence is asked about the words of every fact aligned with it.
    """
    found = []
    for index, token in enumerate(analyse(text).tokens):
        low = token.stem
        rests = tuple(
            low[len(prefix) :] for prefix in LEXICON.negation_prefixes if low.startswith(prefix)
        )
        if rests:
            found.append((index, rests))
    return tuple(found)


def polarity_differs(parts: FactParts, sentence: TextInfo) -> bool:
    """True when the sentence denies what the fact affirms, or affirms what it denies.

    An affirmed fact is denied where a negation cue reaches one of its words in the clause
    that writes most of them: the shared reading of both engines (``core.reading.negation.
    negated``), so in "There is no overall charge on a water molecule, but the oxygen atom
    has a slight negative charge" the "no" belongs to another clause. A denied fact is
    affirmed by a sentence with no negation cue.
    """
    if parts.negated:
        return not is_negated(list(sentence.tokens))
    unit = FactUnit(
        kind="base",
        subject=parts.subject.text,
        relation=parts.relation.text,
        object=parts.object.text,
    )
    return negated(unit, sentence.text) is not None


def takes_many(parts: FactParts) -> bool:
    """True when the relation takes many objects: "lived in London" leaves Rome open."""
    return any(has_stem(_MULTI_VALUED, t.stem) for t in parts.relation.content)


def entity_type(text: str, start: int, end: int) -> str | None:
    """The coarse NER type of ``text[start:end]`` read in context, if spaCy finds one."""
    for e_start, e_end, kind in entities(text):
        if e_start < end and start < e_end:
            return kind
    return None


def object_kind(parts: FactParts) -> str | None:
    """The coarse NER type of the fact's object, read in the fact written as a sentence."""
    query, written = parts.query, parts.object.text
    start = query.rfind(written)
    return entity_type(query, start, start + len(written)) if start >= 0 else None
