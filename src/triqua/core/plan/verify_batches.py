"""Batched verification: which facts share a call, their pooled evidence, their shared cost.

A batch is up to ``verify_batch`` facts: whole source sentences (the routing unit) packed in
text order. Its evidence is every member's retrieved passages, pooled and de-duplicated (by
id, then by content); what the call shows of them is the batch's evidence sheet
(:mod:`triqua.core.plan.evidence_sheet`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from triqua.core.plan.routing import group_by_sentence
from triqua.schema import Evidence, Fact, FactUnit, Usage

__all__ = [
    "BatchItem",
    "batch_keys",
    "batches_of",
    "pool_evidence",
    "split_usage",
]


@dataclass(frozen=True)
class BatchItem:
    """One fact of a batch: the fact, its own evidence and (complex route) its units."""

    fact: Fact
    evidence: tuple[Evidence, ...]
    units: tuple[FactUnit, ...] | None = None


def batches_of(facts: Sequence[Fact], size: int) -> list[list[int]]:
    """Indices of ``facts`` in batches of at most ``size``: whole sentences, packed in order.

    Consecutive sentences' facts share a batch while they fit; a sentence with more facts
    than ``size`` is cut into runs of ``size``, so one sentence's facts stay together
    whenever they can.
    """
    size = max(1, size)
    out: list[list[int]] = []
    for group in group_by_sentence(facts):
        for run in (group[i : i + size] for i in range(0, len(group), size)):
            if out and len(out[-1]) + len(run) <= size:
                out[-1].extend(run)
            else:
                out.append(list(run))
    return out


def batch_keys(facts: Sequence[Fact], size: int) -> dict[str, tuple[str, int]]:
    """Each fact's batch (named by its first fact's id) and that batch's size.

    With ``size`` 1 there are no batches: each fact is judged in its own call.
    """
    if size <= 1:
        return {}
    out = {}
    for batch in batches_of(facts, size):
        for index in batch:
            out[facts[index].id] = (facts[batch[0]].id, len(batch))
    return out


def pool_evidence(items: Sequence[BatchItem]) -> list[Evidence]:
    """Every member's passages once, in the order members list them (by id, then content)."""
    pooled: list[Evidence] = []
    ids: set[str] = set()
    hashes: set[str] = set()
    for item in items:
        for passage in item.evidence:
            digest = passage.content_hash or passage.text
            if passage.id in ids or digest in hashes:
                continue
            ids.add(passage.id)
            hashes.add(digest)
            pooled.append(passage)
    return pooled


def split_usage(total: Usage, members: int) -> list[Usage]:
    """One batch call's usage shared out so that the members' usages add up to it.

    The call itself is counted on the first member; tokens are divided evenly, the remainder
    going to the first members.
    """
    members = max(1, members)

    def share(value: int, index: int) -> int:
        return value // members + (1 if index < value % members else 0)

    return [
        Usage(
            model_calls=total.model_calls if i == 0 else 0,
            search_calls=total.search_calls if i == 0 else 0,
            input_tokens=share(total.input_tokens, i),
            output_tokens=share(total.output_tokens, i),
            cached_input_tokens=share(total.cached_input_tokens, i),
            tokens_estimated=total.tokens_estimated,
        )
        for i in range(members)
    ]
