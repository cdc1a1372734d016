"""Abstention by failure costs: withhold "supported" verdicts the judge is not sure enough of.

The spec's :class:`~triqua.schema.FailureCosts` set a threshold (the Bayes decision between
a false "supported" and a false "contradicted"); a unit judged supported with a confidence
below it becomes insufficient evidence, the reason kept on the unit and the verdict. A
verdict without a confidence is left as judged: there is nothing to weigh.
"""

from __future__ import annotations

from triqua.schema import Status, UnitVerdict, Verdict

__all__ = ["rationale_of_final", "withhold_unconfident"]


def _reason(confidence: float, threshold: float) -> str:
    return f"supported withheld: confidence {confidence:.2f} < threshold {threshold:.2f}"


def withhold_unconfident(verdict: Verdict, threshold: float) -> Verdict:
    """``verdict`` with every supported unit below ``threshold`` made insufficient.

    A unit's own confidence counts, else the verdict's. A verdict with no unit verdicts is
    judged on its own confidence. The fact status is left to the caller to re-aggregate.
    """
    if not verdict.unit_verdicts:
        conf = verdict.confidence
        if verdict.status is Status.SUPPORTED and conf is not None and conf < threshold:
            return verdict.model_copy(
                update={"status": Status.INSUFFICIENT, "abstention": _reason(conf, threshold)}
            )
        return verdict
    units: list[UnitVerdict] = []
    for unit in verdict.unit_verdicts:
        conf = unit.confidence if unit.confidence is not None else verdict.confidence
        if unit.status is Status.SUPPORTED and conf is not None and conf < threshold:
            unit = unit.model_copy(
                update={"status": Status.INSUFFICIENT, "abstention": _reason(conf, threshold)}
            )
        units.append(unit)
    notes = [f"{u.unit}: {u.abstention}" for u in units if u.abstention]
    return verdict.model_copy(
        update={"unit_verdicts": units, "abstention": "; ".join(notes) if notes else None}
    )


def rationale_of_final(judged: Verdict, final: Verdict) -> str:
    """The rationale of ``final``, saying its own verdict where it differs from the judge's.

    A judge writes its rationale before the grounding rule and the failure costs have their
    say: "(s, r, o): supported …" would stay on a unit withheld as insufficient evidence.
    Each unit the judge called otherwise gets its line rewritten with its final status and
    the reason (the offline judge writes one line per unit, opening with the unit); a free
    text rationale (a chat model's) is led by one line with the final verdict and the
    reasons, so the judge's words read as the reading that was overruled.
    """
    before = {u.unit: u.status for u in judged.unit_verdicts}
    changed = {
        u.unit: (u.status, u.abstention or u.grounding or "")
        for u in final.unit_verdicts
        if u.unit in before and before[u.unit] is not u.status
    }
    if not changed and judged.status is final.status:
        return final.rationale
    if not changed:  # a fact-level verdict without units, withheld as a whole
        why = final.abstention or final.grounding or ""
        changed = {"": (final.status, why)}
    lines = final.rationale.splitlines()
    rewritten = False
    for i, line in enumerate(lines):
        for unit, (status, why) in changed.items():
            if unit and line.startswith(f"{unit}: "):
                lines[i] = f"{unit}: {status.value}" + (f" ({why})" if why else "")
                rewritten = True
    if rewritten:
        return "\n".join(lines)
    reasons = "; ".join(f"{unit}: {why}" if unit else why for unit, (_, why) in changed.items())
    lead = f"Final verdict {final.status.value}" + (f": {reasons}" if reasons.strip() else "")
    return f"{lead}.\nThe judge's reading: {final.rationale}" if final.rationale else lead + "."
