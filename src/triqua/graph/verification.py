"""The per-fact verification subgraph, with its two routes as two paths.

simple:  retrieve → verify → record
complex: retrieve → verify_units → (reverify ↺) → record
"""

from __future__ import annotations

from typing import Any, Literal

from langgraph.errors import NodeError
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command, RetryPolicy

from triqua.context import Context
from triqua.core.redaction import error_text
from triqua.core.verdicts import settle
from triqua.nodes.record import record
from triqua.nodes.retrieve import retrieve
from triqua.nodes.reverify import reverify, should_reverify
from triqua.nodes.verify import verify
from triqua.schema import Status, Verdict
from triqua.state import FactOutput, FactState, FactTask

#: Node-level retries for unexpected errors (engines already retry their own calls).
NODE_RETRY = RetryPolicy(max_attempts=2, initial_interval=0.2)


def by_route(state: FactState) -> Literal["verify", "verify_units"]:
    """Simple facts get one whole-fact verdict; complex facts a verdict per unit."""
    return "verify_units" if state["route"] == "complex" else "verify"


def node_failed(
    state: FactState, error: NodeError
) -> Command[Literal["verify", "verify_units", "record"]]:
    """Record a node's failure once its retries are spent, so one fact never ends the run.

    A failed retrieval leaves the fact without evidence; a failed verification or
    re-verification leaves it insufficient with the error on its verdict.
    """
    message = f"{error.node} failed: {error_text(error.error)}"
    if error.node == "retrieve":
        update = {"evidence": [], "retrieval_errors": [message], "round": 0, "rounds": []}
        return Command(update=update, goto=by_route(state))
    if error.node in ("verify", "verify_units"):
        failed = Verdict(status=Status.INSUFFICIENT, error=message)
        verdict = settle(state["fact"], failed, state.get("evidence", []))
        return Command(update={"verdict": verdict}, goto="record")
    errors = [*state.get("retrieval_errors", []), message]
    return Command(update={"stop_reason": message, "retrieval_errors": errors}, goto="record")


def build_verification_graph(**compile_kwargs: Any) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile the subgraph that verifies one fact along its route."""
    builder = StateGraph(
        FactState, context_schema=Context, input_schema=FactTask, output_schema=FactOutput
    )
    builder.set_node_defaults(retry_policy=NODE_RETRY)
    builder.add_node("retrieve", retrieve, error_handler=node_failed)
    # One judge node under two names, so Studio draws the two routes as two paths.
    builder.add_node("verify", verify, error_handler=node_failed)
    builder.add_node("verify_units", verify, error_handler=node_failed)
    builder.add_node("reverify", reverify, error_handler=node_failed)
    builder.add_node("record", record)
    builder.add_edge(START, "retrieve")
    builder.add_conditional_edges("retrieve", by_route, ["verify", "verify_units"])
    builder.add_edge("verify", "record")
    builder.add_conditional_edges("verify_units", should_reverify, ["reverify", "record"])
    builder.add_conditional_edges("reverify", should_reverify, ["reverify", "record"])
    builder.add_edge("record", END)
    return builder.compile(name="verify_fact", **compile_kwargs)
