"""The value-slot gate: a bare year or number must be the one the relation's verb governs.

Both engines ask it of a window through the statement gates (``core.reading.statements.refusal``).
"""

from __future__ import annotations

import pytest

from triqua.core.reading.statements import refusal
from triqua.core.reading.value_slot import (
    bare_values,
    counted_slot,
    measured_values,
    noun_slot,
    own_slot,
    slot_value,
)
from triqua.schema import Fact

TOWER = "Work on the tower began in 1887, and the tower was completed in 1889."


@pytest.mark.parametrize(
    ("obj", "values"),
    [("1887", {"1887"}), ("in 1887", {"1887"}), ("1,200", {"1200"}), ("six legs", set()),
     ("75 minutes", set()), ("Paris", set())],
)  # fmt: skip
def test_bare_values(obj: str, values: set[str]) -> None:
    assert bare_values(obj) == values


def test_a_year_another_verb_governs_refuses_the_window() -> None:
    fact = Fact(subject="The tower", relation="was completed in", object="1887")
    why = refusal(fact, TOWER)
    assert why is not None and "1889" in why, why


def test_the_year_the_verb_governs_passes() -> None:
    assert (
        refusal(Fact(subject="The tower", relation="was completed in", object="1889"), TOWER)
        is None
    )
    assert refusal(Fact(subject="The tower", relation="began in", object="1887"), TOWER) is None


def test_a_verb_that_governs_no_number_says_nothing() -> None:
    assert slot_value("The tower was completed after 1887.", {"complet"}, {"1887"}) is None
    assert slot_value("It opened, and in 1887 it closed.", {"open"}, {"1887"}) is None
    assert slot_value("It was completed in May 1889.", {"complet"}, {"1887"}) == "1889"


OSCARS = "Kate Winslet was nominated for an Oscar for Titanic and won one for The Reader in 2009."


def test_an_object_a_coordinated_verb_governs_refuses_the_window() -> None:
    fact = Fact(subject="Kate Winslet", relation="won an Oscar for", object="Titanic")
    why = refusal(fact, OSCARS)
    assert why is not None and "The Reader" in why, why


def test_the_object_the_relations_verb_governs_passes() -> None:
    assert (
        refusal(
            Fact(subject="Kate Winslet", relation="won an Oscar for", object="The Reader"), OSCARS
        )
        is None
    )
    assert (
        refusal(
            Fact(subject="Mozart", relation="was born in", object="Salzburg"),
            "Mozart was born and raised in Salzburg.",
        )
        is None
    )


def test_a_year_qualifier_is_gated_by_the_grounding_rule() -> None:
    from triqua.core.grounding.gates import gate
    from triqua.schema import FactUnit

    window = "Spain hosted the World Cup in 1982 and won it in 2010."
    won = FactUnit(
        id="u", kind="qualifier", subject="Spain", relation="won", object="the World Cup",
        label="point in time", value="1982",
    )  # fmt: skip
    why = gate(won, window, window, "")
    assert why is not None and "2010" in why, why
    hosted = won.model_copy(update={"relation": "hosted"})
    assert gate(hosted, window, window, "") is None


def test_an_approximate_value_is_left_to_the_value_reader() -> None:
    """'around 1400' is met by 1403 (the reader's tolerance), so it fills no exact slot."""
    assert bare_values("around 1400") == frozenset()
    assert bare_values("in 1403") == frozenset({"1403"})


CHOPIN = "Frédéric Chopin was born in 1810 and died in Paris in 1849."


def test_an_object_only_another_verb_governs_refuses_the_window() -> None:
    """'born in 1810 and died in Paris' states no birth in Paris: 'born in' holds 1810."""
    fact = Fact(subject="Frédéric Chopin", relation="was born in", object="Paris")
    why = refusal(fact, CHOPIN)
    assert why is not None and "1810" in why, why
    assert (
        refusal(Fact(subject="Frédéric Chopin", relation="died in", object="Paris"), CHOPIN) is None
    )


@pytest.mark.parametrize(
    "window",
    [
        "Jane Austen, born in 1775, wrote most of her novels in Chawton.",
        "Jane Austen, who was born in 1775, spent her last years in Chawton.",
        "Jane Austen was born in 1775 and later moved to a cottage in Chawton.",
    ],
)
def test_the_relations_own_slot_holding_another_value_refuses_the_window(window: str) -> None:
    fact = Fact(subject="Jane Austen", relation="was born in", object="Chawton")
    why = refusal(fact, window)
    assert why is not None and "1775" in why, why


def test_a_slot_that_names_the_object_or_may_refer_back_says_nothing() -> None:
    born = frozenset({"bear"})
    # The relation's verb governs the object too.
    assert (
        own_slot("Chopin was born in 1810 in Warsaw and died in Paris.", born, "in", {"warsaw"})
        is None
    )
    # A description in the slot may be the object itself.
    assert own_slot("Ada worked in Lyon and was born in the city.", born, "in", {"lyon"}) is None
    # No occurrence of the relation's verb with its own preposition.
    assert own_slot("Ada was born there and worked in Lyon.", born, "in", {"lyon"}) is None
    assert own_slot(CHOPIN, born, "in", {"paris"}) == "1810"


TOWER_FLOORS = "The CN Tower, which has 147 floors, is 553 metres tall."


def test_a_number_counting_another_noun_refuses_the_window() -> None:
    """553 counts metres and the floors number 147: no '553 floors' is written."""
    why = refusal(Fact(subject="The CN Tower", relation="has", object="553 floors"), TOWER_FLOORS)
    assert why is not None and "553 metres" in why, why
    assert counted_slot(TOWER_FLOORS, "553 floors") == "553 metres"


def test_the_number_counting_the_objects_noun_passes() -> None:
    assert (
        refusal(Fact(subject="The CN Tower", relation="has", object="147 floors"), TOWER_FLOORS)
        is None
    )
    assert counted_slot(TOWER_FLOORS, "147 floors") is None
    # A noun the window never counts otherwise is left to the value and unit gates.
    assert counted_slot("The tower is 553 metres tall.", "553 storeys") is None


def test_a_year_only_another_verb_governs_refuses_a_place_slot_of_the_relation() -> None:
    """ "born in Vienna and died there in 1899" states no birth in 1899."""
    fact = Fact(subject="Johann Strauss", relation="was born in", object="1899")
    why = refusal(fact, "Johann Strauss was born in Vienna and died there in 1899.")
    assert why is not None and "Vienna" in why, why
    true = Fact(subject="Johann Strauss", relation="was born in", object="1825")
    assert (
        refusal(true, "Johann Strauss was born in Vienna in 1825 and died there in 1899.") is None
    )


SALES = "In 2019 the bakery had sales of $4 million and a profit of $0.5 million."


def test_a_number_another_noun_takes_refuses_the_relations_noun() -> None:
    """ "had sales of $4 million and a profit of $0.5 million" states no $4 million profit."""
    fact = Fact(subject="The bakery", relation="had a profit of", object="$4 million")
    why = refusal(fact, SALES)
    assert why is not None and "0.5 million" in why, why
    assert noun_slot(SALES, {"profit"}, "$4 million") == "$0.5 million"


def test_the_number_the_relations_noun_takes_passes() -> None:
    assert (
        refusal(
            Fact(subject="The bakery", relation="had a profit of", object="$0.5 million"), SALES
        )
        is None
    )
    assert (
        refusal(Fact(subject="The bakery", relation="had sales of", object="$4 million"), SALES)
        is None
    )
    assert noun_slot("The bakery had a profit of $4 million.", {"profit"}, "$4 million") is None


def test_a_bare_year_in_another_sentence_than_the_relation_refuses_the_window() -> None:
    """ "… left office in 1961. He became a senator two years later." states no 1961 senate."""
    text = "Dwight Parker left office in 1961. He became a senator two years later."
    fact = Fact(subject="Dwight Parker", relation="became a senator in", object="1961")
    why = refusal(fact, text)
    assert why is not None and "different sentences" in why, why
    stated = "Dwight Parker left office in 1961. He became a senator in 1963."
    assert (
        refusal(
            Fact(subject="Dwight Parker", relation="became a senator in", object="1963"), stated
        )
        is None
    )


def test_the_noun_a_figure_counts_is_its_unit_not_its_relation() -> None:
    """ "a main span of 1,280 metres and a total length of 2,737 metres": no 1,280 m length."""
    text = "The bridge has a main span of 1,280 metres and a total length of 2,737 metres."
    fact = Fact(subject="The bridge", relation="has a length of", object="1,280 metres")
    why = refusal(fact, text)
    assert why is not None and "2,737" in why, why
    true = Fact(subject="The bridge", relation="has a total length of", object="2,737 metres")
    assert refusal(true, text) is None


RIVER = "At dusk the river was 3 metres below the top of its banks, and it rose 1 metre overnight."


@pytest.mark.parametrize(
    ("obj", "values"),
    [("3 metres", {"3"}), ("1.3 seconds", {"1.3"}), ("six legs", set()), ("3 cats", set()),
     ("about 3 metres", set()), ("1887", set())],
)  # fmt: skip
def test_measured_values(obj: str, values: set[str]) -> None:
    assert measured_values(obj) == values


def test_a_measure_another_verb_governs_refuses_the_window() -> None:
    why = refusal(Fact(subject="The river", relation="rose by", object="3 metres"), RIVER)
    assert why is not None and "1" in why, why


def test_the_measure_the_verb_governs_passes() -> None:
    assert refusal(Fact(subject="The river", relation="rose by", object="1 metre"), RIVER) is None
