"""Who answers the LLM roles: the interfaces a decomposer, a judge and a query refiner implement.

The roles are synchronous: graph nodes run in LangGraph's thread pool (bounded by
``max_concurrency``), so the same graph works with ``invoke`` and ``ainvoke``.

A chat model (any LangChain provider) and the offline engine (rules + embeddings) both
implement these, so the graph never needs to know which one it is talking to.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from pydantic import BaseModel, Field

from triqua.core.grounding.rule import MeaningReader
from triqua.core.plan.verify_batches import BatchItem
from triqua.schema import Chunk, Evidence, Fact, FactUnit, Span, UnfoundedFact, Usage, Verdict
from triqua.schema.redaction import OptionalRedactedText


class DecomposeResult(BaseModel):
    """Facts found in one chunk, with what it cost and what the engine said."""

    facts: list[Fact] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    raw_output: OptionalRedactedText = None
    error: OptionalRedactedText = None
    undecomposed: list[Span] = Field(
        default_factory=list, description="Sentences that yielded no fact."
    )
    unfounded: list[UnfoundedFact] = Field(
        default_factory=list,
        description="Facts dropped because their text does not state them (core.plan.founded).",
    )


class JudgeResult(BaseModel):
    """A verdict and what it cost."""

    verdict: Verdict
    usage: Usage = Field(default_factory=Usage)


class BatchJudgeResult(BaseModel):
    """Verdicts of one batched call, in item order, and what the call cost.

    An item the call did not answer (or a failed call: every item, with ``error``) is None:
    the caller judges it alone.
    """

    results: list[JudgeResult | None]
    usage: Usage = Field(default_factory=Usage)
    error: OptionalRedactedText = None


class Decomposer(ABC):
    """Splits a chunk of text into TriQua facts."""

    revision: str
    #: Whether its answers come from a chat model (its calls count against ``max_calls``).
    calls_model: bool = True

    @abstractmethod
    def decompose(
        self,
        chunk: Chunk,
        *,
        previous_chunk: str | None,
        question: str | None,
        chunked: bool,
        parts: Sequence[Chunk] = (),
    ) -> DecomposeResult:
        """Return the facts of ``chunk`` with spans in the full text.

        ``parts`` are the consecutive chunks ``chunk`` was merged from when several share
        one call: each is shown as its own text after its own previous chunk
        (``previous_chunk`` before the first). Empty: ``chunk`` is one chunk.

        Sentences of the chunk that yielded no fact go in ``undecomposed``, as spans in the
        full text inside the chunk (a span outside it fails the chunk, on the record). A
        failure is returned in ``error``, not raised; a raised error fails the chunk too.
        """

    def prepare(self, chunks: Sequence[Chunk]) -> None:  # noqa: B027 (an optional hook)
        """Hear a run's chunks, in order, before their :meth:`decompose` calls.

        A decomposer that reads several chunks faster than one at a time (the offline
        engine's spaCy parse) uses it to read ahead; by default it does nothing.
        """


class Judge(ABC):
    """Judges a fact against evidence (or, in closed book, against model knowledge)."""

    revision: str
    #: Whether its answers come from a chat model (its calls count against ``max_calls``).
    calls_model: bool = True

    @abstractmethod
    def verify(
        self,
        fact: Fact,
        evidence: Sequence[Evidence],
        *,
        units: Sequence[FactUnit] | None = None,
        closed_book: bool = False,
    ) -> JudgeResult:
        """Return a verdict; with ``units``, also one unit verdict per listed unit."""

    def expect(self, facts: Sequence[Fact]) -> None:  # noqa: B027 (an optional hook)
        """Hear facts that this run will verify against evidence, as their chunk is decomposed.

        A judge that can prepare ahead does so while the run still decomposes and routes
        (the offline engine embeds the facts' queries); the verdicts are the same either way.
        By default it does nothing.
        """

    #: True when :meth:`verify_batch` judges several facts in one call.
    batched: bool = False

    #: Reads paraphrase for the grounding rule (the entailment judge); None: every content
    #: word of a supported unit must be stated in its cited sentence.
    reader: MeaningReader | None = None

    def verify_batch(
        self, items: Sequence[BatchItem], *, closed_book: bool = False
    ) -> BatchJudgeResult:
        """Judge several facts that share evidence in one call (judges with ``batched``).

        Raises:
            NotImplementedError: this judge has no batched call; use :meth:`verify`.
        """
        raise NotImplementedError(f"{type(self).__name__} has no batched verification")


class QueryRefiner(ABC):
    """Writes contextualised search queries for units that are still unresolved."""

    revision: str
    #: Whether its answers come from a chat model (its calls count against ``max_calls``).
    calls_model: bool = True

    @abstractmethod
    def refine(
        self, fact: Fact, units: Sequence[FactUnit], round_index: int
    ) -> tuple[list[str], Usage]:
        """Return one query per unit, in order."""


def contextual_fact(fact: Fact, unit: FactUnit) -> Fact:
    """The unit's neighbourhood in the element graph as a claim: base triple plus that qualifier."""
    qualifiers = [
        q
        for q in fact.qualifiers
        if unit.kind == "qualifier" and q.label == unit.label and q.value == unit.value
    ]
    return fact.model_copy(update={"qualifiers": qualifiers})


class TemplateRefiner(QueryRefiner):
    """Deterministic refinement: the query of the unit's contextualised claim.

    Round 1 asks for the base triple with the unit; later rounds drop the relation so that
    passages phrased differently can still match.
    """

    calls_model = False

    revision = "template-refiner/1"

    def refine(
        self, fact: Fact, units: Sequence[FactUnit], round_index: int
    ) -> tuple[list[str], Usage]:
        """Return one query per unit built from its contextualised claim."""
        queries = []
        for unit in units:
            sub = contextual_fact(fact, unit)
            if round_index <= 1:
                queries.append(sub.query())
            elif unit.kind == "qualifier":
                queries.append(f"{fact.subject} {fact.object} {unit.value}".strip())
            else:
                queries.append(f"{fact.subject} {fact.object}".strip())
        return queries, Usage()
