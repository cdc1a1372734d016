"""Statements a passage disowns: the sentence after one calls it false.

'A reader wrote to us: "The Eiffel Tower is in Rome." That is wrong; the tower stands in
Paris.' quotes a statement only to deny it, as do '"…," the tourist said. She was
mistaken.' and a quoted line followed by "This quote from the forum is wrong." A sentence
that opens by calling what came before false disowns the sentence right before it: its
subject is a pronoun ("That", "She") or a short noun phrase opened by a determiner ("This
quote from the forum"), then a copula ("is", "was") and, with at most a few words between
("completely", "a common"), a denial word ("wrong", "false", "mistaken") or a noun that
calls a statement false ("a myth", "an error") ending its clause; or it opens with a bare
denial ("Not so:", "Untrue."). "That is not wrong", "He was right", "This is wrong-headed
policy" and "He was wrong about the costs" disown nothing, and "said" still asserts what
it reports when nothing after it disowns it. The offline verifier leaves a disowned
sentence unread (``passage_reading``) and the grounding rule refuses a quote of one
(``stating``). The words and their worked examples are data (``data/frames.json``).
"""

from __future__ import annotations

import functools
import re

from triqua.core.reading.frames import FRAMES
from triqua.core.reading.lexicon import LEXICON
from triqua.sentences import sentence_spans

__all__ = ["disowned_spans", "disowns"]

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?|'s|’s|[^\w\s]")
#: Punctuation that ends the denial's clause ("That is wrong;", "She was mistaken.").
_CLAUSE_END = frozenset(".;:,!—–()")
#: Words that keep a denial word from denying ("That is not wrong"): the lexicon's negators.
_NEGATORS = LEXICON.negation_words
_MAX_SUBJECT = 5  # words of a noun-phrase subject ("this quote from the forum")
_MAX_BETWEEN = 3  # words between the copula and the denial word ("a common", "completely")


def _words(sentence: str) -> list[str]:
    """The sentence's words and punctuation, lower-cased, without a quote marker ("> ")."""
    return [w.replace("’", "'").lower() for w in _WORD.findall(sentence.lstrip("> \t"))]


def _ends_clause(words: list[str], i: int) -> bool:
    """True when ``words[i]`` ends a clause (or the sentence has ended)."""
    return i >= len(words) or words[i] in _CLAUSE_END


def disowns(sentence: str) -> bool:
    """True when ``sentence`` opens by calling the statement before it false."""
    words = _words(sentence)
    text = " ".join(words)
    for opener in FRAMES.disowning_openers:
        if text.startswith(opener + " ") and _ends_clause(words, len(opener.split())):
            return True
    if not words:
        return False
    starts = [1] if words[0] in FRAMES.disowning_subjects else []
    if words[0] in FRAMES.disowning_determiners:  # "This quote from the forum is …"
        starts += range(2, 2 + _MAX_SUBJECT)
    for at in starts:
        if at < len(words) and words[at] in FRAMES.disowning_copulas:
            return _denies(words, at + 1)
    return False


def _denies(words: list[str], start: int) -> bool:
    """True when a denial word follows the copula at ``start`` and ends its clause."""
    denials = FRAMES.denial_forms | FRAMES.disowning_nouns  # as written: "mistaken", "myths"
    for i in range(start, min(start + _MAX_BETWEEN + 1, len(words))):
        word = words[i]
        if word in _NEGATORS or word.endswith("n't") or word in _CLAUSE_END:
            return False
        if (word in denials or word.removesuffix("s") in denials) and _ends_clause(words, i + 1):
            return True
    return False


@functools.lru_cache(maxsize=4096)  # every fact of a run reads its passages again
def disowned_spans(passage: str) -> tuple[tuple[int, int], ...]:
    """The (start, end) of each sentence of ``passage`` that the sentence after it disowns."""
    spans = sentence_spans(passage)
    return tuple(spans[i - 1] for i in range(1, len(spans)) if disowns(passage[slice(*spans[i])]))
