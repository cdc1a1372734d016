"""Relation antonyms: a window that writes the opposite of a fact's word states the opposite.

The learned judge reads "Exercise decreases the heart rate" as entailing "Exercise increases
the heart rate" (0.89): the two sentences share every word but one. Which words are each
other's opposites ("increase" / "decrease", "won" / "lost", "opened" / "closed", "born" /
"died", "before" / "after", "more" / "less") is data (``data/antonyms.json``, with facts
and sentences that must and must not be read as stating the opposite, run as tests). A
fact word of one side, in its relation or its object, is opposed in a sentence that writes
a word of the other side and no word of its own side (:func:`opposite_in`); a sentence
writing both ("won the final after losing the two before it") is the judge's to read. The
statement gates of both engines ask it of every window (``core.reading.statements``), and
the offline verifier's rules read an aligned sentence naming the subject and the whole
object with an opposite that never holds beside the fact's word ("lost" for "won", not
"closed" for "opened") as a contradiction.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from triqua.core.reading.analysis import TextInfo, Token
from triqua.core.reading.rules_file import read_rules_file
from triqua.core.reading.words import stem

__all__ = ["ANTONYMS_PATH", "antonym_rules", "opposite_in"]

ANTONYMS_PATH = Path(__file__).parent / "data" / "antonyms.json"

#: One pair: the stems of one side, the stems of the other, and whether both never hold.
_Pair = tuple[frozenset[str], frozenset[str], bool]


@lru_cache(maxsize=1)
def antonym_rules() -> dict[str, Any]:
    """The antonyms file as written.

    Raises:
        RuntimeError: when the file is missing or unreadable.
    """
    return read_rules_file(ANTONYMS_PATH, "antonyms")


@lru_cache(maxsize=1)
def _pairs() -> tuple[_Pair, ...]:
    """Each pair of the file as stems, both ways round (a word of either side is opposed).

    The file's ``pairs`` never both hold of one slot ("won" and "lost" the same final); its
    ``events`` may ("opened" and "closed" in 1961).
    """
    pairs: list[_Pair] = []
    rules = antonym_rules()
    for key, exclusive in (("pairs", True), ("events", False)):
        for one, other in rules[key]:
            a = frozenset(stem(w) for w in one)
            b = frozenset(stem(w) for w in other)
            pairs += [(a, b, exclusive), (b, a, exclusive)]
    return tuple(pairs)


def opposite_in(
    relation: TextInfo, obj: TextInfo, sentence: TextInfo, *, exclusive: bool = False
) -> Token | None:
    """The sentence's word opposing a word of the fact's relation or object, if any.

    "decreases" for "increases": the sentence writes a word of the other side of a pair the
    fact's word belongs to, and no word of the fact word's own side. None when the fact
    holds no word of a pair, or the sentence writes the fact's side too. ``exclusive``
    reads only the opposites that never both hold of one slot ("lost" for "won", not
    "closed" for "opened"): what may contradict.
    """
    words = {t.stem for t in (*relation.tokens, *obj.tokens) if not t.is_capitalised}
    if not words:
        return None
    written = {t.stem for t in sentence.tokens}
    for own, other, never_both in _pairs():
        if (exclusive and not never_both) or not words & own or written & own:
            continue
        for token in sentence.tokens:
            if token.stem in other and token.stem not in words:
                return token
    return None
