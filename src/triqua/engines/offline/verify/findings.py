"""What the offline verifier found for each unit, and the verdict assembled from it.

A finding is one unit's status with the evidence window it was judged on; the verdict
quotes that window exactly as the passage writes it (the grounding check finds it verbatim).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from triqua.engines.offline.finding import Finding, Sentence, on_sentence
from triqua.schema import Evidence, Fact, FactUnit, Status, UnitVerdict, Verdict

__all__ = ["Finding", "Sentence", "assemble", "on_sentence", "window"]


def window(finding: Finding) -> tuple[int, int] | None:
    """Character offsets of the finding's evidence window in its passage, if it has one."""
    sentence = finding.sentence
    if sentence is None:
        return None
    first = finding.window_start or sentence
    if first.passage != sentence.passage or first.start > sentence.start:
        first = sentence
    return first.start, sentence.end


def _quote(evidence: Sequence[Evidence], finding: Finding) -> str:
    """The finding's evidence window exactly as the passage writes it."""
    span = window(finding)
    assert finding.sentence is not None and span is not None  # only judged units are quoted
    return evidence[finding.sentence.passage].text[span[0] : span[1]]


def assemble(
    fact: Fact,
    evidence: Sequence[Evidence],
    findings: list[Finding],
    top: list[Sentence],
    *,
    judge: str,
    per_unit: bool,
) -> Verdict:
    """Assemble the fact verdict, unit verdicts, rationale and the alignment record.

    ``judge`` is the verifier revision recorded with the verdict.
    """
    units: list[FactUnit] = fact.units()
    best = top[0].score if top else 0.0
    unit_verdicts: list[UnitVerdict] = []
    for unit, finding in zip(units, findings, strict=True):
        # A judged unit's confidence is its sentence's alignment, an open one's the lack of it.
        confidence = round(min(0.9, max(0.4, 1.0 - 0.6 * best)), 3)
        ids: list[str] = []
        quote = None
        if finding.status != Status.INSUFFICIENT:
            assert finding.sentence is not None  # a judged unit always has its sentence
            confidence = round(min(0.97, max(0.5, 0.4 + 0.6 * finding.strength)), 3)
            ids, quote = [finding.sentence.evidence_id], _quote(evidence, finding)
        unit_verdicts.append(
            UnitVerdict(
                unit=unit.text,
                kind=unit.kind,
                status=finding.status,
                error_span=finding.error_span,
                evidence_ids=ids,
                confidence=confidence,
                quote=quote,
            )
        )
    statuses = [u.status for u in unit_verdicts]
    wrong = [u for u in unit_verdicts if u.status == Status.CONTRADICTED]
    if all(s == Status.SUPPORTED for s in statuses):
        status = Status.SUPPORTED
        confidence = min(u.confidence or 0.0 for u in unit_verdicts)
    elif wrong:
        status = Status.CONTRADICTED
        confidence = max(u.confidence or 0.0 for u in wrong)
    else:
        status = Status.INSUFFICIENT
        rest = [u.confidence or 0.0 for u in unit_verdicts if u.status == Status.INSUFFICIENT]
        confidence = sum(rest) / len(rest)
    evidence_ids = list(dict.fromkeys(i for u in unit_verdicts for i in u.evidence_ids))
    return Verdict(
        status=status,
        wrong_components=[u.unit for u in wrong],
        error_spans=[u.error_span for u in wrong if u.error_span],
        unit_verdicts=unit_verdicts if per_unit else [],
        rationale=_rationale(units, findings, top, evidence),
        confidence=round(confidence, 3),
        evidence_ids=evidence_ids,
        quote=next((u.quote for u in unit_verdicts if u.quote), None),
        basis="evidence",
        raw_output=_record(units, findings, top, judge),
        judge=judge,
    )


def _rationale(
    units: list[FactUnit],
    findings: list[Finding],
    top: list[Sentence],
    evidence: Sequence[Evidence],
) -> str:
    """A short human-readable account quoting each judged unit's evidence window."""
    if not top:
        return "No evidence sentence names the subject; every unit lacks evidence."
    lines = []
    for unit, finding in zip(units, findings, strict=True):
        line = f"{unit.text}: {finding.status.value} ({finding.reason})"
        if finding.sentence is not None and finding.status != Status.INSUFFICIENT:
            line += f' — [{finding.sentence.evidence_id}] "{_quote(evidence, finding)}"'
        lines.append(line)
    if all(f.status == Status.INSUFFICIENT for f in findings):
        lines.append(f'Closest evidence [{top[0].evidence_id}]: "{top[0].info.text}"')
    return "\n".join(lines)


def _record(units: list[FactUnit], findings: list[Finding], top: list[Sentence], judge: str) -> str:
    """Compact JSON of the alignment decisions, kept with the verdict for the record.

    Each unit records its evidence id, sentence index and window offsets ("at": start and
    end character in the passage), the reason, and the closest similarity considered.
    """
    record = {
        "judge": judge,
        "aligned": [
            {
                "ev": s.evidence_id,
                "sent": s.index,
                "score": round(s.score, 3),
                "cos": round(s.cosine, 3),
                "subj": round(s.subject, 2),
            }
            for s in top
        ],
        "units": [
            {
                "unit": u.text,
                "status": f.status.value,
                "why": f.reason,
                "ev": f.sentence.evidence_id if f.sentence else None,
                "sent": f.sentence.index if f.sentence else None,
                "at": window(f),
                "span": f.error_span,
                "sim": round(f.similar, 3),
            }
            for u, f in zip(units, findings, strict=True)
        ],
    }
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)
