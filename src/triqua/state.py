"""Graph state: what goes in (``InputState``), what flows between nodes, what comes out.

Each field is declared once: the full states extend their input and output schemas.
``Chunk`` and ``RoleUsage`` are domain types (``triqua.schema``), re-exported here.
"""

from __future__ import annotations

import functools
import operator
from typing import Annotated, Any, Literal, NotRequired, get_type_hints

from typing_extensions import TypedDict  # pydantic needs it on Python < 3.12 (Studio schemas)

from triqua.schema import (
    Chunk,
    ChunkFailure,
    ClaimRecord,
    Document,
    ElementClaim,
    Evidence,
    Fact,
    FactualitySpec,
    NotCheckworthySentence,
    Report,
    ReverifyRound,
    RoleUsage,
    UndecomposedSentence,
    UnfoundedFact,
    Usage,
    Verdict,
)

__all__ = [
    "BatchState",
    "BatchTask",
    "Chunk",
    "ChunkTask",
    "ExtractionOutput",
    "FactOutput",
    "FactState",
    "FactTask",
    "IngestInput",
    "IngestOutput",
    "IngestState",
    "InputState",
    "OutputState",
    "RoleUsage",
    "Route",
    "State",
    "run_keys",
]


class InputState(TypedDict, total=False):
    """What a caller gives: the text, optionally a question, documents, spec overrides, run id.

    ``given_facts`` (``triqua verify``) are checked as they are: the text is chunked but not
    decomposed.
    """

    text: str
    given_facts: list[Fact] | None
    question: str | None
    documents: list[Document | str | dict[str, Any]] | None
    spec_overrides: dict[str, Any] | None
    run_id: str
    case_id: str


class OutputState(TypedDict):
    """What a caller gets back: the report."""

    report: Report


class ExtractionOutput(TypedDict, total=False):
    """What the extraction graph (``triqua extract``) hands back: the routed facts and drops."""

    failed_chunks: Annotated[list[ChunkFailure], operator.add]
    undecomposed: Annotated[list[UndecomposedSentence], operator.add]
    unfounded_facts: Annotated[list[UnfoundedFact], operator.add]
    not_checkworthy: Annotated[list[NotCheckworthySentence], operator.add]
    unverified_facts: list[Fact]
    errors: Annotated[list[str], operator.add]
    notes: Annotated[list[str], operator.add]
    tasks: list[FactTask]


class State(InputState, OutputState, ExtractionOutput, total=False):
    """The main graph's full state: its input, its output and what flows between nodes."""

    spec: FactualitySpec
    engine: str
    chunks: list[Chunk]
    facts: Annotated[list[Fact], operator.add]
    records: Annotated[list[ClaimRecord], operator.add]
    usage_log: Annotated[list[RoleUsage], operator.add]


@functools.cache
def run_keys() -> dict[str, bool]:
    """The keys of :class:`State` a check's steps write, each with whether writes add up.

    Neither the caller's input (:class:`InputState`) nor the report: what one check
    works out on its way. A key whose writes add up (``operator.add``) gathers every
    step's list; on a thread that already ran a check, such a key holds that check's too.
    """
    hints = get_type_hints(State, include_extras=True)
    own = set(InputState.__annotations__) | set(OutputState.__annotations__)
    return {
        key: operator.add in getattr(hint, "__metadata__", ())
        for key, hint in hints.items()
        if key not in own
    }


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
    """One fact's verification task (a member of a ``verify_batch`` subgraph's batch)."""

    run_id: str
    fact: Fact
    route: Route
    complexity: dict[str, float | int | bool | str]
    question: str | None
    spec_hash: str
    documents_digest: NotRequired[str]  # the run's supplied documents (finds its retriever)
    settings_digest: NotRequired[str]  # what the run's settings decided (a resume must agree)
    batch: NotRequired[str]  # the verification batch it is judged in (verify_batch > 1)
    batch_size: NotRequired[int]  # how many facts that batch holds
    sentence_facts: NotRequired[list[Fact]]
    case_id: NotRequired[str]
    previous_chunk: NotRequired[str]


class BatchTask(TypedDict):
    """Payload of one verification batch (sent to the ``verify_batch`` subgraph).

    Its members are facts of whole source sentences, judged together; with
    ``verify_batch`` 1 each fact is a batch of its own. Its route is complex when any
    member's is (the path it takes); each member keeps its own.
    """

    run_id: str
    batch: str  # its first member's fact id
    route: Route
    members: list[FactTask]


class FactOutput(TypedDict):
    """What the verification subgraph hands back to the main graph."""

    records: list[ClaimRecord]
    usage_log: Annotated[list[RoleUsage], operator.add]


class FactState(FactTask, total=False):
    """One member's working state in its batch: its task and what its steps found."""

    usage_log: list[RoleUsage]

    evidence: list[Evidence]
    verdict: Verdict
    rounds: list[ReverifyRound]
    elements: list[ElementClaim]
    resolved_facts: list[str]
    round: int
    usage: Usage
    retrieval_errors: list[str]
    stop_reason: str | None


class BatchState(BatchTask, FactOutput, total=False):
    """State of the verification subgraph: its batch, each member's work, its output."""

    work: list[FactState]


# --- the ingest graph (graph/ingest.py) ---------------------------------------------------
# Declared here, not in the graph's file, so that a server that loads that file without
# registering it as a module (Aegra) still resolves the annotations of its state.


class IngestInput(TypedDict, total=False):
    """Files or folders to ingest (relative paths resolve against the server's directory)."""

    paths: list[str]
    collection: str | None
    chunk_size: int
    chunk_overlap: int


class IngestOutput(TypedDict):
    """What ingestion did, and the collections now in the store."""

    summary: dict[str, Any]
    collections: list[dict[str, Any]]


class IngestState(IngestInput, IngestOutput, total=False):
    """The ingest graph's state: its input and its output."""
