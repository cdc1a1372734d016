"""Verification and query refinement by any LangChain chat model, through structured output.

Nothing the model echoes from the fenced input is trusted: only the parsed fields are read,
and "supported" needs a cited passage of the run and a verbatim quote from it (the grounding
rule, enforced when the verdict is settled). Facts are judged one per call (:meth:`LLMJudge.verify`)
or several per call (:meth:`LLMJudge.verify_batch`, the compact form of
:mod:`triqua.engines.llm.batch_prompt`). Decomposition lives in :mod:`.decompose` and the
structured call in :mod:`.calls`; both are re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, ConfigDict, Field

from triqua.context import DEFAULT_MODEL_TIMEOUT
from triqua.core.plan.evidence_sheet import Sheet, build_sheet
from triqua.core.plan.verify_batches import BatchItem
from triqua.engines.base import BatchJudgeResult, Judge, JudgeResult, QueryRefiner
from triqua.engines.llm.batch import answer_verdict
from triqua.engines.llm.batch_prompt import FactAnswer, Verdicts, batch_messages
from triqua.engines.llm.calls import (
    StructuredCaller,
    backoff,
    model_revision,
    raw_text,
    schema_tokens,
    usage_of,
)
from triqua.engines.llm.coverage import RequestedCoverageJudge
from triqua.engines.llm.decompose import (
    ExtractedFact,
    ExtractedFacts,
    LLMDecomposer,
    SentenceFacts,
    facts_of,
    locate,
)
from triqua.models.vectors import cosines
from triqua.prompts import as_of_line, compact_schema, fence, load_text
from triqua.schema import Evidence, Fact, FactUnit, Status, UnitVerdict, Usage, Verdict

__all__ = [
    "ExtractedFact",
    "ExtractedFacts",
    "Judgement",
    "LLMDecomposer",
    "LLMJudge",
    "LLMRefiner",
    "SentenceFacts",
    "StructuredCaller",
    "Verdicts",
    "backoff",
    "facts_of",
    "locate",
    "model_revision",
    "schema_tokens",
]

#: Kept for callers of the former private names.
_usage_of = usage_of
_raw_text = raw_text

StatusName = Literal["supported", "contradicted", "insufficient_evidence", "not_checkable"]


class JudgedUnit(BaseModel):
    """The model's verdict on one unit."""

    model_config = ConfigDict(json_schema_extra=compact_schema)  # the prompt says it all

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

    model_config = ConfigDict(json_schema_extra=compact_schema)  # the prompt says it all

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


class RefinedQueries(BaseModel):
    """One search query per unit, in order."""

    model_config = ConfigDict(json_schema_extra=compact_schema)  # the prompt says it all

    queries: list[str]


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


def _sheet(items: Sequence[BatchItem], closed_book: bool) -> Sheet:
    """The batch's evidence sheet; closed book shows none."""
    if closed_book:
        return Sheet(fact_labels=[[] for _ in items])
    return build_sheet([(item.fact, item.evidence) for item in items], similarity=cosines)


class LLMJudge(Judge):
    """Verification by a chat model: one call per fact, per-unit verdicts when asked."""

    def __init__(
        self,
        model: BaseChatModel,
        *,
        max_retries: int = 2,
        retry_wait: float = 1.0,
        timeout: float | None = DEFAULT_MODEL_TIMEOUT,
        as_of: str | None = None,
    ) -> None:
        self._coverage_options = (model, max_retries, retry_wait, timeout)
        self.revision = model_revision(model)
        #: The date facts are judged at (``Context.as_of``), told to the judge in every prompt.
        self.as_of = as_of
        self._caller = StructuredCaller(model, Judgement, max_retries, retry_wait, timeout)
        self._batch_caller = StructuredCaller(model, Verdicts, max_retries, retry_wait, timeout)

    batched = True

    def coverage_judge(self) -> RequestedCoverageJudge:
        """A judge of requested-content coverage on this judge's model and call settings."""
        model, max_retries, retry_wait, timeout = self._coverage_options
        return RequestedCoverageJudge(
            model, max_retries=max_retries, retry_wait=retry_wait, timeout=timeout
        )

    def messages(
        self,
        fact: Fact,
        evidence: Sequence[Evidence],
        units: Sequence[FactUnit] | None,
        closed_book: bool,
    ) -> list[BaseMessage]:
        """The prompt: fenced fact, fenced evidence passages, and what to return."""
        parts = [fence("FACT", fact.to_string())]
        if self.as_of:
            parts.append(as_of_line(self.as_of))
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
                usage=usage_of(None, messages),
            )
        verdict = _verdict_of(parsed, fact, units, closed_book, raw_text(raw), self.revision)
        return JudgeResult(verdict=verdict, usage=usage)

    def batch_messages(self, items: Sequence[BatchItem], closed_book: bool) -> list[BaseMessage]:
        """The batched prompt: the facts, then the batch's evidence sheet (numbered sentences)."""
        return batch_messages(items, _sheet(items, closed_book), closed_book, self.as_of)

    def verify_batch(
        self, items: Sequence[BatchItem], *, closed_book: bool = False
    ) -> BatchJudgeResult:
        """Judge ``items`` in one call; a failed call or a fact left out is returned as None.

        Each fact's citations are read against its own passages only: the quote is the
        cited sentences' exact text (:func:`~triqua.core.plan.evidence_sheet.cite`).
        """
        sheet = _sheet(items, closed_book)
        messages = batch_messages(items, sheet, closed_book, self.as_of)
        try:
            parsed, _raw, usage = self._batch_caller.invoke(messages)
        except Exception as exc:
            return BatchJudgeResult(
                results=[None] * len(items),
                usage=usage_of(None, messages, self._batch_caller.schema),
                error=f"batched verification failed: {type(exc).__name__}: {exc}",
            )
        answers: dict[int, FactAnswer] = {}
        for answer in parsed.v:
            answers.setdefault(answer.f, answer)
        results: list[JudgeResult | None] = []
        for number, item in enumerate(items, start=1):
            found = answers.get(number)
            verdict = (
                None
                if found is None
                else answer_verdict(found, item, sheet, closed_book, self.revision)
            )
            results.append(None if verdict is None else JudgeResult(verdict=verdict))
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
            return fallback, usage_of(None, messages)
        queries = [q.strip() for q in parsed.queries if q.strip()]
        if len(queries) != len(units):
            return fallback, usage
        return queries, usage
