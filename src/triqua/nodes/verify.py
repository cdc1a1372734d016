"""Verify: judge a fact against its evidence; complex facts get one verdict per unit."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from triqua.context import Context
from triqua.core.verdicts import call_limit_verdict, settle
from triqua.nodes.common import context_of
from triqua.nodes.verify_batch import verify_in_batch
from triqua.runtime.resources import limited_call, run_resources
from triqua.schema import Mode, Usage
from triqua.state import FactState, RoleUsage


def verify(state: FactState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Judge the fact once: whole-fact on the simple route, per unit on the complex route."""
    context = context_of(runtime)
    resources = run_resources(context, runtime, digest=state.get("documents_digest"))
    if state.get("batch") and resources.engines.judge.batched:
        return verify_in_batch(state, context, resources)
    fact, evidence = state["fact"], state.get("evidence", [])
    units = fact.units() if state["route"] == "complex" else None
    judge = resources.engines.judge
    result = limited_call(
        resources,
        judge,
        lambda: judge.verify(
            fact, evidence, units=units, closed_book=resources.mode is Mode.CLOSED_BOOK
        ),
        lambda r: r.usage,
    )
    if result is None:  # the run's model calls ran out: recorded, never lost
        resources.calls.skip("fact")
        return {
            "verdict": settle(fact, call_limit_verdict(judge.revision, context.max_calls), []),
            "usage": state.get("usage") or Usage(),
            "usage_log": [RoleUsage(role="verify", usage=Usage())],
        }
    verdict = settle(
        fact, result.verdict, evidence, supported_threshold=context.supported_threshold()
    )
    return {
        "verdict": verdict,
        "usage": (state.get("usage") or Usage()) + result.usage,
        "usage_log": [RoleUsage(role="verify", usage=result.usage)],
    }
