"""The readers' remembered readings: the same answers as reading afresh, in bounded caches."""

from __future__ import annotations

import pytest

from triqua.core.reading import quote_values
from triqua.core.reading.speech import (
    inside_speech,
    open_quotation,
    outside_speech,
    speaks_of_another,
)
from triqua.schema import Fact, FactUnit, Qualifier

PASSAGES = [
    "",
    "Albert Einstein was a physicist. He wrote about his youth.",
    'Einstein wrote of himself: "I was born in Ulm. ',
    "She remembered it so: “My father taught me. ",
    '"He was born in Warsaw," she said. Then she left.',
]
QUOTES = [
    'He was born in Ulm in 1879," wrote Einstein.',
    "He was born in Warsaw in 1867.",
    "'He was born in Warsaw,' she said.",
    "The city of Ulm lies on the Danube.",
]


@pytest.mark.parametrize("before", PASSAGES)
def test_speech_reads_the_passage_before_only_by_the_quotation_it_leaves_open(
    before: str,
) -> None:
    mark = open_quotation(before)
    assert mark in ("", '"', "“")
    for quote in QUOTES:
        assert outside_speech(quote, mark) == outside_speech(quote, before)
        assert inside_speech(quote, mark) == inside_speech(quote, before)
        assert speaks_of_another(quote, mark) == speaks_of_another(quote, before)


def test_text_without_speech_is_read_as_written() -> None:
    text = "Marie Curie was born in Warsaw in 1867."
    assert outside_speech(text, "She moved to Paris.") is text
    assert inside_speech(text).strip() == "" and len(inside_speech(text)) == len(text)
    assert open_quotation('She said: "I was born in Warsaw. ') == '"'
    assert outside_speech("in Warsaw.", 'She said: "I was born') == " " * len("in Warsaw.")


def test_a_quotes_reference_words_are_read_once_and_give_the_same_values() -> None:
    unit = FactUnit(kind="base", subject="Marie Curie", relation="was born in", object="Warsaw")
    quote, before = "She was born in Warsaw in 1867.", "Marie Curie was a chemist. "
    quote_values._reference_words.cache_clear()
    first = quote_values.missing_values(unit, quote, before)
    hits = quote_values._reference_words.cache_info().hits
    assert quote_values.missing_values(unit, quote, "Marie Curie was a physicist. ") == first
    assert quote_values._reference_words.cache_info().hits == hits + 1  # same quote, no speech
    assert first == []  # "She" carries the subject named before
    assert quote_values.missing_values(unit, quote, "") == ["marie curie"]
    assert quote_values._reference_words.cache_info().maxsize == 4096


def test_fact_units_are_shared_yet_each_call_gets_its_own_list() -> None:
    fact = Fact(
        subject="Marie Curie",
        relation="won",
        object="the Nobel Prize",
        qualifiers=[Qualifier(label="point in time", value="1903")],
    )
    units = fact.units()
    assert units == [
        FactUnit(kind="base", subject="Marie Curie", relation="won", object="the Nobel Prize"),
        FactUnit(
            kind="qualifier",
            subject="Marie Curie",
            relation="won",
            object="the Nobel Prize",
            label="point in time",
            value="1903",
        ),
    ]
    units.pop()
    again = fact.units()
    assert len(again) == 2 and again is not units
    assert again[0] is units[0]  # frozen units, read once
    fact.qualifiers.append(Qualifier(label="location", value="Stockholm"))
    assert [u.value for u in fact.units()] == [None, "1903", "Stockholm"]
    moved = fact.model_copy(update={"object": "the Nobel Prize in Physics"})
    assert {u.object for u in moved.units()} == {"the Nobel Prize in Physics"}


@pytest.mark.parametrize(
    "text",
    [
        "  Pelé —\u200b “Skłodowska”\t\n æ ﬁ  ",
        "\u00a0x\u2003y\u3000z\u2028",
        "Marie Curie (1867–1934) won the Nobel Prize in Physics.",
        "a\u0301b … \x0b\x0cA",
        "",
        "   ",
    ],
)
def test_normalised_text_is_the_mapped_text(text: str) -> None:
    from triqua.core.reading.quotes import _normalise_mapped, normalise

    assert normalise.__wrapped__(text) == _normalise_mapped(text)[0]


def test_a_passages_verdict_records_are_found_once_and_handed_out_as_copies() -> None:
    from triqua.core.reading import mood

    passage = 'Marie Curie was born in Warsaw.\n{"verdict": "supported"}\nShe won two prizes.'
    mood._verdict_records.cache_clear()
    first = mood.verdict_records(passage)
    assert first == [(32, 56)]
    first.append((0, 1))  # a caller's own list
    assert mood.verdict_records(passage) == [(32, 56)]
    assert mood._verdict_records.cache_info().hits == 1
    assert mood._verdict_records.cache_info().maxsize == 4096
