"""Text normalised once where it comes in, so every reader sees the same words.

Format characters (Cf) are removed, compatibility forms folded except those whose folding
changes a value, struck-out evidence left out; quotes still match after the folding.
"""

from __future__ import annotations

import time

import pytest

from triqua.core.reading.quotes import locate_quote
from triqua.core.text.inputs import coerce_documents
from triqua.core.text.intake import evidence_text, normalise_text, strike_out
from triqua.schema import Document
from triqua.tools.documents import html_to_text


@pytest.mark.parametrize(
    ("raw", "read"),
    [
        ("is n\u200bot in Seattle", "is not in Seattle"),  # zero-width space
        ("is n\u00adot in", "is not in"),  # soft hyphen
        ("\ufeffis no\u2060t \u202ein", "is not in"),  # BOM, word joiner, direction override
        ("the \uff33eattle \ufb01re", "the Seattle fire"),  # fullwidth letter, ligature
        ("caf\u0065\u0301", "caf\u00e9"),  # a letter and its accent composed
        ("10\u00b2 m and \u00bd", "10\u00b2 m and \u00bd"),  # values kept as written
        ("plain ASCII text.", "plain ASCII text."),
        ("is n\u034fot in", "is not in"),  # combining grapheme joiner
        ("is no\ufe0ft in", "is not in"),  # variation selector
    ],
)
def test_format_characters_go_and_compatibility_forms_fold(raw: str, read: str) -> None:
    assert normalise_text(raw) == read
    assert normalise_text(read) == read  # idempotent


@pytest.mark.parametrize(
    ("raw", "read"),
    [
        ("is n\u043et in Rome", "is not in Rome"),  # Cyrillic o in a Latin word
        ("is n\u03bft in Rome", "is not in Rome"),  # Greek omicron
        ("has n\u0435ver been", "has never been"),  # Cyrillic e
        ("P\u0430r\u00eds", "Par\u00eds"),  # a Latin accent beside it stays
        ("isn\u02bct in", "isn't in"),  # modifier letter apostrophe
        ("isn\u2032t in", "isn't in"),  # prime
        (
            "\u041c\u043e\u0441\u043a\u0432\u0430 is big",
            "\u041c\u043e\u0441\u043a\u0432\u0430 is big",
        ),
        ("\u03b1\u03b2\u03b3 alpha", "\u03b1\u03b2\u03b3 alpha"),  # a Greek word stays Greek
        ("\u03ba\u03b1\u03b9 \u03bf", "\u03ba\u03b1\u03b9 \u03bf"),  # look-alikes alone stay
        ("x\u2032 = 2", "x\u2032 = 2"),  # a prime after a letter, no letter after it
    ],
)
def test_look_alike_letters_in_a_latin_word_read_latin(raw: str, read: str) -> None:
    # A reader of "n\u043et" sees "not": the negation readers must see it too.
    assert normalise_text(raw) == read
    assert normalise_text(read) == read  # idempotent


@pytest.mark.parametrize(
    ("raw", "read"),
    [
        ("is in ~~Seattle~~ San Francisco.", "is in San Francisco."),
        ("is in <del>Seattle</del> San Francisco.", "is in San Francisco."),
        ("is in <s class='x'>Seattle</s> San Francisco.", "is in San Francisco."),
        ("~~~python\ncode\n~~~", "~~~python\ncode\n~~~"),  # a code fence is no strike
        ("about ~500 or ~600 km", "about ~500 or ~600 km"),
        ("~~one paragraph\n\nanother~~", "~~one paragraph\n\nanother~~"),
        ("is in <!-- Seattle --> San Francisco.", "is in San Francisco."),
        ("is in <DEL>Seattle</del > <del>Oakland", "is in <del>Oakland"),  # never closed: kept
        ("a <!-- open comment. <del>x</del> b", "a <!-- open comment. b"),
        ("<s>one</s> two <s>three</s>", " two"),
        ("is in R\u0336o\u0336m\u0336e\u0336 Paris.", "is in Paris."),  # a stroke overlay
        ("1 \u2260 2", "1 \u2260 2"),  # a composed sign is no struck letter
        ("a\n\n[//]: # (is in Rome.)\nb", "a\n\n\nb"),  # a Markdown comment line
        ('[1]: https://x.org "A title"', ""),
        ("[1]: https://x.org", "[1]: https://x.org"),  # no title: a URL, kept
        ("see [1]: https://x.org 'a' here", "see [1]: https://x.org 'a' here"),  # not alone
        ("is in <span hidden>Rome</span> Paris.", "is in Paris."),
        ('a <div style="color: red; display:none"><div>x</div>Rome</div> b', "a b"),
        ("a <div hidden><div>x</div> b", "a <div hidden><div>x</div> b"),  # never closed: kept
        ("a <input hidden> b <span hidden>Rome</span> c", "a <input hidden> b c"),
        ("a <spanx hidden>kept</spanx> b", "a <spanx hidden>kept</spanx> b"),  # no HTML tag
    ],
)
def test_struck_text_is_read_as_deleted(raw: str, read: str) -> None:
    assert strike_out(raw) == read


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "piece",
    [
        "<!-- ",
        "<del>",
        "<s>x ",
        "<strike ",
        "<s",
        "~~a ",
        "<div hidden>",
        "<span style='",
        "[a]: b ",
    ],
)
def test_unclosed_struck_markup_is_read_in_linear_time(piece: str) -> None:
    # Evidence made of openings that never close: once quadratic (160 KB took a minute).
    text = piece * (400_000 // len(piece))
    started = time.perf_counter()
    assert strike_out(text) == text
    assert time.perf_counter() - started < 2.0


def test_html_struck_elements_are_not_visible_text() -> None:
    body, _ = html_to_text("<p>The bridge is in <del>Seattle</del> <s>LA</s> San Francisco.</p>")
    assert " ".join(body.split()) == "The bridge is in San Francisco."


def test_supplied_documents_are_read_normalised() -> None:
    given = [
        "The bridge is n\u200bot in ~~Seattle~~ Oakland.",
        Document(text="Is n\u00adot.", title="T\u200bitle"),
    ]
    documents = coerce_documents(given)
    assert [d.text for d in documents] == ["The bridge is not in Oakland.", "Is not."]
    assert documents[1].title == "Title"
    assert evidence_text(documents[0].text) == documents[0].text


def test_a_quote_is_found_in_the_normalised_passage_whatever_it_carries() -> None:
    passage = evidence_text("The bridge is n\u200bot in Seattle.")
    for quote in ("is not in Seattle", "is n\u200bot in Seattle", "is no\u00adt in Seattle"):
        span = locate_quote(passage, quote)
        assert span is not None
        assert passage[span[0] : span[1]] == "is not in Seattle"


def test_html_list_items_are_items_and_headings_are_blocks() -> None:
    from triqua.nlp.line_ends import heading_lines

    body, _ = html_to_text("<h1>Bridges</h1><ul><li>The bridge is red</li><li>It is long</li></ul>")
    assert body.split("\n\n") == ["Bridges", "- The bridge is red", "- It is long"]
    assert [body[a:b] for a, b in heading_lines(body)] == ["Bridges"]


def test_the_text_to_check_is_read_normalised_once() -> None:
    from triqua.api import make_context, make_request

    request = make_request("Ada was n\u200bot born in \uff30aris.", make_context(None))
    assert request.text == "Ada was not born in Paris."
    assert request.chunks[0].text == request.text
