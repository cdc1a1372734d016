"""Score: TriQuaScore and companions over all records, and the run's report."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from triqua.context import Context
from triqua.core.budget.limits import LIMIT_NOTE_PREFIX
from triqua.core.report.run_report import build_report
from triqua.core.text.language import text_language
from triqua.engines.llm.engine import LLMJudge
from triqua.nodes.common import context_of, emit
from triqua.runtime.resources import RunLedger, ledger_of, limited_call, run_resources
from triqua.schema import RequestedCoverage, RoleUsage
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


def requested_coverage(
    state: State, context: Context, runtime: Runtime[Context]
) -> tuple[RequestedCoverage | None, list[RoleUsage]]:
    """Whether the text addresses its question, when there is one and a chat model judges.

    One call, within the run's call limit; the offline engine has no judge of it (None).
    """
    question = state.get("question")
    if not question or not context.requested_coverage:
        return None, []
    resources = run_resources(context, runtime)
    judge: object = resources.engines.judge
    while hasattr(judge, "inner"):
        judge = judge.inner
    if not isinstance(judge, LLMJudge):
        return None, []
    coverage_judge = judge.coverage_judge()
    judged = limited_call(
        resources,
        judge,
        lambda: coverage_judge.judge(question, state["text"]),
        lambda result: result[1],
    )
    if judged is None:
        return None, []
    return judged[0], [RoleUsage(role="coverage", usage=judged[1])]


def score(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Aggregate the records into scores and build the report."""
    context = context_of(runtime)
    ledger = ledger_of(context, runtime)
    coverage, coverage_usage = requested_coverage(state, context, runtime)
    report = build_report(
        run_id=state["run_id"],
        text=state["text"],
        question=state.get("question"),
        language=text_language(state["text"], context.language),
        engine=state.get("engine", ""),
        spec=state["spec"],
        records=state.get("records", []),
        usage_log=[*state.get("usage_log", []), *coverage_usage],
        errors=state.get("errors", []),
        notes=[*state.get("notes", []), *run_limit_notes(ledger)],
        chunks=state.get("chunks", []),
        failed_chunks=state.get("failed_chunks", []),
        undecomposed=state.get("undecomposed", []),
        unverified_facts=state.get("unverified_facts", []),
        not_checkworthy=state.get("not_checkworthy", []),
        unfounded_facts=state.get("unfounded_facts", []),
        requested_coverage=coverage,
    )
    emit("scored", score=report.scores.triqua_score, facts=len(report.records))
    return {"report": report}
