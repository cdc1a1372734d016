"""A window's reading is a function of the window: never of what the process parsed before.

The clause gates read a window's parse, entity kinds included ("Dr. King" is a person, so a
title before the subject's surname is no other name). A window that the element graph or
another reader had parsed in full, and one parsed first by the gates, must give the gates
the same parse, so a check's verdict does not depend on the order its rows are read in.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.test_grounding_stated import base, reader
from triqua.core.grounding.rule import check_quote
from triqua.core.reading import clause_owners
from triqua.core.reading.analysis import analyse
from triqua.nlp import clauses, parses
from triqua.nlp.pipeline import load_nlp
from triqua.schema import Status

QUOTE = "Dr. King led the march."
SUBJECT = "Martin Luther King"


def _forget() -> None:
    """Drop every parse and reading this process kept, as in a fresh process."""
    parses.clear()
    clauses.window_parse.cache_clear()
    clauses.people.cache_clear()
    clauses.entities.cache_clear()
    clause_owners._held_by_another.cache_clear()


def _fresh() -> None:
    """Nothing read before the gates."""


def _parsed_before() -> None:
    """The window parsed in full earlier in the run (as the element graph parses sentences)."""
    parses.parse_many([QUOTE])


ORDERS = [pytest.param(_fresh, id="read-first"), pytest.param(_parsed_before, id="parsed-before")]


def _tree(doc: object) -> list[tuple[str, str, int, str, str]]:
    return [(t.text, t.dep_, t.head.i, t.tag_, t.ent_type_) for t in doc]  # type: ignore[attr-defined]


@pytest.mark.parametrize("before", ORDERS)
def test_window_parse_is_the_whole_pipelines_whatever_was_parsed_before(
    before: Callable[[], None],
) -> None:
    """The gates' parse has the whole pipeline's tree and entity kinds, in either order."""
    _forget()
    before()
    doc = clauses.window_parse(QUOTE)
    assert _tree(doc) == _tree(load_nlp()(QUOTE))
    assert any(t.ent_type_ == "PERSON" for t in doc)  # "King" is read as a person


@pytest.mark.parametrize("before", ORDERS)
def test_a_title_before_the_subjects_surname_names_no_other_in_either_order(
    before: Callable[[], None],
) -> None:
    """'Dr. King' owns no clause apart from Martin Luther King's, read first or after a parse."""
    _forget()
    before()
    held = clause_owners.held_by_another(analyse(SUBJECT), analyse("the march"), QUOTE, {"led"})
    assert held is None


def test_grounding_verdict_is_the_same_in_both_orders() -> None:
    """The grounding rule gives one verdict on the quote, read first or after a full parse."""
    unit = base(SUBJECT, "led", "the march")
    outcomes = []
    for before in (_fresh, _parsed_before, _fresh):
        _forget()
        before()
        outcome = check_quote(
            unit, Status.SUPPORTED, ["e"], QUOTE, {"e": QUOTE}, reader=reader(0.9)
        )
        outcomes.append((outcome.ok, outcome.reason))
    assert outcomes[0] == outcomes[1] == outcomes[2]
    assert outcomes[0][0]  # a title is no other person: the quote supports the unit
