"""Abstention by failure costs: withhold "supported" verdicts the judge is not sure enough of.

The spec's :class:`~triqua.schema.FailureCosts` set a threshold (the Bayes decision between
a false "supported" and a false "contradicted"); a unit judged supported with a confidence
below it becomes insufficient evidence, the reason kept on the unit and the verdict. A
verdict without a confidence is left as judged: there is nothing to weigh.
"""

from __future__ import annotations

from triqua.schema import Status, UnitVerdict, Verdict

__all__ = ["withhold_unconfident"]


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
