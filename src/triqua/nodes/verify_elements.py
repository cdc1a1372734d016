"""Verify elements: a complex fact's element-level claims, each judged on the fact's evidence.

Runs on the complex path after re-verification, so the element claims read every passage
the rounds found. Each element of a fact is a claim of its own (``core.plan.element_claims``):
with a batched judge (a chat model) every element claim of the batch is judged in one call,
each on its own fact's evidence; otherwise one call per element. The verdicts are settled
(grounding, abstention) as any verdict is, and recorded on the fact's
``ClaimRecord.elements``; the sentence's verdict is derived from them (``SentenceVerdict``).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from langgraph.runtime import Runtime

from triqua.context import Context
from triqua.core.plan.element_claims import ElementGroup, element_claims, element_groups
from triqua.core.plan.verify_batches import BatchItem, split_usage
from triqua.core.verdicts.settling import settle
from triqua.engines.base import JudgeResult
from triqua.nodes.common import context_of
from triqua.nodes.members import (
    batch_resources,
    member_states,
    merged,
    run_members,
    waits_on_model,
)
from triqua.runtime.resources import RunResources, limited_call
from triqua.schema import ElementClaim, Mode, Usage
from triqua.state import BatchState, FactState, RoleUsage


def verify_elements(state: BatchState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Judge the element claims of every complex member of the batch."""
    context = context_of(runtime)
    resources = batch_resources(state, context, runtime)
    work = member_states(state)
    chosen = [i for i, m in enumerate(work) if m["route"] == "complex" and m.get("verdict")]
    batched = all(m.get("batch") for m in work) and resources.engines.judge.batched
    if chosen and batched:
        judged = _judge_in_batch([work[i] for i in chosen], context, resources)
        if judged is not None:
            for index, member in zip(chosen, judged, strict=True):
                work[index] = member
            return {"work": work}
    at_once = waits_on_model(resources)
    work = run_members(
        work, context, resources, "verify_elements", verify_fact_elements, chosen, at_once=at_once
    )
    return {"work": work}


def _claims(
    member: FactState, context: Context, resources: RunResources, results: list[JudgeResult]
) -> list[ElementClaim]:
    """The member's element claims from one judge result per element group, in order."""
    fact, evidence, verdict = member["fact"], member.get("evidence", []), member["verdict"]
    judge = resources.engines.judge
    claims: list[ElementClaim] = []
    for group, result in zip(element_groups(fact), results, strict=False):
        judged = settle(
            group.fact,
            result.verdict,
            evidence,
            supported_threshold=context.supported_threshold(),
            reader=judge.reader,
            grounding=context.grounding,
        )
        claims.extend(element_claims(group, judged, verdict))
    return claims


def _judge_in_batch(
    members: list[FactState], context: Context, resources: RunResources
) -> list[FactState] | None:
    """Every member's element claims judged in one call; None when the call gave no answer.

    Each element claim is its own item (its own id), shown with its own fact's evidence.
    """
    groups: list[tuple[int, ElementGroup]] = [
        (i, group) for i, m in enumerate(members) for group in element_groups(m["fact"])
    ]
    items = [
        BatchItem(
            fact=group.fact.model_copy(update={"id": f"{group.fact.id}.e{n}"}),
            evidence=tuple(members[i].get("evidence", [])),
            units=group.units,
        )
        for n, (i, group) in enumerate(groups, start=1)
    ]
    judge = resources.engines.judge
    closed = resources.mode is Mode.CLOSED_BOOK
    try:
        batch = limited_call(
            resources,
            judge,
            lambda: judge.verify_batch(items, closed_book=closed),
            lambda r: r.usage,
        )
    except Exception:  # judged one by one instead, where failures are kept
        return None
    if batch is None or any(result is None for result in batch.results):
        return None if batch is None else _partial(members, context, resources, groups, batch)
    shares = split_usage(batch.usage, len(members))
    out = []
    for i, (member, share) in enumerate(zip(members, shares, strict=True)):
        results = [r for (owner, _), r in zip(groups, batch.results, strict=True) if owner == i]
        claims = _claims(member, context, resources, [r for r in results if r is not None])
        out.append(_charged(member, claims, share))
    return out


def _partial(
    members: list[FactState],
    context: Context,
    resources: RunResources,
    groups: list[tuple[int, ElementGroup]],
    batch: Any,
) -> list[FactState]:
    """A batch that left element claims unanswered: its members judged one by one."""
    shares = split_usage(batch.usage, len(members))
    out = []
    for member, share in zip(members, shares, strict=True):
        charged = _charged(member, [], share)
        out.append(merged(charged, verify_fact_elements(charged, context, resources)))
    return out


def _charged(member: FactState, claims: list[ElementClaim], usage: Usage) -> FactState:
    """A member with its element claims and its share of the call's cost."""
    return merged(
        member,
        {
            "elements": claims,
            "usage": (member.get("usage") or Usage()) + usage,
            "usage_log": [RoleUsage(role="verify", usage=usage)],
        },
    )


def verify_fact_elements(
    state: FactState, context: Context, resources: RunResources
) -> dict[str, Any]:
    """Each element of the fact judged in its own call; stops when model calls run out."""
    fact, evidence = state["fact"], state.get("evidence", [])
    if state.get("verdict") is None:
        return {}
    judge = resources.engines.judge
    results: list[JudgeResult] = []
    spent = Usage()
    for group in element_groups(fact):
        result = limited_call(
            resources,
            judge,
            partial(
                judge.verify,
                group.fact,
                evidence,
                units=list(group.units),
                closed_book=resources.mode is Mode.CLOSED_BOOK,
            ),
            lambda r: r.usage,
        )
        if result is None:  # the run's model calls ran out: the rest stay unjudged
            break
        spent = spent + result.usage
        results.append(result)
    return {
        "elements": _claims(state, context, resources, results),
        "usage": (state.get("usage") or Usage()) + spent,
        "usage_log": [RoleUsage(role="verify", usage=spent)],
    }
