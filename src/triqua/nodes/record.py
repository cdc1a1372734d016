"""Record: turn each verified fact of a batch into its ``ClaimRecord`` (the contract's unit)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from triqua.context import Context
from triqua.core.report.records import checkable_statuses, resolved_context, with_retrieval_errors
from triqua.nodes.common import context_of, emit
from triqua.nodes.members import batch_resources, member_states
from triqua.runtime.resources import RunResources
from triqua.schema import ClaimRecord, Revisions, Status, Usage
from triqua.state import BatchState, FactState


def record(state: BatchState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Each member's record, and the usage its steps logged, handed to the main graph."""
    context = context_of(runtime)
    resources = batch_resources(state, context, runtime)
    work = member_states(state)
    return {
        "records": [record_fact(member, resources) for member in work],
        "usage_log": [entry for member in work for entry in member.get("usage_log", [])],
    }


def record_fact(state: FactState, resources: RunResources) -> ClaimRecord:
    """Assemble one fact's record with its evidence, verdict, rounds, costs and revisions."""
    fact, verdict = state["fact"], state["verdict"]
    verdict = with_retrieval_errors(verdict, state.get("retrieval_errors", []))
    claim = ClaimRecord(
        case_id=state.get("case_id") or "",
        claim_id=fact.id,
        response_id=state["run_id"],
        claim_text=fact.to_string(),
        source_text=fact.source_text,
        context=resolved_context(state.get("question"), state.get("previous_chunk")),
        fact=fact,
        evidence=state.get("evidence", []),
        verdict=verdict,
        complexity=state.get("complexity", {}),
        route=state["route"],
        rounds=state.get("rounds", []),
        elements=state.get("elements", []),
        usage=state.get("usage") or Usage(),
        revisions=Revisions(
            extractor=resources.engines.decomposer.revision,
            retriever=resources.retriever.revision,
            judge=verdict.judge or resources.engines.judge.revision,
        ),
        spec_hash=state["spec_hash"],
    )
    # Checkable units and supported ones, so stream consumers can show a running score.
    labelled = checkable_statuses(fact, verdict)
    emit(
        "fact_verified",
        fact=fact.id,
        claim=claim.claim_text,
        status=verdict.status.value,
        wrong_components=list(verdict.wrong_components),
        units=len(labelled),
        supported_units=sum(s is Status.SUPPORTED for s in labelled),
    )
    return claim
