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
