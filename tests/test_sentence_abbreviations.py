"""A period after an abbreviation ends no sentence before a comma, a lower-case word or a number."""

from __future__ import annotations

import pytest

from triqua.nlp.passages import split
from triqua.nlp.sentence_ends import abbreviations
from triqua.sentences import sentence_spans

KING = "Martin Luther King Sr., a pastor, was the father of Martin Luther King Jr."


def _sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in sentence_spans(text)]


@pytest.mark.parametrize(
    "text",
    [
        KING,
        "Smith et al. found the gene in 1990.",
        "The church was built c. 1850 by local masons.",
        "John Smith Jr., the mayor, opened the bridge.",
    ],
)
def test_an_abbreviation_inside_a_sentence_ends_nothing(text: str) -> None:
    assert _sentences(text) == [text]
    assert [piece.text for piece in split(text)] == [text]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("She was born in Ulm. She moved to Bern.", ["She was born in Ulm.", "She moved to Bern."]),
        ("It ended. then it rained.", ["It ended.", "then it rained."]),
        (
            "The U.S. Army was founded in 1775. It fought at Yorktown.",
            ["The U.S. Army was founded in 1775.", "It fought at Yorktown."],
        ),
    ],
)
def test_a_period_after_a_word_still_ends_its_sentence(text: str, expected: list[str]) -> None:
    assert _sentences(text) == expected
    assert [piece.text for piece in split(text)] == expected


def test_the_list_holds_the_shipped_abbreviations_and_the_tokenizers() -> None:
    found = abbreviations()
    assert {"Sr.", "al.", "c."} <= found  # the shipped list
    assert {"Dr.", "Jr.", "e.g."} <= found  # kept whole by spaCy's tokenizer
    assert "Ulm." not in found
