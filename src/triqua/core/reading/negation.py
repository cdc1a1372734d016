"""Negation: whether a text denies a unit's words, read alike by both engines.

A negation cue ("not", "never", "no") denies the words right after it; "not only" denies
nothing; a cue inside a clause that describes another noun ("A byte is a unit that does not
depend on the machine") does not reach the relation (:func:`cues_in_scope`); and in a
sentence of two clauses the one that writes most of the unit's words decides ("There is no
overall charge on a water molecule, but the hydrogen atoms have a positive charge"). The
grounding rule's negation gate and the offline verifier's polarity gate both ask
:func:`negated`. A unit's content words (:func:`content_words`: its lower-case relation and
object words, or a qualifier's value's, without function words) are what the cue must reach.
"""

from __future__ import annotations

import functools
import re

from triqua.core.reading.lexicon import LEXICON
from triqua.core.reading.values.table import (
    NEGATING_WORDS,
    RULES,
    without_negated_markers,
)
from triqua.core.reading.words import stemmed_words, word_stems
from triqua.nlp.negation_scope import noun_clause_cues
from triqua.schema import FactUnit
from triqua.sentences import sentence_spans

__all__ = ["content_words", "cues_in_scope", "negated", "value_denied"]

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


@functools.cache
def _markers() -> frozenset[str]:
    """Words of approximate markers ("around", "more than"), built once.

    They qualify a number, which is checked as a value, so they are not content words. "no"
    and "not" are none of them: a whole negated marker ("no more than") is blanked before
    the words are read.
    """
    return frozenset(w for m in RULES.approximate for w in m.split() if w not in NEGATING_WORDS)


def content_words(unit: FactUnit) -> list[str]:
    """The unit's words that a cited text must state, as the unit writes them.

    A base's relation and object words, a qualifier's value words: lower-case words only
    (capitalised names and numbers are checked as values by the grounding rule), no
    function words.
    """
    text = f"{unit.relation} {unit.object}" if unit.kind == "base" else unit.value or ""
    text = without_negated_markers(text)
    words: list[str] = []
    markers = _markers()
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


def cues_in_scope(unit: FactUnit, text: str) -> str:
    """``text`` with the negation cues that cannot deny the unit blanked out (as underscores).

    A cue inside a relative or adjectival clause under a noun ("A byte is a unit that does
    not depend on the machine") denies that clause, not the sentence's relation, when the
    rest of its sentence writes at least as many of the unit's words as the clause does; a
    clause that carries the unit's words ("the man who did not win the prize") keeps its cue.
    The numbers of the unit's object (a qualifier's value) count among its words: in "Marie
    Curie, who did not win it in 1903, won it in 1911" the clause writes "win" and 1903, the
    rest "won" and 1911, so the cue denies a win in 1903 and none in 1911 (a pronoun may
    stand for a name in the other clause, never for a number). A contrast after a comma
    ("started in 1666, not 1667"; "by Greta Holm, not Ada Lindqvist") denies only the value
    after its cue: blanked unless that value is one of the unit's own (a name of its subject
    or object: "Canberra, not Sydney" still denies "Sydney is the capital").
    """
    said = unit.object if unit.kind == "base" else unit.value or ""
    numbers = _numbers(said)
    text = _contrasts_in_scope(text, numbers, f"{unit.subject} {unit.object} {unit.value or ''}")
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
        inside = len(word_stems(clause) & claimed) + len(_numbers(clause) & numbers)
        outside = len(word_stems(rest) & claimed) + len(_numbers(rest) & numbers)
        if outside and outside >= inside:
            chars[cue.start : cue.end] = "_" * (cue.end - cue.start)
    return "".join(chars)


_DIGITS = re.compile(r"\d[\d,.]*")
#: A contrast after a comma that denies one value: "1666, not 1667", "Holm, not Lindqvist".
_CONTRAST = re.compile(r",\s*(?P<cue>not)\s+(?P<value>\d[\d,.]*\d|\d|[A-Z][\w'’-]*)")


def _contrasts_in_scope(text: str, numbers: set[str], said: str) -> str:
    """``text`` with the cue of each "…, not <value>" blanked, unless the value is the unit's.

    ``numbers``: the numbers of the unit's object (a qualifier's value); ``said``: the text
    of the unit whose capitalised words are its names.
    """
    own = {w.casefold() for w in re.findall(r"[\w'’-]+", said) if w[:1].isupper()}
    chars = list(text)
    for match in _CONTRAST.finditer(text):
        value = match.group("value")
        if value[:1].isdigit() and _numbers(value) & numbers:
            continue
        if value.casefold() in own:
            continue
        chars[match.start("cue") : match.end("cue")] = "_" * len(match.group("cue"))
    return "".join(chars)


def _numbers(text: str) -> set[str]:
    """The numbers ``text`` writes in digits ("1903", "21,196"), without their separators."""
    return {re.sub(r"[,.]", "", n.rstrip(",.")) for n in _DIGITS.findall(text)}


#: Words that deny what follows them, and words after one that keep it from denying
#: ("not only … but also", "including but not limited to logistics" states logistics): the
#: lexicon's (``core/reading/data/lexicon.json``).
_NEGATIONS = LEXICON.denial_cues
_NOT_DENYING = LEXICON.not_denying
_NEGATION_REACH = 4  # words after a cue that it may deny
_TOKEN = re.compile(r"[^\W_]+(?:['’]t)?")


@functools.lru_cache(maxsize=4096)  # both engines read a unit's windows again and again
def negated(unit: FactUnit, window: str) -> str | None:
    """The phrase of ``window`` that denies one of the unit's words ("not the capital").

    Only a unit that writes no negation itself is read; a cue denies the words right after
    it (``_NEGATION_REACH``), and "not only" denies nothing; a cue in a clause that
    describes another noun does not reach the relation (``cues_in_scope``).
    """
    said = f"{unit.relation} {unit.object}" if unit.kind == "base" else unit.value or ""
    if "not" in word_stems(said):
        return None
    claimed = {stem for word in content_words(unit) for stem in word_stems(word)}
    if not claimed:
        return None
    # The clause that writes most of the unit's words decides ("There is no overall charge
    # on a water molecule, but the hydrogen atoms have a positive charge"); on a tie, a
    # denying clause wins.
    readings = []
    # "was far from short" reads "was not short" (before "anything but" could split it)
    in_scope = _PHRASE.sub(r"\g<verb> not", cues_in_scope(unit, window))
    for clause in _CLAUSE_BREAK.split(in_scope):
        clause = _ASIDE.sub(r"\g<cue> ", clause)
        tokens = [t.casefold().replace("’", "'") for t in _TOKEN.findall(clause)]
        written = sum(not word_stems(t).isdisjoint(claimed) for t in tokens)
        readings.append((written, _denial(tokens, claimed)))
    written, denial = max(readings, key=lambda r: (r[0], r[1] is not None))
    return denial if written else None


def value_denied(unit: FactUnit, window: str) -> str | None:
    """The phrase of ``window`` that denies a qualifier's value in its base's clause, if any.

    "who did not win it in 1903, won it in 1911" states no win in 1903: the base is read
    with the qualifier's value as its object (:func:`negated`), so a cue that reaches the
    value's clause denies the qualifier even where the base itself is stated elsewhere.
    """
    with_value = FactUnit(
        kind="base",
        subject=unit.subject,
        relation=f"{unit.relation} {unit.object}",
        object=unit.value or "",
    )
    return negated(with_value, window)


#: An aside right after a negation cue, which the cue reaches over ("did not, as is often
#: said, win"; "never (despite the rumours) won"; "not — as some claim — the capital").
_ASIDE = re.compile(
    r"(?P<cue>\b(?:" + "|".join(sorted(_NEGATIONS)) + r")\b|n['’]t\b)\s*"
    r"(?:,[^,;()]{1,80},|\([^()]{1,80}\)|[—–]\s?[^—–]{1,80}?\s?[—–])",
    re.IGNORECASE,
)
#: A denial phrase right after a linking verb ("was far from short", "is anything but
#: cheap"), read as "not": the lexicon's ``denial_phrases``.
_PHRASE = re.compile(
    r"\b(?P<verb>"
    + "|".join(sorted(LEXICON.denial_phrase_verbs))
    + r")\s+(?:"
    + "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in LEXICON.denial_phrases)
    + r")\b",
    re.IGNORECASE,
)
#: Where one clause of a sentence ends and a contrasting one begins.
_CLAUSE_BREAK = re.compile(r";|,?\s+(?:but|whereas|while|although|though|yet)\s+", re.IGNORECASE)


def _denial(tokens: list[str], claimed: set[str]) -> str | None:
    """The words from a negation cue to a claimed word it denies, if any."""
    for i, token in enumerate(tokens):
        if token not in _NEGATIONS and not token.endswith("n't"):
            continue
        reach = tokens[i + 1 : i + 1 + _NEGATION_REACH]
        if reach and reach[0] in _NOT_DENYING:
            continue
        for j, word in enumerate(reach):
            if not word_stems(word).isdisjoint(claimed):
                return " ".join(tokens[i : i + j + 2])
    return None
