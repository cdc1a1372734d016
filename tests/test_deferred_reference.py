"""A quote's pronouns are read from its parse only when a name is not written in the quote.

Whether a pronoun of the quote may carry the unit's subject costs a spaCy parse of the quote;
it is asked only for a name the quote does not write, so a quote that names the subject is
judged without that parse, and one that carries it by "She" still is. The parse is the lean
one (no entity recogniser): the reading needs dependencies only.
"""

from __future__ import annotations

import pytest

import triqua.core.reading.quote_values as quote_values
from triqua.core.reading.lexicon import LEXICON
from triqua.core.reading.quote_values import missing_values
from triqua.core.reading.reference import free_pronoun
from triqua.nlp import parses
from triqua.nlp.clauses import window_parse
from triqua.schema import FactUnit
from triqua.support.deferred import Deferred

BEFORE = "Marie Curie won the Nobel Prize in Physics in 1903. "
UNIT = FactUnit(kind="base", subject="Marie Curie", relation="moved to", object="Paris")


def test_a_deferred_truth_is_read_once_on_its_first_test() -> None:
    reads: list[int] = []

    def read() -> bool:
        reads.append(1)
        return True

    value = Deferred(read)
    assert reads == []
    assert value
    assert bool(value)
    assert reads == [1]
    assert not Deferred(lambda: False)


@pytest.fixture
def pronoun_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The quotes whose pronouns are read from their parse."""
    seen: list[str] = []
    real = quote_values.free_pronoun

    def counting(text: str, pronouns: frozenset[str]) -> bool:
        seen.append(text)
        return real(text, pronouns)

    monkeypatch.setattr(quote_values, "free_pronoun", counting)
    return seen


def test_a_quote_naming_the_subject_is_read_without_parsing_its_pronouns(
    pronoun_reads: list[str],
) -> None:
    quote = "In 1891 Marie Curie moved to Paris, where she studied physics."
    assert missing_values(UNIT, quote, BEFORE) == []
    assert pronoun_reads == []


def test_a_quote_carrying_the_subject_by_a_pronoun_still_reads_it(
    pronoun_reads: list[str],
) -> None:
    assert missing_values(UNIT, "In 1891 she moved to Paris.", BEFORE) == []
    assert pronoun_reads == ["In 1891 she moved to Paris."]
    # "Her rival": the pronoun is inside another's subject phrase and carries no one.
    assert missing_values(UNIT, "Her rival moved to Paris.", BEFORE) == ["marie curie"]


def test_a_quotes_pronouns_are_read_from_the_one_window_parse() -> None:
    """The pronoun reading reads the window parse, kept for every later reader of the quote."""
    quote = "In 1893 she moved to Lyon with her brother."
    parses.clear()
    window_parse.cache_clear()
    assert free_pronoun(quote, LEXICON.pronouns)
    hits = window_parse.cache_info().hits
    assert window_parse(quote) is parses.parsed(quote)  # one parse of the quote, kept
    assert window_parse.cache_info().hits == hits + 1  # the parse it was read from
    assert not free_pronoun("Her rival moved to Lyon in 1893.", LEXICON.pronouns)
