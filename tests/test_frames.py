"""The frame reader's worked examples, run as tests, and its gate on both engines.

Each example of ``core/reading/data/frames.json`` is a window and the fact's relation and
object, with whether a belief, report or fiction frame holds every clause stating it
("Many tourists believe that Lisbon is the capital of Spain") or not ("Researchers showed
that …"). Adding a word to a list means adding an example beside it; this test runs every
one, through the statement gate both engines ask of a window.
"""

from __future__ import annotations

import pytest

from triqua.core.reading.disowned import disowned_spans
from triqua.core.reading.frames import FRAMES, frame_of
from triqua.core.reading.hearsay import echoed_spans
from triqua.core.reading.passage_reading import unread_pieces
from triqua.core.reading.statements import refusal
from triqua.core.reading.stating import unstated_window
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


DISOWNING = FRAMES.disowning_examples


def test_the_disowning_examples_go_both_ways() -> None:
    assert {e["disowned"] is None for e in DISOWNING} == {True, False}


@pytest.mark.parametrize("example", DISOWNING, ids=[e["text"][:40] for e in DISOWNING])
def test_a_sentence_calling_the_one_before_false_disowns_it(example: dict[str, object]) -> None:
    text = str(example["text"])
    found = [text[a:b] for a, b in disowned_spans(text)]
    assert found == ([example["disowned"]] if example["disowned"] else [])


def test_a_disowned_statement_is_unread_offline_and_refused_as_a_quote() -> None:
    text = '"The Eiffel Tower is in Rome," the tourist said. She was mistaken.'
    quote_end = text.index(" She")
    assert 0 in unread_pieces(text)  # the offline verifier does not align it
    why = unstated_window(text, 0, quote_end)  # the grounding rule does not ground by it
    assert why is not None and "calls false" in why
    said = '"The Eiffel Tower is in Paris," the tourist said. She was right.'
    assert not unread_pieces(said)
    assert unstated_window(said, 0, said.index(" She")) is None


ECHOES = FRAMES.echo_examples


def test_the_echo_examples_go_both_ways() -> None:
    assert {e["echoed"] is None for e in ECHOES} == {True, False}


@pytest.mark.parametrize("example", ECHOES, ids=[e["text"][:40] for e in ECHOES])
def test_a_sentence_repeating_the_hearsay_before_it_is_read_as_that_hearsay(
    example: dict[str, object],
) -> None:
    text = str(example["text"])
    found = [text[a:b] for a, b in echoed_spans(text)]
    assert found == ([example["echoed"]] if example["echoed"] else [])


def test_an_echo_is_unread_offline_and_refused_as_a_quote() -> None:
    text = "Some tourists say the Colosseum is in Paris. It is in Paris."
    assert 1 in unread_pieces(text)
    why = unstated_window(text, text.index("It is"), len(text))
    assert why is not None and "hearsay" in why
    own = "Some tourists say the Colosseum is in Paris. It is in Rome."
    assert not unread_pieces(own)
    assert unstated_window(own, own.index("It is"), len(own)) is None
