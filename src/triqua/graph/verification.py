"""The per-fact verification subgraph: retrieve → verify → (re-verify loop) → record."""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import RetryPolicy

from triqua.context import Context
from triqua.nodes.record import record
from triqua.nodes.retrieve import retrieve
from triqua.nodes.reverify import reverify, should_reverify
from triqua.nodes.verify import verify
from triqua.state import FactOutput, FactState, FactTask

#: Node-level retries for unexpected errors (engines already retry their own calls).
NODE_RETRY = RetryPolicy(max_attempts=2, initial_interval=0.2)


def build_verification_graph(**compile_kwargs: Any) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile the subgraph that verifies one fact along its route."""
    builder = StateGraph(
        FactState, context_schema=Context, input_schema=FactTask, output_schema=FactOutput
    )
    builder.add_node("retrieve", retrieve, retry_policy=NODE_RETRY)
    builder.add_node("verify", verify, retry_policy=NODE_RETRY)
    builder.add_node("reverify", reverify, retry_policy=NODE_RETRY)
    builder.add_node("record", record)
    builder.add_edge(START, "retrieve")
    builder.add_edge("retrieve", "verify")
    builder.add_conditional_edges("verify", should_reverify, ["reverify", "record"])
    builder.add_conditional_edges("reverify", should_reverify, ["reverify", "record"])
    builder.add_edge("record", END)
    return builder.compile(name="verify_fact", **compile_kwargs)
