"""A passage read as the sentences it states: label lines, table rows, object pronouns and
part counts (``core.reading.restated``), on both engines.

The worked examples live in ``core/reading/data/restating.json``; each is a test here.
"""

from __future__ import annotations

import json

import pytest

from triqua.core.grounding.rule import check_quote
from triqua.core.reading.label_lines import RULES_PATH
from triqua.core.reading.object_pronouns import resolve_object_pronoun
from triqua.core.reading.passage_reading import read_pieces
from triqua.core.reading.restated import part_count, restate
from triqua.nlp.passages import split
from triqua.schema import FactUnit, Status

EXAMPLES = json.loads(RULES_PATH.read_text(encoding="utf-8"))["examples"]


def _sentences(passage: str) -> set[str]:
    return {piece.text.strip() for piece in split(restate(passage).text)}


@pytest.mark.parametrize(("passage", "sentence"), EXAMPLES["match"])
def test_every_reading_the_rules_file_gives_is_read(passage: str, sentence: str) -> None:
    assert sentence in _sentences(passage)


@pytest.mark.parametrize(("passage", "sentence"), EXAMPLES["no_match"])
def test_no_reading_the_rules_file_refuses_is_read(passage: str, sentence: str) -> None:
    assert sentence not in _sentences(passage)


def test_an_unlisted_label_line_stays_a_heading_the_verifier_does_not_read() -> None:
    passage = "Australia\nMyth: Sydney is the capital\nCapital: Canberra\n\nIt is a country."
    pieces = read_pieces(passage)
    assert "The capital of Australia is Canberra." in [p.text.strip() for p in pieces]
    myth = [p for p in pieces if "Myth" in passage[p.start : p.end]]
    assert myth and all(p.heading for p in myth)


def test_a_reading_keeps_the_offsets_of_the_words_it_reads() -> None:
    passage = "Albert Einstein\nBorn: 14 March 1879, Ulm\n\nHe was a physicist."
    piece = next(p for p in read_pieces(passage) if "born" in p.text)
    assert piece.text == "Albert Einstein was born on 14 March 1879 in Ulm."
    assert passage[piece.start : piece.end] == "Born: 14 March 1879, Ulm"
    assert piece.alone


@pytest.mark.parametrize(
    ("previous", "sentence", "read"),
    [
        ("She moved to Paris, where she met Pierre Curie.", "She married him in 1895.",
         "She married Pierre Curie in 1895."),
        ("Prince Albert first met his cousin Queen Victoria in 1836.", "He married her in 1840.",
         "He married Queen Victoria in 1840."),
        ("Brian Epstein first saw the Beatles in 1961.", "He managed them until 1967.",
         "He managed the Beatles until 1967."),
        ("Charlemagne was King of the Franks.", "Pope Leo III crowned him in 800.",
         "Pope Leo III crowned Charlemagne in 800."),
    ],
)  # fmt: skip
def test_an_object_pronoun_reads_as_the_name_the_sentence_before_gives(
    previous: str, sentence: str, read: str
) -> None:
    assert resolve_object_pronoun(previous, sentence) == read


@pytest.mark.parametrize(
    ("previous", "sentence"),
    [
        ("She met Pierre Curie.", "Her book was praised."),  # a possessive, no object
        ("Brian Epstein first saw the Beatles in 1961.", "He managed him."),  # number differs
        ("The museum opened in 1990.", "She visited it."),  # "it" is no person's pronoun
    ],
)
def test_an_object_pronoun_without_an_agreeing_name_reads_as_written(
    previous: str, sentence: str
) -> None:
    assert resolve_object_pronoun(previous, sentence) is None


def test_a_part_count_reads_the_part_never_the_whole_as_the_part() -> None:
    assert part_count("He won 28 medals, 23 of them gold.") == "He won 23 gold medals."
    assert part_count("He won 28 medals, 23 of them in Beijing.") is None
    assert part_count("He won 28 medals in all.") is None


def test_the_grounding_rule_reads_a_label_line_as_its_sentence() -> None:
    """The quote is the label line as written; the rule reads it as the sentence it states."""
    passage = "Albert Einstein\nBorn: 14 March 1879, Ulm\nDied: 1955\n\nHe was a physicist."
    unit = FactUnit(kind="base", subject="Albert Einstein", relation="was born in", object="Ulm")
    quote = "Born: 14 March 1879, Ulm"
    got = check_quote(unit, Status.SUPPORTED, ["e1"], quote, {"e1": passage}, grounding="strict")
    assert got.ok, got.reason
    assert got.quote == quote
    other = FactUnit(kind="base", subject="Albert Einstein", relation="was born in", object="Bonn")
    refused = check_quote(other, Status.SUPPORTED, ["e1"], quote, {"e1": passage})
    assert not refused.ok


def test_a_possessive_after_two_coordinated_names_is_read_as_written() -> None:
    """ "Toyota and Sony are … Its headquarters …": "its" may mean either company."""
    text = "Toyota and Sony are Japanese companies. Its headquarters are in Tokyo."
    assert restate(text).text == text


def test_a_property_sentence_keeps_one_preposition() -> None:
    text = "Toyota is a Japanese company. Its headquarters are in Tokyo."
    assert restate(text).text.endswith("Toyota is headquartered in Tokyo.")


def test_a_prose_line_with_a_bar_is_no_table_row() -> None:
    """Web text with a bar in a line of sentences is read as written, not as a header row."""
    text = (
        "He co-authored the textbook Speech and Language Processing, and co-created one of "
        "the first massively open online courses. Last updated July 2023 | Contact"
    )
    assert restate(text).text == text
    # A short row written without an opening bar is still a table's.
    table = "Capital | Country\nToronto | Canada"
    assert restate(table).text != table
