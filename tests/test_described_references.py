"""A description by a class noun refers to the one thing of that class its sentence names.

'"Blackwell sales are off the charts," said Jensen Huang, founder and CEO of NVIDIA. The
company expects revenue of $65.0 billion.': the sentence before names a person beside
NVIDIA, and "the company" is NVIDIA, on both engines. With two companies named, or the
subject a person, or a personal pronoun in the quote, it refers to no one as before. The
worked examples of ``core/reading/data/described.json`` run here.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_grounding_stated import reader
from triqua.core.grounding.rule import check_quote
from triqua.core.reading.analysis import analyse
from triqua.core.reading.described import (
    DESCRIBED_PATH,
    described_types,
    legal_form,
    thing_name,
)
from triqua.core.reading.mentions import REFERS, subject_scores
from triqua.core.reading.rules_file import read_rules_file
from triqua.core.reading.values.name_rivals import may_be_person, reference_beside_another
from triqua.schema import FactUnit, Status

_EXAMPLES = read_rules_file(DESCRIBED_PATH, "described classes")["examples"]


def _grounded(example: dict[str, Any]) -> bool:
    """Whether the default grounding rule keeps "supported" for the quote (judge entails)."""
    unit = FactUnit(kind="base", subject=example["subject"], relation="has", object="it")
    passage = f"{example['passage']} {example['quote']}"
    quote = example["quote"]
    # The scripted judge entails every window: only the rule's reading of names refuses.
    return check_quote(unit, Status.SUPPORTED, ["e"], quote, {"e": passage}, reader=reader(0.95)).ok


def _offline(example: dict[str, Any]) -> float:
    """The offline verifier's subject score of the quote's sentence."""
    sentences = [analyse(example["passage"]), analyse(example["quote"])]
    return subject_scores(analyse(example["subject"]), sentences, None)[1]


def test_the_rules_file_has_examples_both_ways() -> None:
    assert _EXAMPLES["refers"] and _EXAMPLES["refers_to_no_one"]


@pytest.mark.parametrize("example", _EXAMPLES["refers"], ids=lambda e: e["subject"])
def test_the_description_carries_the_one_thing_of_its_class(example: dict[str, Any]) -> None:
    name = example["subject"].lower()
    assert not reference_beside_another(name, example["passage"], example["quote"])
    assert _grounded(example)
    assert _offline(example) == REFERS


@pytest.mark.parametrize("example", _EXAMPLES["refers_to_no_one"], ids=lambda e: e["passage"][:30])
def test_the_description_refers_to_no_one(example: dict[str, Any]) -> None:
    assert not _grounded(example)
    assert _offline(example) == 0.0


def test_only_a_listed_class_noun_describes_a_thing() -> None:
    assert described_types("The company expects revenue.") == {"ORG"}
    assert "GPE" in described_types("The city's population grew.")
    assert described_types("The singer released an album.") == frozenset()
    assert described_types("He said the company grew.") == frozenset()


def test_a_legal_form_is_part_of_the_name_before_it() -> None:
    assert legal_form("Inc.") and legal_form("Ltd")
    assert not legal_form("Intel") and not legal_form("Jensen Huang")


@pytest.mark.parametrize("example", _EXAMPLES["pronoun_refers"], ids=lambda e: e["subject"])
def test_a_he_or_she_passes_over_things_and_the_other_gender(example: dict[str, Any]) -> None:
    name = example["subject"].lower()
    assert not reference_beside_another(name, example["passage"], example["quote"])
    assert _grounded(example)


@pytest.mark.parametrize(
    "example", _EXAMPLES["pronoun_refers_to_no_one"], ids=lambda e: e["passage"][:30]
)
def test_a_he_or_she_after_another_person_of_that_gender_refers_to_no_one(
    example: dict[str, Any],
) -> None:
    assert not _grounded(example)


def test_a_name_holding_a_class_noun_or_legal_form_names_a_thing() -> None:
    assert thing_name("University of Queensland")
    assert thing_name("Brisbane State High School")
    assert thing_name("Acme Widgets Inc.")
    assert not thing_name("Kate Beckinsale") and not thing_name("Neumann")


def test_a_he_or_she_may_not_be_a_thing_or_a_person_of_the_other_gender() -> None:
    assert not may_be_person("University of Queensland", "male")
    assert not may_be_person("Andrew Frankel", "female")
    assert may_be_person("Andrew Frankel", "male") and may_be_person("Kwak Tae Geun", "male")
