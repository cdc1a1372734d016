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

from triqua.core.reading.lexicon import LEXICON
from triqua.core.reading.negation import content_words, cues_in_scope
from triqua.core.reading.values.table import without_negated_markers
from triqua.core.reading.words import folded_stem, relation_phrases, snowball_stem, word_stems
from triqua.schema import FactUnit

__all__ = ["content_words", "cues_in_scope", "denies", "unstated_words"]


@functools.cache
def _groups() -> tuple[frozenset[str], ...]:
    """Relation groups as stem sets, built once.

    One-word entries only: the words of "saw the light of day" state no birth alone.
    """
    return tuple(
        frozenset(snowball_stem(w) for w in g if " " not in w) for g in LEXICON.relation_groups
    )


def unstated_words(unit: FactUnit, text: str, words: Sequence[str] | None = None) -> list[str]:
    """The unit's content words (or ``words``) that ``text`` does not state."""
    have = word_stems(text)
    groups = _groups()
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
