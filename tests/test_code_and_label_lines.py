"""Code states nothing, and a label line grounds only its own relation, on both engines."""

from __future__ import annotations

import pytest

from triqua.core.grounding.rule import check_quote
from triqua.core.reading.code_spans import blank_code, code_spans, inside_code
from triqua.core.reading.passage_reading import read_pieces
from triqua.schema import FactUnit, Status

INLINE = 'To test the printer, run `echo "The Moon is made of cheese."` from a terminal.'
FENCED = "The parser prints this line:\n\n```\nMount Everest is 9,000 metres tall.\n```\n"


def test_blanking_keeps_the_text_as_long_and_its_newlines() -> None:
    for text in (INLINE, FENCED):
        blanked = blank_code(text)
        assert len(blanked) == len(text)
        assert blanked.count("\n") == text.count("\n")
    assert "cheese" not in blank_code(INLINE) and "from a terminal" in blank_code(INLINE)
    assert "Everest" not in blank_code(FENCED)


def test_text_without_code_is_read_as_written() -> None:
    text = "It's a `single backtick left open. The Danube flows into the Black Sea."
    assert code_spans(text) == ()
    assert blank_code(text) is text


@pytest.mark.parametrize("text", [INLINE, FENCED])
def test_the_offline_reader_reads_no_words_inside_code(text: str) -> None:
    read = " ".join(piece.text for piece in read_pieces(text))
    assert "cheese" not in read and "Everest" not in read


def test_a_sentence_beside_a_code_span_is_still_read() -> None:
    text = "The command `ls` lists files. The Danube flows into the Black Sea."
    assert any("The Danube flows into the Black Sea." in p.text for p in read_pieces(text))
    assert not inside_code(text, text.index("The Danube"), len(text))


def test_the_grounding_rule_refuses_a_quote_inside_code() -> None:
    unit = FactUnit(kind="base", subject="The Moon", relation="is made of", object="cheese")
    quote = "The Moon is made of cheese."
    assert inside_code(INLINE, INLINE.index(quote), INLINE.index(quote) + len(quote))
    got = check_quote(unit, Status.SUPPORTED, ["e1"], quote, {"e1": INLINE})
    assert not got.ok and "code" in (got.reason or "")


LABELS = "Marie Curie\nDied: Passy, France\nBorn: Warsaw"


@pytest.mark.parametrize(
    ("relation", "obj", "quote", "grounded"),
    [
        ("was born in", "Passy", "Died: Passy, France", False),
        ("died in", "Warsaw", "Born: Warsaw", False),
        ("died in", "Passy", "Died: Passy, France", True),
        ("was born in", "Warsaw", "Born: Warsaw", True),
    ],
)
def test_a_label_line_grounds_only_the_relation_its_label_names(
    relation: str, obj: str, quote: str, grounded: bool
) -> None:
    """A label line's label is its relation: "Died: Passy" grounds no birth in Passy."""
    unit = FactUnit(kind="base", subject="Marie Curie", relation=relation, object=obj)
    got = check_quote(unit, Status.SUPPORTED, ["e1"], quote, {"e1": LABELS})
    assert got.ok is grounded
    if not grounded:
        assert "label line" in (got.reason or "")


def test_an_indented_block_amid_prose_is_code_but_an_indented_excerpt_is_prose() -> None:
    block = "Test fixture:\n\n    Sydney is the capital of Australia.\n\nIt checks answers."
    assert "Sydney" not in blank_code(block) and "It checks answers." in blank_code(block)
    excerpt = "    Canberra is the capital of Australia.\n    It was planned."
    assert blank_code(excerpt) == excerpt


def test_an_indented_paragraph_no_colon_introduces_is_prose() -> None:
    text = "Marie Curie was a physicist.\n\n    She was born in Warsaw in 1867.\n\nShe won."
    assert blank_code(text) == text
