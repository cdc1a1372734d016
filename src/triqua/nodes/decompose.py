"""Decompose: one call per chunk (fanned out with ``Send``), previous chunk as context."""

from __future__ import annotations

from typing import Any

from langgraph.errors import GraphBubbleUp
from langgraph.runtime import Runtime
from langgraph.types import Send

from triqua.context import Context
from triqua.core.chunking import chunk_failure, undecomposed_sentences
from triqua.engines.base import DecomposeResult
from triqua.nodes.common import context_of, emit
from triqua.resources import limited_call, resources_for
from triqua.state import ChunkTask, RoleUsage, State


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
                mode=state["spec"].mode.value,
            ),
        )
        for i, chunk in enumerate(chunks)
    ]


def decompose(task: ChunkTask, runtime: Runtime[Context]) -> dict[str, Any]:
    """Decompose one chunk into facts; a failure is recorded and the run goes on.

    A chunk that fails (the engine reports an error or raises) or is skipped at
    ``max_facts`` becomes a :class:`ChunkFailure`, so no part of the text goes unaccounted.
    """
    context = context_of(runtime)
    resources = resources_for(task["run_id"], context, mode=task.get("mode"))
    engines = resources.engines
    chunk = task["chunk"]
    if resources.facts.skip_if_reached(context.max_facts):  # counted; route reports the stop
        emit("chunk_skipped", chunk=chunk.index, reason="max_facts")
        reason = f"skipped: the run had found max_facts={context.max_facts} facts"
        return {"failed_chunks": [chunk_failure(chunk, reason, "max_facts")]}
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
        undecomposed = (
            undecomposed_sentences(result.undecomposed, chunk) if result is not None else []
        )
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
        return {"failed_chunks": [chunk_failure(chunk, reason, "max_calls")]}
    resources.facts.add(len(result.facts))
    emit("chunk_decomposed", chunk=chunk.index, facts=len(result.facts), error=result.error)
    update: dict[str, Any] = {
        "facts": result.facts,
        "usage_log": [RoleUsage(role="decompose", usage=result.usage)],
    }
    if result.error:
        update["errors"] = [result.error]
        update["failed_chunks"] = [chunk_failure(chunk, result.error)]
    else:
        update["undecomposed"] = undecomposed
    return update
