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
it reports when nothing after it disowns it. A sentence may also disown itself by a tag
that closes it: "The Eiffel Tower is in Rome — a common mistake.", "…, a popular myth.",
"…: a common misconception.", "… (an old myth).", "… — a myth spread by cartoonists.": a
noun naming a false belief ("myth", "misconception"), or an error noun ("mistake") with a
word saying many hold it ("common", "popular"), after a dash, colon, bracket or comma
(after a comma it must close the sentence: "the story of Icarus, a myth about pride" is an
apposition). "— a costly mistake" judges a deed and "— a common destination" describes;
neither disowns. The offline verifier leaves a disowned
sentence unread (``passage_reading``) and the grounding rule refuses a quote of one
(``stating``). The words and their worked examples are data (``data/frames.json``).
"""

from __future__ import annotations

import functools
import re

from triqua.core.reading.frames import FRAMES
from triqua.core.reading.lexicon import LEXICON
from triqua.sentences import sentence_spans

__all__ = ["disowned_spans", "disowning_tag", "disowns"]

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


#: A tag closing a sentence: its separator, "(which is)", a determiner and up to twelve words.
_TAG = re.compile(
    r"(?P<sep>\s[—–-]{1,2}\s*|[—–]\s*|:\s+|,\s*|\s\(\s*)"
    r"(?P<tag>(?:(?:which|that)\s+(?:is|was)\s+)?(?:an?|the|another)\s+"
    r"(?P<body>[\w'’-]+(?:\s+[\w'’-]+){0,11}))[)\s]*[.!]?[\s\"”’)]*$",
    re.IGNORECASE,
)
_MAX_BEFORE_NOUN = 3  # words between the determiner and the noun ("an often-repeated old")


def disowning_tag(sentence: str) -> str | None:
    """The tag ("a common mistake") that closes ``sentence`` and disowns it, or None."""
    for found in _TAG.finditer(sentence):
        words = found.group("body").lower().replace("’", "'").split()
        for i in range(min(len(words), _MAX_BEFORE_NOUN + 1)):
            if _tag_noun(words[: i + 1]):
                tail = len(words) > i + 1
                if tail and found.group("sep").strip() == ",":
                    return None  # "the story of Icarus, a myth about pride": an apposition
                return found.group("tag").strip()
    return None


def _tag_noun(words: list[str]) -> bool:
    """True when ``words`` (a tag's words up to its noun) name a false belief."""
    phrase, noun = " ".join(words), words[-1].removesuffix("s")
    if noun in FRAMES.tag_nouns or any(phrase.endswith(n) for n in FRAMES.tag_nouns):
        return True
    before = " ".join(words[:-1])
    prevalent = any(f" {p} " in f" {before} " for p in FRAMES.tag_prevalence_words)
    return prevalent and noun in FRAMES.tag_error_nouns


@functools.lru_cache(maxsize=4096)  # every fact of a run reads its passages again
def disowned_spans(passage: str) -> tuple[tuple[int, int], ...]:
    """The (start, end) of each sentence of ``passage`` that the passage disowns.

    The sentence after it disowns it ("That is wrong."), or a tag closing it does.
    """
    spans = sentence_spans(passage)
    return tuple(
        span
        for i, span in enumerate(spans)
        if disowning_tag(passage[slice(*span)])
        or (i + 1 < len(spans) and disowns(passage[slice(*spans[i + 1])]))
    )
