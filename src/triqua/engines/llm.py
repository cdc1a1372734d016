"""LLM roles answered by any LangChain chat model, through structured output.

Each call goes through ``with_structured_output`` and keeps the raw answer; output that does not
parse is retried (bounded, with back-off) and, when retries run out, the failure is recorded
in the result instead of guessing. Nothing the model echoes from the fenced input is trusted:
only the parsed fields are read, and "supported" needs a cited passage of the run and a verbatim
quote from it (the grounding rule, enforced when the verdict is settled).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from typing import Any, Literal

from langchain_core.exceptions import OutputParserException
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import Runnable, RunnableConfig, RunnableLambda, RunnableSequence
from langchain_core.runnables.retry import ExponentialJitterParams
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel, Field, model_validator

from triqua.context import DEFAULT_MODEL_TIMEOUT
from triqua.core.deadline import call_with_deadline
from triqua.core.verify_batches import BatchItem, excerpts, pool_evidence
from triqua.costs import estimate_tokens
from triqua.engines.base import (
    BatchJudgeResult,
    Decomposer,
    DecomposeResult,
    Judge,
    JudgeResult,
    QueryRefiner,
)
from triqua.prompts import (
    compact_answer,
    decompose_system,
    decompose_user_prompt,
    fence,
    load_text,
    prompt_mode,
)
from triqua.schema import (
    Chunk,
    Evidence,
    Fact,
    FactUnit,
    Qualifier,
    Span,
    Status,
    UnitVerdict,
    Usage,
    Verdict,
)
from triqua.sentences import unmatched_sentences


class ExtractedFact(BaseModel):
    """A fact: subject, relation, object, [label, value] qualifiers."""

    s: str
    r: str
    o: str = ""
    q: list[list[str]] = Field(default_factory=list)


class SentenceFacts(BaseModel):
    """A source sentence and its facts."""

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


StatusName = Literal["supported", "contradicted", "insufficient_evidence", "not_checkable"]


class JudgedUnit(BaseModel):
    """The model's verdict on one unit."""

    unit: str = Field(description="The unit exactly as listed: '(s, r, o)' or '(label, value)'.")
    status: StatusName
    error_span: str | None = Field(default=None, description="Exact wrong words, if wrong.")
    evidence_ids: list[str] = Field(
        default_factory=list, description="Ids of the passages this unit's verdict rests on."
    )
    quote: str | None = Field(
        default=None,
        description="Verbatim words of a cited passage that state (or contradict) this unit.",
    )


class Judgement(BaseModel):
    """The model's verdict on a fact."""

    status: StatusName
    wrong_components: list[str] = Field(default_factory=list)
    error_spans: list[str] = Field(default_factory=list)
    unit_verdicts: list[JudgedUnit] = Field(default_factory=list)
    evidence_ids: list[str] = Field(default_factory=list)
    quote: str | None = Field(
        default=None, description="Verbatim words of a cited passage the verdict rests on."
    )
    rationale: str = ""
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)


class JudgedFact(Judgement):
    """The model's verdict on one fact of a batch, named by the fact's label."""

    fact: str = Field(description="The fact's id, as in <<<FACT id=…>>>.")


class BatchJudgement(BaseModel):
    """The model's verdicts on a batch of facts: one per fact."""

    verdicts: list[JudgedFact]


class RefinedQueries(BaseModel):
    """One search query per unit, in order."""

    queries: list[str]


def model_revision(model: BaseChatModel) -> str:
    """A readable revision string for records: provider class and model name."""
    name = getattr(model, "model_name", None) or getattr(model, "model", None) or ""
    return f"{type(model).__name__}:{name}" if name else type(model).__name__


@cache
def schema_tokens(schema: type[BaseModel]) -> int:
    """Estimated tokens of ``schema`` as it is sent with a call (an OpenAI tool definition)."""
    return estimate_tokens(json.dumps(convert_to_openai_tool(schema)))


def _usage_of(
    message: Any, prompt: Sequence[BaseMessage], schema: type[BaseModel] | None = None
) -> Usage:
    """Usage reported by the provider; else token counts estimated from prompt and output.

    Input tokens served from the provider's prompt cache are counted where it reports them
    (``input_token_details.cache_read``); an estimate counts the output schema sent with the
    prompt (``schema``) too.
    """
    usage = getattr(message, "usage_metadata", None) or {}
    if usage:
        details = usage.get("input_token_details") or {}
        return Usage(
            model_calls=1,
            input_tokens=int(usage.get("input_tokens", 0)),
            output_tokens=int(usage.get("output_tokens", 0)),
            cached_input_tokens=int(details.get("cache_read") or 0),
        )
    prompt_text = "\n\n".join(
        m.content if isinstance(m.content, str) else json.dumps(m.content) for m in prompt
    )
    return Usage(
        model_calls=1,
        input_tokens=estimate_tokens(prompt_text) + (schema_tokens(schema) if schema else 0),
        output_tokens=estimate_tokens(_raw_text(message) or ""),
        tokens_estimated=True,
    )


def _require_parsed(result: Any) -> dict[str, Any]:
    if result.get("parsed") is None:
        error = result.get("parsing_error") or "no structured output"
        raise OutputParserException(f"malformed model output: {error}")
    return result


def backoff(wait: float) -> ExponentialJitterParams:
    """Back-off of ``wait`` s before the first retry, doubling each retry, plus up to ``wait`` s.

    LangChain passes only ``initial`` on to tenacity (which, from 9.2, calls it ``multiplier``
    and warns when it is not 1).
    """
    return {"initial": wait, "jitter": wait}


#: The role each structured-output schema answers, as timeout messages name it.
_ROLES = {
    "ExtractedFacts": "decompose",
    "Judgement": "verify",
    "BatchJudgement": "verify",
    "RefinedQueries": "refine",
}


class StructuredCaller:
    """Calls a chat model for one schema, with bounded retries on errors and bad output.

    Each attempt is bounded by ``timeout`` seconds (:func:`call_with_deadline`), whatever the
    model's client does; a timed-out attempt is retried like any failed one.
    """

    def __init__(
        self,
        model: BaseChatModel,
        schema: type[BaseModel],
        max_retries: int,
        retry_wait: float = 1.0,
        timeout: float | None = DEFAULT_MODEL_TIMEOUT,
    ) -> None:
        self.timeout = timeout
        self.schema = schema
        role = _ROLES.get(schema.__name__, schema.__name__)
        self._what = f"{role} model call"
        structured = model.with_structured_output(schema)
        steps = structured.steps if isinstance(structured, RunnableSequence) else []
        call: Runnable[Any, dict[str, Any]]
        if len(steps) >= 2:
            # model | parser: call the two in turn. ``include_raw=True`` would run them through
            # two RunnableParallel steps, each starting a thread pool on every call.
            self._ask: Runnable[Any, Any] = steps[0]
            self._parse: Runnable[Any, Any] = (
                steps[1] if len(steps) == 2 else RunnableSequence(*steps[1:])
            )
            call = RunnableLambda(self._ask_and_parse)
        else:
            raw_and_parsed = model.with_structured_output(schema, include_raw=True)
            call = raw_and_parsed | RunnableLambda(_require_parsed)
        self._attempt = call

        def bounded(messages: list[BaseMessage], config: RunnableConfig) -> dict[str, Any]:
            return call_with_deadline(
                lambda: self._attempt.invoke(messages, config), self.timeout, self._what
            )

        self.runnable: Runnable[Any, dict[str, Any]] = RunnableLambda(bounded).with_retry(
            stop_after_attempt=max_retries + 1,
            wait_exponential_jitter=True,
            exponential_jitter_params=backoff(retry_wait),
        )

    def _ask_and_parse(self, messages: list[BaseMessage], config: RunnableConfig) -> dict[str, Any]:
        """The model's raw answer and its parsed form, as ``include_raw=True`` gives them."""
        raw = self._ask.invoke(messages, config)
        try:
            parsed = self._parse.invoke(raw, config)
        except Exception as exc:
            return _require_parsed({"raw": raw, "parsed": None, "parsing_error": exc})
        return _require_parsed({"raw": raw, "parsed": parsed})

    def invoke(self, messages: list[BaseMessage]) -> tuple[Any, AIMessage | None, Usage]:
        """Return (parsed, raw message, usage); raises after the last failed attempt."""
        result = self.runnable.invoke(messages)
        raw = result.get("raw")
        return result["parsed"], raw, _usage_of(raw, messages, self.schema)


def _raw_text(raw: AIMessage | None) -> str | None:
    if raw is None:
        return None
    if raw.tool_calls:
        return json.dumps([call["args"] for call in raw.tool_calls], ensure_ascii=False)
    return raw.content if isinstance(raw.content, str) else json.dumps(raw.content)


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
                usage=_usage_of(None, messages, self._caller.schema),
            )
        facts = facts_of(parsed, chunk)
        return DecomposeResult(
            facts=facts,
            usage=usage,
            raw_output=_raw_text(raw),
            undecomposed=unmatched_sentences(chunk, [f.span for f in facts]),
        )


def _status(name: str) -> Status:
    return Status(name)


def _verdict_of(
    parsed: Judgement,
    fact: Fact,
    units: Sequence[FactUnit] | None,
    closed_book: bool,
    raw_output: str | None,
    judge: str,
) -> Verdict:
    """A parsed judgement as the fact's verdict, citations and quotes as the model gave them.

    Settling applies the grounding rule (ids of this run, quote found in the passage, the
    unit's values in the quote); unit verdicts are read for the units asked for, or any unit
    of the fact when none were.
    """
    judged = ("supported", "contradicted")
    unit_texts = {unit.text: unit for unit in units or fact.units()}
    unit_verdicts = [
        UnitVerdict(
            unit=item.unit,
            kind=unit_texts[item.unit].kind,
            status=_status(item.status),
            error_span=item.error_span,
            evidence_ids=(item.evidence_ids or parsed.evidence_ids)
            if item.status in judged
            else [],
            confidence=parsed.confidence,
            quote=(item.quote or parsed.quote) if item.status in judged else None,
        )
        for item in parsed.unit_verdicts
        if item.unit in unit_texts
    ]
    return Verdict(
        status=_status(parsed.status),
        wrong_components=parsed.wrong_components,
        error_spans=parsed.error_spans,
        unit_verdicts=unit_verdicts,
        rationale=parsed.rationale,
        confidence=parsed.confidence,
        evidence_ids=parsed.evidence_ids,
        quote=parsed.quote,
        basis="parametric" if closed_book else "evidence",
        raw_output=raw_output,
        judge=judge,
    )


class LLMJudge(Judge):
    """Verification by a chat model: one call per fact, per-unit verdicts when asked."""

    def __init__(
        self,
        model: BaseChatModel,
        *,
        max_retries: int = 2,
        retry_wait: float = 1.0,
        timeout: float | None = DEFAULT_MODEL_TIMEOUT,
    ) -> None:
        self.revision = model_revision(model)
        self._caller = StructuredCaller(model, Judgement, max_retries, retry_wait, timeout)
        self._batch_caller = StructuredCaller(
            model, BatchJudgement, max_retries, retry_wait, timeout
        )

    batched = True

    def messages(
        self,
        fact: Fact,
        evidence: Sequence[Evidence],
        units: Sequence[FactUnit] | None,
        closed_book: bool,
    ) -> list[BaseMessage]:
        """The prompt: fenced fact, fenced evidence passages, and what to return."""
        parts = [fence("FACT", fact.to_string())]
        if closed_book:
            parts.append(
                "Mode: closed book. No evidence is given: judge from your own knowledge, "
                "and answer insufficient_evidence when you are not sure."
            )
        elif not evidence:
            parts.append("No evidence was found.")
        for item in evidence:
            header = f"{item.source or item.document_id}"
            parts.append(fence("EVIDENCE", f"[{header}]\n{item.text}", id=item.id))
        if units:
            listed = "\n".join(f"- {unit.text}" for unit in units)
            parts.append(f"Give one unit verdict for each of these units:\n{listed}")
        return [SystemMessage(load_text("verify_system.md")), HumanMessage("\n\n".join(parts))]

    def verify(
        self,
        fact: Fact,
        evidence: Sequence[Evidence],
        *,
        units: Sequence[FactUnit] | None = None,
        closed_book: bool = False,
    ) -> JudgeResult:
        """Judge ``fact``; a failed call yields insufficient evidence with the error recorded."""
        messages = self.messages(fact, evidence, units, closed_book)
        try:
            parsed, raw, usage = self._caller.invoke(messages)
        except Exception as exc:
            return JudgeResult(
                verdict=Verdict(
                    status=Status.INSUFFICIENT,
                    error=f"verification failed: {type(exc).__name__}: {exc}",
                    judge=self.revision,
                ),
                usage=_usage_of(None, messages),
            )
        verdict = _verdict_of(parsed, fact, units, closed_book, _raw_text(raw), self.revision)
        return JudgeResult(verdict=verdict, usage=usage)

    def batch_messages(self, items: Sequence[BatchItem], closed_book: bool) -> list[BaseMessage]:
        """The batched prompt: each fact fenced under its label, then the pooled excerpts.

        Each fact lists the passages retrieved for it; a passage's excerpts are fenced under
        the passage's own id, so citations and quotes are checked as in a single call.
        """
        parts = [load_text("verify_batch.md").strip()]
        if closed_book:
            parts.append(
                "Mode: closed book. No evidence is given: judge from your own knowledge, "
                "and answer insufficient_evidence when you are not sure."
            )
        for number, item in enumerate(items, start=1):
            label = f"F{number}"
            lines = [fence("FACT", item.fact.to_string(), id=label)]
            if item.units:
                listed = "\n".join(f"- {unit.text}" for unit in item.units)
                lines.append(f"Units of {label} (one unit verdict each):\n{listed}")
            if not closed_book:
                ids = ", ".join(e.id for e in item.evidence) or "none"
                lines.append(f"Passages retrieved for {label}: {ids}")
            parts.append("\n".join(lines))
        pooled = pool_evidence(items)
        if not closed_book and not pooled:
            parts.append("No evidence was found.")
        facts = [item.fact for item in items]
        for passage in pooled:
            header = f"{passage.source or passage.document_id}"
            for excerpt in excerpts(passage.text, facts):
                parts.append(fence("EVIDENCE", f"[{header}]\n{excerpt}", id=passage.id))
        system = load_text("verify_system.md")
        return [SystemMessage(system), HumanMessage("\n\n".join(parts))]

    def verify_batch(
        self, items: Sequence[BatchItem], *, closed_book: bool = False
    ) -> BatchJudgeResult:
        """Judge ``items`` in one call; a failed call or a fact left out is returned as None."""
        messages = self.batch_messages(items, closed_book)
        try:
            parsed, _raw, usage = self._batch_caller.invoke(messages)
        except Exception as exc:
            return BatchJudgeResult(
                results=[None] * len(items),
                usage=_usage_of(None, messages, self._batch_caller.schema),
                error=f"batched verification failed: {type(exc).__name__}: {exc}",
            )
        answers: dict[str, JudgedFact] = {}
        for answer in parsed.verdicts:
            answers.setdefault(answer.fact.strip(), answer)
        results: list[JudgeResult | None] = []
        for number, item in enumerate(items, start=1):
            answer = answers.get(f"F{number}")
            if answer is None:
                results.append(None)
                continue
            raw_output = json.dumps(answer.model_dump(exclude_defaults=True), ensure_ascii=False)
            verdict = _verdict_of(
                answer, item.fact, item.units, closed_book, raw_output, self.revision
            )
            results.append(JudgeResult(verdict=verdict))
        return BatchJudgeResult(results=results, usage=usage)


class LLMRefiner(QueryRefiner):
    """Query refinement by a chat model: one call for all units of a round."""

    def __init__(
        self,
        model: BaseChatModel,
        *,
        max_retries: int = 2,
        retry_wait: float = 1.0,
        timeout: float | None = DEFAULT_MODEL_TIMEOUT,
    ) -> None:
        self.revision = model_revision(model)
        self._caller = StructuredCaller(model, RefinedQueries, max_retries, retry_wait, timeout)

    def refine(
        self, fact: Fact, units: Sequence[FactUnit], round_index: int
    ) -> tuple[list[str], Usage]:
        """Return one query per unit; falls back to the units' own query forms on failure."""
        listed = "\n".join(f"- {unit.text}" for unit in units)
        messages = [
            SystemMessage(load_text("refine_system.md")),
            HumanMessage(f"{fence('FACT', fact.to_string())}\n\nRound {round_index}.\n{listed}"),
        ]
        fallback = [
            " ".join(filter(None, [fact.subject, fact.relation, fact.object, u.label, u.value]))
            for u in units
        ]
        try:
            parsed, _raw, usage = self._caller.invoke(messages)
        except Exception:
            return fallback, _usage_of(None, messages)
        queries = [q.strip() for q in parsed.queries if q.strip()]
        if len(queries) != len(units):
            return fallback, usage
        return queries, usage
