"""A subject naming a thing a person's pronoun owns: a "he" or "she" after it is that person.

"His debut album LP1 was released in 2019. He …" goes on about the one "his" stands for;
"Her sister Bronya studied medicine. She …" may be Bronya. The worked examples of
``core/reading/data/owned_things.json`` run here on the default grounding rule.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_grounding_stated import reader
from triqua.core.grounding.rule import check_quote
from triqua.core.reading.owned_things import OWNED_THINGS_PATH, owned_thing
from triqua.core.reading.reference import named_other_subject
from triqua.core.reading.rules_file import read_rules_file
from triqua.nlp.parses import parse_many
from triqua.schema import FactUnit, Status

_EXAMPLES = read_rules_file(OWNED_THINGS_PATH, "owned things")["examples"]
_HIS = frozenset(("he", "him", "his", "himself"))


def _grounded(example: dict[str, Any]) -> bool:
    """Whether the default grounding rule keeps "supported" for the quote (judge entails)."""
    unit = FactUnit(kind="base", subject=example["subject"], relation="has", object="it")
    passage = f"{example['passage']} {example['quote']}"
    quote = example["quote"]
    # The scripted judge entails every window: only the rule's reading of names refuses.
    return check_quote(unit, Status.SUPPORTED, ["e"], quote, {"e": passage}, reader=reader(0.95)).ok


def test_the_rules_file_has_examples_both_ways() -> None:
    assert _EXAMPLES["pronoun_refers"] and _EXAMPLES["pronoun_refers_to_no_one"]


@pytest.mark.parametrize("example", _EXAMPLES["pronoun_refers"], ids=lambda e: e["subject"])
def test_a_pronoun_after_a_thing_its_possessive_owns_is_the_one_named_before(
    example: dict[str, Any],
) -> None:
    assert _grounded(example)


@pytest.mark.parametrize(
    "example", _EXAMPLES["pronoun_refers_to_no_one"], ids=lambda e: e["passage"][33:60]
)
def test_a_pronoun_after_another_person_or_another_genders_thing_refers_to_no_one(
    example: dict[str, Any],
) -> None:
    assert not _grounded(example)


def _subject(sentence: str) -> Any:
    doc = parse_many([sentence])[0]
    return next(t for t in doc or () if t.dep_ in ("nsubj", "nsubjpass"))


def test_an_album_his_possessive_owns_is_his_thing_a_sister_is_no_thing() -> None:
    assert owned_thing(_subject("His debut album LP1 was released in 2019."), _HIS)
    assert not owned_thing(_subject("His debut album LP1 was released in 2019."), frozenset())
    assert not owned_thing(_subject("His sister Bronya studied medicine."), _HIS)


def test_an_owned_thing_is_not_a_subject_named_as_someone_else() -> None:
    pronouns = frozenset(("he", "his", "she", "her"))
    sentence = "He released a single in 2017 and his debut album LP1 was released in 2019."
    assert named_other_subject(sentence, pronouns)  # without the owners, LP1 is someone
    assert not named_other_subject(sentence, pronouns, _HIS)
    assert named_other_subject("His brother Karl studied law.", pronouns, _HIS)
