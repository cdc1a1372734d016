"""The frame reader's worked examples, run as tests, and its gate on both engines.

Each example of ``core/reading/data/frames.json`` is a window and the fact's relation and
object, with whether a belief, report or fiction frame holds every clause stating it
("Many tourists believe that Lisbon is the capital of Spain") or not ("Researchers showed
that …"). Adding a word to a list means adding an example beside it; this test runs every
one, through the statement gate both engines ask of a window.
"""

from __future__ import annotations

import pytest

from triqua.core.reading.frames import FRAMES, frame_of
from triqua.core.reading.statements import refusal
from triqua.schema import Fact

EXAMPLES = FRAMES.examples


def test_the_examples_go_both_ways() -> None:
    assert {bool(e["framed"]) for e in EXAMPLES} == {True, False}


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["text"][:40] for e in EXAMPLES])
def test_worked_example(example: dict[str, object]) -> None:
    fact = Fact(
        subject=str(example["subject"]),
        relation=str(example["relation"]),
        object=str(example["object"]),
    )
    why = refusal(fact, str(example["text"]))
    if example["framed"]:  # refused ("It is a myth that" may read as a denial first)
        assert why is not None
    else:
        assert why is None or "frame" not in why, why


def test_a_belief_frame_refuses_the_window_the_rules_would_read() -> None:
    fact = Fact(subject="Norway", relation="uses", object="the euro")
    assert refusal(fact, "Norway uses the euro.") is None
    why = refusal(fact, "Many tourists believe that Norway uses the euro.")
    assert why is not None and "'believe'" in why


def test_a_clause_outside_the_frame_states_the_fact() -> None:
    text = "Some claim that the canal opened in 1912, and it opened in 1914."
    assert frame_of(text, {"open"}, set()) is None
    assert frame_of("Some claim that the canal opened in 1912.", {"open"}, set()) == "claim"
