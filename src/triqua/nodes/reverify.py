"""Re-verify: for units left insufficient, search for and judge their contextual claim.

Each round builds the contextual claim of the pending units (they and the elements that
connect them to the rest of their sentence, as a sentence: ``core.contextual``), searches
with that claim and the refiner's queries, and judges the claim's pending units on the
merged evidence. Bounded four ways: rounds (``reverify_rounds``), the run's search budget,
its model calls (``max_calls``), and progress (a round stops the loop when nothing is left
insufficient).
"""

from __future__ import annotations

from typing import Any, Literal

from langgraph.runtime import Runtime

from triqua.context import Context
from triqua.core.contextual import contextual_claim
from triqua.limits import MODEL_CALL_LIMIT
from triqua.nodes.common import context_of
from triqua.nodes.retrieve import BUDGET_SPENT, merge_evidence, search
from triqua.nodes.verify import settle
from triqua.resources import RunResources, calls_model, limited_call, run_resources
from triqua.schema import FactUnit, Mode, ReverifyRound, Status, Usage
from triqua.state import FactState, RoleUsage


def pending_units(state: FactState) -> list[FactUnit]:
    """Units of the fact whose verdict is still insufficient evidence."""
    insufficient = {
        u.unit for u in state["verdict"].unit_verdicts if u.status is Status.INSUFFICIENT
    }
    return [unit for unit in state["fact"].units() if unit.text in insufficient]


def should_reverify(state: FactState, runtime: Runtime[Context]) -> Literal["reverify", "record"]:
    """Loop again only for complex facts with insufficient units, rounds and budget left."""
    context = context_of(runtime)
    if state["route"] != "complex" or context.routing == "never_reverify":
        return "record"
    if state.get("round", 0) >= context.reverify_rounds or state.get("stop_reason"):
        return "record"
    resources = run_resources(context, runtime, digest=state.get("documents_digest"))
    if resources.mode is Mode.CLOSED_BOOK or not pending_units(state):
        return "record"
    if resources.retriever.uses_budget and resources.budget.exhausted:
        return "record"
    return "reverify"


def _call_limit_stop(
    state: FactState,
    resources: RunResources,
    round_index: int,
    units: list[FactUnit],
    claim: str = "",
) -> dict[str, Any]:
    """End the loop with a recorded round: the run's model calls ran out."""
    resources.calls.skip("round")
    stopped = ReverifyRound(
        round=round_index,
        units=[u.text for u in units],
        claim=claim,
        queries=[],
        stop_reason=MODEL_CALL_LIMIT,
    )
    return {
        "round": round_index,
        "rounds": [*state.get("rounds", []), stopped],
        "stop_reason": MODEL_CALL_LIMIT,
    }


def reverify(state: FactState, runtime: Runtime[Context]) -> dict[str, Any]:
    """One round: contextualised queries for pending units, new evidence, a per-unit verdict."""
    context = context_of(runtime)
    resources = run_resources(context, runtime, digest=state.get("documents_digest"))
    fact = state["fact"]
    round_index = state.get("round", 0) + 1
    units = pending_units(state)
    claim = contextual_claim(fact, units, state.get("sentence_facts") or [fact])
    engines = resources.engines
    if calls_model(engines.judge) and resources.calls.exhausted:  # no judge call left
        return _call_limit_stop(state, resources, round_index, units, claim.text)
    refined = limited_call(
        resources,
        engines.refiner,
        lambda: engines.refiner.refine(fact, units, round_index),
        lambda r: r[1],
    )
    if refined is None:
        return _call_limit_stop(state, resources, round_index, units, claim.text)
    refined_queries, refine_usage = refined
    queries = [claim.text.rstrip("."), *refined_queries]  # the claim itself is searched first
    asked = {fact.query(), *(q for r in state.get("rounds", []) for q in r.queries)}
    fresh_queries = [q for q in dict.fromkeys(queries) if q not in asked]
    evidence = list(state.get("evidence", []))
    new_ids: list[str] = []
    search_usage = Usage()
    errors = []
    stop_reason = None
    if not fresh_queries:  # nothing new to search: judging the same evidence again is waste
        stopped = ReverifyRound(
            round=round_index,
            units=[u.text for u in units],
            claim=claim.text,
            queries=[],
            stop_reason="no new query",
        )
        return {
            "round": round_index,
            "rounds": [*state.get("rounds", []), stopped],
            "stop_reason": "no new query",
            "usage": (state.get("usage") or Usage()) + refine_usage,
            "usage_log": [RoleUsage(role="refine", usage=refine_usage)],
        }
    for query in fresh_queries:
        found, error, usage = search(resources, query, context.max_results)
        search_usage = search_usage + usage
        if error:
            errors.append(error)
            if error == BUDGET_SPENT:
                stop_reason = error
        new_ids.extend(item.id for item in found if item.id not in new_ids)
        evidence = merge_evidence(evidence, found)
    previous = {item.id for item in state.get("evidence", [])}
    if not set(new_ids) - previous and not state["verdict"].error:
        # The searches found nothing new: the same evidence would get the same verdict.
        reason = stop_reason or "no new evidence"
        stopped = ReverifyRound(
            round=round_index,
            units=[u.text for u in units],
            claim=claim.text,
            queries=fresh_queries,
            evidence_ids=new_ids,
            stop_reason=reason,
        )
        return {
            "round": round_index,
            "rounds": [*state.get("rounds", []), stopped],
            "retrieval_errors": [*state.get("retrieval_errors", []), *errors],
            "stop_reason": reason,
            "usage": (state.get("usage") or Usage()) + refine_usage + search_usage,
            "usage_log": [
                RoleUsage(role="refine", usage=refine_usage),
                RoleUsage(role="search", usage=search_usage),
            ],
        }
    judged = limited_call(
        resources,
        engines.judge,
        lambda: engines.judge.verify(claim.fact, evidence, units=units),
        lambda r: r.usage,
    )
    if judged is None:
        stop = _call_limit_stop(state, resources, round_index, units, claim.text)
        stop["rounds"][-1] = stop["rounds"][-1].model_copy(
            update={"queries": fresh_queries, "evidence_ids": new_ids}
        )
        stop["usage"] = (state.get("usage") or Usage()) + refine_usage + search_usage
        stop["usage_log"] = [
            RoleUsage(role="refine", usage=refine_usage),
            RoleUsage(role="search", usage=search_usage),
        ]
        return stop
    fresh = settle(claim.fact, judged.verdict, evidence)
    targets = {unit.text for unit in units}
    updated = {u.unit: u for u in fresh.unit_verdicts if u.unit in targets}
    merged_units = [updated.get(u.unit, u) for u in state["verdict"].unit_verdicts]
    # Every unit the earlier verdict left insufficient (all of them when its call failed) was
    # judged again, so the earlier error no longer applies; this round's error (if any) does.
    merged = settle(
        fact,
        state["verdict"].model_copy(update={"unit_verdicts": merged_units, "error": fresh.error}),
        evidence,
    )
    record = ReverifyRound(
        round=round_index,
        units=sorted(targets),
        claim=claim.text,
        queries=fresh_queries,
        evidence_ids=new_ids,
        unit_verdicts=list(updated.values()),
        stop_reason=stop_reason,
    )
    usage = refine_usage + search_usage + judged.usage
    return {
        "verdict": merged,
        "evidence": evidence,
        "round": round_index,
        "rounds": [*state.get("rounds", []), record],
        "retrieval_errors": [*state.get("retrieval_errors", []), *errors],
        "stop_reason": stop_reason,
        "usage": (state.get("usage") or Usage()) + usage,
        "usage_log": [
            RoleUsage(role="refine", usage=refine_usage),
            RoleUsage(role="search", usage=search_usage),
            RoleUsage(role="verify", usage=judged.usage),
        ],
    }
