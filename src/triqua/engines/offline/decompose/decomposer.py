"""Offline TriQua decomposer: rule-based facts from spaCy's dependency parse.

Used when no chat model is configured. Each chunk is parsed with ``en_core_web_sm`` (loaded
once per process), pronouns are resolved against the chunk, the previous chunk and the
question, and every sentence goes through the clause rules of ``rules``. Each fact
keeps the character span of its sentence in the full checked text; a sentence that gives no
fact (a question, an opinion, a fragment, an unresolved pronoun) is reported by its span.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, TypedDict, Unpack

from triqua.core.reading.gapping import ungapped
from triqua.engines.offline.decompose.answers import (
    answer_statement,
    is_short_answer,
    last_question,
)
from triqua.engines.offline.decompose.arguments import RawFact
from triqua.engines.offline.decompose.asides import Compacted, compact
from triqua.engines.offline.decompose.coref import Mention, collect_mentions, resolve_pronouns
from triqua.engines.offline.decompose.merges import repair_tokens
from triqua.engines.offline.decompose.rules import extract_facts, read_sentence
from triqua.engines.offline.decompose.tables import mask_tables, outside_tables, read_tables
from triqua.engines.revisions import DECOMPOSER_REVISION as DECOMPOSER_REVISION
from triqua.engines.revisions import RULES_VERSION as RULES_VERSION
from triqua.nlp.parses import parse_many
from triqua.nlp.pipeline import NLP_LOCK, load_nlp
from triqua.nlp.pipeline import SPACY_MODEL as SPACY_MODEL  # re-exported
from triqua.schema import Fact, Qualifier, Span
from triqua.sentences import is_list_marker
from triqua.support.once import once

if TYPE_CHECKING:
    from triqua.nlp.tokens import Doc, Language, Token
    from triqua.nlp.tokens import Span as DocSpan

PIECE_CHARS = 5_000
"""Texts longer than this are parsed in pieces, cut at sentence ends where possible."""
LOOKAHEAD_CHARS = 4_000
"""Of a planned run, the chunks after the one asked for parsed with it, up to this many chars."""
_PARSED_DOCS = 128  # parsed pieces kept for the chunks asked for next (and their context)
_PLANS = 8  # runs whose chunk lists are kept for look-ahead

_MARKUP = re.compile(r"<[^<>]{0,500}>")
_SENTENCE_END = re.compile(r"[.!?。！？]\s+")


_parse_lock = NLP_LOCK  # the shared pipeline's lock


class ChunkPlace(TypedDict, total=False):
    """Where a chunk sits and what precedes it: the keywords of ``decompose``/``analyse``."""

    offset: int
    chunk_index: int
    previous_chunk: str | None
    question: str | None


@dataclass(frozen=True)
class ChunkInput:
    """One chunk to decompose, with where it sits in the full text and its context."""

    text: str
    offset: int = 0
    chunk_index: int = 0
    previous_chunk: str | None = None
    question: str | None = None


@dataclass(frozen=True)
class ChunkFacts:
    """What one chunk gave: its facts, and the spans of its sentences that gave none."""

    facts: list[Fact]
    undecomposed: list[Span]
    statements: list[tuple[Span, str]] = field(default_factory=list)
    """Short answers read with the question: each answer's span and the statement it makes."""


@dataclass(frozen=True)
class _Piece:
    request: int
    start: int
    text: Compacted


class _MentionCache:
    """Small thread-safe LRU of the mentions found in context texts, keyed by text."""

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._items: OrderedDict[str, list[Mention]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, text: str) -> list[Mention] | None:
        with self._lock:
            found = self._items.get(text)
            if found is not None:
                self._items.move_to_end(text)
            return found

    def put(self, text: str, mentions: list[Mention]) -> None:
        with self._lock:
            self._items[text] = mentions
            self._items.move_to_end(text)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


class RuleDecomposer:
    """Decomposes text into TriQua facts with dependency-parse rules (no model calls).

    spaCy parses many short texts in one ``nlp.pipe`` call much faster than one call each
    (~1.7 s against ~2.9 s for the 195 chunks of 40 KB of bios), but a run's chunks reach
    the decomposer one call each. So a run announces its chunks (:meth:`plan`), and a chunk
    that is not parsed yet is parsed together with the chunks that follow it (up to
    ``LOOKAHEAD_CHARS``); their parses wait in a small cache keyed by text. A parse does not
    depend on what it was batched with, so the facts are the same either way.
    """

    revision = DECOMPOSER_REVISION

    def __init__(self, nlp: Language | None = None, *, batch_size: int = 64) -> None:
        self._given_nlp = nlp
        self._batch_size = batch_size
        self._mentions = _MentionCache()
        self._docs: OrderedDict[str, Doc] = OrderedDict()  # guarded by _parse_lock
        self._plans: deque[dict[str, list[str]]] = deque(maxlen=_PLANS)

    def plan(self, chunks: Sequence[str]) -> None:
        """Announce a run's chunks, in order, so each parse can take the next ones along."""
        following: dict[str, list[str]] = {}
        for i, text in enumerate(chunks):
            ahead, size = [], 0
            for later in chunks[i + 1 :]:
                size += len(later)
                if size > LOOKAHEAD_CHARS:
                    break
                ahead.append(later)
            following.setdefault(text, ahead)
        with _parse_lock:
            self._plans.append(following)

    @property
    def nlp(self) -> Language:
        """The spaCy pipeline, loaded on first use."""
        return self._given_nlp or load_nlp()

    def decompose(self, chunk: str, **place: Unpack[ChunkPlace]) -> list[Fact]:
        """Facts of one chunk; spans are ``offset`` plus positions in ``chunk``."""
        return self.analyse(chunk, **place).facts

    def decompose_many(self, chunks: Sequence[ChunkInput | str]) -> list[list[Fact]]:
        """Facts of many chunks, parsed together in one ``nlp.pipe`` batch; one list each."""
        return [found.facts for found in self.analyse_many(chunks)]

    def analyse(self, chunk: str, **place: Unpack[ChunkPlace]) -> ChunkFacts:
        """Facts of one chunk and the spans (``offset`` based) of sentences that gave none."""
        return self.analyse_many([ChunkInput(chunk, **place)])[0]

    def analyse_many(self, chunks: Sequence[ChunkInput | str]) -> list[ChunkFacts]:
        """Facts and not-decomposed sentences of many chunks, parsed in one batch."""
        requests = [c if isinstance(c, ChunkInput) else ChunkInput(c) for c in chunks]
        pieces = [
            _Piece(n, start, text)
            for n, request in enumerate(requests)
            for start, text in _pieces(request.text)
        ]
        docs = self._parse([p.text.text for p in pieces], requests[0].text if requests else None)
        grouped: list[list[tuple[int, Doc]]] = [[] for _ in requests]
        cut: list[list[Compacted]] = [[] for _ in requests]
        for piece, doc in zip(pieces, docs, strict=True):
            grouped[piece.request].append((piece.start, doc))
            cut[piece.request].append(piece.text)
        out = []
        for request, parsed, texts in zip(requests, grouped, cut, strict=True):
            self._mentions.put(request.text, _mentions_of(parsed))
            out.append(self._facts(request, parsed, texts))
        return out

    def _parse(self, texts: list[str], chunk: str | None = None) -> list[Doc]:
        """Parses of ``texts`` (pieces of ``chunk``, when given), from the cache or fresh.

        Missing pieces are parsed in one batch with the pieces of the chunks planned after
        ``chunk``, which wait in the cache for their own call.
        """
        if not texts:
            return []
        nlp = self.nlp
        with _parse_lock:
            missing = [t for t in dict.fromkeys(texts) if t not in self._docs]
            if missing:
                ahead = [
                    piece
                    for later in self._following(chunk)
                    for _, piece in _pieces(later)
                    if piece.text not in self._docs
                ]
                batch = list(dict.fromkeys([*missing, *(piece.text for piece in ahead)]))
                for text, doc in zip(batch, self._pipe(nlp, batch), strict=True):
                    repair_tokens(doc)
                    self._docs[text] = doc
            docs = [self._docs[t] for t in texts]
            for text in texts:
                self._docs.move_to_end(text)
            while len(self._docs) > _PARSED_DOCS:
                self._docs.popitem(last=False)
        return docs

    def _pipe(self, nlp: Language, texts: list[str]) -> list[Doc]:
        """Parses of ``texts`` to merge tokens in: copies of those kept in ``nlp.parses``."""
        if self._given_nlp is None and all(texts):
            return [doc.copy() for doc in parse_many(texts) if doc is not None]
        return list(nlp.pipe(texts, batch_size=self._batch_size))

    def _following(self, chunk: str | None) -> list[str]:
        """The chunks planned after ``chunk`` within the look-ahead (latest plan first)."""
        if chunk is None:
            return []
        for plan in reversed(self._plans):
            if chunk in plan:
                return plan[chunk]
        return []

    def _context_mentions(self, text: str) -> list[Mention]:
        found = self._mentions.get(text)
        if found is None:
            pieces = _pieces(text)
            docs = self._parse([piece.text for _, piece in pieces])
            found = _mentions_of(
                [(start, doc) for (start, _), doc in zip(pieces, docs, strict=True)]
            )
            self._mentions.put(text, found)
        return found

    def _facts(
        self, request: ChunkInput, parsed: list[tuple[int, Doc]], texts: list[Compacted]
    ) -> ChunkFacts:
        contexts = [t for t in (request.previous_chunk, request.question) if t and t.strip()]
        fallbacks = [partial(self._context_mentions, t) for t in contexts]
        referents = resolve_pronouns(parsed, fallbacks)
        facts: list[Fact] = []
        skipped: list[Span] = []
        statements: list[tuple[Span, str]] = []
        masked = _mask_markup(request.text)
        first = request.offset == 0  # only the answer's opening sentence can be a short answer
        for (base, doc), text in zip(parsed, texts, strict=True):

            def refer(token: Token, base: int = base) -> str | None:
                if token.pos_ == "PROPN":  # a lone surname's full name, keyed by its end
                    return referents.get(base + token.idx + len(token.text))
                return referents.get(base + token.idx)

            for sent in doc.sents:
                bounds = _strip_bounds(
                    request.text,
                    base + text.to_original(sent.start_char),
                    base + text.to_original(sent.end_char, end=True),
                )
                if bounds is None:
                    continue
                start, end = bounds
                held = [a for a in text.asides if sent.start_char < a.at <= sent.end_char]
                raw, used = read_sentence(sent, refer, {a.at: a.text for a in held})
                restored = ungapped(sent.text)  # "… in 1994 and Germany in 2014": each its own
                if restored is not None:
                    raw = self._statement_facts(restored, fallbacks) or raw
                # A fact needs a subject and a relation; word soup can parse to neither.
                raw = [r for r in raw if r.subject.strip() and r.relation.strip()]
                said = masked[start:end]
                opening = first and any(ch.isalnum() for ch in said)
                first = first and not opening
                if not raw and opening and request.question and is_short_answer(sent):
                    statement = self._answer_statement(request.question, sent)
                    if statement is not None:
                        raw = self._statement_facts(statement, fallbacks)
                        if raw:
                            at = Span(start=request.offset + start, end=request.offset + end)
                            statements.append((at, statement))
                if not raw and any(ch.isalnum() for ch in said) and not is_list_marker(said):
                    skipped.append(Span(start=request.offset + start, end=request.offset + end))
                elif raw:
                    # An aside with a number or date that gave no fact ("(8,849 m)") states
                    # something no fact checks: it is listed as not decomposed, by its span.
                    skipped += [
                        Span(
                            start=request.offset + base + a.start, end=request.offset + base + a.end
                        )
                        for a in held
                        if a.at not in used and any(ch.isdigit() for ch in a.text)
                    ]
                facts += [_fact(r, request, start, end) for r in raw]
        facts += self._table_facts(request, skipped)
        return ChunkFacts(facts, sorted(skipped, key=lambda span: span.start), statements)

    def _table_facts(self, request: ChunkInput, skipped: list[Span]) -> list[Fact]:
        """Facts of the chunk's table rows, each spanning its row; unread ones to ``skipped``."""
        rows, unread = read_tables(request.text, lambda said: self._statement_facts(said, []))
        skipped += [Span(start=request.offset + a, end=request.offset + b) for a, b in unread]
        return [_fact(r, request, start, end) for start, end, raw in rows for r in raw]

    def _answer_statement(self, question: str, answer: DocSpan) -> str | None:
        """The statement a short ``answer`` makes in reply to the question's last question."""
        parsed = self._parse([question])[0]
        asked = last_question(parsed)
        return None if asked is None else answer_statement(asked, answer)

    def _statement_facts(
        self, statement: str, fallbacks: Sequence[Callable[[], Sequence[Mention]]]
    ) -> list[RawFact]:
        """The facts of a rewritten answer, its pronouns resolved against the context."""
        doc = self._parse([statement])[0]
        referents = resolve_pronouns([(0, doc)], fallbacks)

        def refer(token: Token) -> str | None:
            if token.pos_ == "PROPN":
                return referents.get(token.idx + len(token.text))
            return referents.get(token.idx)

        return [fact for sent in doc.sents for fact in extract_facts(sent, refer)]


def _fact(raw: RawFact, request: ChunkInput, start: int, end: int) -> Fact:
    """A fact of ``request`` stated by its text's ``[start, end)``."""
    return Fact(
        subject=raw.subject,
        relation=raw.relation,
        object=raw.object,
        qualifiers=[Qualifier(label=lab, value=val) for lab, val in raw.qualifiers],
        span=Span(start=request.offset + start, end=request.offset + end),
        chunk_index=request.chunk_index,
        source_text=request.text[start:end],
    )


def _mentions_of(parsed: list[tuple[int, Doc]]) -> list[Mention]:
    return [m for base, doc in parsed for m in collect_mentions(doc, base)]


def _mask_markup(text: str) -> str:
    """Blank out HTML/XML tags and Markdown tables, keeping every character offset unchanged."""
    return mask_tables(_MARKUP.sub(lambda m: " " * len(m.group()), text))


def _pieces(text: str) -> list[tuple[int, Compacted]]:
    """The pieces a chunk is parsed in: markup masked, tables left out, cut, asides cut out."""
    masked = _mask_markup(text)
    return [
        (at + start, compact(piece))
        for at, stretch in outside_tables(text)
        for start, piece in _split(masked[at : at + len(stretch)])
    ]


def _split(text: str) -> list[tuple[int, str]]:
    """Cut a text into pieces of at most ``PIECE_CHARS``, preferring sentence ends."""
    pieces: list[tuple[int, str]] = []
    start = 0
    while len(text) - start > PIECE_CHARS:
        window = text[start : start + PIECE_CHARS]
        cut = 0
        for match in _SENTENCE_END.finditer(window, PIECE_CHARS // 2):
            cut = match.end()
        if not cut:
            cut = window.rfind(" ", PIECE_CHARS // 2) + 1 or PIECE_CHARS
        pieces.append((start, window[:cut]))
        start += cut
    if text[start:].strip():
        pieces.append((start, text[start:]))
    return pieces


def _strip_bounds(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Shrink ``[start, end)`` to exclude surrounding whitespace; ``None`` when it is blank."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None


@once
def get_decomposer() -> RuleDecomposer:
    """The process-wide decomposer, created on first use."""
    return RuleDecomposer()
