"""Batched verification: one fact's verify step, answered by its batch's single call.

Why coalescing rather than a subgraph per batch: the per-fact subgraph stays as it is, so
Studio still shows one path per fact, each fact keeps its route (complex facts get unit
verdicts in the batched call and re-verify on their own afterwards) and its own record.
The verify node of each member submits its request to the run's :class:`Coalescer`; one
member makes the call for the batch (:func:`judge_batch`) and every member settles its own
verdict against its own evidence (plus any pooled passage it cites), so the grounding rule
holds per fact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from triqua.context import Context
from triqua.core.verdicts import call_limit_verdict, settle
from triqua.core.verify_batches import BatchItem, pool_evidence, split_usage
from triqua.resources import RunResources, limited_call
from triqua.schema import Evidence, Mode, Usage, Verdict
from triqua.state import FactState, RoleUsage


@dataclass(frozen=True)
class Judged:
    """One member's answer: the judge's verdict, its share of the cost, passages it cites."""

    verdict: Verdict
    usage: Usage
    cited: tuple[Evidence, ...] = ()


def _limit_verdict(resources: RunResources, context: Context) -> Judged:
    """The answer of a fact left unjudged because the run's model calls ran out."""
    resources.calls.skip("fact")
    verdict = call_limit_verdict(resources.engines.judge.revision, context.max_calls)
    return Judged(verdict=verdict, usage=Usage())


def _alone(resources: RunResources, context: Context, item: BatchItem, closed: bool) -> Judged:
    """A fact judged in its own call (a batch of one, or split off a failed batch)."""
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

    A call that fails after its retries leaves every member unanswered: the batch is split.
    """
    if len(members) == 1:
        member, item = members[0]
        return {member: _alone(resources, context, item, closed)}
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
    pooled = {passage.id: passage for passage in pool_evidence(items)}
    out = {}
    shares = split_usage(batch.usage, len(items))
    for (member, item), result, share in zip(members, batch.results, shares, strict=True):
        if result is None:
            alone = _alone(resources, context, item, closed)
            out[member] = Judged(alone.verdict, share + alone.usage)
            continue
        verdict = result.verdict
        own = {passage.id for passage in item.evidence}
        cited = [*verdict.evidence_ids, *(i for u in verdict.unit_verdicts for i in u.evidence_ids)]
        extra = tuple(pooled[i] for i in dict.fromkeys(cited) if i in pooled and i not in own)
        out[member] = Judged(verdict, share + result.usage, extra)
    return out


def verify_in_batch(state: FactState, context: Context, resources: RunResources) -> dict[str, Any]:
    """The fact's verdict from its batch's call, settled against the evidence it rests on.

    A pooled passage retrieved for another fact of the batch and cited by this fact's
    verdict joins its evidence, so its record stores every passage its verdict cites.
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
    evidence = [*evidence, *judged.cited]
    update: dict[str, Any] = {
        "verdict": settle(
            fact, judged.verdict, evidence, supported_threshold=context.supported_threshold()
        ),
        "usage": (state.get("usage") or Usage()) + judged.usage,
        "usage_log": [RoleUsage(role="verify", usage=judged.usage)],
    }
    if judged.cited:
        update["evidence"] = evidence
    return update
