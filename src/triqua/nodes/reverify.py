"""Re-verify: for units left insufficient, search for and judge their contextual claim.

Each round builds the contextual claim of the pending units (they and the elements that
connect them to the rest of their sentence, as a sentence: ``core.plan.contextual``), searches
with that claim and the refiner's queries (later rounds also with queries one step wider:
the source sentence, the units without their subject, the resolved neighbours' names; never
a query already asked), and judges the claim's pending units on the
merged evidence. A round whose searches find no passage the fact did not hold judges
nothing (the same evidence would get the same verdict) and hands over to the next round,
whose wider queries and deeper page may reach what it did not. Bounded four ways: rounds
(``reverify_rounds``), the run's search budget, its model calls (``max_calls``), and
progress (the loop ends when nothing is left insufficient or no query is left unasked).
"""

from __future__ import annotations

from typing import Any, Literal

from langgraph.runtime import Runtime

from triqua.context import Context
from triqua.core.budget.limits import MODEL_CALL_LIMIT
from triqua.core.plan.contextual import contextual_claim, resolved_facts
from triqua.core.verdicts.reverification import (
    RoundSearch,
    fresh_queries,
    merge_round,
    pending_units,
    round_depth,
    search_round,
    stopped_round,
    value_queries,
    wider_queries,
)
from triqua.core.verdicts.settling import settle
from triqua.models.hypotheses import qualifier_phrase
from triqua.nodes.common import context_of
from triqua.nodes.members import (
    batch_resources,
    member_states,
    merged,
    run_members,
    waits_on_model,
    waits_on_search,
)
from triqua.runtime.resources import RunResources, calls_model, limited_call
from triqua.schema import Fact, FactUnit, Mode, ReverifyRound, UnitVerdict, Usage, Verdict
from triqua.state import BatchState, FactState, RoleUsage

#: Why a round judged nothing: its searches found no passage the fact did not hold.
NO_NEW_EVIDENCE = "no new evidence"


def wants_round(member: FactState, context: Context, resources: RunResources) -> bool:
    """A complex fact with insufficient units, rounds, budget and no stop left loops again.

    A fact whose verdict carries an error (its judge call failed after its retries) does not:
    rounds look for evidence, they are not more retries of a failed call, so the failure
    stays on the verdict and in the report's ``failures`` instead of being judged away.
    """
    if member["route"] != "complex" or context.routing == "never_reverify":
        return False
    if member.get("verdict") is not None and member["verdict"].error:
        return False
    if member.get("round", 0) >= context.reverify_rounds or member.get("stop_reason"):
        return False
    if resources.mode is Mode.CLOSED_BOOK or not pending_units(member["fact"], member["verdict"]):
        return False
    return not (resources.retriever.uses_budget and resources.budget.exhausted)


def should_reverify(
    state: BatchState, runtime: Runtime[Context]
) -> Literal["reverify", "verify_elements"]:
    """Loop again while any member wants another round, then verify the elements."""
    if state["route"] != "complex":
        return "verify_elements"
    context = context_of(runtime)
    resources = batch_resources(state, context, runtime)
    if any(wants_round(member, context, resources) for member in member_states(state)):
        return "reverify"
    return "verify_elements"


def _stop(
    state: FactState, stopped: ReverifyRound, *usage: tuple[str, Usage], ends: bool = True
) -> dict[str, Any]:
    """Record a round, charging the usage spent on it; ``ends``: its stop reason ends the loop."""
    update: dict[str, Any] = {
        "round": stopped.round,
        "rounds": [*state.get("rounds", []), stopped],
    }
    if ends:
        update["stop_reason"] = stopped.stop_reason
    if usage:
        update["usage"] = sum((u for _, u in usage), state.get("usage") or Usage())
        update["usage_log"] = [RoleUsage(role=role, usage=u) for role, u in usage]
    return update


def _call_limit_stop(
    state: FactState,
    resources: RunResources,
    round_index: int,
    units: list[FactUnit],
    claim: str = "",
) -> dict[str, Any]:
    """End the loop with a recorded round: the run's model calls ran out."""
    resources.calls.skip("round")
    return _stop(state, stopped_round(round_index, units, claim, MODEL_CALL_LIMIT))


def reverify(state: BatchState, runtime: Runtime[Context]) -> dict[str, Any]:
    """One round for each member that wants one (at once when they wait on a model)."""
    context = context_of(runtime)
    resources = batch_resources(state, context, runtime)
    work = member_states(state)
    judged = [(m["fact"], m["verdict"]) for m in work if m.get("verdict") is not None]
    chosen = [i for i, member in enumerate(work) if wants_round(member, context, resources)]
    for i in chosen:  # the neighbours its contextual claim may rest on
        sentence = work[i].get("sentence_facts") or [work[i]["fact"]]
        work[i] = merged(work[i], {"resolved_facts": sorted(resolved_facts(sentence, judged))})
    at_once = waits_on_model(resources) or waits_on_search(resources)
    work = run_members(work, context, resources, "reverify", reverify_fact, chosen, at_once=at_once)
    return {"work": work}


def _settled(
    state: FactState,
    context: Context,
    resources: RunResources,
    asked: Fact,
    verdict: Verdict,
    units: list[FactUnit],
    found: RoundSearch,
) -> tuple[Verdict, list[UnitVerdict]]:
    """The round's verdict settled against its evidence, merged into the fact's verdict."""
    reader = resources.engines.judge.reader
    fresh = settle(
        asked,
        verdict,
        found.evidence,
        supported_threshold=context.supported_threshold(),
        reader=reader,
        grounding=context.grounding,
    )
    return merge_round(
        state["fact"],
        state["verdict"],
        fresh,
        units,
        found.evidence,
        reader,
        grounding=context.grounding,
    )


def reverify_fact(state: FactState, context: Context, resources: RunResources) -> dict[str, Any]:
    """One round: contextualised queries for pending units, new evidence, a per-unit verdict."""
    fact = state["fact"]
    round_index = state.get("round", 0) + 1
    units = pending_units(fact, state["verdict"])
    resolved = state.get("resolved_facts")
    sentence = state.get("sentence_facts") or [fact]
    claim = contextual_claim(fact, units, sentence, resolved, phrase=qualifier_phrase)
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
    # Round 1 searches the units' own elements; later rounds reach one step further out.
    wider = wider_queries(fact, units, claim.connecting) if round_index > 1 else []
    # Every round may also ask for the relation's actual value, the claimed one left out.
    values = value_queries(fact, units, claim.connecting)
    queries = fresh_queries(
        claim.text, refined_queries, fact, state.get("rounds", []), units, wider, values
    )
    if not queries:  # nothing new to search: judging the same evidence again is waste
        stopped = stopped_round(round_index, units, claim.text, "no new query")
        return _stop(state, stopped, ("refine", refine_usage))
    depth = round_depth(context.max_results, round_index)
    found = search_round(resources, queries, depth, state.get("evidence", []))
    spent = (("refine", refine_usage), ("search", found.usage))
    errors = [*state.get("retrieval_errors", []), *found.errors]
    if not found.new_ids:
        # The searches found nothing new: the same evidence would get the same verdict, so
        # this round judges nothing; unless the budget is spent, the next round (if the
        # round limit allows one) asks its wider queries one page deeper.
        reason = found.stop_reason or NO_NEW_EVIDENCE
        stopped = stopped_round(round_index, units, claim.text, reason, queries, found.new_ids)
        ends = found.stop_reason is not None
        return {**_stop(state, stopped, *spent, ends=ends), "retrieval_errors": errors}
    judged = limited_call(
        resources,
        engines.judge,
        lambda: engines.judge.verify(claim.fact, found.evidence, units=units),
        lambda r: r.usage,
    )
    if judged is None:
        resources.calls.skip("round")
        stopped = stopped_round(
            round_index, units, claim.text, MODEL_CALL_LIMIT, queries, found.new_ids
        )
        return _stop(state, stopped, *spent)
    merged, updated = _settled(state, context, resources, claim.fact, judged.verdict, units, found)
    record = ReverifyRound(
        round=round_index,
        units=sorted({u.text for u in units}),
        claim=claim.text,
        queries=queries,
        evidence_ids=found.new_ids,
        unit_verdicts=updated,
        stop_reason=found.stop_reason,
    )
    return {
        **_stop(state, record, *spent, ("verify", judged.usage)),
        "verdict": merged,
        "evidence": found.evidence,
        "retrieval_errors": errors,
    }
