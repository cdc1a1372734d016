"""The main check graph: prepare → split → decompose → route → verify per batch → score.

The extraction graph (``triqua extract``) is its front: prepare → split → decompose → route,
ending with the routed facts. Given facts (``triqua verify``) enter the check graph at
``split``, which takes them in place of decomposition.
"""

from __future__ import annotations

import functools
import gc
from typing import Any

from langchain_core.runnables import RunnableConfig, RunnableLambda
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from triqua.context import Context
from triqua.graph.served import CallerContext
from triqua.graph.verification import build_verification_graph
from triqua.nodes.decompose import decompose, fan_out_chunks
from triqua.nodes.prepare import prepare
from triqua.nodes.route import fan_out_facts, route
from triqua.nodes.score import score
from triqua.nodes.split import split
from triqua.runtime.persistence.checkpoints import checkpoint_serde, with_checkpoint_types
from triqua.state import BatchTask, ChunkTask, ExtractionOutput, InputState, OutputState, State

try:  # LangGraph keeps the key private; its value has been stable across 1.x.
    from langgraph._internal._constants import CONFIG_KEY_DURABILITY
except ImportError:  # pragma: no cover - a LangGraph that moved the constant
    CONFIG_KEY_DURABILITY = "__pregel_durability"

#: ``checkpoint_serde`` is public here (``triqua.checkpoint_serde``): importing this module
#: loads every type the graph's state can hold, so its allow-list is complete.
__all__ = ["build_graph", "checkpoint_serde", "compiled_graph", "extraction_graph", "graph"]


def build_graph(
    *,
    fact_checkpoints: bool = True,
    checkpointer: Any = None,
    caller_guard: bool = False,
    **compile_kwargs: Any,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile the check graph; ``compile_kwargs`` go to ``compile`` (e.g. ``store``).

    With ``caller_guard`` the graph is for serving to others, as ``langgraph.json``'s: a
    ``context`` mapping given to a run is read as a :class:`~triqua.graph.served.CallerContext`,
    which refuses (a :class:`~triqua.graph.served.CallerRefusedError`, before any work) the
    settings only the operator may give (models, web search, endpoints, server paths, a
    Chroma collection other than the operator's) and spending limits above the operator's,
    unless ``TRIQUA_CALLER_SETTINGS`` lists them.

    A ``checkpointer`` that still has LangGraph's default serializer is used through a copy
    that restores triqua's types (:func:`checkpoint_serde`), sharing its storage: resuming or
    reading the state then gives triqua's models without LangGraph's "unregistered type"
    warnings. A saver given its own serializer is used as it is.

    With ``fact_checkpoints`` False the per-batch subgraphs keep no checkpoints of their own:
    a checkpointed run then saves each batch once, as its finished task's writes (see
    :func:`compiled_graph`).
    """
    builder = _front(OutputState)
    if fact_checkpoints:
        builder.add_node("verify_batch", build_verification_graph())
    else:
        builder.add_node("verify_batch", _unsaved_steps(), input_schema=BatchTask)
    builder.add_node("score", score)
    builder.add_conditional_edges("route", fan_out_facts, ["verify_batch", "score"])
    builder.add_edge("verify_batch", "score")
    builder.add_edge("score", END)
    # After the nodes are added: every type the state can hold is loaded, hence allowed.
    checkpointer = with_checkpoint_types(checkpointer)
    graph = builder.compile(name="triqua", checkpointer=checkpointer, **compile_kwargs)
    return graph.copy(update={"context_schema": CallerContext}) if caller_guard else graph


def _front(output: type[Any]) -> StateGraph[Any, Context, Any, Any]:
    """The graph's front, shared by check and extraction: prepare → split → decompose* → route."""
    builder: StateGraph[Any, Context, Any, Any] = StateGraph(
        State, context_schema=Context, input_schema=InputState, output_schema=output
    )
    builder.add_node("prepare", prepare)
    builder.add_node("split", split)
    # Its input is the Send payload, not the state; the overloads do not model that.
    builder.add_node("decompose", decompose, input_schema=ChunkTask)  # type: ignore[call-overload]
    builder.add_node("route", route)
    builder.add_edge(START, "prepare")
    builder.add_edge("prepare", "split")
    builder.add_conditional_edges("split", fan_out_chunks, ["decompose", "route"])
    builder.add_edge("decompose", "route")
    return builder


@functools.cache
def extraction_graph() -> CompiledStateGraph[Any, Any, Any, Any]:
    """The extraction graph: the check graph's front, ending with the routed facts.

    Its output (:class:`~triqua.state.ExtractionOutput`) holds the facts as their
    verification tasks (numbered, capped at ``max_facts``) and what decomposition dropped.
    """
    builder = _front(ExtractionOutput)
    builder.add_edge("route", END)
    return builder.compile(name="triqua_extract")


def _unsaved_steps() -> RunnableLambda[BatchTask, dict[str, Any]]:
    """The verification subgraph as a node that checkpoints none of its own steps.

    Compiled without a checkpointer, and told that its durability is ``"exit"``: LangGraph
    1.2 would otherwise inherit the parent's ``"sync"`` and wait for a checkpoint that a
    subgraph without a checkpointer never writes (and passing ``durability`` explicitly
    warns once per fact). The parent saves each fact's finished writes.
    """
    subgraph = build_verification_graph(checkpointer=False)

    def unsaved(config: RunnableConfig) -> RunnableConfig:
        configurable = {**config.get("configurable", {}), CONFIG_KEY_DURABILITY: "exit"}
        return {**config, "configurable": configurable}

    def verify_batch(task: BatchTask, config: RunnableConfig) -> dict[str, Any]:
        return subgraph.invoke(task, unsaved(config))

    async def averify_batch(task: BatchTask, config: RunnableConfig) -> dict[str, Any]:
        return await subgraph.ainvoke(task, unsaved(config))

    return RunnableLambda(verify_batch, afunc=averify_batch, name="verify_batch")


@functools.cache
def _compiled(fact_checkpoints: bool = True) -> CompiledStateGraph[Any, Any, Any, Any]:
    graph = build_graph(fact_checkpoints=fact_checkpoints)
    # Everything loaded so far (LangGraph, LangChain, pydantic, triqua's schema: ~200k
    # objects) lives as long as the process; out of the collector's sight, its full
    # collections stop rescanning them (they were ~8 % of a check's CPU). Reference counting
    # still frees them; only a reference cycle already garbage now would be kept.
    gc.freeze()
    return graph


def compiled_graph(checkpointer: Any = None) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The check graph, compiled once per process; with a checkpointer, a copy that uses it.

    A compiled graph holds no run state (runs differ by config and context), so every run
    can share it; compiling costs ~10 ms, a copy with another checkpointer almost nothing.
    A checkpointed run checkpoints every step of the main graph and each batch when its
    verification finishes (its task's writes), not each step inside a batch: a batch is
    resumed whole, and the call cache keeps its finished model calls and searches. That
    halves a durable run's CPU. Studio's graph (below) keeps the steps inside each batch.
    """
    if checkpointer is None:
        return _compiled()
    return _compiled(fact_checkpoints=False).copy(update={"checkpointer": checkpointer})


#: The compiled graph served by ``langgraph.json`` (Studio, a LangGraph server, Aegra): the
#: check graph with the settings of its API callers limited (:class:`CallerContext`).
graph = compiled_graph().copy(update={"context_schema": CallerContext})
