"""A verb left out of a list's later conjuncts is read back, in the decomposer and the passage."""

from __future__ import annotations

from triqua.core.reading.gapping import ungapped
from triqua.engines.offline.decompose.decomposer import RuleDecomposer


def _facts(text: str) -> set[tuple[str, str, str, tuple[tuple[str, str], ...]]]:
    return {
        (f.subject, f.relation, f.object, tuple((q.label, q.value) for q in f.qualifiers))
        for f in RuleDecomposer().decompose(text)
    }


def test_each_gapped_conjunct_is_a_fact_of_its_own() -> None:
    assert _facts("Austria joined the European Union in 1986 and Portugal in 1995.") == {
        ("Austria", "joined", "the European Union", (("point in time", "1986"),)),
        ("Portugal", "joined", "the European Union", (("point in time", "1995"),)),
    }


def test_a_count_in_a_gapped_list_stays_with_its_own_name() -> None:
    facts = _facts(
        "Brazil has won the World Cup five times, Germany four times and Argentina three times."
    )
    assert facts == {
        (name, "has won", "the World Cup", (("frequency", count),))
        for name, count in [
            ("Brazil", "five times"),
            ("Germany", "four times"),
            ("Argentina", "three times"),
        ]
    }


def test_a_list_of_names_or_of_values_is_no_gap() -> None:
    assert ungapped("She visited Paris, London and Rome.") is None
    assert ungapped("Brazil won the cup in 1994, 1998 and 2002.") is None


def test_a_later_name_that_may_stand_for_a_person_object_is_read_as_written() -> None:
    assert ungapped("He met Barack Obama in 2009 and Michelle Obama in 2010.") is None
