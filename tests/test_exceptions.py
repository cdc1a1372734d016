"""Exceptions: a name a sentence excepts is not stated (``core.reading.exceptions``)."""

from __future__ import annotations

import pytest

from triqua.core.reading.exceptions import EXAMPLES, excepted
from triqua.core.reading.statements import refusal
from triqua.core.reading.unasserted import quoted_title, unasserted
from triqua.schema import Fact


def test_the_examples_go_both_ways() -> None:
    assert {bool(e["refused"]) for e in EXAMPLES} == {True, False}


@pytest.mark.parametrize("example", EXAMPLES, ids=[str(e["text"])[:40] for e in EXAMPLES])
def test_worked_example(example: dict[str, object]) -> None:
    got = excepted(str(example["subject"]), str(example["object"]), str(example["text"]))
    assert bool(got) is bool(example["refused"]), got


def test_a_window_without_a_marker_is_not_parsed_and_passes() -> None:
    assert excepted("Smith", "the bill", "Smith voted for the bill.") is None


def test_both_engines_refuse_an_excepted_subject_through_the_statement_gates() -> None:
    fact = Fact(subject="Smith", relation="voted for", object="the bill")
    why = refusal(fact, "Every member except Smith voted for the bill.")
    assert why is not None and "excepts 'Smith'" in why
    assert refusal(fact, "Smith voted for the bill, as did every member except Jones.") is None


@pytest.mark.parametrize(
    ("text", "titled"),
    [
        ('Her novel "The Eiffel Tower Is in Rome" sold well.', True),
        ("Her novel “The Eiffel Tower Is in Rome” sold well.", True),
        ('"The Eiffel Tower is in Rome," the tourist said.', False),  # speech: sentence case
        ('The film "Roman Holiday" was shot while the Eiffel Tower is in Rome.', False),
    ],
)
def test_a_fact_written_only_inside_a_quoted_title_is_not_stated(text: str, titled: bool) -> None:
    fact = Fact(subject="The Eiffel Tower", relation="is in", object="Rome")
    assert (quoted_title(fact, text) is not None) is titled


def test_a_claim_about_the_titled_work_itself_still_reads() -> None:
    fact = Fact(subject="The Old Man and the Sea", relation="won", object="the Pulitzer Prize")
    text = 'Hemingway\'s novel "The Old Man and the Sea" won the Pulitzer Prize in 1953.'
    assert unasserted(fact, text) is None
