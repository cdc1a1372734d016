"""Verify: judge a fact against its evidence; complex facts get one verdict per unit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langgraph.runtime import Runtime

from triqua.context import Context
from triqua.limits import MODEL_CALL_LIMIT
from triqua.metrics import label_units
from triqua.nodes.common import context_of
from triqua.resources import limited_call, resources_for
from triqua.schema import Evidence, Fact, Mode, Status, UnitVerdict, Usage, Verdict
from triqua.state import FactState, RoleUsage


def aggregate_status(unit_verdicts: Sequence[UnitVerdict]) -> Status:
    """Fact status from unit statuses: any contradicted wins; all supported → supported."""
    statuses = [u.status for u in unit_verdicts]
    if not statuses:
        return Status.INSUFFICIENT
    if Status.CONTRADICTED in statuses:
        return Status.CONTRADICTED
    if all(s is Status.NOT_CHECKABLE for s in statuses):
        return Status.NOT_CHECKABLE
    if all(s in (Status.SUPPORTED, Status.NOT_CHECKABLE) for s in statuses):
        return Status.SUPPORTED
    return Status.INSUFFICIENT


def complete_units(fact: Fact, verdict: Verdict) -> Verdict:
    """Give the verdict one unit verdict per unit, derived from its error spans when missing."""
    have = {u.unit for u in verdict.unit_verdicts}
    derived = []
    for unit, status in label_units(fact, verdict):
        if unit.text in have:
            continue
        span = next((s for s in verdict.error_spans if s and s.lower() in unit.text.lower()), None)
        derived.append(
            UnitVerdict(
                unit=unit.text,
                kind=unit.kind,
                status=status,
                error_span=span if status is not Status.SUPPORTED else None,
                evidence_ids=verdict.evidence_ids if status is Status.SUPPORTED else [],
                confidence=verdict.confidence,
            )
        )
    order = {unit.text: i for i, unit in enumerate(fact.units())}
    units = sorted([*verdict.unit_verdicts, *derived], key=lambda u: order.get(u.unit, len(order)))
    return verdict.model_copy(update={"unit_verdicts": units})


def enforce_evidence(verdict: Verdict, evidence: Sequence[Evidence]) -> Verdict:
    """No "supported" without an evidence span: unbacked support becomes insufficient evidence."""
    if verdict.basis == "parametric":
        return verdict
    known = {item.id for item in evidence}
    units = []
    downgraded = False
    for unit in verdict.unit_verdicts:
        backed = [i for i in unit.evidence_ids if i in known]
        if unit.status is Status.SUPPORTED and not backed:
            unit = unit.model_copy(update={"status": Status.INSUFFICIENT, "evidence_ids": []})
            downgraded = True
        units.append(unit)
    status = aggregate_status(units) if units else verdict.status
    if not units and status is Status.SUPPORTED and not known.intersection(verdict.evidence_ids):
        status, downgraded = Status.INSUFFICIENT, True
    update: dict[str, Any] = {"unit_verdicts": units, "status": status}
    if downgraded:
        note = "support without cited evidence was downgraded to insufficient_evidence"
        update["error"] = f"{verdict.error}; {note}" if verdict.error else note
    return verdict.model_copy(update=update)


def wrong_components(verdict: Verdict) -> Verdict:
    """Fill ``wrong_components``/``error_spans`` from the unit verdicts that are not supported."""
    wrong = [u for u in verdict.unit_verdicts if u.status is Status.CONTRADICTED]
    if not wrong:
        wrong = [u for u in verdict.unit_verdicts if u.status is Status.INSUFFICIENT]
    if verdict.status is Status.SUPPORTED:
        wrong = []
    spans = [u.error_span for u in wrong if u.error_span]
    return verdict.model_copy(
        update={
            "wrong_components": [u.unit for u in wrong],
            "error_spans": spans or ([] if wrong else verdict.error_spans),
        }
    )


def settle(fact: Fact, verdict: Verdict, evidence: Sequence[Evidence]) -> Verdict:
    """Normalise a judge's verdict: unit verdicts complete, evidence enforced, status consistent."""
    verdict = enforce_evidence(complete_units(fact, verdict), evidence)
    if verdict.unit_verdicts and verdict.status is not Status.NOT_CHECKABLE:
        verdict = verdict.model_copy(update={"status": aggregate_status(verdict.unit_verdicts)})
    return wrong_components(verdict)


def call_limit_verdict(judge: str, max_calls: int) -> Verdict:
    """The verdict of a fact left unjudged because the run's model calls ran out."""
    return Verdict(
        status=Status.INSUFFICIENT,
        error=f"{MODEL_CALL_LIMIT} (max_calls={max_calls}): not verified",
        judge=judge,
    )


def verify(state: FactState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Judge the fact once: whole-fact on the simple route, per unit on the complex route."""
    context = context_of(runtime)
    resources = resources_for(state["run_id"], context, mode=state.get("mode"))
    fact, evidence = state["fact"], state.get("evidence", [])
    units = fact.units() if state["route"] == "complex" else None
    judge = resources.engines.judge
    result = limited_call(
        resources,
        judge,
        lambda: judge.verify(
            fact, evidence, units=units, closed_book=resources.mode is Mode.CLOSED_BOOK
        ),
        lambda r: r.usage,
    )
    if result is None:  # the run's model calls ran out: recorded, never lost
        resources.calls.skip("fact")
        return {
            "verdict": settle(fact, call_limit_verdict(judge.revision, context.max_calls), []),
            "usage": state.get("usage") or Usage(),
            "usage_log": [RoleUsage(role="verify", usage=Usage())],
        }
    verdict = settle(fact, result.verdict, evidence)
    return {
        "verdict": verdict,
        "usage": (state.get("usage") or Usage()) + result.usage,
        "usage_log": [RoleUsage(role="verify", usage=result.usage)],
    }
