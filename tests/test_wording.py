"""Counted nouns: the singular for exactly one, the plural for every other count."""

from __future__ import annotations

import pytest

from triqua.support.wording import counted, plural


@pytest.mark.parametrize(
    ("count", "noun", "many", "said"),
    [
        (1, "fact", None, "1 fact"),
        (0, "fact", None, "0 facts"),
        (2, "unit", None, "2 units"),
        (1, "entry", "entries", "1 entry"),
        (3, "entry", "entries", "3 entries"),
        (1, "search", "searches", "1 search"),
    ],
)
def test_counted_takes_the_singular_for_one_only(
    count: int, noun: str, many: str | None, said: str
) -> None:
    assert counted(count, noun, many) == said


def test_plural_gives_the_word_alone() -> None:
    assert [plural(n, "was", "were") for n in (0, 1, 2)] == ["were", "was", "were"]
