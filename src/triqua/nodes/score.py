"""Score: TriQuaScore and companions over all records, and the run's report."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from triqua.context import Context
from triqua.core.run_report import build_report
from triqua.nodes.common import context_of, emit
from triqua.runtime.limits import LIMIT_NOTE_PREFIX
from triqua.runtime.resources import RunLedger, ledger_of
from triqua.state import State


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
    report = build_report(
        run_id=state["run_id"],
        text=state["text"],
        question=state.get("question"),
        engine=state.get("engine", ""),
        spec=state["spec"],
        records=state.get("records", []),
        usage_log=state.get("usage_log", []),
        errors=state.get("errors", []),
        notes=[*state.get("notes", []), *run_limit_notes(ledger)],
        chunks=state.get("chunks", []),
        failed_chunks=state.get("failed_chunks", []),
        undecomposed=state.get("undecomposed", []),
        unverified_facts=state.get("unverified_facts", []),
        not_checkworthy=state.get("not_checkworthy", []),
    )
    emit("scored", score=report.scores.triqua_score, facts=len(report.records))
    return {"report": report}
