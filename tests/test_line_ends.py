"""Line breaks that end sentences, and heading lines that state nothing.

A blank line, a Markdown heading and a label line left without final punctuation end their
sentence in both sentence readers (the offline verifier's ``nlp.passages.split`` and the
grounding rule's ``sentences.sentence_spans``); a hard-wrapped line does not. Headings are
marked so that no reader takes them for statements.
"""

from __future__ import annotations

import pytest

from triqua.nlp.line_ends import heading_lines
from triqua.nlp.passages import split
from triqua.sentences import sentence_spans

BODY = "The bridge is in San Francisco."


def _both(text: str) -> tuple[list[str], list[str]]:
    return [p.text for p in split(text)], [text[a:b] for a, b in sentence_spans(text)]


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("# The bridge is in Seattle\n\n" + BODY, "# The bridge is in Seattle"),
        ("The bridge is in Seattle\n\n" + BODY, "The bridge is in Seattle"),
        ("Title: The bridge is in Seattle\n\n" + BODY, "Title: The bridge is in Seattle"),
        ("Title: The bridge is in Seattle\n" + BODY, "Title: The bridge is in Seattle"),
        ("## The bridge is in Seattle\n" + BODY, "## The bridge is in Seattle"),
        ("A paragraph without a period\n \nthen another one.", "A paragraph without a period"),
    ],
)
def test_a_paragraph_break_or_a_heading_line_ends_its_sentence(text: str, first: str) -> None:
    pieces, spans = _both(text)
    assert pieces[0] == first
    assert spans[0] == first
    assert pieces[-1] == spans[-1] != first


def test_a_wrapped_line_goes_on_in_its_sentence() -> None:
    text = "The bridge is a long\nsuspension bridge in San\nFrancisco. It opened in 1937."
    pieces, spans = _both(text)
    assert pieces == spans == [text[:56], "It opened in 1937."]


@pytest.mark.parametrize(
    ("text", "headings"),
    [
        ("# The bridge is in Seattle\n\n" + BODY, ["# The bridge is in Seattle"]),
        ("The bridge is in Seattle\n\n" + BODY, ["The bridge is in Seattle"]),
        ("Title: The bridge is in Seattle\n" + BODY, ["Title: The bridge is in Seattle"]),
        ("Seattle bridges\n===\n" + BODY, ["Seattle bridges"]),
        # Prose is no heading: a labelled sentence, a last line, a wrapped line.
        ("Note: the bridge opened in 1937.\n" + BODY, []),
        (BODY + "\n\nThe bridge is in Seattle", []),
        ("The bridge is a long\nsuspension bridge.\n\n" + BODY, []),
        ("- The bridge is in San Francisco\n\n- It opened in 1937", []),
        ("Released: 14 April 1986 by Mute Records", []),  # a label line heading nothing
    ],
)
def test_heading_lines_are_found_and_prose_is_not(text: str, headings: list[str]) -> None:
    assert [text[a:b] for a, b in heading_lines(text)] == headings
    assert [p.text for p in split(text) if p.heading] == headings


def test_a_title_case_line_opening_its_paragraph_is_a_heading_over_its_byline() -> None:
    text = (
        "The Great Wall of China Is Visible from Space\nBy Jane Doe, 12 May 2019\n\n"
        "Astronauts report that the wall is hard to make out."
    )
    assert [text[a:b] for a, b in heading_lines(text)] == [
        "The Great Wall of China Is Visible from Space"
    ]
    assert sentence_spans(text)[0] == (0, text.index("\n"))


@pytest.mark.parametrize(
    "text",
    [
        "Albert Einstein was born in Ulm\nHe died in Princeton.",  # a sentence: lower case
        "Marie Curie\nDied: Passy, France",  # a name line, no title
        "He met the Prime Minister of\nThe United Kingdom In London\nin 1990.",  # wrapped
    ],
)
def test_a_line_not_in_title_case_or_inside_a_paragraph_heads_nothing(text: str) -> None:
    assert not any(text[a:b].startswith(("Albert", "The United")) for a, b in heading_lines(text))
