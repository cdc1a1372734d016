"""Decompose: one call per chunk (fanned out with ``Send``), previous chunk as context."""

from __future__ import annotations

from typing import Any

from langgraph.errors import GraphBubbleUp
from langgraph.runtime import Runtime
from langgraph.types import Send

from triqua.context import Context
from triqua.engines.base import DecomposeResult
from triqua.nodes.common import context_of, emit
from triqua.resources import limited_call, run_resources
from triqua.schema import ChunkCause, ChunkFailure, Span, UndecomposedSentence
from triqua.state import Chunk, ChunkTask, RoleUsage, State


def fan_out_chunks(state: State) -> list[Send] | str:
    """One decomposition task per chunk; the previous chunk travels along as context."""
    chunks = state.get("chunks", [])
    if not chunks:
        return "route"
    chunked = len(chunks) > 1
    return [
        Send(
            "decompose",
            ChunkTask(
                run_id=state["run_id"],
                chunk=chunk,
                previous_chunk=chunks[i - 1].text if i > 0 else None,
                question=state.get("question"),
                chunked=chunked,
            ),
        )
        for i, chunk in enumerate(chunks)
    ]


def _undecomposed(spans: list[Span], chunk: Chunk) -> list[UndecomposedSentence]:
    """The engine's not-decomposed sentence spans (in the full text) with their text.

    Raises:
        ValueError: for a span outside the chunk (an engine bug worth a failed-chunk record).
    """
    sentences = []
    for span in spans:
        if not chunk.start <= span.start <= span.end <= chunk.end:
            raise ValueError(
                f"not-decomposed span {span.start}-{span.end} lies outside chunk "
                f"{chunk.index} ({chunk.start}-{chunk.end})"
            )
        text = chunk.text[span.start - chunk.start : span.end - chunk.start]
        if text.strip():
            sentences.append(UndecomposedSentence(chunk_index=chunk.index, span=span, text=text))
    return sentences


def _failure(chunk: Chunk, error: str, cause: ChunkCause = "error") -> ChunkFailure:
    return ChunkFailure(
        chunk_index=chunk.index,
        span=Span(start=chunk.start, end=chunk.end),
        text=chunk.text,
        error=error,
        cause=cause,
    )


def decompose(task: ChunkTask, runtime: Runtime[Context]) -> dict[str, Any]:
    """Decompose one chunk into facts; a failure is recorded and the run goes on.

    A chunk that fails (the engine reports an error or raises) or is skipped at
    ``max_facts`` becomes a :class:`ChunkFailure`, so no part of the text goes unaccounted.
    """
    context = context_of(runtime)
    resources = run_resources(context, runtime)
    engines = resources.engines
    chunk = task["chunk"]
    if resources.facts.skip_if_reached(context.max_facts):  # counted; route reports the stop
        emit("chunk_skipped", chunk=chunk.index, reason="max_facts")
        reason = f"skipped: the run had found max_facts={context.max_facts} facts"
        return {"failed_chunks": [_failure(chunk, reason, "max_facts")]}
    try:
        result = limited_call(
            resources,
            engines.decomposer,
            lambda: engines.decomposer.decompose(
                chunk,
                previous_chunk=task["previous_chunk"],
                question=task["question"],
                chunked=task["chunked"],
            ),
            lambda r: r.usage,
        )
        undecomposed = _undecomposed(result.undecomposed, chunk) if result is not None else []
    except GraphBubbleUp:  # interrupts and other graph control flow pass through
        raise
    except Exception as exc:  # an engine bug fails this chunk, on the record, not the run
        result = DecomposeResult(
            error=f"decompose failed for chunk {chunk.index}: {type(exc).__name__}: {exc}"
        )
        undecomposed = []
    if result is None:  # the run's model calls ran out: counted, and score reports the stop
        resources.calls.skip("chunk")
        emit("chunk_skipped", chunk=chunk.index, reason="max_calls")
        reason = f"skipped: the run had made max_calls={context.max_calls} model calls"
        return {"failed_chunks": [_failure(chunk, reason, "max_calls")]}
    resources.facts.add(len(result.facts))
    emit("chunk_decomposed", chunk=chunk.index, facts=len(result.facts), error=result.error)
    update: dict[str, Any] = {
        "facts": result.facts,
        "usage_log": [RoleUsage(role="decompose", usage=result.usage)],
    }
    if result.error:
        update["errors"] = [result.error]
        update["failed_chunks"] = [_failure(chunk, result.error)]
    else:
        update["undecomposed"] = undecomposed
    return update
