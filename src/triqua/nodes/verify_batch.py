"""Batched verification: a batch's facts judged in one call, each verdict settled on its own.

The batch's passages are pooled and shown once; every member's verdict is settled against
its own evidence only, so a verdict citing a passage retrieved for another member grounds
nothing: with batching or without, a fact rests on its own retrieval.
"""

from __future__ import annotations

from typing import Any

from triqua.context import Context
from triqua.core.plan.verify_batches import BatchItem, split_usage
from triqua.core.verdicts.settling import call_limit_verdict, settle
from triqua.nodes.members import merged
from triqua.runtime.resources import RunResources, limited_call
from triqua.schema import Mode, Usage
from triqua.state import FactState, RoleUsage


def _item(member: FactState) -> BatchItem:
    """What the batched call is shown of one member: its fact, evidence and units (if several)."""
    fact = member["fact"]
    units = tuple(fact.units()) if member["route"] == "complex" or fact.qualifiers else None
    return BatchItem(fact=fact, evidence=tuple(member.get("evidence", [])), units=units)


def _charged(member: FactState, verdict_update: dict[str, Any], usage: Usage) -> FactState:
    """A member with its verdict and its share of the call's cost."""
    return merged(
        member,
        {
            **verdict_update,
            "usage": (member.get("usage") or Usage()) + usage,
            "usage_log": [RoleUsage(role="verify", usage=usage)],
        },
    )


def judge_in_batch(
    work: list[FactState], context: Context, resources: RunResources
) -> tuple[list[FactState], list[int]]:
    """The members judged in one call, and the indices of those it left unanswered.

    Members go in fact order ("f2" before "f10"): the same batch always makes the same
    prompt (cache keys, providers' prompt caching, reproducibility). A call the run's call
    limit refuses leaves every member insufficient with that reason; a call that fails
    after its retries raises, and its members are judged one by one.
    """
    judge = resources.engines.judge
    order = sorted(range(len(work)), key=lambda i: (len(work[i]["fact"].id), work[i]["fact"].id))
    items = [_item(work[i]) for i in order]
    closed = resources.mode is Mode.CLOSED_BOOK
    out = list(work)
    try:
        batch = limited_call(
            resources,
            judge,
            lambda: judge.verify_batch(items, closed_book=closed),
            lambda r: r.usage,
        )
    except Exception:  # the members are judged alone, where failures are kept
        return out, order
    if batch is None:  # the run's model calls ran out: recorded, never lost
        limit = call_limit_verdict(judge.revision, context.max_calls)
        for index in order:
            resources.calls.skip("fact")
            verdict = settle(out[index]["fact"], limit, [])
            out[index] = _charged(out[index], {"verdict": verdict}, Usage())
        return out, []
    left = []
    shares = split_usage(batch.usage, len(items))
    for index, result, share in zip(order, batch.results, shares, strict=True):
        member = out[index]
        if result is None:
            out[index] = _charged(member, {}, share)
            left.append(index)
            continue
        verdict = settle(
            member["fact"],
            result.verdict,
            member.get("evidence", []),
            supported_threshold=context.supported_threshold(),
            reader=judge.reader,
            grounding=context.grounding,
        )
        out[index] = _charged(member, {"verdict": verdict}, share + result.usage)
    return out, left
