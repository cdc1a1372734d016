"""Sentence ends at abbreviations: none before a comma; one in "King Jr. He was born"."""

from __future__ import annotations

import pytest

from triqua.nlp.passages import split
from triqua.nlp.sentence_ends import abbreviations, closes_sentence, closing_words
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


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Martin Luther King Jr. He was born in Atlanta.",
            ["Martin Luther King Jr.", "He was born in Atlanta."],
        ),
        ("The firm is Acme Inc. It makes tools.", ["The firm is Acme Inc.", "It makes tools."]),
        (
            "She moved to the U.S. In 1990 she won the prize.",
            ["She moved to the U.S.", "In 1990 she won the prize."],
        ),
        (
            "They met in Washington, D.C. The city grew.",
            ["They met in Washington, D.C.", "The city grew."],
        ),
    ],
)
def test_a_closing_abbreviation_before_a_sentence_opener_ends_its_sentence(
    text: str, expected: list[str]
) -> None:
    assert _sentences(text) == expected
    assert [piece.text for piece in split(text)] == expected


@pytest.mark.parametrize(
    "text",
    [
        "Dr. He Jiankui edited the genes of two embryos.",
        "The U.S. Army was founded in 1775.",
        "Sammy Davis Jr. was a singer and dancer.",
        "He met Martin Luther King Jr. in 1957.",
    ],
)
def test_a_title_or_a_closing_abbreviation_inside_a_sentence_ends_nothing(text: str) -> None:
    assert _sentences(text) == [text]
    assert [piece.text for piece in split(text)] == [text]


def test_closing_abbreviations_are_periods_and_never_titles() -> None:
    closing, openers = closing_words()
    assert all(word.endswith(".") for word in closing)
    assert not closing & {"Dr.", "Mr.", "Mrs.", "Ms.", "St.", "Gen.", "Prof.", "Rev."}
    assert all(word[:1].isupper() for word in openers)
    assert closes_sentence("Jr.", "He") and closes_sentence("U.K.", "The")
    assert not closes_sentence("Dr.", "He") and not closes_sentence("Jr.", "Smith")


@pytest.mark.parametrize(
    "text",
    [
        "Marie Curie",
        "  the boy band One Direction  ",
        "a pastor, a teacher; and (in 1920) a mayor",
        "Sadiq\u00a0Khan\u2003of London",
        "   ",
        "",
    ],
)
def test_a_text_without_a_sentence_mark_is_split_as_the_sentencizer_splits_it(text: str) -> None:
    """Without a mark or a line break the text is one sentence, read without the pipeline."""
    from triqua.nlp.pipeline import blank_sentencizer

    doc = blank_sentencizer()(text)
    expected = [s.text.strip() for s in doc.sents if s.text.strip()]
    assert _sentences(text) == expected
