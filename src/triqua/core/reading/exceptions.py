"""Exceptions: a name a sentence excepts from what it says of everyone else.

"Every member except Smith voted for the bill" says Smith did not; it never states "Smith
voted for the bill", though it writes every word of it. Nor does "All the planets except
Mercury and Venus have moons" state "Mercury has moons", nor "Every planet has a moon" (the
claim leaves out the exception its quantifier carries). An exception is a phrase after a
universal quantifier ("every", "all", "everyone") opened by a marker ("except", "but",
"apart from", "other than", "excluding", "with the exception of"); after a negative one
("No one except Smith voted for it") the excepted name is the one who did, and nothing is
refused. Both engines ask :func:`excepted` of a window (``core.reading.statements``). The
words are data (``data/exceptions.json``), with examples that must and must not be refused.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import TYPE_CHECKING

from triqua.core.reading.rules_file import read_rules_file
from triqua.core.reading.words import word_stems

if TYPE_CHECKING:
    from triqua.nlp.tokens import Token as SpacyToken

__all__ = ["EXAMPLES", "excepted"]

_RULES = read_rules_file(Path(__file__).parent / "data" / "exceptions.json", "exception words")
_MARKERS = frozenset(w.lower() for w in _RULES["markers"])  # "except", "but", "apart", …
_UNIVERSAL = frozenset(w.lower() for w in _RULES["universal"])
_NEGATIVE = frozenset(w.lower() for w in _RULES["negative"])
EXAMPLES: tuple[dict[str, object], ...] = tuple(_RULES["examples"])
_CUE = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, _MARKERS))) + r")\b", re.IGNORECASE)
_FILLERS = word_stems("the a an of in on at to for and or")
#: Markers that are nouns or adverbs before their preposition ("the exception of", "apart from").
_NOUN_MARKERS = frozenset(("exception", "apart", "aside", "other"))


def excepted(subject: str, obj: str, text: str) -> str | None:
    """The excepted phrase that keeps ``text`` from stating the fact, or None.

    The fact's subject (or object) is written in ``text`` only inside an exception after a
    universal quantifier, or the fact's subject is that quantified phrase with its exception
    left out ("Every planet" of "Every planet except Mercury …").
    """
    if not _CUE.search(text):
        return None  # most windows: no marker, no parse
    return _excepted(subject, obj, text)


@functools.lru_cache(maxsize=4096)
def _excepted(subject: str, obj: str, text: str) -> str | None:
    """:func:`excepted`, remembered: a window is gated again for each unit and round."""
    from triqua.nlp.clauses import window_parse  # spaCy, loaded when asked

    doc = window_parse(text)
    claimed = _CUE.search(f"{subject} {obj}") is not None
    for marker in doc:
        if marker.lower_ not in _MARKERS:
            continue
        head, phrase = _exception(marker)
        if head is None or not phrase:
            continue
        inside = {t.i for t in phrase}
        shown = " ".join(t.text for t in sorted(phrase, key=lambda t: t.i))
        for part in (subject, obj):
            wanted = word_stems(part) - _FILLERS
            hits = [t.i for t in doc if word_stems(t.text) & wanted]
            if wanted and hits and set(hits) <= inside:
                return shown
        quantified = word_stems(subject) - _FILLERS
        if not claimed and word_stems(head.text) & quantified and _universal_words(subject):
            return shown
    return None


def _exception(marker: SpacyToken) -> tuple[SpacyToken | None, list[SpacyToken]]:
    """The quantified head the marker excepts from, and the excepted words (its object).

    "every member *except* Smith" (a preposition on the noun or its verb), "Everyone *but*
    John Adams" (a conjunct of the quantified word), "apart from", "with the exception of".
    """
    head = marker.head
    if marker.dep_ == "cc":  # "Everyone but John Adams": the conjuncts after the marker
        objects = [c for c in head.children if c.dep_ == "conj" and c.i > marker.i]
    else:
        prep = marker
        if marker.lower_ in _NOUN_MARKERS or marker.dep_ == "advmod" or marker.pos_ == "NOUN":
            prep = next((c for c in marker.children if c.dep_ == "prep"), marker)
        if marker.lower_ in _NOUN_MARKERS and marker.dep_ == "pobj":
            head = marker.head.head  # "with the exception of X": what "with" is on
        objects = [c for c in prep.children if c.dep_ in ("pobj", "pcomp")]
    if not objects:
        return None, []
    if head.pos_ in ("VERB", "AUX"):  # "visited every country … except Albania"
        head = next((c for c in head.children if c.i < marker.i and _quantifier(c)), head)
    quantifier = _quantifier(head)
    if quantifier is None or quantifier in _NEGATIVE:
        return None, []
    return head, [t for o in objects for t in o.subtree]


def _quantifier(head: SpacyToken) -> str | None:
    """The universal or negative quantifier of ``head`` ("every member", "everyone")."""
    if head.lower_ in _UNIVERSAL or head.lower_ in _NEGATIVE:
        return head.lower_
    for child in head.children:
        if child.dep_ in ("det", "predet", "amod", "nummod") and child.lower_ in (
            _UNIVERSAL | _NEGATIVE
        ):
            return child.lower_
    return None


def _universal_words(text: str) -> bool:
    """True when ``text`` carries a universal quantifier ("Every planet")."""
    return any(w in _UNIVERSAL for w in re.findall(r"[a-z]+", text.lower()))
