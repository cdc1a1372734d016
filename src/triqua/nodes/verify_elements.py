"""Verify elements: a complex fact's element-level claims, each judged on the fact's evidence.

Runs on the complex path after re-verification, so the element claims read every passage
the rounds found. One judge call per element of the fact (``core.element_claims``); the
verdicts are settled (grounding, abstention) as any verdict is, and recorded on the fact's
``ClaimRecord.elements``; the sentence's verdict is derived from them (``SentenceVerdict``).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from langgraph.runtime import Runtime

from triqua.context import Context
from triqua.core.element_claims import element_claims, element_groups
from triqua.core.verdicts import settle
from triqua.nodes.common import context_of
from triqua.nodes.members import batch_resources, member_states, run_members, waits_on_model
from triqua.runtime.resources import RunResources, limited_call
from triqua.schema import ElementClaim, Mode, Usage
from triqua.state import BatchState, FactState, RoleUsage


def verify_elements(state: BatchState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Judge the element claims of every complex member of the batch."""
    context = context_of(runtime)
    resources = batch_resources(state, context, runtime)
    work = member_states(state)
    chosen = [i for i, member in enumerate(work) if member["route"] == "complex"]
    at_once = waits_on_model(resources)
    work = run_members(
        work, context, resources, "verify_elements", verify_fact_elements, chosen, at_once=at_once
    )
    return {"work": work}


def verify_fact_elements(
    state: FactState, context: Context, resources: RunResources
) -> dict[str, Any]:
    """Each element of the fact judged in its own call; stops when model calls run out."""
    fact, evidence, verdict = state["fact"], state.get("evidence", []), state.get("verdict")
    if verdict is None:
        return {}
    judge = resources.engines.judge
    claims: list[ElementClaim] = []
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
        judged = settle(
            group.fact,
            result.verdict,
            evidence,
            supported_threshold=context.supported_threshold(),
            reader=judge.reader,
            grounding=context.grounding,
        )
        claims.extend(element_claims(group, judged, verdict))
    return {
        "elements": claims,
        "usage": (state.get("usage") or Usage()) + spent,
        "usage_log": [RoleUsage(role="verify", usage=spent)],
    }
