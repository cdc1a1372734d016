"""Retrieve: find evidence for a fact with the run's retriever (``core.evidence.search``)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from triqua.context import Context
from triqua.core.evidence import search
from triqua.nodes.common import context_of
from triqua.runtime.resources import run_resources
from triqua.schema import Fact
from triqua.state import FactState, RoleUsage


def retrieve(state: FactState, runtime: Runtime[Context]) -> dict[str, Any]:
    """First retrieval for a fact, with its full query string."""
    context = context_of(runtime)
    resources = run_resources(context, runtime, digest=state.get("documents_digest"))
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
