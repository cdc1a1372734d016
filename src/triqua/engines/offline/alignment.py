"""The offline verifier's alignment: the evidence sentences each fact is judged on.

Evidence passages are split into sentences; those about the subject (named, or referred
back to while it is the passage's topic: "She", "The city": ``core.reading.mentions``) and
the lexically closest others are candidates; the best by 0.6 × embedding cosine + 0.4 ×
weighted token overlap are aligned. The verifier's rules read the aligned sentences about
the subject, its judge the best of all (``verify``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from triqua.core.reading.analysis import TextInfo, analyse, coverage, has_stem
from triqua.core.reading.fact_parts import FactParts, fact_parts
from triqua.core.reading.mentions import passage_scores, passive
from triqua.core.reading.name_match import name_match
from triqua.core.reading.orphans import opens_document, orphan_description, orphan_pronoun
from triqua.core.reading.passage_reading import read_pieces, states_something, unread_pieces
from triqua.models.vectors import sentence_vectors
from triqua.nlp.passages import Piece
from triqua.schema import Evidence, Fact

__all__ = ["Aligned", "Sentence", "align", "candidates", "overlap"]

_TOP_SENTENCES = 5  # aligned sentences a unit may be judged on
_EMBEDDED_SENTENCES = 6  # sentences naming the subject that are embedded, by token overlap
_OTHER_SENTENCES = 4  # sentences not naming it embedded for the judge, by token overlap
_MIN_ALIGN = 0.2  # sentences scoring below this are not aligned at all
_OVERLAPS_KEPT = 4096  # token overlaps remembered per fact


@dataclass
class Sentence:
    """One evidence sentence: its place, and how well it aligns with the fact being judged."""

    evidence_id: str
    passage: int
    index: int
    info: TextInfo
    start: int = 0
    end: int = 0
    cosine: float = 0.0
    score: float = 0.0
    subject: float = 0.0
    passage_text: str = field(default="", repr=False)  # the whole passage it stands in
    alone: bool = False  # a reading of its own (a label line): it joins no window
    referent: str = ""  # the opening pronoun or "the <noun>" only the subject can be

    @property
    def orphan(self) -> bool:
        """True when the sentence refers to the subject it never names (``reading.orphans``)."""
        return bool(self.referent)

    @property
    def before(self) -> str:
        """The passage before the sentence: what an acronym in it may already spell."""
        return self.passage_text[: self.start]


@dataclass(frozen=True)
class Aligned:
    """One fact's alignment with the evidence."""

    parts: FactParts
    top: list[Sentence]  # the best sentences about the subject, best first (the rules read them)
    by_place: dict[tuple[int, int], Sentence]  # every sentence, by (passage, index)
    read: list[Sentence]  # the best sentences of all, best first (the judge reads them)


def align(facts: Sequence[Fact], evidence: Sequence[Evidence]) -> list[Aligned]:
    """Each fact's parts, its aligned sentences (best first) and all sentences by place.

    The passages are split and analysed once, and the candidate sentences of every
    fact are embedded together (cached by content).
    """
    passages = [
        (ev, read_pieces(ev.text), analyse(ev.title) if ev.title else None) for ev in evidence
    ]
    jobs = [candidates(fact_parts(fact), passages) for fact in facts]
    texts = [t for parts, cands, _, _ in jobs for t in [parts.query, *(c.info.text for c in cands)]]
    # Each text is embedded once, in batches, through the process-wide cache.
    vectors = dict(zip(texts, sentence_vectors().get(texts), strict=True)) if texts else {}
    aligned = []
    for parts, found, overlaps, by_place in jobs:
        ranked = _rank(parts, found, overlaps, vectors)
        about = [s for s in ranked if s.subject > 0][:_TOP_SENTENCES]
        aligned.append(Aligned(parts, about, by_place, ranked[:_TOP_SENTENCES]))
    return aligned


def overlap(parts: FactParts, sentence: TextInfo) -> float:
    """Weighted token overlap: subject 0.5, relation 0.2, object 0.3 (of parts present)."""
    scores: list[tuple[float, float]] = []
    if parts.subject.content:
        named = name_match(parts.subject, sentence) or 0.5 * coverage(parts.subject, sentence)
        scores.append((0.5, named))
    if parts.relation_words:
        hits = sum(any(has_stem(sentence.stems, w) for w in ws) for ws in parts.relation_words)
        scores.append((0.2, hits / len(parts.relation_words)))
    if parts.object.content:
        scores.append((0.3, coverage(parts.object, sentence)))
    total = sum(w for w, _ in scores)
    return sum(w * s for w, s in scores) / total if total else 0.0


def candidates(
    parts: FactParts, passages: Sequence[tuple[Evidence, tuple[Piece, ...], TextInfo | None]]
) -> tuple[FactParts, list[Sentence], dict[int, float], dict[tuple[int, int], Sentence]]:
    """Find the sentences that speak about the subject: the fact's candidates.

    A sentence names the subject itself, or refers back to it ("She", "The city") while
    it is the passage's topic (``core.reading.mentions``). Only those can support or
    contradict a unit; the lexically closest few are embedded. Returns them with their
    token overlap and an index of all sentences by place.
    """
    sentences: list[Sentence] = []
    for p, (ev, pieces, title) in enumerate(passages):
        texts = tuple(piece.text for piece in pieces)
        scores = passage_scores(
            parts.subject, texts, title, passive(parts.relation), lead=ev.start == 0
        )
        sentences += [
            Sentence(
                ev.id,
                p,
                i,
                analyse(piece.text),
                piece.start,
                piece.end,
                subject=score,
                passage_text=ev.text,
                alone=piece.alone,
                referent="" if score else _orphan(parts, ev, piece),
            )
            for i, (piece, score) in enumerate(zip(pieces, scores, strict=True))
        ]
    by_place = {(s.passage, s.index): s for s in sentences}
    unread = {(p, i) for p, (ev, _, _) in enumerate(passages) for i in unread_pieces(ev.text)}
    readable = [
        s for s in sentences if (s.passage, s.index) not in unread and states_something(s.info.text)
    ]
    known = _overlaps((parts.subject, tuple(parts.relation_words), parts.object))
    overlaps: dict[int, float] = {}
    for s in readable:
        shared = known.get(s.info.text)
        if shared is None:
            shared = overlap(parts, s.info)
            if len(known) < _OVERLAPS_KEPT:
                known[s.info.text] = shared
        overlaps[id(s)] = shared
    # Embedding is the costly step: only the lexically closest few are embedded. The rules
    # read sentences about the subject; the judge also reads the closest others ("Quicksand
    # liquefies …" for "Sinking sand becomes liquid"), behind the subject gate.
    ordered = sorted(readable, key=lambda s: -overlaps[id(s)])
    about = [s for s in ordered if s.subject > 0][:_EMBEDDED_SENTENCES]
    others = [s for s in ordered if s.subject <= 0][:_OTHER_SENTENCES]
    return parts, about + others, overlaps, by_place


def _rank(
    parts: FactParts,
    candidates: list[Sentence],
    overlaps: dict[int, float],
    vectors: dict[str, np.ndarray],
) -> list[Sentence]:
    """Score candidates: 0.6 × cosine(fact, sentence) + 0.4 × token overlap; best first."""
    query = vectors[parts.query]
    for sentence in candidates:
        sentence.cosine = float(vectors[sentence.info.text] @ query)
        sentence.score = 0.6 * sentence.cosine + 0.4 * overlaps[id(sentence)]
    return [s for s in sorted(candidates, key=lambda s: -s.score) if s.score >= _MIN_ALIGN]


def _orphan(parts: FactParts, evidence: Evidence, piece: Piece) -> str:
    """The opening pronoun or bare "the <noun>" only the fact's subject can be, else "".

    Only in a passage that opens its document (``core.reading.orphans.opens_document``):
    what a reader read before it is then its title and the passage's own text.
    """
    if not opens_document(evidence.start):
        return ""
    before = f"{evidence.title or ''}\n{evidence.text[: piece.start]}"
    subject, values = parts.subject.text, parts.object.text
    if orphan_pronoun(subject, piece.text, before, values) is not None:
        return piece.text.split(maxsplit=1)[0].strip(",;:")
    return orphan_description(subject, piece.text, before, values) or ""


@functools.lru_cache(maxsize=256)
def _overlaps(key: tuple[TextInfo, tuple[frozenset[str], ...], TextInfo]) -> dict[str, float]:
    """The token overlaps found so far for one fact's (subject, relation words, object).

    :meth:`AlignmentVerifier._overlap` reads only those parts and the sentence, so a fact
    verified again (re-verification, element checks) reuses them; at most
    ``_OVERLAPS_KEPT`` are kept per fact.
    """
    return {}
