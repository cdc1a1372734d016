"""The verification subgraph of one batch, with its two routes as two paths.

simple:  retrieve → verify → record
complex: retrieve → verify_units → (reverify ↺) → verify_elements → record

On the complex path each fact's elements are then verified as element-level claims
(ElementCheck's verification level), on the evidence the rounds left.

A batch holds facts of whole source sentences and takes the complex path when any of them
is complex; each node does its work per member (``nodes.members``) and by each member's own
route, so verdicts, failures and records stay per fact.
"""

from __future__ import annotations

from typing import Any, Literal

from langgraph.errors import NodeError
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command

from triqua.context import Context
from triqua.nodes.members import NODE_RETRY, member_states, merged, step_failed
from triqua.nodes.record import record
from triqua.nodes.retrieve import retrieve
from triqua.nodes.reverify import reverify, should_reverify
from triqua.nodes.verify import verify
from triqua.nodes.verify_elements import verify_elements
from triqua.runtime.resources.spec import SettingsChangedError
from triqua.state import BatchState, BatchTask, FactOutput

__all__ = ["NODE_RETRY", "build_verification_graph", "by_route", "node_failed"]


def by_route(state: BatchState) -> Literal["verify", "verify_units"]:
    """Simple facts get one whole-fact verdict; complex facts (any in the batch) unit ones."""
    return "verify_units" if state["route"] == "complex" else "verify"


def node_failed(
    state: BatchState, error: NodeError
) -> Command[Literal["verify", "verify_units", "record"]]:
    """Record a node's failure on every member once its retries are spent (never the run's end).

    Members' own steps record their failures themselves; this catches what fails around
    them. After a failed retrieval the batch is still judged (without evidence). A run
    resumed with other settings is no failure of its facts: that refusal is raised again,
    so the resume ends there and its caller sees why.

    Raises:
        SettingsChangedError: the node refused a run resumed with other settings.
    """
    if isinstance(error.error, SettingsChangedError):
        raise error.error
    work = [merged(m, step_failed(error.node, m, error.error)) for m in member_states(state)]
    goto: Literal["verify", "verify_units", "record"] = (
        by_route(state) if error.node == "retrieve" else "record"
    )
    return Command(update={"work": work}, goto=goto)


def build_verification_graph(**compile_kwargs: Any) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile the subgraph that verifies one batch of facts along its route."""
    builder = StateGraph(
        BatchState, context_schema=Context, input_schema=BatchTask, output_schema=FactOutput
    )
    builder.set_node_defaults(retry_policy=NODE_RETRY)
    builder.add_node("retrieve", retrieve, error_handler=node_failed)
    # One judge node under two names, so Studio draws the two routes as two paths.
    builder.add_node("verify", verify, error_handler=node_failed)
    builder.add_node("verify_units", verify, error_handler=node_failed)
    builder.add_node("reverify", reverify, error_handler=node_failed)
    builder.add_node("verify_elements", verify_elements, error_handler=node_failed)
    builder.add_node("record", record)
    builder.add_edge(START, "retrieve")
    builder.add_conditional_edges("retrieve", by_route, ["verify", "verify_units"])
    builder.add_edge("verify", "record")
    builder.add_conditional_edges("verify_units", should_reverify, ["reverify", "verify_elements"])
    builder.add_conditional_edges("reverify", should_reverify, ["reverify", "verify_elements"])
    builder.add_edge("verify_elements", "record")
    builder.add_edge("record", END)
    return builder.compile(name="verify_batch", **compile_kwargs)
