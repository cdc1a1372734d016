"""The grounding negation gate: a cue denies the words after it; an inclusive idiom does not."""

from __future__ import annotations

import pytest

from triqua.core.grounding.gates import negated
from triqua.schema import FactUnit


def _base(subject: str, relation: str, obj: str) -> FactUnit:
    return FactUnit(kind="base", subject=subject, relation=relation, object=obj)


@pytest.mark.parametrize(
    "window",
    [
        "It has applications in many fields, including but not limited to logistics.",
        "Its uses are not restricted to logistics.",
        "It is used not only in logistics but also in scheduling.",
    ],
)
def test_an_inclusive_idiom_with_not_denies_nothing(window: str) -> None:
    unit = _base("Combinatorial optimisation", "has applications in", "logistics")
    assert negated(unit, window) is None


def test_a_plain_negation_still_denies_the_words_after_it() -> None:
    unit = _base("Combinatorial optimisation", "has applications in", "logistics")
    assert negated(unit, "It has no applications in logistics.") is not None


def test_the_clause_that_writes_the_unit_decides_its_polarity() -> None:
    unit = _base("Hydrogen atoms", "have", "a positive charge")
    window = (
        "There is no overall charge on a water molecule, but the hydrogen atoms have a "
        "slight positive charge."
    )
    assert negated(unit, window) is None
    denying = "The hydrogen atoms have no positive charge, but the oxygen atom has one."
    assert negated(unit, denying) is not None
    assert negated(_base("Bats", "are", "blind"), "Bats are not blind, but they see poorly.")
