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
    _one_fact(decomposer, text, triple, qualifiers)


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


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        (
            "About 500,000 people attended the Woodstock festival.",
            ("the Woodstock festival", "was attended by", "About 500,000 people"),
        ),
        (
            "About 500,000 people attended the concert.",
            ("the concert", "was attended by", "About 500,000 people"),
        ),
        (
            "Three thousand fans visited the studios.",
            ("the studios", "were visited by", "Three thousand fans"),
        ),
    ],
)
def test_a_count_of_people_as_subject_is_what_its_object_was_done_by(
    decomposer: RuleDecomposer, text: str, triple: tuple[str, str, str]
) -> None:
    assert triples(decomposer.decompose(text)) == {triple}


def test_a_measure_as_subject_still_gives_no_fact(decomposer: RuleDecomposer) -> None:
    assert decomposer.decompose("100 degrees marked the peak.") == []


def test_a_year_a_relative_clause_hangs_on_is_no_count(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose(
        "Sakamoto released Sukiyaki in 1963, which reached number one in the United States."
    )
    assert not any(f.relation == "was reached by" for f in facts)


def test_an_opening_determiner_the_parse_reads_as_an_object_opens_the_subject(
    decomposer: RuleDecomposer,
) -> None:
    facts = decomposer.decompose(
        "The Great Wall of China attracts about 10 million visitors a year."
    )
    assert triples(facts) == {
        ("The Great Wall of China", "attracts", "about 10 million visitors a year")
    }


@pytest.mark.parametrize(
    ("text", "triple", "qualifiers"),
    [
        (
            "Radiohead formed in Manchester in 1985.",
            ("Radiohead", "formed in", "Manchester"),
            {("point in time", "1985")},
        ),
        ("Radiohead formed in Manchester.", ("Radiohead", "formed in", "Manchester"), set()),
    ],
)
def test_a_name_and_a_past_verb_read_as_a_modifier_are_a_clause(
    decomposer: RuleDecomposer,
    text: str,
    triple: tuple[str, str, str],
    qualifiers: set[tuple[str, str]],
) -> None:
    _one_fact(decomposer, text, triple, qualifiers)


@pytest.mark.parametrize(
    "text",
    [
        "A study published in 2019.",
        "Aqua regia dissolved with gold forms chloroauric acid (HAuCl4) as a product.",
    ],
)
def test_a_participle_phrase_that_names_no_place_or_date_is_no_clause(
    decomposer: RuleDecomposer, text: str
) -> None:
    assert not any(f.relation.startswith("dissolved") for f in decomposer.decompose(text))
    assert not any(f.relation == "published in" for f in decomposer.decompose(text))


def test_home_read_as_an_adverb_is_the_complement_of_is(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose(
        "The Tokyo metropolitan area is home to about 25 percent of Japan's population."
    )
    assert triples(facts) == {
        (
            "The Tokyo metropolitan area",
            "is",
            "home to about 25 percent of Japan's population",
        )
    }


def test_a_change_to_a_level_states_the_level_with_the_amount(
    decomposer: RuleDecomposer,
) -> None:
    facts = decomposer.decompose("Net income fell 20 percent to $1.2 billion in 2020.")
    assert triples(facts) == {("Net income", "fell to", "$1.2 billion")}
    assert quals(facts[0]) == {("quantity", "20 percent"), ("point in time", "2020")}


def test_a_change_to_a_level_keeps_its_comparison_base(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("Revenue rose 62% to $5 billion from a year earlier.")
    assert triples(facts) == {("Revenue", "rose to", "$5 billion")}
    assert quals(facts[0]) == {("quantity", "62%"), ("context", "from a year earlier")}


def _one_fact(
    decomposer: RuleDecomposer,
    text: str,
    triple: tuple[str, str, str],
    qualifiers: set[tuple[str, str]],
) -> None:
    """``text`` gives exactly ``triple``, with exactly ``qualifiers``."""
    facts = decomposer.decompose(text)
    assert triples(facts) == {triple}
    assert quals(facts[0]) == qualifiers
