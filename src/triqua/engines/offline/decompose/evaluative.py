"""Evaluative words: a complement built only from these and common nouns states an opinion.

The words are data (``engines/offline/data/evaluative.json``), with sentences that must and
must not read as opinions, run as tests. Three kinds: words evaluative in any form ("great",
"best"), superlatives of praise ("greatest", "finest": "one of the greatest footballers of
all time" ranks by taste, not by a measure), and praise adjectives that evaluate as a
superlative with "most" ("the most influential painter") but not alone ("an influential
physicist" is a physicist, which can be checked). Superlatives of measure ("highest",
"tallest") are not evaluative.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from triqua.nlp.tokens import Token


@cache
def _lexicon() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The words evaluative alone, the superlatives of praise, and the praise after "most"."""
    raw = resources.files("triqua.engines.offline").joinpath("data/evaluative.json")
    data = json.loads(raw.read_text("utf-8"))
    superlatives = frozenset(data["praise_superlatives"])
    return (
        frozenset(data["words"]) | superlatives,
        superlatives,
        frozenset(data["praise_after_most"]),
    )


def examples() -> dict[str, list[Any]]:
    """The lexicon's must/must-not sentences: ``opinion`` (no fact) and ``fact`` (a triple)."""
    raw = resources.files("triqua.engines.offline").joinpath("data/evaluative.json")
    found: dict[str, list[Any]] = json.loads(raw.read_text("utf-8"))["examples"]
    return found


def is_evaluative_word(word: str) -> bool:
    """True for a word evaluative on its own ("great", "best", "greatest")."""
    return word.lower() in _lexicon()[0]


def is_evaluative(token: Token) -> bool:
    """True for an evaluative word, or a praise adjective made a superlative by "most"."""
    return token.lower_ in _lexicon()[0] or is_praise_superlative(token)


def is_praise_superlative(token: Token) -> bool:
    """True for a superlative of praise: "greatest", or "most" before a praise adjective.

    It ranks by taste whatever the time it ranks within: "the most influential painter of
    the century" is as much an opinion as "of all time".
    """
    _, superlatives, after_most = _lexicon()
    if token.lower_ in superlatives:
        return True
    if token.lower_ not in after_most or token.i == 0:
        return False
    return token.doc[token.i - 1].lower_ == "most"
