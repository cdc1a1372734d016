"""The grounding negation gate: a cue denies the words after it; an inclusive idiom does not."""

from __future__ import annotations

import pytest

from triqua.core.grounding.gates import negated
from triqua.core.grounding.rule import check_quote
from triqua.schema import FactUnit, Status


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


@pytest.mark.parametrize(
    "window",
    [
        "She did not, as is often said, win the Nobel Prize in Literature.",
        "She never (despite the rumours) won the Nobel Prize in Literature.",
        "She did not — as some claim — win the Nobel Prize in Literature.",
    ],
)
def test_a_negation_reaches_over_an_aside_right_after_it(window: str) -> None:
    unit = _base("Marie Curie", "won", "the Nobel Prize in Literature")
    assert negated(unit, window) is not None
    quote = window
    passage = f"Marie Curie was a chemist. {window}"
    outcome = check_quote(unit, Status.SUPPORTED, ["e"], quote, {"e": passage})
    assert not outcome.ok


def test_an_aside_after_the_verb_is_no_negation() -> None:
    unit = _base("Marie Curie", "won", "the Nobel Prize in Physics")
    assert negated(unit, "She won, not surprisingly, the Nobel Prize in Physics.") is None


@pytest.mark.parametrize(
    "window", ["Napoleon was hardly short for his time.", "Napoleon was scarcely short."]
)
def test_hardly_and_scarcely_deny_the_words_after_them(window: str) -> None:
    unit = _base("Napoleon", "was", "short")
    assert negated(unit, window) is not None
    outcome = check_quote(unit, Status.SUPPORTED, ["e"], window, {"e": window})
    assert not outcome.ok


def test_a_qualifier_value_in_a_denied_clause_is_denied() -> None:
    from triqua.core.reading.negation import value_denied

    unit = FactUnit(
        kind="qualifier",
        subject="Marie Curie",
        relation="won",
        object="the Nobel Prize",
        label="point in time",
        value="1903",
    )
    window = "Marie Curie, who did not win the Nobel Prize in 1903, won it in 1911."
    assert value_denied(unit, window) is not None
    assert value_denied(unit, "Marie Curie won the Nobel Prize in 1903.") is None
