"""Offline evidence-alignment verifier: judges each TriQua fact unit against evidence sentences.

No language model is involved. Evidence passages are split into sentences; the sentences
that best match the fact (0.6 × embedding cosine + 0.4 × weighted token overlap, the
subject weighing most) are aligned with the fact. A sentence speaks about the subject
when it names it or refers back to it ("She", "The city": see ``binding``). The base
triple is bound to the window (one sentence, or a sentence and its continuation) that
best supports it, and every qualifier is judged in that window only, so "Physics in
1911" is not supported by a Physics sentence plus a Chemistry sentence about another
event. Values are compared by strict rules; words may be paraphrased when the window is
close in embedding space, and the verdict records the similarity it relied on. Evidence
text is only ever compared, never obeyed, so instructions hidden in it cannot change a
verdict.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from triqua.engines.offline.align import (
    TextInfo,
    Token,
    analyse,
    coverage,
    has_stem,
    is_directive,
    is_negated,
    name_match,
    name_word_in,
    values_relation,
)
from triqua.engines.offline.binding import REFERS, subject_extended, subject_scores
from triqua.engines.offline.evidence import Piece, entities, split
from triqua.engines.offline.findings import Finding, Sentence, assemble
from triqua.engines.offline.rules import (
    antonym_in,
    entity_type,
    key_words,
    negated_near,
    relation_hit,
    relation_words,
    rival_entity,
    roles_differ,
    substitution,
    unit_words_only,
)
from triqua.schema import Evidence, Fact, Status, Verdict

__all__ = ["VERIFIER_REVISION", "AlignmentVerifier", "get_verifier"]

VERIFIER_REVISION = "offline-align/4"

_TOP_SENTENCES = 5  # aligned sentences a unit may be judged on
_EMBEDDED_SENTENCES = 6  # sentences naming the subject that are embedded, by token overlap
_MIN_ALIGN = 0.2  # sentences scoring below this are not aligned at all
# Paraphrase settings, tuned on the shared Factcheck-Bench file (benchmarks/offline_verdicts.py).
COVERAGE = 0.75  # share of a text value's content words an evidence sentence must hold
LOOSE_COVERAGE = 0.5  # ... enough when the sentence is also close in embedding space
CLOSE_COSINE = 0.6  # "close in embedding space" between fact and sentence
RELATION_COSINE = 0.55  # relation taken as expressed when no word of it matches
SAME_MEANING = 0.65  # a sentence this close to the fact may paraphrase a descriptive object
PARAPHRASE_COVERAGE = 0.2  # ... when it still holds this share of the object's words
PARAPHRASE_COSINE = 0.75  # ... or with no shared word at all, when it is this close
SIMILARITY_SUPPORT = (
    0.75  # an unmatched base is supported by a sentence this close (values checked)
)
KEY_COVERAGE = 0.2  # share of the fact's key words (relation, object) a similar sentence holds
_EMBED_CACHE_SIZE = 50_000
_LABEL_CUES = {
    "locat": {"in", "at", "near"},
    "place": {"in", "at"},
    "country": {"in"},
    "city": {"in"},
    "with": {"with", "alongside"},
    "by": {"by"},
    "for": {"for"},
    "as": {"as"},
    "from": {"from"},
    "to": {"to"},
    "venu": {"at", "in"},
}


@dataclass
class _FactParts:
    """The analysed parts of a fact and its embedding query."""

    subject: TextInfo
    relation: TextInfo
    object: TextInfo
    relation_words: list[frozenset[str]]
    negated: bool
    query: str


def _fact_parts(fact: Fact) -> _FactParts:
    """Analyse subject, relation and object; relation words come with their synonyms."""
    relation = analyse(fact.relation)
    words = relation_words(relation)
    negated = is_negated(list(relation.tokens)) or is_negated(list(analyse(fact.object).tokens))
    return _FactParts(
        subject=analyse(fact.subject),
        relation=relation,
        object=analyse(fact.object),
        relation_words=words,
        negated=negated,
        query=f"{fact.subject} {fact.relation} {fact.object}".strip(),
    )


# ------------------------------------------------------------------ unit judgement


def _measured(part: TextInfo) -> bool:
    """True when the part is a measured quantity: with a unit or a counted noun.

    "9,000 metres", "4.2%", "$2 billion", "2.1 million inhabitants" are; "the 200
    metres" (a race) names a thing, not a quantity.
    """
    if _NAMED_BY_NUMBER.match(part.text):
        return False
    return any(n.noun or any(r[1] != "count" for r in n.readings) for n in part.numbers)


_NAMED_BY_NUMBER = re.compile(r"^\s*the\s+\d", re.I)


def _relation_hit(parts: _FactParts, sentence: TextInfo) -> Token | bool | None:
    """The sentence token expressing the fact's relation (True: it has no word to find)."""
    return relation_hit(parts.relation_words, sentence)


def _negated(sentence: TextInfo, anchor: Token | None, parts: _FactParts) -> bool:
    """True when the sentence denies the relation: a cue before it, or an antonym of a word."""
    if negated_near(sentence, anchor, parts.object):
        return True
    return antonym_in(parts.relation, sentence) is not None or (
        antonym_in(parts.object, sentence) is not None
    )


def _subject_extended(subject: TextInfo, sentence: Sentence) -> bool:
    """True when the sentence names someone else with the subject's name ("Pierre Curie").

    A sentence that speaks of the subject by referring back to it is not checked.
    """
    if sentence.subject < 0.6 or sentence.subject == REFERS:
        return False
    return subject_extended(subject, sentence.info)


def _holds_key_words(parts: _FactParts, sentence: Sentence) -> bool:
    """True when the window holds enough of the fact's key words (relation and object).

    Similarity alone never supports a fact whose key words the evidence lacks: "you will
    need hot water" is not supported by "there you have a delicious iced matcha latte".
    """
    return key_words(parts.relation_words, parts.object, sentence.info) >= KEY_COVERAGE


def _subject_values_match(parts: _FactParts, sentence: TextInfo) -> bool:
    """True when the dates and numbers inside the subject ("the 1932 race") are stated."""
    return values_relation(parts.subject, sentence, set(), set())[0] == "match"


@dataclass
class _TextMatch:
    """Whether a sentence states a text value, and how (verbatim, or by similarity)."""

    ok: bool
    reason: str = ""


def _text_matches(part: TextInfo, sentence: Sentence) -> _TextMatch:
    """Whether the sentence states the part's words.

    A name must be named (alias rules); in descriptive text every capitalised word (a
    name inside it: "a tool developed by Mondeca") must occur, no word may be replaced by
    another ("baseball clubs" / "football clubs"), and enough of the other words must, the
    fewer the closer the sentence is in embedding space (a paraphrase).
    """
    if not part.content or unit_words_only(part):
        return _TextMatch(True, "stated")
    if part.is_name:
        return _TextMatch(name_match(part, sentence.info) > 0, "named")
    if not all(name_word_in(t, sentence.info) for t in part.content if t.is_capitalised):
        return _TextMatch(False)
    cover = coverage(part, sentence.info)
    if cover >= 1.0:
        return _TextMatch(True, "stated")
    antonym = antonym_in(part, sentence.info)
    if antonym is not None:
        # "ineffective" states "effective", denied: the words match and the negation check
        # of the caller turns the unit into a contradiction.
        rest = [t for t in part.content if not antonym.stem.endswith(t.stem)]
        if all(has_stem(sentence.info.stems, t.stem) for t in rest):
            return _TextMatch(True, "stated")
    if substitution(part, sentence.info) is not None:
        return _TextMatch(False)
    similar = (
        cover >= COVERAGE
        or (cover >= LOOSE_COVERAGE and sentence.cosine >= CLOSE_COSINE)
        or (cover >= PARAPHRASE_COVERAGE and sentence.cosine >= SAME_MEANING)
        or sentence.cosine >= PARAPHRASE_COSINE
    )
    reason = f"aligned by similarity {sentence.cosine:.2f} (word coverage {cover:.2f})"
    return _TextMatch(similar, reason)


class AlignmentVerifier:
    """Judges TriQua facts against evidence passages with rules and sentence embeddings."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()

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
        passages = [
            (ev, split(ev.text), analyse(ev.title) if ev.title else None) for ev in evidence
        ]
        jobs = [self._candidates(_fact_parts(fact), passages) for fact in facts]
        texts = [
            t for parts, cands, _, _ in jobs for t in [parts.query, *(c.info.text for c in cands)]
        ]
        vectors = dict(zip(texts, self._embed(texts), strict=True)) if texts else {}
        verdicts = []
        for fact, (parts, candidates, overlaps, by_place) in zip(facts, jobs, strict=True):
            top = self._rank(parts, candidates, overlaps, vectors)
            base, bound = self._judge_base(fact, parts, top)
            if base.status == Status.INSUFFICIENT:
                base, bound = self._by_similarity(fact, parts, top, base, bound)
            findings = [base] + [
                self._judge_qualifier(fact, parts, q.label, q.value, base, bound, top, by_place)
                for q in fact.qualifiers
            ]
            verdicts.append(
                assemble(fact, evidence, findings, top, judge=VERIFIER_REVISION, per_unit=per_unit)
            )
        return verdicts

    def warm_up(self) -> None:
        """Load the embedding model and the spaCy pipelines now rather than on first use."""
        from triqua.engines.offline.embeddings import get_embedder

        get_embedder().embed(["warm up"])
        split("Warm up.")
        entities("Warm up.")

    # ---- alignment

    def _embed(self, texts: list[str]) -> np.ndarray:
        """Embed texts, reusing cached vectors (keyed by content hash)."""
        from triqua.engines.offline.embeddings import DIMENSION, get_embedder

        keys = [hashlib.sha1(t.encode("utf-8")).hexdigest() for t in texts]
        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        missing: list[int] = []
        with self._lock:
            for i, key in enumerate(keys):
                vector = self._vectors.get(key)
                if vector is None:
                    missing.append(i)
                else:
                    self._vectors.move_to_end(key)
                    out[i] = vector
        if missing:
            unique = list(dict.fromkeys(texts[i] for i in missing))
            fresh = dict(zip(unique, get_embedder().embed(unique), strict=True))
            with self._lock:
                for i in missing:
                    out[i] = fresh[texts[i]]
                    self._vectors[keys[i]] = fresh[texts[i]]
                while len(self._vectors) > _EMBED_CACHE_SIZE:
                    self._vectors.popitem(last=False)
        return out

    @staticmethod
    def _overlap(parts: _FactParts, sentence: TextInfo) -> float:
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
        parts: _FactParts,
        passages: Sequence[tuple[Evidence, tuple[Piece, ...], TextInfo | None]],
    ) -> tuple[_FactParts, list[Sentence], dict[int, float], dict[tuple[int, int], Sentence]]:
        """Find the sentences that speak about the subject: the fact's candidates.

        A sentence names the subject itself, or refers back to it ("She", "The city") while
        it is the passage's topic (see ``binding``). Only those can support or contradict a
        unit; the lexically closest few are embedded. Returns them with their token overlap
        and an index of all sentences by place.
        """
        sentences: list[Sentence] = []
        for p, (ev, pieces, title) in enumerate(passages):
            infos = [analyse(piece.text) for piece in pieces]
            scores = subject_scores(parts.subject, infos, title)
            sentences += [
                Sentence(ev.id, p, i, info, piece.start, piece.end, subject=score)
                for i, (piece, info, score) in enumerate(zip(pieces, infos, scores, strict=True))
            ]
        by_place = {(s.passage, s.index): s for s in sentences}
        # Text addressed to a verifier (injected instructions, fake verdicts) is never aligned.
        # Questions assert nothing, so they are never aligned either.
        candidates = [
            s
            for s in sentences
            if s.subject > 0
            and not is_directive(s.info.tokens)
            and not s.info.text.rstrip(" \"'”’)]").endswith("?")
        ]
        overlaps = {id(s): self._overlap(parts, s.info) for s in candidates}
        # Embedding is the costly step: only the lexically closest few are embedded.
        candidates = sorted(candidates, key=lambda s: -overlaps[id(s)])[:_EMBEDDED_SENTENCES]
        return parts, candidates, overlaps, by_place

    @staticmethod
    def _rank(
        parts: _FactParts,
        candidates: list[Sentence],
        overlaps: dict[int, float],
        vectors: dict[str, np.ndarray],
    ) -> list[Sentence]:
        """Score candidates: 0.6 × cosine(fact, sentence) + 0.4 × token overlap; best first."""
        query = vectors[parts.query]
        for sentence in candidates:
            sentence.cosine = float(vectors[sentence.info.text] @ query)
            sentence.score = 0.6 * sentence.cosine + 0.4 * overlaps[id(sentence)]
        ranked = sorted(candidates, key=lambda s: -s.score)
        return [s for s in ranked[:_TOP_SENTENCES] if s.score >= _MIN_ALIGN]

    def _by_similarity(
        self,
        fact: Fact,
        parts: _FactParts,
        top: list[Sentence],
        base: Finding,
        bound: list[Sentence],
    ) -> tuple[Finding, list[Sentence]]:
        """Support an unmatched base by a calibrated similarity, values checked by rules.

        A sentence about the subject that is at least ``SIMILARITY_SUPPORT`` close to the
        fact supports the base when it states every number and date of the fact, every
        name word of its object and qualifiers, replaces no word of the object, and is
        negated exactly when the fact is.
        """
        for sentence in sorted(top, key=lambda s: -s.cosine):
            if not self._values_present(fact, parts, sentence) or not _holds_key_words(
                parts, sentence
            ):
                continue
            base.similar = sentence.cosine
            if sentence.cosine < SIMILARITY_SUPPORT:
                break
            finding = Finding(
                Status.SUPPORTED,
                sentence,
                None,
                f"aligned by similarity {sentence.cosine:.2f}",
                sentence.score,
            )
            return finding, [sentence]
        return base, bound

    @staticmethod
    def _values_present(fact: Fact, parts: _FactParts, sentence: Sentence) -> bool:
        """True when the sentence carries the fact's checkable values and polarity."""
        info = sentence.info
        if is_negated(list(info.tokens)) != parts.negated or antonym_in(parts.object, info):
            return False
        hit = _relation_hit(parts, info)
        if (
            isinstance(hit, Token)
            and sentence.subject != REFERS
            and roles_differ(parts.subject, parts.object, info, hit)
        ):
            return False
        values = [parts.object] + [analyse(q.value) for q in fact.qualifiers]
        for value in values:
            if values_relation(value, info, set(), set())[0] != "match":
                return False
            if not all(name_word_in(t, info) for t in value.content if t.is_capitalised):
                return False
        return substitution(parts.object, info) is None

    def _relation_by_embedding(self, parts: _FactParts, fact: Fact, sentence: TextInfo) -> bool:
        """True when the words linking subject and object in the sentence mean the relation.

        Used only when no word of the relation (or a synonym) occurs: the linking phrase
        is embedded and compared with the relation phrase.
        """
        subject_stems = {p.stem for p in parts.subject.content}
        subject_end = max((t.end for t in sentence.tokens if t.stem in subject_stems), default=None)
        object_start = min(
            (
                t.start
                for t in sentence.tokens
                if any(t.stem == p.stem for p in parts.object.content)
                and (subject_end is None or t.start >= subject_end)
            ),
            default=None,
        )
        if subject_end is None or object_start is None:
            return False
        link = sentence.text[subject_end:object_start].strip(" ,;:")
        if not link or len(link.split()) > 12:
            return False
        vectors = self._embed([fact.relation, link])
        return float(vectors[0] @ vectors[1]) >= RELATION_COSINE

    # ---- judgement

    def _judge_base(
        self, fact: Fact, parts: _FactParts, top: list[Sentence]
    ) -> tuple[Finding, list[Sentence]]:
        """Judge the base triple against each aligned sentence; support wins, then conflict.

        Returns the finding and every sentence that supports the base (best first): the
        windows a qualifier may be bound to.
        """
        contradiction: Finding | None = None
        supported: list[tuple[Sentence, str]] = []
        for sentence in top:
            if sentence.subject <= 0 or not _subject_values_match(parts, sentence.info):
                continue
            info = sentence.info
            hit = _relation_hit(parts, info)
            outcome, wrong, _, _ = values_relation(parts.object, info, set(), set())
            text = _text_matches(parts.object, sentence)
            if outcome == "match" and text.ok:
                relation_ok = hit is not None or self._relation_by_embedding(parts, fact, info)
                if not relation_ok or (
                    isinstance(hit, Token)
                    and sentence.subject != REFERS
                    and roles_differ(parts.subject, parts.object, info, hit)
                ):
                    continue
                anchor = hit if isinstance(hit, Token) else None
                verbatim = text.reason in ("stated", "named")
                if (not verbatim or hit is None) and (
                    not _holds_key_words(parts, sentence)
                    or is_negated(list(info.tokens)) != parts.negated
                ):
                    # A paraphrase (of the object, or of the relation by embedding) must keep
                    # some of the fact's key words and be as negated as the fact.
                    continue
                if _negated(info, anchor, parts) != parts.negated:
                    contradiction = contradiction or Finding(
                        Status.CONTRADICTED,
                        sentence,
                        fact.relation,
                        "negation differs from the aligned sentence",
                        sentence.score,
                    )
                    continue
                supported.append(
                    (sentence, "subject, relation and object aligned" if verbatim else text.reason)
                )
                continue
            if (
                contradiction is not None
                or supported
                or hit is None
                or sentence.subject < 0.6
                or _subject_extended(parts.subject, sentence)
            ):
                continue
            # A bare value after a contentless relation ("is 2017") has no slot to clash in,
            # unless it is a measured quantity ("is 9,000 metres" against "at 8,849 metres").
            if (
                outcome == "conflict"
                and text.ok
                and not _NAMED_BY_NUMBER.match(parts.object.text)
                and (hit is not True or parts.object.content or _measured(parts.object))
            ):
                contradiction = Finding(
                    Status.CONTRADICTED,
                    sentence,
                    wrong,
                    "the aligned sentence states another value",
                    sentence.score,
                )
            elif isinstance(hit, Token) and parts.object.is_name and not text.ok:
                rival = self._rival(fact, parts, info, hit)
                if rival:
                    contradiction = Finding(
                        Status.CONTRADICTED,
                        sentence,
                        fact.object,
                        f"the aligned sentence names {rival!r} instead",
                        sentence.score,
                    )
        if supported:
            best, reason = supported[0]
            finding = Finding(Status.SUPPORTED, best, None, reason, best.score)
            return finding, [s for s, _ in supported]
        return contradiction or Finding(Status.INSUFFICIENT, top[0] if top else None), []

    @staticmethod
    def _rival(fact: Fact, parts: _FactParts, info: TextInfo, hit: Token) -> str | None:
        """A same-type entity in the object's slot of the sentence, if there is one."""
        query = parts.query
        start = query.rfind(fact.object)
        kind = entity_type(query, start, start + len(fact.object)) if start >= 0 else None
        if kind is None:
            return None
        return rival_entity(info, kind, hit, [parts.subject])

    def _window(
        self, parts: _FactParts, bound: Sentence, by_place: dict[tuple[int, int], Sentence]
    ) -> list[Sentence]:
        """The evidence window of an event: its sentence, and the next one when it continues.

        The next sentence continues the event when it refers back to the subject ("It
        took place in ...") without stating the relation again: "She won the Nobel Prize
        in Chemistry in 1911" after the Physics sentence is another event.
        """
        window = [bound]
        after = by_place.get((bound.passage, bound.index + 1))
        if (
            after is not None
            and after.subject == REFERS
            and not isinstance(_relation_hit(parts, after.info), Token)
        ):
            window.append(after)
        return window

    def _judge_qualifier(
        self,
        fact: Fact,
        parts: _FactParts,
        label: str,
        value: str,
        base: Finding,
        bound: list[Sentence],
        top: list[Sentence],
        by_place: dict[tuple[int, int], Sentence],
    ) -> Finding:
        """Judge one qualifier in the window the base triple is bound to, and only there.

        A value stated only in a sentence about another event is not support. A rival value
        counts only in the bound sentence itself, and only when the base was judged there.
        Without a supported base there is no event to bind to, so the qualifier stays
        insufficient. A continuation sentence is read only when the bound sentence states
        no rival value (a date of another event is not this one's).
        """
        claim = analyse(value)
        if not claim.content and not claim.dates and not claim.numbers:
            return Finding(Status.INSUFFICIENT, None, reason="the qualifier has no value")
        if not bound:
            return Finding(
                Status.INSUFFICIENT,
                base.sentence,
                reason="the base is not bound to an evidence window",
            )
        for anchor in bound:
            for sentence in self._window(parts, anchor, by_place):
                skip_d, skip_n = self._base_values(parts, sentence)
                outcome, _, _, _ = values_relation(claim, sentence.info, skip_d, skip_n)
                if outcome == "match" and _text_matches(claim, sentence).ok:
                    return Finding(
                        Status.SUPPORTED,
                        sentence,
                        None,
                        "qualifier value stated in the base's evidence window",
                        anchor.score,
                        window_start=anchor,
                    )
                if outcome == "conflict":
                    break  # the bound sentence names another value: its neighbour is no help
        judged = base.sentence
        if (
            judged is None
            or base.status == Status.INSUFFICIENT
            or _subject_extended(parts.subject, judged)
        ):
            return Finding(Status.INSUFFICIENT, bound[0] if bound else None)
        skip_d, skip_n = self._base_values(parts, judged)
        outcome, wrong, _, _ = values_relation(claim, judged.info, skip_d, skip_n)
        text_ok = _text_matches(claim, judged).ok
        if outcome == "conflict" and text_ok:
            return Finding(
                Status.CONTRADICTED,
                judged,
                wrong,
                "the sentence the base is bound to states another value",
                judged.score,
            )
        if claim.is_name and not text_ok:
            rival = self._qualifier_rival(fact, parts, label, value, judged.info)
            if rival:
                return Finding(
                    Status.CONTRADICTED,
                    judged,
                    value,
                    f"the sentence the base is bound to names {rival!r} instead",
                    judged.score,
                )
        return Finding(Status.INSUFFICIENT, judged)

    @staticmethod
    def _base_values(parts: _FactParts, sentence: Sentence) -> tuple[set[int], set[int]]:
        """Indexes of the sentence's dates and numbers that state the subject or object."""
        _, _, od, on = values_relation(parts.object, sentence.info, set(), set())
        _, _, sd, sn = values_relation(parts.subject, sentence.info, set(), set())
        return od | sd, on | sn

    @staticmethod
    def _qualifier_rival(
        fact: Fact, parts: _FactParts, label: str, value: str, info: TextInfo
    ) -> str | None:
        """A same-type entity after the qualifier's cue word ("in", "at", the label)."""
        text = f"{parts.query} {label} {value}"
        cues = {t.text.lower() for t in analyse(label).tokens}
        for token in analyse(label).tokens:
            cues |= _LABEL_CUES.get(token.stem, set())
        # A name NER cannot type in the odd joined text is typed alone, or as a place when
        # its label is a place preposition ("to Villeurbanne").
        kind = (
            entity_type(text, len(text) - len(value), len(text))
            or entity_type(value, 0, len(value))
            or ("PLACE_ORG" if cues & {"in", "at", "to", "from", "near"} else None)
        )
        if kind is None:
            return None
        return rival_entity(info, kind, cues, [parts.subject, parts.object])

    # ---- verdict


_verifier: AlignmentVerifier | None = None
_verifier_lock = threading.Lock()


def get_verifier() -> AlignmentVerifier:
    """The process-wide verifier (its sentence-vector cache is shared; thread-safe)."""
    global _verifier
    if _verifier is None:
        with _verifier_lock:
            if _verifier is None:
                _verifier = AlignmentVerifier()
    return _verifier
