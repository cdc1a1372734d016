"""Tests of the offline decomposer's token merges: place names and glued units kept whole."""

from __future__ import annotations

import pytest

from triqua.engines.offline.decompose.decomposer import RuleDecomposer

from .conftest import triples


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("Prescott, Arizona is a city in Yavapai County.", "Prescott, Arizona"),
        ("Prescott, Arizona, is a city in Yavapai County.", "Prescott, Arizona"),
        ("Lyon, France is a city on the Rhone.", "Lyon, France"),
        ("Austin, Texas hosts a music festival.", "Austin, Texas"),
        ("Toronto, Canada is home to the CN Tower.", "Toronto, Canada"),
        ("Salt Lake City, Utah is the capital of Utah.", "Salt Lake City, Utah"),
    ],
)
def test_city_state_name_opening_a_sentence_is_the_subject(
    decomposer: RuleDecomposer, text: str, subject: str
) -> None:
    facts = decomposer.decompose(text)
    assert facts, text
    assert {f.subject for f in facts} == {subject}


def test_city_state_name_as_an_object_is_one_value(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("Marie Curie moved to Prescott, Arizona in 1990.")
    assert triples(facts) == {("Marie Curie", "moved to", "Prescott, Arizona")}


@pytest.mark.parametrize(
    ("text", "subjects"),
    [
        ("Paris, London and Rome are capitals.", {"Paris", "London", "Rome"}),
        ("Berlin, Paris, and Rome are capitals.", {"Berlin", "Paris", "Rome"}),
        ("Paris, London, Rome and Madrid are capitals.", {"Paris", "London", "Rome", "Madrid"}),
    ],
)
def test_list_of_places_is_not_glued_into_one_name(
    decomposer: RuleDecomposer, text: str, subjects: set[str]
) -> None:
    facts = decomposer.decompose(text)
    assert {f.subject for f in facts} == subjects


def test_list_of_places_as_objects_stays_apart(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("Marie Curie visited Paris, London and Rome.")
    assert {f.object for f in facts} == {"Paris", "London", "Rome"}


@pytest.mark.parametrize(
    ("text", "obj"),
    [
        ("The dose is 310-320mg", "310-320mg"),
        (
            "The recommended daily dose of magnesium for women is 310-320mg.",
            "310-320mg",
        ),
        ("The bag weighs 20kg.", "20kg"),
        ("The race is 5km.", "5km"),
    ],
)
def test_unit_glued_to_a_number_stays_with_it(
    decomposer: RuleDecomposer, text: str, obj: str
) -> None:
    facts = decomposer.decompose(text)
    assert {f.object for f in facts} == {obj}


def test_spaced_unit_is_kept_as_written(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("The dose is 310-320 mg.")
    assert {f.object for f in facts} == {"310-320 mg"}


def test_date_before_a_comma_is_not_glued_to_a_place(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("Monday, France announced new rules.")
    assert {f.subject for f in facts} == {"France"}
