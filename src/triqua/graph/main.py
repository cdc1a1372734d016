"""The main check graph: prepare → split → decompose → route → verify per fact → score."""

from __future__ import annotations

import functools
from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from triqua.context import Context
from triqua.graph.verification import build_verification_graph
from triqua.nodes.decompose import decompose, fan_out_chunks
from triqua.nodes.prepare import prepare
from triqua.nodes.route import fan_out_facts, route
from triqua.nodes.score import score
from triqua.nodes.split import split
from triqua.state import ChunkTask, InputState, OutputState, State


def build_graph(**compile_kwargs: Any) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile the check graph; ``compile_kwargs`` go to ``compile`` (e.g. ``checkpointer``)."""
    builder = StateGraph(
        State, context_schema=Context, input_schema=InputState, output_schema=OutputState
    )
    builder.add_node("prepare", prepare)
    builder.add_node("split", split)
    # Its input is the Send payload, not the state; the overloads do not model that.
    builder.add_node("decompose", decompose, input_schema=ChunkTask)  # type: ignore[call-overload]
    builder.add_node("route", route)
    builder.add_node("verify_fact", build_verification_graph())
    builder.add_node("score", score)
    builder.add_edge(START, "prepare")
    builder.add_edge("prepare", "split")
    builder.add_conditional_edges("split", fan_out_chunks, ["decompose", "route"])
    builder.add_edge("decompose", "route")
    builder.add_conditional_edges("route", fan_out_facts, ["verify_fact", "score"])
    builder.add_edge("verify_fact", "score")
    builder.add_edge("score", END)
    return builder.compile(name="triqua", **compile_kwargs)


@functools.cache
def _compiled() -> CompiledStateGraph[Any, Any, Any, Any]:
    return build_graph()


def compiled_graph(checkpointer: Any = None) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The check graph, compiled once per process; with a checkpointer, a copy that uses it.

    A compiled graph holds no run state (runs differ by config and context), so every run
    can share it; compiling costs ~10 ms, a copy with another checkpointer almost nothing.
    """
    compiled = _compiled()
    if checkpointer is None:
        return compiled
    return compiled.copy(update={"checkpointer": checkpointer})


#: The compiled graph served by ``langgraph.json`` (Studio and LangGraph server).
graph = compiled_graph()
