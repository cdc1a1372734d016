"""Score: TriQuaScore and companions over all records, and the run's report."""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime

from triqua.accounting import count_failures, report_coverage
from triqua.context import Context
from triqua.limits import LIMIT_NOTE_PREFIX
from triqua.metrics import score_facts
from triqua.nodes.common import context_of, emit
from triqua.resources import RunLedger, ledger_of
from triqua.schema import Report, Usage, sha256_text
from triqua.state import RoleUsage, State

_FACT_NUMBER = re.compile(r"\d+")


def _order(claim_id: str) -> int:
    match = _FACT_NUMBER.search(claim_id)
    return int(match.group()) if match else 0


def usage_by_role(log: list[RoleUsage]) -> dict[str, Usage]:
    """Sum usage per role (decompose, verify, refine, search)."""
    totals: dict[str, Usage] = {}
    for entry in log:
        totals[entry.role] = totals.get(entry.role, Usage()) + entry.usage
    return totals


def run_limit_notes(resources: RunLedger) -> list[str]:
    """Notes on the limits this run reached (model calls, searches) and what they skipped.

    The counts are the run's ledger's; a resumed run's ledger was charged from its state.
    """
    notes = [n for n in [resources.calls.note()] if n]
    refused = resources.budget.refused
    if refused:
        notes.append(
            f"{LIMIT_NOTE_PREFIX}max_searches={resources.budget.max_searches}: {refused} "
            "searches were not made (their facts kept the evidence found before)"
        )
    return notes


def score(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Aggregate the records into scores and build the report."""
    ledger = ledger_of(context_of(runtime), runtime)
    records = sorted(state.get("records", []), key=lambda r: _order(r.claim_id))
    scores = score_facts([(r.fact, r.verdict) for r in records])
    by_role = usage_by_role(state.get("usage_log", []))
    total = Usage()
    for usage in by_role.values():
        total = total + usage
    triggered = sum(1 for r in records if r.rounds)
    notes = [*state.get("notes", []), *run_limit_notes(ledger)]
    failed = sum(1 for c in state.get("failed_chunks", []) if c.cause == "error")
    if scores.triqua_score is None and failed:
        notes.append(
            "No checkable facts: the score is undefined (decomposition failed for "
            f"{failed} of {len(state.get('chunks', []))} chunks)."
        )
    elif scores.triqua_score is None:
        notes.append("No checkable facts were found: the score is undefined.")
    report = Report(
        run_id=state["run_id"],
        input_hash=sha256_text(state["text"]),
        question=state.get("question"),
        engine=state.get("engine", ""),
        spec=state["spec"],
        scores=scores,
        records=records,
        usage=total,
        usage_by_role=by_role,
        reverify_trigger_rate=(triggered / len(records)) if records else None,
        model_calls_per_fact=(total.model_calls / len(records)) if records else None,
        search_calls_per_fact=(total.search_calls / len(records)) if records else None,
        errors=list(state.get("errors", [])),
        notes=notes,
        chunks=len(state.get("chunks", [])),
        failed_chunks=sorted(state.get("failed_chunks", []), key=lambda c: c.chunk_index),
        undecomposed=sorted(
            state.get("undecomposed", []), key=lambda s: (s.span.start, s.span.end)
        ),
        unverified_facts=state.get("unverified_facts", []),
    )
    report.failures = count_failures(report.records, report.failed_chunks)
    report.coverage = report_coverage(state["text"], report)
    emit("scored", score=scores.triqua_score, facts=len(records))
    return {"report": report}
