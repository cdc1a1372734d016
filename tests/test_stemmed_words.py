"""A unit's words and the window they are looked for in are cut into words alike.

The grounding rule's word check takes a unit's content words (``content_words``) and looks
for their stems among the window's (``word_stems``); both cut text with
``core.reading.words.stemmed_words``, so a unit's own words always state it.
"""

from __future__ import annotations

import pytest

from triqua.core.grounding.statement import content_words, unstated_words
from triqua.core.reading.words import stemmed_words, word_stems
from triqua.schema import FactUnit


def test_words_are_letters_with_an_inner_apostrophe() -> None:
    assert stemmed_words("Curie's 1903 prize, rock-star didn’t") == [
        "Curie's",
        "prize",
        "rock",
        "star",
        "didn’t",
    ]


@pytest.mark.parametrize(
    ("relation", "obj"),
    [
        ("won", "the Nobel Prize in Physics in 1903"),
        ("wasn't", "a rock-star's debut album"),
        ("co-founded", "the company’s first 3 offices"),
        ("is", "the world's 2nd-largest economy"),
    ],
)
def test_a_unit_states_itself(relation: str, obj: str) -> None:
    unit = FactUnit(kind="base", subject="Ada Novak", relation=relation, object=obj)
    words = content_words(unit)
    assert words
    assert unstated_words(unit, f"{relation} {obj}") == []
    stems = word_stems(f"{relation} {obj}")
    assert all(word_stems(word) <= stems for word in words)


def test_an_accent_written_as_its_own_character_stays_in_its_word() -> None:
    """ "Orle\u0301ans" (the accent a character of its own) is one word, "Orléans"."""
    from triqua.core.reading.quotes import fold_letters
    from triqua.core.reading.words import tokenize

    decomposed, composed = "born in Orle\u0301ans", "born in Orl\u00e9ans"
    assert [t.text for t in tokenize(decomposed)] == ["born", "in", "Orle\u0301ans"]
    assert [t.stem for t in tokenize(decomposed)] == [t.stem for t in tokenize(composed)]
    assert fold_letters("Orle\u0301ans") == fold_letters("Orl\u00e9ans") == "Orleans"
