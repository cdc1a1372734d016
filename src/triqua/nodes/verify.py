"""Verify: judge each fact of a batch against its evidence; complex facts get unit verdicts."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from triqua.context import Context
from triqua.core.verdicts.settling import call_limit_verdict, settle
from triqua.nodes.common import context_of
from triqua.nodes.members import batch_resources, member_states, run_members, waits_on_model
from triqua.nodes.verify_batch import judge_in_batch
from triqua.runtime.resources import RunResources, limited_call
from triqua.schema import Mode, Usage
from triqua.state import BatchState, FactState, RoleUsage


def verify_fact(state: FactState, context: Context, resources: RunResources) -> dict[str, Any]:
    """Judge one fact in its own call, per unit when it has several (or on the complex route)."""
    fact, evidence = state["fact"], state.get("evidence", [])
    # Units are listed whenever there are several, so a fact that is not supported as a
    # whole can still have its stated base (or qualifiers) judged and scored.
    units = fact.units() if state["route"] == "complex" or fact.qualifiers else None
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
        fact,
        result.verdict,
        evidence,
        supported_threshold=context.supported_threshold(),
        reader=judge.reader,
        grounding=context.grounding,
    )
    return {
        "verdict": verdict,
        "usage": (state.get("usage") or Usage()) + result.usage,
        "usage_log": [RoleUsage(role="verify", usage=result.usage)],
    }


def verify(state: BatchState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Judge the batch: one call for all members when batched, else one call per member.

    Members a batched call leaves unanswered (or all, when it fails after its retries) are
    judged one by one, at once; each verdict is settled against its own fact's evidence.
    """
    context = context_of(runtime)
    resources = batch_resources(state, context, runtime)
    work = member_states(state)
    batched = all(member.get("batch") for member in work) and resources.engines.judge.batched
    if batched:
        work, left = judge_in_batch(work, context, resources)
    else:
        left = list(range(len(work)))
    work = run_members(
        work, context, resources, "verify", verify_fact, left, at_once=waits_on_model(resources)
    )
    return {"work": work}
