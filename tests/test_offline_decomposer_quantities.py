"""Tests of the offline decomposer on plain factual sentences that state a quantity.

A change verb with its amount ("Revenue rose 62% from a year earlier") states the amount:
the fact is (Revenue, rose by, 62%), and "from a year earlier" is the base the change is
measured against, not the time the rise started.
"""

from __future__ import annotations

import pytest

import triqua
from triqua.engines.offline.decompose.decomposer import RuleDecomposer
from triqua.schema import Fact

from .conftest import triples


def quals(fact: Fact) -> set[tuple[str, str]]:
    return {(q.label, q.value) for q in fact.qualifiers}


@pytest.mark.parametrize(
    ("text", "triple", "qualifiers"),
    [
        (
            "Revenue rose 62% from a year earlier.",
            ("Revenue", "rose by", "62%"),
            {("context", "from a year earlier")},
        ),
        (
            "Gaming revenue fell 1% from the previous quarter.",
            ("Gaming revenue", "fell by", "1%"),
            {("context", "from the previous quarter")},
        ),
        (
            "Revenue rose by 62% from a year earlier.",
            ("Revenue", "rose by", "62%"),
            {("context", "from a year earlier")},
        ),
        (
            "Exports grew 5 percent in 2019.",
            ("Exports", "grew by", "5 percent"),
            {("point in time", "2019")},
        ),
    ],
)
def test_a_change_verb_states_its_amount_against_its_base(
    decomposer: RuleDecomposer,
    text: str,
    triple: tuple[str, str, str],
    qualifiers: set[tuple[str, str]],
) -> None:
    facts = decomposer.decompose(text)
    assert triples(facts) == {triple}
    assert quals(facts[0]) == qualifiers


def test_a_change_with_its_amount_is_checked_not_dropped() -> None:
    found = triqua.extract_facts("Revenue rose 62% from a year earlier.")
    assert not found.unfounded
    assert [f.object for f in found.facts] == ["62%"]


def test_a_range_of_a_change_keeps_its_times(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("Sales rose 20% from 2010 to 2015.")
    assert triples(facts) == {("Sales", "rose by", "20%")}
    assert quals(facts[0]) == {("start time", "2010"), ("end time", "2015")}


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        (
            "Epigenetic inheritance refers to the transmission of traits from one generation"
            " to the next.",
            (
                "Epigenetic inheritance",
                "refers to",
                "the transmission of traits from one generation to the next",
            ),
        ),
        (
            "The company shipped goods from one port to another.",
            ("The company", "shipped", "goods from one port to another"),
        ),
        (
            "Genes pass from one generation to the next.",
            ("Genes", "pass from", "one generation to the next"),
        ),
    ],
)
def test_a_range_to_an_elliptical_end_stays_in_the_object(
    decomposer: RuleDecomposer, text: str, triple: tuple[str, str, str]
) -> None:
    facts = decomposer.decompose(text)
    assert triples(facts) == {triple}
    assert quals(facts[0]) == set()


def test_a_range_to_a_named_end_keeps_its_destination(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("Curie moved from Warsaw to Paris.")
    assert triples(facts) == {("Curie", "moved from", "Warsaw")}
    assert quals(facts[0]) == {("destination", "Paris")}
