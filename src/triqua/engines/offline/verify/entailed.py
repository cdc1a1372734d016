"""The evidence windows the learned judge reads: one to three sentences within a paragraph.

A window is built around an aligned sentence (its anchor): the sentence alone, or with the
sentence before or after it, never across a blank line. ``reading`` asks the judge about
them; the evidence sheet of batched LLM verification shows the same windows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from triqua.core.reading.analysis import TextInfo, analyse, coverage, stems_match
from triqua.core.reading.fact_parts import FactParts, sentence_relation_hit
from triqua.core.reading.lexicon import LEXICON
from triqua.core.reading.words import Token, relation_groups
from triqua.engines.offline.verify.findings import Finding, Sentence
from triqua.schema import Status

__all__ = ["Window", "other_known_relation", "paragraph_between", "windows"]


@dataclass(frozen=True)
class Window:
    """One to three consecutive evidence sentences, read as one premise."""

    first: Sentence
    last: Sentence
    anchor: Sentence  # the aligned sentence the window was built around
    text: str

    @property
    def size(self) -> int:
        """Sentences in the window."""
        return self.last.index - self.first.index + 1

    def as_sentence(self) -> Sentence:
        """The window as one sentence of its passage, for the value gates."""
        return Sentence(
            self.last.evidence_id,
            self.last.passage,
            self.last.index,
            analyse(self.text),
            self.first.start,
            self.last.end,
            cosine=self.anchor.cosine,
            score=self.anchor.score,
            subject=self.anchor.subject,
            passage_text=self.first.passage_text,
        )

    def finding(self, status: Status, reason: str, error_span: str | None = None) -> Finding:
        """A finding quoting this window."""
        return Finding(
            status,
            self.last,
            error_span,
            reason,
            self.anchor.score,
            window_start=self.first if self.first is not self.last else None,
        )


def paragraph_between(passage: str, first: Sentence, second: Sentence) -> bool:
    """True when a blank line, or a line break after an unpunctuated line, separates them.

    A line without final punctuation ("# Rivers", "Title: …") heads what follows; it is not
    the start of the next sentence's statement.
    """
    gap = passage[first.end : second.start].replace("\r", "")
    if "\n\n" in gap:
        return True
    return "\n" in gap and not first.info.text.rstrip().endswith(_SENTENCE_ENDS)


#: What a written sentence ends with.
_SENTENCE_ENDS = (".", "!", "?", '"', "”", "’", "'", ")", ":", ";")


def windows(
    anchors: Sequence[Sentence],
    by_place: Mapping[tuple[int, int], Sentence],
    passages: Sequence[str],
    *,
    wide: bool = True,
) -> list[Window]:
    """Windows around each anchor: itself, and (``wide``) with the sentence before or after.

    No window reads across a blank line: a new paragraph neither continues the anchor's
    statement nor names what it refers to ("She moved to Paris in 1891." then, after a
    blank line, "Marie Curie won the Nobel Prize in 1903.").
    """
    out: dict[tuple[int, int, int], Window] = {}
    for anchor in anchors:
        spans: list[tuple[Sentence | None, Sentence | None]] = [(anchor, anchor)]
        if wide:
            before = by_place.get((anchor.passage, anchor.index - 1))
            after = by_place.get((anchor.passage, anchor.index + 1))
            spans += [(before, anchor), (anchor, after)]
        for first, last in spans:
            if first is None or last is None:
                continue
            if first is not last and paragraph_between(passages[anchor.passage], first, last):
                continue  # a blank line ends a statement: no window reads across it
            if first is not last and (first.alone or last.alone or first.end > last.start):
                continue  # a reading of its own (a label line) joins no neighbour
            key = (anchor.passage, first.index, last.index)
            if key not in out:
                text = _as_read(passages[anchor.passage], first, last, by_place)
                out[key] = Window(first, last, anchor, text)
    return list(out.values())


def _as_read(
    passage: str,
    first: Sentence,
    last: Sentence,
    by_place: Mapping[tuple[int, int], Sentence],
) -> str:
    """The window's text as its sentences read.

    A restated sentence ("She married Pierre Curie" for "She married him") stands in place
    of its words as written.
    """
    text = passage[first.start : last.end]
    for index in range(last.index, first.index - 1, -1):
        sentence = by_place.get((first.passage, index))
        if sentence is None or sentence.start < first.start or sentence.end > last.end:
            continue
        written = passage[sentence.start : sentence.end]
        if sentence.info.text != written:
            at, end = sentence.start - first.start, sentence.end - first.start
            text = text[:at] + sentence.info.text + text[end:]
    return text


def other_known_relation(parts: FactParts, sentence: TextInfo) -> bool:
    """True when the sentence writes another known relation's word where the fact's would be.

    "Tomas Wren was buried in Lisbon" for "Tomas Wren was born in Lisbon": the word that
    leads the object (across function words only: "was buried in") is a word of another
    relation group of the lexicon, or a verb in a past form ("was repainted in the 20th
    century" for "was built in …"), and no word of the fact's relation is written. That is
    a crisp mismatch. So is any sentence for a fact whose object was lost: it states none of
    the fact. A sentence that merely words the relation otherwise ("set a world record of
    9.58 s in the 100 m final" for "ran the 100 metres in 9.58 seconds", "is a 15th-century
    citadel" for "was built in the 15th century") is the judge's to read; so is one that
    words the object otherwise too ("It grows in woodlands" for "Bellflowers are found in
    forests"), only at the bar of a judge outweighing a gate (:func:`rewords`).
    """
    if not any(len(group) > 1 for group in parts.relation_words):
        return False
    if sentence_relation_hit(parts, sentence) is not None:
        return False
    if not parts.object.tokens:
        return True  # neither the relation nor an object: nothing of the fact stated
    if coverage(parts.object, sentence) < 1.0:
        return False  # both in other words: ``rewords``, the judge's at its surest
    word = _slot_word(parts.object, sentence)
    if word is None:
        return False
    own = frozenset().union(*parts.relation_words)
    if any(stems_match(word.stem, w) for w in own):
        return False
    if _past_form(word):
        return True  # another verb governs the value: "was repainted in the 20th century"
    return any(
        any(stems_match(word.stem, w) for w in group)
        and not any(stems_match(a, b) for a in group for b in own)
        for group in relation_groups()
    )


def rewords(parts: FactParts, sentence: TextInfo) -> bool:
    """True when the sentence writes neither a known relation's word nor the whole object.

    "It grows in woodlands" for "Bellflowers are found in forests", "features the songs" in
    a track list: nothing of the fact is written to gate, so only a judge as sure as the
    card's ``rival`` (a judge that outweighs a gate) may read it as a paraphrase; "the
    council hall was renamed in 2004" for "served on the city council" stays unsupported.
    """
    return (
        any(len(group) > 1 for group in parts.relation_words)
        and bool(parts.object.tokens)
        and sentence_relation_hit(parts, sentence) is None
        and coverage(parts.object, sentence) < 1.0
    )


def _past_form(word: Token) -> bool:
    """A lower-case verb in a past form: "-ed", or an irregular form the lexicon knows."""
    low = word.text.lower()
    if word.is_capitalised or not low.isalpha():
        return False
    return (len(low) > 4 and low.endswith("ed")) or low in LEXICON.word_forms


def _slot_word(part: TextInfo, sentence: TextInfo) -> Token | None:
    """The content word that leads the object's first word in the sentence, if any.

    Only function words may stand between them ("buried in Lisbon", "buried at the abbey");
    a content word nearer the object ("record of 8 titles": "record") is the slot's word.
    """
    words = [t for t in part.tokens if not t.is_stop]
    if not words:
        return None
    first = words[0].stem
    tokens = sentence.tokens
    for at, token in enumerate(tokens):
        if not stems_match(token.stem, first):
            continue
        before = at - 1
        while before >= 0 and tokens[before].is_stop and at - before <= _SLOT_GAP:
            before -= 1
        if before >= 0 and not tokens[before].is_stop:
            return tokens[before]
    return None


#: Function words that may stand between a relation's word and its object ("was born in the").
_SLOT_GAP = 3
