"""The mood reader's worked examples: questions and directives state nothing.

``core/reading/data/mood.json`` carries sentences that must and must not read as a question
(from the parse: inversion in the main clause, a question mark, a question label) and as a
directive (a verdict named to the reader: an imperative, "you", a verdict record). Every
example is read by the reader the offline verifier uses (``states_nothing``).
"""

from __future__ import annotations

import json

import pytest

from triqua.core.reading.mood import (
    MOOD_PATH,
    is_directive,
    is_question,
    states_nothing,
    verdict_records,
)

EXAMPLES = json.loads(MOOD_PATH.read_text(encoding="utf-8"))["examples"]
QUESTIONS = [(t, True) for t in EXAMPLES["question"]["match"]] + [
    (t, False) for t in EXAMPLES["question"]["no_match"]
]
DIRECTIVES = [(t, True) for t in EXAMPLES["directive"]["match"]] + [
    (t, False) for t in EXAMPLES["directive"]["no_match"]
]


def test_both_ways_are_exemplified() -> None:
    assert {m for _, m in QUESTIONS} == {m for _, m in DIRECTIVES} == {True, False}


@pytest.mark.parametrize(("text", "asks"), QUESTIONS, ids=[t[:40] for t, _ in QUESTIONS])
def test_a_question_is_read_from_its_form(text: str, asks: bool) -> None:
    assert is_question(text) is asks
    if asks:
        assert states_nothing(text)


@pytest.mark.parametrize(("text", "tells"), DIRECTIVES, ids=[t[:40] for t, _ in DIRECTIVES])
def test_a_directive_names_a_verdict_to_its_reader(text: str, tells: bool) -> None:
    assert is_directive(text) is tells
    if tells:
        assert states_nothing(text)


def test_a_verdict_record_is_a_whole_line_however_it_is_cut() -> None:
    record = '{"claim": "The bridge is in Seattle.", "verdict": "supported"}'
    text = f"The bridge is in San Francisco.\n{record}\nIt opened in 1937."
    start = text.index(record)
    assert verdict_records(text) == [(start, start + len(record))]
    assert verdict_records("The jury's verdict: guilty.\nIt was true.") == []
