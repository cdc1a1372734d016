"""Hyphenated words with a bound prefix ("co-founded", "re-elected") kept as one token.

spaCy's English tokenizer splits every hyphen between letters, and ``en_core_web_sm`` then
reads "Larry Page co - founded Google" as a noun "co" and a modifier "founded": the clause
loses its verb, and a fact's relation and object come out wrong ("Google | co-founded |
Twitter" from "Larry Page co-founded Google, and Jack Dorsey co-founded Twitter."). Kept
whole, the word is tagged and parsed as the verb it is. The prefixes are data
(``data/hyphen_prefixes.json``) with sentences whose word must stay whole and sentences
whose hyphenated word must still split ("Abong-Mbang", "well-known").
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from triqua.nlp.tokens import Language

__all__ = ["after_prefix", "hyphen_examples", "keep_prefixed_words", "prefixed_word"]


@cache
def _data() -> dict[str, Any]:
    raw = resources.files("triqua.nlp").joinpath("data/hyphen_prefixes.json")
    data: dict[str, Any] = json.loads(raw.read_text("utf-8"))
    return data


def hyphen_examples() -> dict[str, list[list[str]]]:
    """Sentences with the word that must stay one token (``whole``) or split (``split``)."""
    examples: dict[str, list[list[str]]] = _data()["examples"]
    return examples


@cache
def prefixed_word() -> re.Pattern[str]:
    """A whole string that is a bound prefix, a hyphen and a word of letters."""
    prefixes = "|".join(sorted(map(re.escape, _data()["prefixes"]), key=len, reverse=True))
    return re.compile(rf"^(?i:{prefixes})-[^\W\d_]+$")


def keep_prefixed_words(nlp: Language) -> None:
    """Make the pipeline's tokenizer keep a prefixed hyphenated word as one token.

    spaCy tries a tokenizer's ``token_match`` on each piece before splitting it at infixes.
    A pattern the pipeline already has joins ours as one pattern, so the tokenizer still
    serialises.
    """
    tokenizer = nlp.tokenizer
    pattern = prefixed_word()
    before = getattr(getattr(tokenizer, "token_match", None), "__self__", None)
    if isinstance(before, re.Pattern):
        pattern = re.compile(f"(?:{pattern.pattern})|(?:{before.pattern})", before.flags)
    tokenizer.token_match = pattern.match  # type: ignore[union-attr]


def after_prefix(word: str) -> str:
    """The word after a bound prefix's hyphen ("elected" of "re-elected"), else the word.

    The parser reads a prefixed word as one token, while triqua's word reader splits it at
    the hyphen: a parsed "re-elected" is compared by the word the reader sees last.
    """
    if prefixed_word().match(word) is None:
        return word
    return word.partition("-")[2]
