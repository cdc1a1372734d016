"""Quantities as the offline verifier reads them: the value reader's, nouns by their stems.

The reading and the comparison are ``triqua.core.reading.values.numbers`` (shared with
the grounding rule, tolerances in its rules file); the verifier adds how a counted noun
compares: by its stem ("3 children" is "three child"), never by a stop word ("3 of them"
counts nothing).
"""

from __future__ import annotations

from triqua.core.reading.values import numbers
from triqua.core.reading.values.numbers import NumberValue
from triqua.core.reading.words import stem, stems_match
from triqua.nlp.tokens import STOP_WORDS

__all__ = ["NumberValue", "find_numbers", "number_relation"]


def _counted(word: str) -> str | None:
    """A counted noun's stem, or None for a stop word ("of", "more")."""
    return stem(word) if word.lower() not in STOP_WORDS else None


def find_numbers(text: str, exclude: list[tuple[int, int]] | None = None) -> list[NumberValue]:
    """All quantities in ``text`` outside the ``exclude`` spans (dates, usually)."""
    return numbers.find_numbers(text, exclude, counted=_counted)


def number_relation(claim: NumberValue, evidence: NumberValue) -> str:
    """Compare quantities ('match', 'conflict', 'unknown'); counted nouns by their stems."""
    return numbers.number_relation(claim, evidence, same_noun=stems_match)
