"""Does a cited text state a unit's words? The word part of the grounding rule.

A quote may carry a unit's names and numbers and still say something else ("Albert
Einstein was born in Ulm in 1879" for "Einstein was a footballer"). A unit's content
words — the relation's and object's (a qualifier's value's) lower-case words, without
function words — must each be stated in the cited text: the same word stem (Snowball,
English), a form the lexicon maps to it ("won" = "win", "birth" = "bear"), a word of its
relation group ("awarded" for "won"), or for a negation any negation cue.

The relation groups and word forms are the offline lexicon's (``core/grounding/data/lexicon.json``),
read here so every engine's verdicts are checked with the same words.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass

import snowballstemmer

from triqua.core.grounding.lexicon_file import LEXICON_PATH, read_lexicon
from triqua.core.grounding.values.table import (
    NEGATING_WORDS,
    RULES,
    without_negated_markers,
)
from triqua.nlp.negation_scope import noun_clause_cues
from triqua.schema import FactUnit
from triqua.sentences import sentence_spans

__all__ = [
    "content_words",
    "cues_in_scope",
    "definite_heads",
    "denies",
    "irregular_form",
    "unstated_words",
    "word_stems",
]

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
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
_NEGATIONS = frozenset(["not", "no", "never", "n't", "nor", "neither", "without"])


@dataclass(frozen=True)
class _Words:
    """The lexicon as the word check reads it."""

    #: Irregular and derived forms with the word they stand for ("won" -> "win").
    forms: dict[str, str]
    #: Relation groups as stem sets (one-word entries only: the words of "saw the light of
    #: day" state no birth alone).
    groups: tuple[frozenset[str], ...]
    #: Multi-word group entries ("came into the world") with their group's index.
    phrases: tuple[tuple[str, int], ...]
    #: Words of approximate markers ("around", "more than"): they qualify a number, which
    #: is checked as a value, so they are not content words. "no" and "not" are none of
    #: them: a whole negated marker ("no more than") is blanked before the words are read.
    markers: frozenset[str]
    #: Nouns by which "the film" or "this city" refers back to a subject named earlier.
    heads: frozenset[str]


@functools.cache
def _lexicon() -> _Words:
    """The lexicon file, read once.

    Raises:
        RuntimeError: when the lexicon file is missing or malformed.
    """
    try:
        raw = read_lexicon()
        relation_groups = [[w.lower() for w in group] for group in raw["relation_groups"]]
        return _Words(
            forms={k.lower(): v.lower() for k, v in raw["word_forms"].items()},
            groups=tuple(
                frozenset(_stem_plain(w) for w in group if " " not in w)
                for group in relation_groups
            ),
            phrases=tuple(
                (phrase, index)
                for index, group in enumerate(relation_groups)
                for phrase in group
                if " " in phrase
            ),
            markers=frozenset(
                w for m in RULES.approximate for w in m.split() if w not in NEGATING_WORDS
            ),
            heads=frozenset(w.lower() for w in raw["definite_heads"]),
        )
    except (OSError, KeyError, ValueError, AttributeError) as exc:
        raise RuntimeError(f"lexicon {LEXICON_PATH} is unreadable: {exc}") from exc


def definite_heads() -> frozenset[str]:
    """Nouns by which "the film" or "this city" refers back to a subject named earlier."""
    return _lexicon().heads


_local = threading.local()


def _stem_plain(word: str) -> str:
    """Snowball's English stem of ``word``.

    A Snowball stemmer keeps the word it is working on in itself, so two threads sharing one
    garble each other's words (or fail with IndexError): each thread gets its own.
    """
    stemmer = getattr(_local, "stemmer", None)
    if stemmer is None:
        stemmer = _local.stemmer = snowballstemmer.stemmer("english")
    return str(stemmer.stemWord(word))


@functools.lru_cache(maxsize=65536)  # words repeat across units and passages
def _stem(word: str) -> str:
    """The stem of one lower-case word, irregular forms (and their plurals) mapped first."""
    word = word.replace("’", "'")
    if word.endswith("n't"):
        return "not"
    forms = _lexicon().forms
    if word not in forms and len(word) > 3 and word.endswith("s") and word[:-1] in forms:
        word = word[:-1]  # "founders" stands for what "founder" does
    return _stem_plain(forms.get(word, word))


def irregular_form(word: str) -> bool:
    """True when the lexicon lists ``word`` as an irregular or derived form ("won", "led")."""
    return word.casefold() in _lexicon().forms


@functools.lru_cache(maxsize=16384)
def word_stems(text: str) -> frozenset[str]:
    """Stems of every word of ``text`` (lower-cased), negation cues as "not".

    Cached by text: a cited window is compared with each fact unit checked against it.
    """
    out = set()
    for word in _WORD.findall(text.casefold()):
        out.add("not" if word in _NEGATIONS else _stem(word))
    return frozenset(out)


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
        for word in _WORD.findall(token):
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
    said = f" {unit.relation.lower()} {unit.object.lower()} "
    phrased = {
        w
        for phrase, index in lexicon.phrases
        if f" {phrase} " in said and not have.isdisjoint(groups[index])
        for w in phrase.split()
    }  # "came into the world" is stated by "born"
    missing = []
    for word in content_words(unit) if words is None else words:
        if word.casefold() in phrased:
            continue
        folded = word.casefold()
        stem = "not" if folded in _NEGATIONS else _stem(folded)
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
