"""Batched verification: one fact's verify step, answered by its batch's single call.

Why coalescing rather than a subgraph per batch: the per-fact subgraph stays as it is, so
Studio still shows one path per fact, each fact keeps its route (complex facts get unit
verdicts in the batched call and re-verify on their own afterwards) and its own record.
The verify node of each member submits its request to the run's :class:`Coalescer`; one
member makes the call for the batch (:func:`judge_batch`) and every member settles its own
verdict against its own evidence only, so the grounding rule holds per fact.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from triqua.context import Context
from triqua.core.verdicts import call_limit_verdict, settle
from triqua.core.verify_batches import BatchItem, split_usage
from triqua.runtime.resources import RunResources, limited_call
from triqua.schema import Mode, Usage, Verdict
from triqua.state import FactState, RoleUsage


@dataclass(frozen=True)
class Judged:
    """One member's answer: the judge's verdict and its share of the call's cost."""

    verdict: Verdict
    usage: Usage


def _limit_verdict(resources: RunResources, context: Context) -> Judged:
    """The answer of a fact left unjudged because the run's model calls ran out."""
    resources.calls.skip("fact")
    verdict = call_limit_verdict(resources.engines.judge.revision, context.max_calls)
    return Judged(verdict=verdict, usage=Usage())


def _alone(resources: RunResources, context: Context, item: BatchItem, closed: bool) -> Judged:
    """A fact judged in its own call: split off a failed batch, or left out of its answer."""
    judge = resources.engines.judge
    result = limited_call(
        resources,
        judge,
        lambda: judge.verify(item.fact, item.evidence, units=item.units, closed_book=closed),
        lambda r: r.usage,
    )
    if result is None:
        return _limit_verdict(resources, context)
    return Judged(verdict=result.verdict, usage=result.usage)


def judge_batch(
    resources: RunResources,
    context: Context,
    members: Sequence[tuple[str, BatchItem]],
    closed: bool,
) -> dict[str, Judged]:
    """Judge the members in one call; any it leaves unanswered are judged one by one.

    A batch of one (a one-fact text, a member that came late) is still one compact call. A
    call that fails after its retries leaves every member unanswered: the batch is split
    into per-fact calls, made at once.
    """
    judge = resources.engines.judge
    # In fact order ("f2" before "f10"), whatever order they arrived in: the same batch
    # always makes the same prompt (cache keys, providers' prompt caching, reproducibility).
    members = sorted(members, key=lambda m: (len(m[0]), m[0]))
    items = [item for _, item in members]
    batch = limited_call(
        resources, judge, lambda: judge.verify_batch(items, closed_book=closed), lambda r: r.usage
    )
    if batch is None:
        return {member: _limit_verdict(resources, context) for member, _ in members}
    shares = split_usage(batch.usage, len(items))
    left = [i for i, result in enumerate(batch.results) if result is None]
    # The members left unanswered are judged at once, each in its own call: their nodes are
    # idle, waiting on this call, so the split uses their worker slots, and a batch that
    # timed out costs one more timeout, not one per member.
    with ThreadPoolExecutor(max_workers=max(1, len(left))) as pool:
        alone = dict(
            zip(
                left,
                pool.map(lambda i: _alone(resources, context, items[i], closed), left),
                strict=True,
            )
        )
    out = {}
    for index, ((member, _), result, share) in enumerate(
        zip(members, batch.results, shares, strict=True)
    ):
        if result is None:
            out[member] = Judged(alone[index].verdict, share + alone[index].usage)
        else:
            out[member] = Judged(result.verdict, share + result.usage)
    return out


def verify_in_batch(state: FactState, context: Context, resources: RunResources) -> dict[str, Any]:
    """The fact's verdict from its batch's call, settled against its own evidence only.

    The batch's other passages were shown too, but a verdict citing one that was not
    retrieved for this fact grounds nothing: with batching or without, a fact rests on its
    own retrieval.
    """
    fact, evidence = state["fact"], state.get("evidence", [])
    units = tuple(fact.units()) if state["route"] == "complex" else None
    item = BatchItem(fact=fact, evidence=tuple(evidence), units=units)
    closed = resources.mode is Mode.CLOSED_BOOK
    judged: Judged = resources.ledger.batches.submit(
        state["batch"],
        state.get("batch_size", 1),
        fact.id,
        item,
        lambda members: judge_batch(resources, context, members, closed),
    )
    return {
        "verdict": settle(
            fact, judged.verdict, evidence, supported_threshold=context.supported_threshold()
        ),
        "usage": (state.get("usage") or Usage()) + judged.usage,
        "usage_log": [RoleUsage(role="verify", usage=judged.usage)],
    }
