"""Relations a copula states: "is located in Paris" is written "is in Paris".

A relation such as "is located in", "is situated in", "lies in", "is based in" or "stands
in" says no more than the copula with its preposition, so a sentence that writes "The
Eiffel Tower is in Paris" writes the relation of "The Eiffel Tower is located in Rome" and
puts another place in its slot. Which relation words a copula stands for, with which
prepositions, is data (``data/copular.json``, with relations and sentences that must and
must not be read as writing the relation, run as tests); the shared reader of a fact's
parts (``fact_parts``) asks :func:`copular_prepositions` of a relation and
:func:`copula_hit` of a sentence when the sentence writes none of the relation's words.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from triqua.core.reading.analysis import TextInfo, Token, analyse
from triqua.core.reading.rules_file import read_rules_file

__all__ = ["COPULAR_PATH", "copula_hit", "copula_hits", "copular_prepositions", "copular_rules"]

COPULAR_PATH = Path(__file__).parent / "data" / "copular.json"

#: Words a copular relation may hold beside its word and preposition: auxiliaries.
_AUXILIARIES = frozenset({"is", "are", "was", "were", "be", "been", "being", "has", "have", "had"})


@lru_cache(maxsize=1)
def copular_rules() -> dict[str, Any]:
    """The copular relations file as written.

    Raises:
        RuntimeError: when the file is missing or unreadable.
    """
    return read_rules_file(COPULAR_PATH, "copular relations")


@lru_cache(maxsize=4096)
def copular_prepositions(relation: str) -> frozenset[str]:
    """The preposition after which a copula writes ``relation``; empty when none does.

    "is located in" gives {"in"}; "was born in", "lived in" or "is located" (no
    preposition) give nothing.
    """
    words = [t.text.lower() for t in analyse(relation).tokens]
    words = [w for w in words if w not in _AUXILIARIES]
    if len(words) != 2:
        return frozenset()
    word, preposition = words
    for entry in copular_rules()["relations"]:
        if word in entry["words"] and preposition in entry["prepositions"]:
            return frozenset({preposition})
    return frozenset()


def copula_hit(prepositions: frozenset[str], sentence: TextInfo) -> Token | None:
    """The sentence's first copula followed by one of ``prepositions`` ("is in"), if any."""
    hits = copula_hits(prepositions, sentence)
    return hits[0] if hits else None


def copula_hits(prepositions: frozenset[str], sentence: TextInfo) -> list[Token]:
    """Every copula of the sentence followed by one of ``prepositions`` ("is in"), in order.

    Only the file's ``between`` words may stand between them ("is still in"): "is not in
    Paris" and "is on display in the museum" do not write "is in".
    """
    if not prepositions:
        return []
    rules = copular_rules()
    copulas, between = frozenset(rules["copulas"]), frozenset(rules["between"])
    tokens = sentence.tokens
    hits = []
    for index, token in enumerate(tokens):
        if token.text.lower() not in copulas:
            continue
        after = index + 1
        while after < len(tokens) and tokens[after].text.lower() in between:
            after += 1
        if after < len(tokens) and tokens[after].text.lower() in prepositions:
            hits.append(token)
    return hits
