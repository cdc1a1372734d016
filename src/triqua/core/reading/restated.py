"""A passage read as the sentences it states: one reading for both engines.

Some text states a fact plainly in a shape no sentence reader takes for a statement:

- a label line or a table row (``label_lines``): "Born: 14 March 1879, Ulm" under the title
  "Albert Einstein" reads "Albert Einstein was born on 14 March 1879 in Ulm.";
- an object pronoun (``object_pronouns``): "She married him in 1895." after "… met Pierre
  Curie." reads "She married Pierre Curie in 1895."; a possessive before a listed property,
  "Its length is about 6,400 kilometres." after "The Amazon River flows …", reads "The
  length of The Amazon River is about 6,400 kilometres.";
- a verb left out of a list's later conjuncts (``gapping``): "Brazil won the World Cup in
  1994 and Germany in 2014." reads "Brazil won the World Cup in 1994. Germany won the World
  Cup in 2014.";
- a count of a part: "He won 28 medals, 23 of them gold." reads as written and also as "He
  won 23 gold medals." (a sentence of its own, so the two counts never meet in one window).

:func:`restate` gives the passage so read, with the offsets of each reading in the passage
as written: the offline verifier reads its sentences (``engines.offline.verify.passage_
reading``) and the grounding rule the cited window (``core.grounding.rule``), and a verdict
always quotes the passage as written. The word lists are ``data/restating.json``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from triqua.core.reading.gapping import ungapped
from triqua.core.reading.label_lines import RULES_PATH, label_lines
from triqua.core.reading.object_pronouns import resolve_object_pronoun, resolve_possessive_label
from triqua.core.reading.rules_file import read_rules_file
from triqua.core.reading.values.table import RULES
from triqua.nlp.passages import split
from triqua.nlp.tokens import STOP_WORDS

__all__ = ["Edit", "Restated", "part_count", "restate"]


@dataclass(frozen=True)
class Edit:
    """One reading: the passage's ``raw`` span is read as ``new`` in the restated text.

    ``quote`` is the written span a sentence of the reading quotes (an added reading, of no
    written span, quotes the sentence it reads again); ``alone``: the reading is a paragraph
    of its own, joined to no neighbour in a window.
    """

    raw: tuple[int, int]
    new: tuple[int, int]
    quote: tuple[int, int]
    alone: bool


@dataclass(frozen=True)
class Restated:
    """A passage as read: its text, and where each reading stands in the written passage."""

    written: str
    text: str
    edits: tuple[Edit, ...]

    def edit_at(self, start: int, end: int) -> Edit | None:
        """The reading a span of the restated text lies in, if any."""
        for edit in self.edits:
            if edit.new[0] <= start and end <= edit.new[1] and edit.new[0] < edit.new[1]:
                return edit
        return None

    def to_written(self, start: int, end: int) -> tuple[int, int]:
        """The written span of a span of the restated text (a reading's quote when inside one)."""
        edit = self.edit_at(start, end)
        if edit is not None:
            return edit.quote
        return self._back(start, True), self._back(end, False)

    def to_read(self, start: int, end: int) -> tuple[int, int]:
        """The restated span of a written span: whole readings where it touches them.

        A reading added after a sentence it reads again (a part's count) is no part of it:
        :meth:`added` gives those.
        """
        return self._forward(start, True), self._forward(end, False)

    def added(self, start: int, end: int) -> list[tuple[int, int]]:
        """The restated spans of the readings added for sentences inside a written span."""
        return [
            e.new
            for e in self.edits
            if e.raw[0] == e.raw[1]
            and start <= e.quote[0] < end
            and not self.written[end : e.quote[1]].strip(_CLOSING)  # a quote may drop its stop
        ]

    def _forward(self, at: int, start: bool) -> int:
        shift = 0
        for edit in self.edits:
            (ra, rb), (na, nb) = edit.raw, edit.new
            if ra == rb:
                if ra < at:
                    shift += nb - na
                continue
            if (start and ra <= at < rb) or (not start and ra < at <= rb):
                return na if start else nb
            if rb <= at:
                shift += (nb - na) - (rb - ra)
        return at + shift

    def _back(self, at: int, start: bool) -> int:
        shift = 0
        for edit in self.edits:
            (ra, rb), (na, nb) = edit.raw, edit.new
            if (start and na <= at < nb) or (not start and na < at <= nb):
                return edit.quote[0] if start else edit.quote[1]
            if nb <= at:
                shift += (rb - ra) - (nb - na)
        return at + shift


#: What may close a sentence after the words a quote ends on.
_CLOSING = " .!?;:\"'”’)"

_RAW = read_rules_file(RULES_PATH, "restating")
_PRONOUNS = "|".join(str(w) for w in _RAW["part_pronouns"])
_WHOLE = "|".join(str(w) for w in _RAW["whole_words"])
_NUMBER = (
    r"\d[\d,]*|(?:" + "|".join(sorted(RULES.word_numbers, key=len, reverse=True)) + r")"
    r"(?:-(?:one|two|three|four|five|six|seven|eight|nine))?"
)
_PART = re.compile(
    rf"\b(?P<total>{_NUMBER})\s+(?P<noun>(?:[A-Za-z-]+\s+){{0,3}}?[A-Za-z-]+s)\s*,\s*"
    rf"(?P<part>{_NUMBER}|{_WHOLE})\s+of\s+(?:{_PRONOUNS})\s+(?:were\s+|was\s+)?"
    rf"(?P<kind>[a-z]+)\b(?!\s+(?:of|in|at|by|to|for|from|with|than)\b)",
    re.IGNORECASE,
)


def part_count(sentence: str) -> str | None:
    """The sentence with its part counted, or None when it counts no part.

    "won 28 medals, 23 of them gold" reads "won 23 gold medals". A word followed by a
    preposition or "than" names no kind of the part ("23 of them in Beijing", "40 of them
    larger than Helsinki").
    """
    found = _PART.search(sentence)
    if found is None or found["kind"].lower() in STOP_WORDS:
        return None  # "23 of them in Beijing" names no kind of the part
    part = found["part"]
    if re.fullmatch(_WHOLE, part, re.IGNORECASE):
        part = found["total"]
    *lead, head = found["noun"].split()
    phrase = " ".join([part, *lead, found["kind"], head])
    return sentence[: found.start()] + phrase + sentence[found.end() :]


#: One reading to make: (start, end, reading, alone, quote), ``quote`` None for the span.
_Reading = tuple[int, int, str, bool, tuple[int, int] | None]


@lru_cache(maxsize=4096)  # every fact of a run reads its passages again
def restate(text: str) -> Restated:
    """The passage read as the sentences it states (see the module's docstring)."""
    edits: list[_Reading] = [(ln.start, ln.end, ln.text, True, None) for ln in label_lines(text)]
    first = _apply(text, edits)
    pieces = split(first.text)
    previous = None
    for piece in pieces:
        if piece.heading or first.edit_at(piece.start, piece.end) is not None:
            previous = None
            continue
        start, end = first.to_written(piece.start, piece.end)
        same = previous is not None and "\n\n" not in text[previous[1] : start]
        prior = text[previous[0] : previous[1]] if previous is not None and same else ""
        resolved = (
            resolve_possessive_label(prior, piece.text) or resolve_object_pronoun(prior, piece.text)
            if prior
            else None
        )
        resolved = ungapped(resolved or piece.text) or resolved
        parted = part_count(resolved or piece.text)
        if resolved is not None:
            edits.append((start, end, resolved, False, None))
        if parted is not None:
            edits.append((end, end, "\n\n" + parted, True, (start, end)))
        previous = (start, end)
    return _apply(text, edits)


def _apply(text: str, edits: list[_Reading]) -> Restated:
    """The text with each reading in place of its written span (an added one at its end)."""
    ordered = sorted(edits, key=lambda e: (e[0], e[1] == e[0], e[1]))
    out: list[str] = []
    kept: list[Edit] = []
    at = length = 0
    for start, end, reading, alone, quote in ordered:
        if start < at:
            continue  # overlapping readings: the first stands
        out.append(text[at:start])
        length += start - at
        out.append(reading)
        new = (length, length + len(reading))
        kept.append(Edit((start, end), new, quote or (start, end), alone))
        length += len(reading)
        at = end
    out.append(text[at:])
    if not kept:
        return Restated(text, text, ())
    return Restated(text, "".join(out), tuple(kept))
