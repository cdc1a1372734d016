"""The value-slot gate: a bare year or number must be the one the relation's verb governs.

Both engines ask it of a window through the statement gates (``core.reading.statements.refusal``).
"""

from __future__ import annotations

import pytest

from triqua.core.reading.statements import refusal
from triqua.core.reading.value_slot import bare_values, slot_value
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
