"""Verdict settling: one verdict per unit, the grounding rule applied, status made consistent.

Every path that turns a judge's answer into a stored verdict (verify, re-verify, regrade,
citations, evaluations; LLM and offline engines alike) goes through :func:`settle`, so the
grounding rule (:mod:`triqua.core.grounding.rule`) holds whatever engine judged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from triqua.core.budget.limits import MODEL_CALL_LIMIT
from triqua.core.grounding.rule import DEFAULT_GROUNDING, GroundingMode, MeaningReader, check_quote
from triqua.core.reading.orphans import opens_document
from triqua.core.reading.titles import heading
from triqua.core.verdicts.abstention import rationale_of_final, withhold_unconfident
from triqua.core.verdicts.scoring import label_units
from triqua.schema import Evidence, Fact, FactUnit, Status, UnitVerdict, Verdict

__all__ = [
    "aggregate_status",
    "call_limit_verdict",
    "complete_units",
    "ground",
    "settle",
    "wrong_components",
]

#: Statuses that must rest on a cited passage of the run.
_JUDGED = (Status.SUPPORTED, Status.CONTRADICTED)


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
    """Give the verdict one unit verdict per unit, derived from its error spans when missing.

    A derived unit that is supported or contradicted carries the fact-level citations and
    quote, so the grounding rule can check it like any other.
    """
    have = {u.unit for u in verdict.unit_verdicts}
    derived = []
    for unit, status in label_units(fact, verdict):
        if unit.text in have:
            continue
        span = next((s for s in verdict.error_spans if s and s.lower() in unit.text.lower()), None)
        judged = status in _JUDGED
        derived.append(
            UnitVerdict(
                unit=unit.text,
                kind=unit.kind,
                status=status,
                error_span=span if status is not Status.SUPPORTED else None,
                evidence_ids=verdict.evidence_ids if judged else [],
                confidence=verdict.confidence,
                quote=verdict.quote if judged else None,
            )
        )
    order = {unit.text: i for i, unit in enumerate(fact.units())}
    units = sorted([*verdict.unit_verdicts, *derived], key=lambda u: order.get(u.unit, len(order)))
    return verdict.model_copy(update={"unit_verdicts": units})


def _unit_of(fact: Fact, verdict: UnitVerdict) -> FactUnit:
    """The fact unit a unit verdict names; an unknown name checks no values of its own."""
    for unit in fact.units():
        if unit.text == verdict.unit and unit.kind == verdict.kind:
            return unit
    return FactUnit(kind=verdict.kind, subject="", relation="", object="")


def ground(
    fact: Fact,
    verdict: Verdict,
    evidence: Sequence[Evidence],
    reader: MeaningReader | None = None,
    grounding: GroundingMode = DEFAULT_GROUNDING,
) -> Verdict:
    """Apply the grounding rule to every unit; ungrounded verdicts become insufficient evidence.

    ``reader`` (the judge's entailment reader) reads the cited windows under the
    ``grounding`` rule ("judged": the window writes the unit's words or the judge entails
    it, gates veto; "judge": it decides, value gates veto; "strict": it reads only
    paraphrased words); without one the words must be stated word for word (stems and
    lexicon aside).

    Closed-book (parametric) verdicts have no passages to rest on and are left as judged.
    The reasons are kept on each downgraded unit and, together, in ``verdict.grounding``.
    """
    if verdict.basis == "parametric":
        return verdict
    passages = {item.id: item.text for item in evidence}
    read_before = {item.id: heading(item.title, item.start == 0) for item in evidence}
    # Where a pronoun with no name before it may be the subject's: a passage at offset 0,
    # or an excerpt with no offset, read as a document of its own (``reading.orphans``).
    opening = {item.id for item in evidence if opens_document(item.start)}
    units = []
    for unit in verdict.unit_verdicts:
        if unit.status in _JUDGED:
            outcome = check_quote(
                _unit_of(fact, unit),
                unit.status,
                unit.evidence_ids,
                unit.quote,
                passages,
                source=fact.source_text,
                reader=reader,
                grounding=grounding,
                read_before=read_before,
                opening=opening,
            )
            if outcome.ok:
                unit = unit.model_copy(
                    update={"evidence_ids": list(outcome.evidence_ids), "quote": outcome.quote}
                )
            else:
                unit = unit.model_copy(
                    update={
                        "status": Status.INSUFFICIENT,
                        "evidence_ids": [],
                        "quote": None,
                        "grounding": f"{unit.status.value} downgraded: {outcome.reason}",
                    }
                )
        units.append(unit)
    update: dict[str, Any] = {"unit_verdicts": units}
    notes = [f"{u.unit}: {u.grounding}" for u in units if u.grounding]
    update["grounding"] = "; ".join(notes) if notes else None
    grounded = [u for u in units if u.status in _JUDGED]
    cited = [i for u in grounded for i in u.evidence_ids]
    if not units:  # nothing per unit to check: the fact-level verdict needs a cited passage
        cited = [i for i in verdict.evidence_ids if i in passages]
        if verdict.status in _JUDGED and not cited:
            update["status"] = Status.INSUFFICIENT
            update["grounding"] = f"{verdict.status.value} downgraded: no evidence id cited"
    elif not cited:
        cited = [i for i in verdict.evidence_ids if i in passages]
    update["evidence_ids"] = list(dict.fromkeys(cited))
    update["quote"] = next((u.quote for u in grounded if u.quote), None)
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


def settle(
    fact: Fact,
    verdict: Verdict,
    evidence: Sequence[Evidence],
    *,
    supported_threshold: float | None = None,
    reader: MeaningReader | None = None,
    grounding: GroundingMode = DEFAULT_GROUNDING,
) -> Verdict:
    """Normalise a judge's verdict: units complete, grounding enforced, status consistent.

    With ``supported_threshold`` (the spec's failure costs: ``Context.supported_threshold``),
    a supported unit less confident than it is withheld as insufficient evidence. ``reader``
    is the judge's (``Judge.reader``): it reads meaning for the ``grounding`` rule
    (``Context.grounding``).
    """
    judged = complete_units(fact, verdict)
    verdict = ground(fact, judged, evidence, reader, grounding)
    if supported_threshold is not None:  # abstention by failure costs (core.verdicts.abstention)
        verdict = withhold_unconfident(verdict, supported_threshold)
    if verdict.unit_verdicts and verdict.status is not Status.NOT_CHECKABLE:
        verdict = verdict.model_copy(update={"status": aggregate_status(verdict.unit_verdicts)})
    verdict = verdict.model_copy(update={"rationale": rationale_of_final(judged, verdict)})
    return wrong_components(verdict)


def call_limit_verdict(judge: str, max_calls: int) -> Verdict:
    """The verdict of a fact left unjudged because the run's model calls ran out."""
    return Verdict(
        status=Status.INSUFFICIENT,
        error=f"{MODEL_CALL_LIMIT} (max_calls={max_calls}): not verified",
        judge=judge,
    )
