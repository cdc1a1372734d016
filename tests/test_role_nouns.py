"""A window's role noun ("statistician") does not write the object word ("statistics")."""

from __future__ import annotations

import pytest

from triqua.core.reading.analysis import analyse
from triqua.core.reading.fact_parts import fact_parts
from triqua.core.reading.role_words import (
    occupation_only,
    role_held_by_another,
    role_noun,
    role_noun_examples,
    writes_some,
)
from triqua.core.reading.statements import refusal
from triqua.schema import Fact

from .written_facts import written_fact

EXAMPLES = role_noun_examples()


@pytest.mark.parametrize(("word", "written"), EXAMPLES["role"])
def test_a_role_noun_is_not_the_object_word(word: str, written: str) -> None:
    assert role_noun(word, written)


@pytest.mark.parametrize(("word", "written"), EXAMPLES["written"])
def test_another_form_writes_the_object_word(word: str, written: str) -> None:
    assert not role_noun(word, written)


def _writes(subject: str, relation: str, obj: str, window: str) -> bool:
    parts = fact_parts(Fact(subject=subject, relation=relation, object=obj))
    return writes_some(parts, analyse(window))


def test_a_window_naming_the_subject_s_profession_writes_nothing_of_the_fact() -> None:
    window = "Florence Nightingale was a British nurse and statistician."
    assert not _writes("Florence Nightingale", "taught", "statistics", window)
    assert _writes("Florence Nightingale", "taught", "statistics", "She taught statistics.")


def test_another_verb_before_the_relation_s_preposition_writes_nothing_of_the_fact() -> None:
    window = "The Magna Carta was sealed by King John in 1215."
    assert not _writes("The Magna Carta", "was annulled by", "King John", window)
    assert _writes("The Magna Carta", "was annulled by", "the Pope", "It was annulled by the Pope.")


@pytest.mark.parametrize(("word", "written"), EXAMPLES["relation_role"])
def test_a_role_noun_of_the_relation_s_verb(word: str, written: str) -> None:
    assert role_noun(word, written, relation=True)


@pytest.mark.parametrize(("word", "written"), EXAMPLES["relation_written"])
def test_another_form_of_the_relation_s_verb_is_no_role_noun(word: str, written: str) -> None:
    assert not role_noun(word, written, relation=True)


def test_a_window_naming_only_the_subject_s_occupation_states_no_object() -> None:
    parts = fact_parts(Fact(subject="Frida Kahlo", relation="painted", object="murals"))
    assert occupation_only(parts, analyse("Frida Kahlo was a Mexican painter."))
    assert not occupation_only(parts, analyse("Frida Kahlo was a painter of murals."))
    assert not occupation_only(parts, analyse("Frida Kahlo painted self-portraits."))


def _held(written: str, window: str) -> bool:
    return role_held_by_another(fact_parts(written_fact(written)), analyse(window))


@pytest.mark.parametrize(("fact", "window"), EXAMPLES["held_by_another"])
def test_a_role_noun_another_name_holds_states_nothing_of_the_subject(
    fact: str, window: str
) -> None:
    assert _held(fact, window)


@pytest.mark.parametrize(("fact", "window"), EXAMPLES["held_by_subject"])
def test_a_role_noun_of_the_subject_or_a_written_object_is_no_other_s(
    fact: str, window: str
) -> None:
    assert not _held(fact, window)


@pytest.mark.parametrize(
    ("fact", "window", "held"),
    [(f, w, True) for f, w in EXAMPLES["held_by_another"]]
    + [(f, w, False) for f, w in EXAMPLES["held_by_subject"]],
)
def test_the_grounding_rule_refuses_a_cited_role_noun_another_name_holds(
    fact: str, window: str, held: bool
) -> None:
    why = refusal(written_fact(fact), window)
    assert (why is not None and "role" in why) is held, why
