"""Retrieve: find evidence for a fact with the run's retriever, within the search budget."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langgraph.runtime import Runtime

from triqua.context import Context
from triqua.core.redaction import redact
from triqua.nodes.common import context_of
from triqua.resources import RunResources, run_resources
from triqua.schema import Evidence, Fact, Mode, Usage
from triqua.state import FactState, RoleUsage

BUDGET_SPENT = "search budget spent"


def merge_evidence(old: Sequence[Evidence], new: Sequence[Evidence]) -> list[Evidence]:
    """Old evidence first, then new passages not seen before (by id)."""
    seen = {item.id for item in old}
    merged = list(old)
    for item in new:
        if item.id not in seen:
            seen.add(item.id)
            merged.append(item)
    return merged


def search(resources: RunResources, query: str, k: int) -> tuple[list[Evidence], str | None, Usage]:
    """Run one search; returns evidence, a recorded error (or None) and its usage."""
    if resources.mode is Mode.CLOSED_BOOK:
        return [], None, Usage()
    result = resources.retriever.search(query, k, budget=resources.budget)
    usage = Usage(search_calls=1 if result.searched and not result.cached else 0)
    error = redact(result.error) if result.error else None
    if not result.searched and error is None:
        error = BUDGET_SPENT
    return result.evidence, error, usage


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
