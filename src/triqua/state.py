"""Graph state: what goes in (``InputState``), what flows between nodes, what comes out."""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, NotRequired

from pydantic import BaseModel
from typing_extensions import TypedDict  # pydantic needs it on Python < 3.12 (Studio schemas)

from triqua.schema import (
    ChunkFailure,
    ClaimRecord,
    Document,
    Evidence,
    Fact,
    FactualitySpec,
    Report,
    ReverifyRound,
    UndecomposedSentence,
    Usage,
    Verdict,
)


class Chunk(BaseModel):
    """A piece of the input text with its position."""

    index: int
    text: str
    start: int
    end: int


class RoleUsage(BaseModel):
    """Usage spent by one role (decompose / verify / refine / search) in one step."""

    role: str
    usage: Usage


class InputState(TypedDict, total=False):
    """What a caller gives: the text, optionally a question, documents, spec overrides, run id."""

    text: str
    question: str | None
    documents: list[Document | str | dict[str, Any]] | None
    spec_overrides: dict[str, Any] | None
    run_id: str
    case_id: str


class OutputState(TypedDict):
    """What a caller gets back: the report."""

    report: Report


class State(TypedDict, total=False):
    """The main graph's full state."""

    text: str
    question: str | None
    documents: list[Document | str | dict[str, Any]] | None
    spec_overrides: dict[str, Any] | None
    run_id: str
    case_id: str
    spec: FactualitySpec
    engine: str
    chunks: list[Chunk]
    facts: Annotated[list[Fact], operator.add]
    failed_chunks: Annotated[list[ChunkFailure], operator.add]
    undecomposed: Annotated[list[UndecomposedSentence], operator.add]
    unverified_facts: list[Fact]
    records: Annotated[list[ClaimRecord], operator.add]
    usage_log: Annotated[list[RoleUsage], operator.add]
    errors: Annotated[list[str], operator.add]
    notes: Annotated[list[str], operator.add]
    tasks: list[FactTask]
    report: Report


class ChunkTask(TypedDict):
    """Payload of one decomposition task (sent to the ``decompose`` node)."""

    run_id: str
    chunk: Chunk  # the chunks of the task as one (the text they span), decomposed in one call
    members: NotRequired[list[Chunk]]  # the chunks it holds, when more than one
    previous_chunk: str | None
    question: str | None
    chunked: bool


Route = Literal["simple", "complex"]


class FactTask(TypedDict):
    """Payload of one fact's verification (sent to the ``verify_fact`` subgraph)."""

    run_id: str
    fact: Fact
    route: Route
    complexity: dict[str, float | int | bool | str]
    question: str | None
    spec_hash: str
    documents_digest: NotRequired[str]  # the run's supplied documents (finds its retriever)
    batch: NotRequired[str]  # the verification batch it is judged in (verify_batch > 1)
    batch_size: NotRequired[int]  # how many facts that batch holds
    sentence_facts: NotRequired[list[Fact]]
    case_id: NotRequired[str]
    previous_chunk: NotRequired[str]


class FactState(TypedDict, total=False):
    """State of the per-fact verification subgraph."""

    run_id: str
    fact: Fact
    route: Route
    complexity: dict[str, float | int | bool | str]
    question: str | None
    spec_hash: str
    documents_digest: str
    batch: str
    batch_size: int
    sentence_facts: list[Fact]
    case_id: str
    previous_chunk: str
    evidence: list[Evidence]
    verdict: Verdict
    rounds: list[ReverifyRound]
    round: int
    usage: Usage
    retrieval_errors: list[str]
    stop_reason: str | None
    records: list[ClaimRecord]
    usage_log: Annotated[list[RoleUsage], operator.add]


class FactOutput(TypedDict):
    """What the verification subgraph hands back to the main graph."""

    records: list[ClaimRecord]
    usage_log: list[RoleUsage]
