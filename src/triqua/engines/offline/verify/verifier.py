"""Offline verifier: the learned judge reads each TriQua fact; rules only gate its values.

No chat model is involved. Evidence passages are split into sentences; the sentences that
best match the fact (0.6 × embedding cosine + 0.4 × weighted token overlap, the subject
weighing most) are aligned with it. The rules read those about the subject ("She", "The
city": ``core.reading.mentions``) for what they are strong at — a rival number, date, name
or role contradicts, and a sentence stating the fact in its own words proposes a support. The judge
reads the best windows of all (``reading``): its entailment supports behind the value and
role gates, its contradiction (at the card's threshold) contradicts, and a qualifier is
judged in the windows its base is bound to. Evidence text is only ever compared, never
obeyed, so instructions hidden in it cannot change a verdict.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from triqua.core.reading.analysis import (
    TextInfo,
    analyse,
    coverage,
    has_stem,
)
from triqua.core.reading.fact_parts import FactParts, fact_parts
from triqua.core.reading.mentions import passage_scores, passive
from triqua.core.reading.name_match import name_match
from triqua.core.reading.orphans import opens_document, orphan_pronoun
from triqua.core.reading.passage_reading import (
    foreign_passages,
    read_pieces,
    states_something,
    unread_note,
    unread_pieces,
)
from triqua.engines.offline.verify.base_rules import judge_base
from triqua.engines.offline.verify.findings import Finding, Sentence, assemble
from triqua.engines.offline.verify.life_dates import life_date_finding
from triqua.engines.offline.verify.qualifiers import judge_qualifier
from triqua.engines.offline.verify.reading import Reading, decide_base, decide_qualifier, read
from triqua.engines.offline.verify.rivals import judged_rival
from triqua.engines.offline.verify.unique_roles import role_rival
from triqua.engines.revisions import ALIGN_REVISION
from triqua.engines.revisions import verifier_revision as verifier_revision
from triqua.models.entailment import (
    SHIPPED,
    EntailmentModel,
    get_entailment,
)
from triqua.models.vectors import sentence_vectors
from triqua.nlp.passages import Piece, entities, split
from triqua.schema import Evidence, Fact, Status, Verdict

__all__ = ["VERIFIER_REVISION", "AlignmentVerifier", "get_verifier", "verifier_revision"]


#: Revision of the default verifier: alignment rules plus the shipped entailment judge.
VERIFIER_REVISION = verifier_revision()

_TOP_SENTENCES = 5  # aligned sentences a unit may be judged on
_EMBEDDED_SENTENCES = 6  # sentences naming the subject that are embedded, by token overlap
_OTHER_SENTENCES = 4  # sentences not naming it embedded for the judge, by token overlap
_MIN_ALIGN = 0.2  # sentences scoring below this are not aligned at all
_OVERLAPS_KEPT = 4096  # token overlaps remembered per fact


@dataclass(frozen=True)
class Aligned:
    """One fact's alignment with the evidence."""

    parts: FactParts
    top: list[Sentence]  # the best sentences about the subject, best first (the rules read them)
    by_place: dict[tuple[int, int], Sentence]  # every sentence, by (passage, index)
    read: list[Sentence]  # the best sentences of all, best first (the judge reads them)


class AlignmentVerifier:
    """Judges TriQua facts against evidence passages with rules and sentence embeddings."""

    def __init__(self, judge: str = SHIPPED, *, entailment: EntailmentModel | None = None) -> None:
        """Load the entailment ``judge`` a setting names (see ``entailment.load_entailment``).

        ``judge="rules"`` runs without a learned judge: only what the rules state verbatim
        (or by the lexicon's synonyms) is supported. ``entailment`` replaces the judge the
        setting names (a model built elsewhere).
        """
        self._judge = entailment if entailment is not None else get_entailment(judge)
        self.revision = (
            f"{ALIGN_REVISION}+{entailment.revision}"
            if entailment is not None
            else verifier_revision(judge)
        )

    @property
    def entailment(self) -> EntailmentModel | None:
        """The learned judge behind the rules (None: the rules alone)."""
        return self._judge

    def verify(self, fact: Fact, evidence: Sequence[Evidence], *, per_unit: bool = True) -> Verdict:
        """Judge every unit of ``fact`` against ``evidence`` and aggregate a fact verdict.

        Args:
            fact: The fact to check.
            evidence: The declared evidence; nothing else is consulted.
            per_unit: When False, the verdict carries no unit verdicts (the fact-level
                status, wrong components and error spans are still reported).

        Returns:
            A verdict with ``basis="evidence"``: supported only when every unit is aligned
            with an evidence sentence, contradicted when any unit is contradicted,
            insufficient evidence otherwise.
        """
        return self.verify_many([fact], evidence, per_unit=per_unit)[0]

    def verify_many(
        self, facts: Sequence[Fact], evidence: Sequence[Evidence], *, per_unit: bool = True
    ) -> list[Verdict]:
        """Judge several facts against the same evidence, embedding in one batch.

        The passages are split and analysed once, and the candidate sentences of every
        fact are embedded together (cached by content), so facts sharing evidence cost
        one model call, not one each.
        """
        verdicts = []
        texts = [ev.text for ev in evidence]
        unread = foreign_passages(evidence)
        for fact, found in zip(facts, self._align(facts, evidence), strict=True):
            if self._judge is None:
                findings = self._by_rules(fact, found.parts, found.top, found.by_place)
            else:
                findings = self._by_judge(fact, found, texts, self._judge)
            verdict = assemble(
                fact, evidence, findings, found.top, judge=self.revision, per_unit=per_unit
            )
            if unread:
                verdict = verdict.model_copy(
                    update={"rationale": f"{verdict.rationale}\n{unread_note(unread)}"}
                )
            verdicts.append(verdict)
        return verdicts

    def _by_judge(
        self, fact: Fact, found: Aligned, texts: list[str], judge: EntailmentModel
    ) -> list[Finding]:
        """The judge reads every unit; the rules only gate values (``reading``)."""
        parts, by_place = found.parts, found.by_place
        rules, stated = _rules_reading(fact, parts, found.top, by_place)
        # The rules' own-words support passes the statement gates when the run settles it
        # (the grounding rule's reader, ``models.reader.statement_refusal``). With the judge's
        # contradiction off, a rules' conflict or own-words support stands without a reading
        # (gates aside): the judge is read only where it can change a unit.
        quick = rules.status == Status.CONTRADICTED or (
            rules.status == Status.SUPPORTED and judge.thresholds.contradicted > 1.0
        )
        if quick:
            findings = self._decide(fact, found, texts, judge, rules, stated, [])
            if rules.status == Status.CONTRADICTED or all(
                f.status == Status.SUPPORTED for f in findings
            ):
                return findings
        readings = read(fact, parts, found.read, by_place, texts, judge)
        return self._decide(fact, found, texts, judge, rules, stated, readings)

    @staticmethod
    def _decide(
        fact: Fact,
        found: Aligned,
        texts: list[str],
        judge: EntailmentModel,
        rules: Finding,
        stated: list[Sentence],
        readings: list[Reading],
    ) -> list[Finding]:
        """Each unit's finding from the rules' reading and the judge's readings of the base."""
        parts, top, by_place = found.parts, found.top, found.by_place
        base, bound = decide_base(readings, rules, stated, judge)
        if base.status == Status.INSUFFICIENT:
            base = judged_rival(fact, parts, top, judge) or base
        findings = [base]
        for qualifier, unit in zip(fact.qualifiers, fact.units()[1:], strict=True):
            if base.status != Status.SUPPORTED:
                findings.append(Finding(Status.INSUFFICIENT, base.sentence))
                continue
            crisp = judge_qualifier(fact, parts, qualifier.label, qualifier.value, base, bound)
            findings.append(decide_qualifier(fact, unit, crisp, bound, by_place, texts, judge))
        return findings

    def _by_rules(
        self,
        fact: Fact,
        parts: FactParts,
        top: list[Sentence],
        by_place: dict[tuple[int, int], Sentence],
    ) -> list[Finding]:
        """Without a learned judge (``--verifier rules``): only what the rules state verbatim."""
        base, bound = _rules_reading(fact, parts, top, by_place)
        return [
            base,
            *(judge_qualifier(fact, parts, q.label, q.value, base, bound) for q in fact.qualifiers),
        ]

    def _align(self, facts: Sequence[Fact], evidence: Sequence[Evidence]) -> list[Aligned]:
        """Each fact's parts, its aligned sentences (best first) and all sentences by place.

        The passages are split and analysed once, and the candidate sentences of every
        fact are embedded together (cached by content).
        """
        passages = [
            (ev, read_pieces(ev.text), analyse(ev.title) if ev.title else None) for ev in evidence
        ]
        jobs = [self._candidates(fact_parts(fact), passages) for fact in facts]
        texts = [
            t for parts, cands, _, _ in jobs for t in [parts.query, *(c.info.text for c in cands)]
        ]
        # Each text is embedded once, in batches, through the process-wide cache.
        vectors = dict(zip(texts, sentence_vectors().get(texts), strict=True)) if texts else {}
        aligned = []
        for parts, candidates, overlaps, by_place in jobs:
            ranked = self._rank(parts, candidates, overlaps, vectors)
            about = [s for s in ranked if s.subject > 0][:_TOP_SENTENCES]
            aligned.append(Aligned(parts, about, by_place, ranked[:_TOP_SENTENCES]))
        return aligned

    def warm_up(self) -> None:
        """Load the embedding model, the entailment judge and spaCy now, not on first use."""
        from triqua.models.embeddings import get_embedder

        get_embedder().embed(["warm up"])
        if self._judge is not None:
            self._judge.predict([("Warm up.", "Warm up.")])
        split("Warm up.")
        entities("Warm up.")

    # ---- alignment

    @staticmethod
    def _overlap(parts: FactParts, sentence: TextInfo) -> float:
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

    def _candidates(
        self,
        parts: FactParts,
        passages: Sequence[tuple[Evidence, tuple[Piece, ...], TextInfo | None]],
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
                    orphan=not score and _orphan(parts, ev, piece),
                )
                for i, (piece, score) in enumerate(zip(pieces, scores, strict=True))
            ]
        by_place = {(s.passage, s.index): s for s in sentences}
        unread = {(p, i) for p, (ev, _, _) in enumerate(passages) for i in unread_pieces(ev.text)}
        readable = [
            s
            for s in sentences
            if (s.passage, s.index) not in unread and states_something(s.info.text)
        ]
        known = _overlaps((parts.subject, tuple(parts.relation_words), parts.object))
        overlaps: dict[int, float] = {}
        for s in readable:
            overlap = known.get(s.info.text)
            if overlap is None:
                overlap = self._overlap(parts, s.info)
                if len(known) < _OVERLAPS_KEPT:
                    known[s.info.text] = overlap
            overlaps[id(s)] = overlap
        # Embedding is the costly step: only the lexically closest few are embedded. The rules
        # read sentences about the subject; the judge also reads the closest others ("Quicksand
        # liquefies …" for "Sinking sand becomes liquid"), behind the subject gate.
        ordered = sorted(readable, key=lambda s: -overlaps[id(s)])
        about = [s for s in ordered if s.subject > 0][:_EMBEDDED_SENTENCES]
        others = [s for s in ordered if s.subject <= 0][:_OTHER_SENTENCES]
        return parts, about + others, overlaps, by_place

    @staticmethod
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


def _orphan(parts: FactParts, evidence: Evidence, piece: Piece) -> bool:
    """True when the piece opens with a pronoun that only the fact's subject can stand for.

    Only in a passage that opens its document (``core.reading.orphans.opens_document``):
    what a reader read before it is then its title and the passage's own text.
    """
    if not opens_document(evidence.start):
        return False
    before = f"{evidence.title or ''}\n{evidence.text[: piece.start]}"
    return orphan_pronoun(parts.subject.text, piece.text, before, parts.object.text) is not None


@functools.lru_cache(maxsize=256)
def _overlaps(key: tuple[TextInfo, tuple[frozenset[str], ...], TextInfo]) -> dict[str, float]:
    """The token overlaps found so far for one fact's (subject, relation words, object).

    :meth:`AlignmentVerifier._overlap` reads only those parts and the sentence, so a fact
    verified again (re-verification, element checks) reuses them; at most
    ``_OVERLAPS_KEPT`` are kept per fact.
    """
    return {}


def _rules_reading(
    fact: Fact,
    parts: FactParts,
    top: list[Sentence],
    by_place: dict[tuple[int, int], Sentence],
) -> tuple[Finding, list[Sentence]]:
    """The rules' reading of the base: aligned sentences, then life-date and unique-role rivals."""
    base, stated = judge_base(fact, parts, top)
    if base.status == Status.INSUFFICIENT:
        base = life_date_finding(fact, parts, top) or role_rival(fact, by_place.values()) or base
    return base, stated


@functools.lru_cache(maxsize=8)
def get_verifier(judge: str = SHIPPED) -> AlignmentVerifier:
    """The process-wide verifier for a judge setting (the vector cache is shared; thread-safe)."""
    return AlignmentVerifier(judge=judge)
