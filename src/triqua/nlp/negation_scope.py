"""Negations inside a clause that describes a noun, read from spaCy's dependency parse.

A negation denies the verb it belongs to. In "Einstein, who never learned to drive, won the
Nobel Prize" the "never" belongs to a relative clause that describes Einstein, and in "A byte
is a unit that does not depend on the machine" to one that describes the unit: neither denies
the sentence's own relation. Readers that look for a cue a few words before a relation's
word took both for a denial. :func:`noun_clause_cues` lists each cue that sits in a relative
or adjectival clause under a noun (dependency ``relcl`` or ``acl``) with that clause's
extent, so a reader can tell a cue that governs the relation it checks ("X did not win Y")
from one that does not.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from triqua.nlp.parses import parsed
from triqua.nlp.pipeline import MAX_TEXT_CHARS, NLP_LOCK, load_nlp

__all__ = ["CUES", "ScopedCue", "noun_clause_cues"]

CUES = frozenset({"not", "n't", "never", "no", "neither", "nor", "cannot", "nt"})
"""Words that negate the verb or noun they attach to (spaCy splits "doesn't" into "does", "n't")."""

_NOUN_CLAUSES = frozenset({"relcl", "acl"})


class ScopedCue(NamedTuple):
    """A negation cue inside a clause under a noun, by character offsets in the text read."""

    start: int
    end: int
    clause_start: int
    clause_end: int

    def outside(self, at: int) -> bool:
        """Whether the character offset ``at`` lies outside the cue's clause."""
        return not self.clause_start <= at < self.clause_end


@lru_cache(maxsize=4096)
def noun_clause_cues(text: str) -> tuple[ScopedCue, ...]:
    """The negation cues of ``text`` that sit in a relative or adjectival clause under a noun.

    The text is parsed (a kept parse is reused, :mod:`triqua.nlp.parses`; else without the
    entity recogniser) only when it holds a cue word; a cue's clause is the subtree of its
    nearest governing ``relcl``/``acl`` verb.
    A cue that negates a name ("named Greta Holm, not Ada Lindqvist, as ...") is not listed:
    it denies that name wherever it stands.
    """
    if len(text) > MAX_TEXT_CHARS or not any(w in CUES for w in _words(text)):
        return ()
    doc = parsed(text)
    if doc is None:
        with NLP_LOCK:  # the dependencies alone: the entity recogniser changes none of them
            nlp = load_nlp()
            doc = nlp(text, disable=[p for p in ("ner",) if p in nlp.pipe_names])
    found = []
    for token in doc:
        if token.lower_ not in CUES or token.head.pos_ == "PROPN":
            continue  # a cue before a name denies the name ("Greta Holm, not Ada Lindqvist")
        for head in token.ancestors:
            if head.dep_ in _NOUN_CLAUSES:
                span = doc[head.left_edge.i : head.right_edge.i + 1]
                end = token.idx + len(token.text)
                found.append(ScopedCue(token.idx, end, span.start_char, span.end_char))
                break
    return tuple(found)


def _words(text: str) -> list[str]:
    """Lower-cased words of ``text``, with the "n't" of a contraction as a word of its own."""
    out = []
    for word in text.casefold().replace("’", "'").split():
        word = word.strip(".,;:!?()[]\"'")
        if word.endswith("n't"):
            out.append("n't")
        out.append(word)
    return out
