"""Decomposition by any LangChain chat model: one structured call per batch of chunks.

The prompt numbers the text's sentences and the answer is one flat row per fact citing its
sentence by number (no sentence copied, no field named: fewer output tokens per fact); the
number maps back to the sentence's exact span, so every fact gets its span.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated, Any, NamedTuple

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, model_validator
from pydantic.json_schema import SkipJsonSchema

from triqua.context import DEFAULT_MODEL_TIMEOUT
from triqua.core.text.chunking import previous_text
from triqua.engines.base import Decomposer, DecomposeResult
from triqua.engines.llm.calls import StructuredCaller, model_revision, raw_text, usage_of
from triqua.prompts import (
    PromptPart,
    compact_answer,
    compact_schema,
    decompose_parts_prompt,
    decompose_system,
    prompt_mode,
)
from triqua.schema import Chunk, Fact, Qualifier, Span
from triqua.sentences import sentence_spans, unmatched_sentences

_WORD = re.compile(r"\w+")


class ExtractedFact(BaseModel):
    """A fact: subject, relation, object, [label, value] qualifiers."""

    model_config = ConfigDict(json_schema_extra=compact_schema)

    s: str
    r: str
    o: str = ""
    q: list[list[str]] = Field(default_factory=list)


class SentenceFacts(BaseModel):
    """A source sentence and its facts."""

    model_config = ConfigDict(json_schema_extra=compact_schema)

    sentence: str
    facts: list[ExtractedFact]


def _long_form(facts: Any) -> bool:
    """True for a list of facts in the long form: ``subject``, ``relation``, ... dicts."""
    return isinstance(facts, list) and all(
        isinstance(f, dict)
        and isinstance(f.get("subject"), str)
        and isinstance(f.get("relation"), str)
        and isinstance(f.get("object", ""), str)
        and isinstance(f.get("source_sentence", ""), str)
        and isinstance(f.get("qualifiers") or [], list)
        and all(
            isinstance(q, dict)
            and isinstance(q.get("label"), str)
            and isinstance(q.get("value"), str)
            for q in f.get("qualifiers") or []
        )
        for f in facts
    )


#: A fact row: ``[sentence number, subject, relation, object, label, value, …]``. The
#: schema says only "an array": the system prompt says what each position holds.
_Rows = Annotated[
    list[list[str | int]], WithJsonSchema({"type": "array", "items": {"type": "array"}})
]


class Row(NamedTuple):
    """One fact row read back: its sentence (number, or text in the earlier form) and parts."""

    sentence: int | str
    s: str
    r: str
    o: str
    q: list[list[str]]


class ExtractedFacts(BaseModel):
    """Facts, each citing its sentence by number."""

    model_config = ConfigDict(json_schema_extra=compact_schema)

    # One flat row per fact, its sentence cited by the number the prompt shows it with: the
    # answer copies no sentence and names no field (see ``numbered_answer``). Rows are
    # required, so an answer in another shape fails (and is retried) rather than reading as
    # "no facts".
    f: _Rows
    # The earlier forms, still accepted (never asked for, so not in the schema): facts
    # grouped under their copied sentence text.
    sentences: SkipJsonSchema[list[SentenceFacts]] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _from_earlier_forms(cls, data: Any) -> Any:
        """Accept the earlier forms: long per-fact and grouped by copied sentence.

        The long form is ``facts`` of ``subject`` ... ``source_sentence``; the grouped one,
        ``sentences`` of ``sentence`` and ``facts``. Models shown those forms elsewhere
        still answer in them; the facts are the same.
        """
        if not isinstance(data, dict) or "f" in data:
            return data
        if "sentences" not in data and _long_form(data.get("facts")):
            return {"f": [], **compact_answer(data["facts"])}
        if "sentences" in data:
            return {"f": [], **data}
        return data

    @model_validator(mode="after")
    def _rows_are_facts(self) -> ExtractedFacts:
        """Each row holds a sentence number, a subject, a relation and strings after them."""
        for row in self.f:
            if len(row) < 3 or not _is_number(row[0]):
                raise ValueError(f"a fact row starts: sentence number, subject, relation: {row}")
            if not all(isinstance(part, str) for part in row[1:]):
                raise ValueError(f"a fact row holds text after its sentence number: {row}")
        return self

    def rows(self) -> list[Row]:
        """Every fact of the answer, in order, whichever form it came in."""
        out = [
            Row(
                int(row[0]),
                str(row[1]),
                str(row[2]),
                str(row[3]) if len(row) > 3 else "",
                [[str(a), str(b)] for a, b in zip(row[4::2], row[5::2], strict=False)],
            )
            for row in self.f
        ]
        for group in self.sentences:
            out.extend(Row(group.sentence, f.s, f.r, f.o, f.q) for f in group.facts)
        return out


def _is_number(value: str | int) -> bool:
    return isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit())


def locate(source_sentence: str, chunk: Chunk, after: int = 0) -> Span | None:
    """Span of ``source_sentence`` in the full text; None when the chunk does not hold it.

    The first occurrence at or after offset ``after`` of the chunk counts, else the first
    anywhere in it: sentences come back in text order, so searching on from the last one
    places a sentence that the text repeats at the occurrence meant.
    """
    sentence = source_sentence.strip()
    if not sentence:
        return None
    at = chunk.text.find(sentence, after)
    if at < 0:
        at = chunk.text.find(sentence)
    if at < 0:
        return None
    return Span(start=chunk.start + at, end=chunk.start + at + len(sentence))


def _qualifiers(pairs: list[list[str]]) -> list[Qualifier]:
    """Well-formed [label, value] pairs as qualifiers; anything else is dropped."""
    return [
        Qualifier(label=pair[0].strip(), value=pair[1].strip())
        for pair in pairs
        if len(pair) == 2 and pair[0].strip() and pair[1].strip()
    ]


def _words(text: str) -> set[str]:
    return {w.casefold() for w in _WORD.findall(text)}


def _by_overlap(row: Row, chunk: Chunk, spans: Sequence[tuple[int, int]]) -> Span | None:
    """The chunk's sentence sharing the most words with the fact (ties: the earlier).

    None when no sentence shares a word.
    """
    wanted = _words(" ".join([row.s, row.r, row.o, *(v for _, v in row.q)]))
    best = max(((len(wanted & _words(chunk.text[s:e])), -s, s, e) for s, e in spans), default=None)
    if best is None or best[0] == 0:
        return None
    return Span(start=chunk.start + best[2], end=chunk.start + best[3])


def facts_of(
    parsed: ExtractedFacts, chunk: Chunk, spans: Sequence[tuple[int, int]] | None = None
) -> list[Fact]:
    """The parsed answer as facts with spans in the full text.

    A sentence number is read against ``spans``, the chunk's sentences as the prompt
    numbered them (found again when not given), so each fact gets its sentence's exact span
    and text. A number that is no sentence of the prompt, or a copied sentence not found in
    the chunk, is placed on the chunk's sentence sharing the most words with the fact; when
    none shares a word the fact keeps the whole chunk as its span (kept, and its sentence not
    claimed as checked).
    """
    if spans is None:
        spans = sentence_spans(chunk.text)
    facts = []
    cursor = 0
    for row in parsed.rows():
        if not row.s.strip() or not row.r.strip():
            continue
        span: Span | None = None
        if isinstance(row.sentence, int):
            if 1 <= row.sentence <= len(spans):
                start, end = spans[row.sentence - 1]
                span = Span(start=chunk.start + start, end=chunk.start + end)
        else:
            span = locate(row.sentence, chunk, cursor)
            if span is not None:
                cursor = span.end - chunk.start
        span = span or _by_overlap(row, chunk, spans) or Span(start=chunk.start, end=chunk.end)
        facts.append(
            Fact(
                subject=row.s.strip(),
                relation=row.r.strip(),
                object=row.o.strip(),
                qualifiers=_qualifiers(row.q),
                span=span,
                chunk_index=chunk.index,
                source_text=chunk.text[span.start - chunk.start : span.end - chunk.start],
            )
        )
    return facts


class LLMDecomposer(Decomposer):
    """Decomposition by a chat model, in one of the four prompt modes."""

    def __init__(
        self,
        model: BaseChatModel,
        *,
        max_retries: int = 2,
        retry_wait: float = 1.0,
        timeout: float | None = DEFAULT_MODEL_TIMEOUT,
    ) -> None:
        self.revision = model_revision(model)
        self._caller = StructuredCaller(model, ExtractedFacts, max_retries, retry_wait, timeout)

    def decompose(
        self,
        chunk: Chunk,
        *,
        previous_chunk: str | None,
        question: str | None,
        chunked: bool,
        parts: Sequence[Chunk] = (),
    ) -> DecomposeResult:
        """Decompose one chunk, or a merged chunk's ``parts`` in one call; failures are recorded.

        Each part is shown as its own TEXT after its own PREVIOUS (the part before it, or
        ``previous_chunk`` for the first), as TriQua shows a chunk; sentence numbers run on
        across the parts and map back to spans in ``chunk``.
        """
        pieces = list(parts) or [chunk]
        shown: list[PromptPart] = []
        spans: list[tuple[int, int]] = []
        texts = [previous_chunk, *(piece.text for piece in pieces)]
        for k, piece in enumerate(pieces):
            own = sentence_spans(piece.text)
            shown.append(PromptPart(piece.text, previous_text(texts, k + 1), own))
            shift = piece.start - chunk.start
            spans += [(start + shift, end + shift) for start, end in own]
        user = decompose_parts_prompt(shown, question=question, chunked=chunked)
        # The few-shot examples are rendered in this call's prompt mode, as the input is.
        mode = prompt_mode(has_question=bool(question), chunked=chunked)
        messages = [SystemMessage(decompose_system(mode)), HumanMessage(user)]
        try:
            parsed, raw, usage = self._caller.invoke(messages)
        except Exception as exc:  # provider errors and malformed output after retries
            return DecomposeResult(
                error=f"decompose failed for chunk {chunk.index}: {type(exc).__name__}: {exc}",
                usage=usage_of(None, messages, self._caller.schema),
            )
        facts = facts_of(parsed, chunk, spans)
        return DecomposeResult(
            facts=facts,
            usage=usage,
            raw_output=raw_text(raw),
            undecomposed=unmatched_sentences(chunk, [f.span for f in facts]),
        )
