"""Retrieve: find evidence for each fact of a batch with the run's retriever."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from triqua.context import Context
from triqua.core.plan.evidence import search
from triqua.nodes.common import context_of
from triqua.nodes.members import batch_resources, member_states, run_members, waits_on_search
from triqua.runtime.resources import RunResources
from triqua.schema import Fact
from triqua.state import BatchState, FactState, RoleUsage


def retrieve_fact(state: FactState, context: Context, resources: RunResources) -> dict[str, Any]:
    """First retrieval for one fact, with its full query string (``core.plan.evidence.search``)."""
    # A fact edited in Studio or over REST arrives as a plain dict: make it a Fact again.
    fact = Fact.model_validate(state["fact"])
    evidence, error, usage = search(resources, fact.query(), context.max_results)
    return {
        "fact": fact,
        "evidence": evidence,
        "retrieval_errors": [error] if error else [],
        "usage": usage,
        "usage_log": [RoleUsage(role="search", usage=usage)],
        "round": 0,
        "rounds": [],
    }


def retrieve(state: BatchState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Each member's first retrieval (side by side when searches wait on a service)."""
    context = context_of(runtime)
    resources = batch_resources(state, context, runtime)
    work = run_members(
        member_states(state),
        context,
        resources,
        "retrieve",
        retrieve_fact,
        at_once=waits_on_search(resources),
    )
    return {"work": work}
