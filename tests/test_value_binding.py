"""Which thing a year of a sentence dates: a year of the other conjunct dates no unit of ours.

Read by the grounding rule's value gates (``core.grounding.gates.gate``) on every engine.
"""

from __future__ import annotations

import pytest

from triqua.core.grounding.gates import gate
from triqua.core.grounding.value_binding import misdated
from triqua.schema import FactUnit

MORRISON = "She won the Pulitzer Prize in 1988 and the Nobel Prize in Literature in 1993."
JOBS = "Steve Jobs founded Apple in 1976 and NeXT in 1985."
ZEPPELIN = (
    "Led Zeppelin released their debut album in 1969 and their final studio album, "
    "In Through the Out Door, in 1979."
)
GALILEO = "Galileo Galilei was born in 1564 and died in 1642."


def base(relation: str, obj: str) -> FactUnit:
    return FactUnit(kind="base", subject="Toni Morrison", relation=relation, object=obj)


@pytest.mark.parametrize(
    ("relation", "year", "sentence"),
    [
        ("won the Nobel Prize in", "1988", MORRISON),
        ("won the Nobel Prize in Literature in", "1988", MORRISON),
        ("founded NeXT in", "1976", JOBS),
        ("released their final studio album in", "1969", ZEPPELIN),  # a date after an aside
        ("died in", "1564", GALILEO),  # the verb alone marks the clause
    ],
)
def test_a_base_triples_year_held_by_the_other_conjunct_is_misdated(
    relation: str, year: str, sentence: str
) -> None:
    assert misdated(base(relation, year), sentence) == year


def test_the_value_gate_refuses_the_other_conjuncts_year() -> None:
    """The grounding rule's gate: no "won the Nobel Prize in 1988" from the Pulitzer's year."""
    before = "Toni Morrison was an American novelist. "
    why = gate(base("won the Nobel Prize in", "1988"), MORRISON, MORRISON, before)
    assert why is not None and "gives 1988 to another event" in why, why
    assert gate(base("won the Nobel Prize in", "1993"), MORRISON, MORRISON, before) is None


@pytest.mark.parametrize(
    ("relation", "year", "sentence"),
    [
        ("won the Nobel Prize in Literature in", "1993", MORRISON),
        ("won the Pulitzer Prize in", "1988", MORRISON),
        ("founded NeXT in", "1985", JOBS),
        ("released their final studio album in", "1979", ZEPPELIN),
        ("was born in", "1564", GALILEO),
        ("won the Nobel Prize in", "1993", "In 1993 she won the Nobel Prize and a medal."),
    ],
)
def test_the_year_of_the_units_own_conjunct_passes(relation: str, year: str, sentence: str) -> None:
    assert misdated(base(relation, year), sentence) is None


def test_a_qualifiers_year_after_an_aside_dates_the_clause_before_it() -> None:
    unit = FactUnit(
        kind="qualifier",
        subject="Led Zeppelin",
        relation="released",
        object="their final studio album",
        label="point in time",
        value="1969",
    )
    assert misdated(unit, ZEPPELIN) == "1969"
    assert misdated(unit.model_copy(update={"value": "1979"}), ZEPPELIN) is None


BECKER = (
    "Marie Becker was a Belgian serial killer who was born on July 14, 1879, and died on "
    "June 11, 1942."
)


@pytest.mark.parametrize(
    ("relation", "date", "misdates"),
    [
        # A whole date ("June 11, 1942") is one value: its comma is no clause break, and its
        # day and month mark where it is written, not what it dates; the verb does.
        ("died on", "June 11 1942", False),
        ("was born on", "July 14 1879", False),
        ("was born on", "June 11 1942", True),
        ("died on", "July 14 1879", True),
    ],
)
def test_a_whole_date_is_dated_by_its_own_verb(relation: str, date: str, misdates: bool) -> None:
    unit = FactUnit(kind="base", subject="Marie Becker", relation=relation, object=date)
    assert (misdated(unit, BECKER) is not None) is misdates


def test_a_clause_that_denies_its_event_dates_nothing() -> None:
    """ "who did not win it in 1903, won it in 1911": 1911 is not given to another event."""
    sentence = "Marie Curie, who did not win the Nobel Prize in Chemistry in 1903, won it in 1911."
    relation = "won the Nobel Prize in Chemistry in"
    stated = FactUnit(kind="base", subject="Marie Curie", relation=relation, object="1911")
    assert misdated(stated, sentence) is None
    plain = "Marie Curie won the Nobel Prize in Physics in 1903 and it in Chemistry in 1911."
    other = FactUnit(
        kind="base", subject="Marie Curie", relation="won the Nobel Prize in Physics in",
        object="1911",
    )  # fmt: skip
    assert misdated(other, plain) == "1911"


CATHEDRAL = "The cathedral was begun in the 12th century and completed in 1345."
LATER = "It was begun in 1190 and completed in the 14th-century."


@pytest.mark.parametrize(
    ("relation", "value", "sentence", "expected"),
    [
        ("was begun in", "1345", CATHEDRAL, "1345"),  # the century dates the beginning
        ("was completed in", "1345", CATHEDRAL, None),
        ("was begun in", "the 12th century", CATHEDRAL, None),
        ("was completed in", "the 12th century", CATHEDRAL, "12th century"),
        ("was begun in", "1190", "It was begun in 1190 and completed in the 14th century.", None),
        (
            "was completed in",
            "1190",
            "It was begun in 1190 and completed in the 14th-century.",
            "1190",
        ),
    ],
)
def test_a_century_is_a_date_another_clause_may_hold(
    relation: str, value: str, sentence: str, expected: str | None
) -> None:
    """A century dates its own clause as a year does: "begun in the 12th century" is no 1345."""
    assert misdated(base(relation, value), sentence) == expected


def test_a_sentence_with_one_year_and_no_century_is_not_read() -> None:
    assert misdated(base("was repaved in", "1890"), "The road was repaved in 1890.") is None


def ended(value: str, obj: str = "the President of Latvia") -> FactUnit:
    return FactUnit(
        kind="qualifier", subject="Vaira", relation="was", object=obj, label="end time", value=value
    )


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("She was elected President of Latvia in 1999, and served until 2007.", None),
        ("She was elected President of Latvia in 1999, and remained in office until 2007.", None),
        # A clause naming another thing gives the year to that thing.
        (
            "She was elected President of Latvia in 1999, and chaired Club Madrid until 2007.",
            "2007",
        ),
        ("She was elected President of Latvia in 1999, and led the club until 2007.", "2007"),
    ],
)
def test_an_end_time_is_the_year_a_clause_carrying_the_one_before_on_gives(
    sentence: str, expected: str | None
) -> None:
    assert misdated(ended("2007"), sentence) == expected


def test_a_start_time_is_not_given_by_a_clause_carried_on_to_its_end() -> None:
    unit = FactUnit(
        kind="qualifier", subject="Vaira", relation="was", object="the President of Latvia",
        label="start time", value="2007",
    )  # fmt: skip
    sentence = "She was elected President of Latvia in 1999, and served until 2007."
    assert misdated(unit, sentence) == "2007"
