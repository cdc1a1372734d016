"""Decomposition by any LangChain chat model: one structured call per batch of chunks.

The answer groups facts by source sentence with short field names (fewer output tokens per
fact); each sentence is located in the text so every fact gets its span.
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, ConfigDict, Field, model_validator

from triqua.context import DEFAULT_MODEL_TIMEOUT
from triqua.engines.base import Decomposer, DecomposeResult
from triqua.engines.llm_calls import StructuredCaller, model_revision, raw_text, usage_of
from triqua.prompts import (
    compact_answer,
    compact_schema,
    decompose_system,
    decompose_user_prompt,
    prompt_mode,
)
from triqua.schema import Chunk, Fact, Qualifier, Span
from triqua.sentences import unmatched_sentences


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


class ExtractedFacts(BaseModel):
    """Facts by sentence."""

    model_config = ConfigDict(json_schema_extra=compact_schema)

    # Short field names and no field descriptions: the schema is sent with every call and
    # the system prompt already says what each field holds. Every field is required, so an
    # answer in another shape fails (and is retried) rather than reading as "no facts".
    sentences: list[SentenceFacts]

    @model_validator(mode="before")
    @classmethod
    def _from_long_form(cls, data: Any) -> Any:
        """Accept the long per-fact form too (``facts`` of ``subject`` ... ``source_sentence``).

        Models shown that form elsewhere still answer in it; the facts are the same.
        """
        if isinstance(data, dict) and "sentences" not in data and _long_form(data.get("facts")):
            return compact_answer(data["facts"])
        return data


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


def facts_of(parsed: ExtractedFacts, chunk: Chunk) -> list[Fact]:
    """The parsed answer as facts with spans in the full text.

    A sentence not found in the chunk gets the whole chunk as its span (the fact is kept and
    its sentence is not claimed as checked).
    """
    facts = []
    cursor = 0
    for group in parsed.sentences:
        span = locate(group.sentence, chunk, cursor)
        if span is not None:
            cursor = span.end - chunk.start
        for item in group.facts:
            if not item.s.strip() or not item.r.strip():
                continue
            facts.append(
                Fact(
                    subject=item.s.strip(),
                    relation=item.r.strip(),
                    object=item.o.strip(),
                    qualifiers=_qualifiers(item.q),
                    span=span or Span(start=chunk.start, end=chunk.end),
                    chunk_index=chunk.index,
                    source_text=group.sentence.strip() or chunk.text,
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
        self, chunk: Chunk, *, previous_chunk: str | None, question: str | None, chunked: bool
    ) -> DecomposeResult:
        """Decompose one chunk; a failed call is recorded, not raised."""
        user = decompose_user_prompt(
            chunk.text, question=question, previous_chunk=previous_chunk, chunked=chunked
        )
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
        facts = facts_of(parsed, chunk)
        return DecomposeResult(
            facts=facts,
            usage=usage,
            raw_output=raw_text(raw),
            undecomposed=unmatched_sentences(chunk, [f.span for f in facts]),
        )
