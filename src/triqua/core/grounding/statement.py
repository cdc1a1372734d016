"""Does a cited text state a unit's words? The word part of the grounding rule.

A quote may carry a unit's names and numbers and still say something else ("Albert
Einstein was born in Ulm in 1879" for "Einstein was a footballer"). A unit's content
words — the relation's and object's (a qualifier's value's) lower-case words, without
function words — must each be stated in the cited text: the same word stem (Snowball,
English), a form the lexicon maps to it ("won" = "win", "birth" = "bear"), a word of its
relation group ("awarded" for "won"), or for a negation any negation cue.

The stems, relation groups and word forms are the word reader's (``core.reading.words``,
``core/reading/data/lexicon.json``), so every engine's verdicts are checked with the same words.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from triqua.core.reading.lexicon import LEXICON
from triqua.core.reading.values.table import (
    NEGATING_WORDS,
    RULES,
    without_negated_markers,
)
from triqua.core.reading.words import (
    folded_stem,
    relation_phrases,
    snowball_stem,
    stemmed_words,
    word_stems,
)
from triqua.nlp.negation_scope import noun_clause_cues
from triqua.schema import FactUnit
from triqua.sentences import sentence_spans

__all__ = [
    "content_words",
    "cues_in_scope",
    "denies",
    "unstated_words",
]

#: Words that carry no claim of their own: articles, auxiliaries, prepositions, pronouns.
_FUNCTION_WORDS = frozenset(
    (
        "a", "an", "the", "of", "in", "on", "at", "to", "for", "by", "with", "from", "and",
        "or", "as", "into", "onto", "over", "under", "about", "is", "was", "were", "are",
        "be", "been", "being", "am", "has", "have", "had", "having", "do", "does", "did",
        "will", "would", "shall", "should", "can", "could", "may", "might", "must", "it",
        "its", "he", "she", "they", "his", "her", "their", "him", "them", "this", "that",
        "these", "those", "who", "whom", "whose", "which", "what", "there", "here", "also",
        "then", "than", "so", "such", "very", "just", "only", "one", "ones", "s", "t",
    )
)  # fmt: skip
#: Number and unit words belong to values, checked as numbers ("64.5 million", "8,849 m").
_NUMBER_WORDS = frozenset(
    [
        *RULES.word_numbers,
        *(name for name in (*RULES.scales, *RULES.units) if " " not in name),
        *("per", "cent"),
    ]
)


@dataclass(frozen=True)
class _Words:
    """The lexicon as the word check reads it."""

    #: Relation groups as stem sets (one-word entries only: the words of "saw the light of
    #: day" state no birth alone).
    groups: tuple[frozenset[str], ...]
    #: Words of approximate markers ("around", "more than"): they qualify a number, which
    #: is checked as a value, so they are not content words. "no" and "not" are none of
    #: them: a whole negated marker ("no more than") is blanked before the words are read.
    markers: frozenset[str]


@functools.cache
def _lexicon() -> _Words:
    """The word reader's lexicon as the word check reads it, built once."""
    groups = LEXICON.relation_groups
    return _Words(
        groups=tuple(frozenset(snowball_stem(w) for w in g if " " not in w) for g in groups),
        markers=frozenset(
            w for m in RULES.approximate for w in m.split() if w not in NEGATING_WORDS
        ),
    )


def content_words(unit: FactUnit) -> list[str]:
    """The unit's words that a cited text must state, as the unit writes them.

    A base's relation and object words, a qualifier's value words: lower-case words only
    (capitalised names and numbers are checked as values by the grounding rule), no
    function words.
    """
    text = f"{unit.relation} {unit.object}" if unit.kind == "base" else unit.value or ""
    text = without_negated_markers(text)
    words: list[str] = []
    markers = _lexicon().markers
    for token in text.split():
        for word in stemmed_words(token):
            folded = word.casefold()
            if word[0].isupper() or folded in _FUNCTION_WORDS or folded in _NUMBER_WORDS:
                continue
            if folded in markers:
                continue
            if word.casefold() not in (w.casefold() for w in words):
                words.append(word)
    return words


def unstated_words(unit: FactUnit, text: str, words: Sequence[str] | None = None) -> list[str]:
    """The unit's content words (or ``words``) that ``text`` does not state."""
    have = word_stems(text)
    lexicon = _lexicon()
    groups = lexicon.groups
    phrased = {
        w
        for phrase, index, _ in relation_phrases(f"{unit.relation} {unit.object}")
        if not have.isdisjoint(groups[index])
        for w in phrase.split()
    }  # "came into the world" is stated by "born"
    missing = []
    for word in content_words(unit) if words is None else words:
        if word.casefold() in phrased:
            continue
        stem = folded_stem(word.casefold())
        if stem in have:
            continue
        if any(stem in group and not have.isdisjoint(group) for group in groups):
            continue
        missing.append(word)
    return missing


def denies(unit: FactUnit, text: str) -> bool:
    """True when ``text`` holds a negation cue and the unit none: its words may be denied.

    The "no" of a whole negated marker ("no more than 500") qualifies a number, not the
    statement, so it is no cue on either side.
    """
    said = f"{unit.relation} {unit.object}" if unit.kind == "base" else unit.value or ""
    text, said = without_negated_markers(cues_in_scope(unit, text)), without_negated_markers(said)
    return "not" in word_stems(text) and "not" not in word_stems(said)


def cues_in_scope(unit: FactUnit, text: str) -> str:
    """``text`` with the negation cues that cannot deny the unit blanked out (as underscores).

    A cue inside a relative or adjectival clause under a noun ("A byte is a unit that does
    not depend on the machine") denies that clause, not the sentence's relation, when the
    rest of its sentence writes at least as many of the unit's words as the clause does; a
    clause that carries the unit's words ("the man who did not win the prize") keeps its cue.
    """
    cues = noun_clause_cues(text)
    if not cues:
        return text
    claimed = {stem for word in content_words(unit) for stem in word_stems(word)}
    chars = list(text)
    for cue in cues:
        start, end = next(
            ((a, b) for a, b in sentence_spans(text) if a <= cue.start < b), (0, len(text))
        )
        clause = text[cue.clause_start : cue.clause_end]
        rest = f"{text[start : cue.clause_start]} {text[cue.clause_end : end]}"
        inside = len(word_stems(clause) & claimed)
        outside = len(word_stems(rest) & claimed)
        if outside and outside >= inside:
            chars[cue.start : cue.end] = "_" * (cue.end - cue.start)
    return "".join(chars)
