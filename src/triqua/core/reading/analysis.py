"""Text matching for evidence alignment: analysed texts, word coverage, values.

An evidence sentence is analysed once (tokens, content words, dates, numbers); a piece of
a fact is matched in it by content-word coverage and value comparison. Tokens live in
``words``; dates and quantities are read by ``triqua.core.reading.values`` (the grounding
rule's reader too) and re-exported here; name rules ("Curie" names "Marie Curie") are in
``name_match``. The offline verifier aligns with it; the grounding rule reads roles and
restrictors through it (``roles``, ``restrictors.markers``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from triqua.core.reading.acronyms import spelled_initials
from triqua.core.reading.quantities import NumberValue, find_numbers, number_relation
from triqua.core.reading.values.dates import DateValue, date_relation, find_dates
from triqua.core.reading.words import (
    Token,
    is_directive,
    is_negated,
    is_negation,
    relation_stems,
    stem,
    stems_match,
    tokenize,
)

__all__ = [
    "DateValue",
    "NumberValue",
    "TextInfo",
    "Token",
    "analyse",
    "coverage",
    "date_relation",
    "find_dates",
    "find_numbers",
    "has_stem",
    "is_directive",
    "is_negated",
    "is_negation",
    "number_relation",
    "relation_stems",
    "stem",
    "stems_match",
    "tokenize",
    "values_relation",
]

# ----------------------------------------------------------------- text matching


@dataclass(frozen=True)
class TextInfo:
    """A piece of text analysed once: tokens, content words, dates and numbers."""

    text: str
    tokens: tuple[Token, ...]
    content: tuple[Token, ...]
    stems: frozenset[str]
    dates: tuple[DateValue, ...]
    numbers: tuple[NumberValue, ...]
    acronyms: frozenset[str] = frozenset()

    @property
    def is_name(self) -> bool:
        """True when every content word is capitalised (a proper name)."""
        return bool(self.content) and all(t.is_capitalised for t in self.content)


@lru_cache(maxsize=20_000)
def analyse(text: str) -> TextInfo:
    """Tokenise ``text`` and pull out its values; words inside values are not content.

    A function word written as an acronym ("US", "IT") is content, unless the whole text is
    written in capitals.
    """
    dates = tuple(find_dates(text))
    spans = [(d.start, d.end) for d in dates]
    numbers = tuple(find_numbers(text, spans))
    spans += [(n.start, n.end) for n in numbers]
    tokens = tuple(tokenize(text))
    shouted = text.isupper()
    content = tuple(
        t
        for t in tokens
        if (not t.is_stop or (not shouted and written_as_acronym(t)))
        and not is_negation(t)
        and not any(s <= t.start < e for s, e in spans)
    )
    return TextInfo(
        text,
        tokens,
        content,
        frozenset(t.stem for t in tokens),
        dates,
        numbers,
        spelled_initials(text),
    )


def written_as_acronym(token: Token) -> bool:
    """True for a word written in capitals, two letters or more: "US" is a name, not "us"."""
    return len(token.text) >= 2 and token.text.isupper() and token.text.isalpha()


@lru_cache(maxsize=65536)
def has_stem(stems: frozenset[str], word: str) -> bool:
    """True when a stem of the sentence matches ``word`` (exactly or by derivation).

    Cached: a sentence's stems are one frozenset (its hash computed once) asked about the
    words of every fact aligned with it.
    """
    return word in stems or any(stems_match(word, s) for s in stems if s[:3] == word[:3])


def coverage(part: TextInfo, sentence: TextInfo) -> float:
    """Share of the part's content words found in the sentence (1.0 for no content)."""
    if not part.content:
        return 1.0
    return sum(has_stem(sentence.stems, t.stem) for t in part.content) / len(part.content)


#: Stems of nouns that count persons of any kind ("5,000 people").
_ANY_PERSONS = frozenset({"peopl", "person", "individual"})


def _counting(stated: NumberValue, claimed: NumberValue, sentence: TextInfo) -> NumberValue:
    """``stated`` counting the claim's noun when it counts "people" that the sentence names.

    "Acme Corp employs 5,000 people" counts 5,000 employees: its "people" are the claim's
    "employees" when the sentence writes the claim's noun's stem elsewhere ("employs").
    "5,000 books" finds no "book" there and stays another count.
    """
    if (
        stated.noun in _ANY_PERSONS
        and claimed.noun
        and claimed.noun not in _ANY_PERSONS
        and any(
            stems_match(t.stem, claimed.noun) or stems_match(claimed.noun, t.stem)
            for t in sentence.content
            if not stated.start <= t.start < stated.end
        )
    ):
        return replace(stated, noun=claimed.noun)
    return stated


def values_relation(claim: TextInfo, sentence: TextInfo) -> tuple[str, str | None]:
    """Compare the claim's dates and numbers with the sentence's.

    Each claimed value is matched by some value of the sentence, or conflicts with one (and
    none matches), or is not stated. Returns ('match' | 'conflict' | 'unknown', the text of
    the claim's value that conflicts).
    """
    outcome = "match"
    wrong: str | None = None
    pairs: list[tuple[Any, list[str]]] = [
        (d, [date_relation(d, e) for e in sentence.dates]) for d in claim.dates
    ] + [
        (n, [number_relation(n, _counting(e, n, sentence)) for e in sentence.numbers])
        for n in claim.numbers
    ]
    for value, results in pairs:
        if "match" in results:
            continue
        if "conflict" in results:
            outcome, wrong = "conflict", value.text
        elif outcome != "conflict":
            outcome = "unknown"
    return outcome, wrong
