"""Whether a text carries the values of another: the question the grounding rule asks.

A claimed date or quantity is carried when a value of the text matches it as the offline
verifier compares them (``date_relation``, ``number_relation``). A quantity may also be
carried as written when the text gives it in no comparable unit ("8,849" for "8,849 m"):
the grounding rule asks whether the value is written, not whether a unit contradicts it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from triqua.core.reading.quotes import normalise
from triqua.core.reading.values.dates import DateValue, date_relation, find_dates
from triqua.core.reading.values.numbers import (
    NumberValue,
    find_numbers,
    number_relation,
    within_marker,
)

__all__ = ["Values", "carried", "name_carried", "read_values", "uncarried", "values_match"]


@dataclass(frozen=True)
class Values:
    """The dates and quantities of a text (a quantity never inside a date)."""

    dates: tuple[DateValue, ...]
    numbers: tuple[NumberValue, ...]

    def __bool__(self) -> bool:
        return bool(self.dates or self.numbers)


@functools.lru_cache(maxsize=4096)
def read_values(text: str) -> Values:
    """The dates of ``text``, and its quantities outside them.

    Cached by text (the values are immutable): the grounding rule reads the same evidence
    windows for many units, about six readings of each window on a run of bios.
    """
    dates = tuple(find_dates(text))
    numbers = tuple(find_numbers(text, [(d.start, d.end) for d in dates]))
    return Values(dates, numbers)


def _as_written(claim: NumberValue, written: NumberValue) -> bool:
    """True when one of the numbers is a bare count and they agree as written.

    "8,849" writes the value of "8,849 m" in no unit; "45 km" does not write "45%".
    """
    counts = [r[1] == "count" for n in (claim, written) for r in n.readings]
    if not any(counts):
        return False
    (c_value, c_step), (w_value, w_step) = claim.plain, written.plain
    if abs(c_value - w_value) <= max(c_step, w_step) * (1 + 1e-9):
        return True
    return within_marker(claim.approx, c_value, w_value)


def _number_carried(claim: NumberValue, written: Sequence[NumberValue]) -> bool:
    """True when a written quantity matches the claimed one, or writes it in no unit."""
    relations = [number_relation(claim, w, same_noun=_any_noun) for w in written]
    return "match" in relations or any(
        relation != "conflict" and _as_written(claim, w)
        for relation, w in zip(relations, written, strict=True)
    )


def _any_noun(a: str, b: str) -> bool:
    """Counted nouns never keep a value from being carried: the word check reads words."""
    return True


def carried(claim: DateValue | NumberValue, values: Values) -> bool:
    """True when ``values`` carry the claimed date or quantity."""
    if isinstance(claim, DateValue):
        return any(date_relation(claim, d) == "match" for d in values.dates)
    return _number_carried(claim, values.numbers)


def uncarried(claimed: Values, values: Values) -> list[str]:
    """The claimed values (as written) that ``values`` do not carry."""
    every: list[DateValue | NumberValue] = [*claimed.dates, *claimed.numbers]
    return [v.text for v in every if not carried(v, values)]


def values_match(claim: str, evidence: str) -> bool:
    """True when every value written in ``claim`` is carried by ``evidence``.

    Raises:
        ValueError: when ``claim`` writes no value (nothing to carry).
    """
    claimed = read_values(claim)
    if not claimed:
        raise ValueError(f"{claim!r} writes no value")
    return not uncarried(claimed, read_values(evidence))


def name_carried(value: DateValue | NumberValue, padded: str) -> bool:
    """True for a number word opening a name that a text (``padded``, normalised) writes.

    "One Direction" opening a unit reads as a count of one; the text writes the band's name,
    not a count ("After One Direction went on hiatus"), and carries it word for word.
    """
    words = value.text.split()
    return (
        isinstance(value, NumberValue)
        and len(words) > 1
        and all(w[:1].isupper() for w in words)
        and not value.text[:1].isdigit()
        and f" {normalise(value.text)} " in padded
    )
