"""Passages as sentences with offsets, and their named entities by coarse type.

Sentences keep their character offsets in the passage, so a verdict can quote the bound
evidence window exactly as it is written. spaCy is the decomposer's pipeline (loaded once
per process by ``nlp.pipeline.load_nlp``): its tokenizer with a rule sentencizer splits
passages (~0.2 ms a passage; the parser would cost ~30 ms), a period after an abbreviation
before a comma or a lower-case word ending no sentence (:mod:`triqua.nlp.sentence_ends`),
a paragraph break, a heading or a label line always ending one (:mod:`triqua.nlp.line_ends`),
and its NER component alone (it carries its own tok2vec) types entities, unless the text
was fully parsed lately (its entities are then read from that parse).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from triqua.nlp.line_ends import heading_lines, line_ends
from triqua.nlp.parses import parsed
from triqua.nlp.pipeline import NLP_LOCK, load_nlp
from triqua.nlp.sentence_ends import abbreviation_ends
from triqua.nlp.tokens import Sentencizer

__all__ = ["MAX_SENTENCE_WORDS", "Piece", "entities", "split"]

MAX_SENTENCE_WORDS = 60
"""Longer run-on "sentences" (web boilerplate) are cut into pieces of this many words."""

# Coarse entity types whose members can fill the same slot. The small model often reads a
# club or a company named after a place as a place, so places and organisations are one type.
_SAME_TYPE = {
    "GPE": "PLACE_ORG",
    "LOC": "PLACE_ORG",
    "FAC": "PLACE_ORG",
    "ORG": "PLACE_ORG",
    "NORP": "NORP",
    "PERSON": "PERSON",
    "WORK_OF_ART": "WORK",
    "PRODUCT": "WORK",
    "EVENT": "EVENT",
}
_sentencizer = Sentencizer()


@dataclass(frozen=True)
class Piece:
    """One sentence (or a cut of a run-on) of a passage, with its offsets in the passage.

    ``heading``: the sentence is a heading line (``line_ends.heading_lines``): it names what
    the passage is about and states nothing, so it is never read as a statement.
    ``alone``: a reading of its own (a label line read as a sentence, a part's count read
    again), never joined to a neighbour in one window.
    """

    text: str
    start: int
    end: int
    heading: bool = False
    alone: bool = False


@lru_cache(maxsize=20_000)
def split(text: str) -> tuple[Piece, ...]:
    """Sentences of a passage with their offsets, cutting run-ons at ``MAX_SENTENCE_WORDS``."""
    nlp = load_nlp()
    with NLP_LOCK:
        doc = line_ends(abbreviation_ends(_sentencizer(nlp.make_doc(text))))
        spans = [[(t.idx, t.idx + len(t.text)) for t in sent] for sent in doc.sents]
    headings = heading_lines(text)
    out: list[Piece] = []
    for tokens in spans:
        words = [(s, e) for s, e in tokens if not text[s:e].isspace()]
        for i in range(0, len(words), MAX_SENTENCE_WORDS):
            chunk = words[i : i + MAX_SENTENCE_WORDS]
            if not chunk:
                continue
            start, end = chunk[0][0], chunk[-1][1]
            piece = text[start:end]
            if any(ch.isalnum() for ch in piece):
                heading = any(a <= start and end <= b for a, b in headings)
                out.append(Piece(piece, start, end, heading))
    return tuple(out)


@lru_cache(maxsize=20_000)
def entities(text: str) -> tuple[tuple[int, int, str], ...]:
    """Named entities of ``text`` as (start char, end char, coarse type).

    A text the element graph or a reader fully parsed lately (:mod:`triqua.nlp.parses`)
    has its entities already: the recogniser reads none of the other components' output,
    so they are the ones it finds alone. Else it runs alone on the text.
    """
    doc = parsed(text)
    if doc is None:
        nlp = load_nlp()
        with NLP_LOCK:
            doc = nlp.get_pipe("ner")(nlp.make_doc(text))
    found = [(e.start_char, e.end_char, e.label_) for e in doc.ents]
    return tuple((s, e, _SAME_TYPE[label]) for s, e, label in found if label in _SAME_TYPE)
