"""A batched call's compact answer for one fact, read back as that fact's verdict.

Sentence numbers become evidence ids and a verbatim quote through the batch's sheet
(:func:`~triqua.core.plan.evidence_sheet.cite`), against the fact's own passages only; unit
numbers become the units' texts. The grounding rule is applied later, when the verdict is
settled, exactly as for a single-fact call.
"""

from __future__ import annotations

import json

from triqua.core.grounding.rule import missing_values
from triqua.core.plan.evidence_sheet import Sheet, cite, cited_sentences
from triqua.core.plan.verify_batches import BatchItem
from triqua.engines.llm.batch_prompt import FactAnswer
from triqua.schema import ShownSentence, Status, UnitVerdict, Verdict

__all__ = ["answer_verdict"]

_JUDGED = ("supported", "contradicted")


def answer_verdict(
    answer: FactAnswer, item: BatchItem, sheet: Sheet, closed_book: bool, judge: str
) -> Verdict:
    """``answer`` as the verdict on ``item``'s fact: citations and quotes resolved per fact.

    A unit verdict without citations of its own rests on the fact's; a malformed one, or
    one beyond the listed units, is dropped (the unit then follows the fact's verdict).
    """
    own = [e.id for e in item.evidence]
    ids, quote = cite(sheet, own, answer.e) if answer.s in _JUDGED else ([], None)
    units = list(item.units or ())
    unit_verdicts = [] if answer.u else _spread(answer, item, sheet, own)
    for unit, unit_answer in zip(units, answer.units(len(units)), strict=True):
        if unit_answer is None:
            continue
        status, numbers = unit_answer
        judged = status in _JUDGED
        unit_ids, unit_quote = cite(sheet, own, numbers) if judged and numbers else (ids, quote)
        unit_verdicts.append(
            UnitVerdict(
                unit=unit.text,
                kind=unit.kind,
                status=Status(status),
                evidence_ids=unit_ids if judged else [],
                confidence=answer.c,
                quote=unit_quote if judged else None,
            )
        )
    return Verdict(
        status=Status(answer.s),
        error_spans=[w for w in answer.w if w],
        unit_verdicts=unit_verdicts,
        confidence=answer.c,
        rationale=answer.r,
        evidence_ids=ids,
        quote=quote,
        basis="parametric" if closed_book else "evidence",
        raw_output=json.dumps(answer.model_dump(exclude_defaults=True), ensure_ascii=False),
        shown=None if closed_book else sheet_lines_shown(sheet, own),
        judge=judge,
    )


def sheet_lines_shown(sheet: Sheet, own: list[str]) -> list[ShownSentence]:
    """The sheet's lines of the fact's own passages: what its judge saw of them, in order."""
    wanted = set(own)
    places = {
        (pid, start, end)
        for line in sheet.lines.values()
        for pid, start, end in line.places
        if pid in wanted
    }
    order = {pid: i for i, pid in enumerate(own)}
    return [
        ShownSentence(evidence_id=pid, start=start, end=end)
        for pid, start, end in sorted(places, key=lambda p: (order[p[0]], p[1]))
    ]


def _spread(answer: FactAnswer, item: BatchItem, sheet: Sheet, own: list[str]) -> list[UnitVerdict]:
    """Unit verdicts for a supported fact whose cited sentences each state part of it.

    A fact may rest on two sentences of different passages (the prize in one, its year in
    another); one quote cannot hold both, so each unit gets the first cited sentence that
    carries its values. Nothing is returned unless every unit finds one: the fact-level
    citation then stands as given.
    """
    if answer.s != "supported" or len(answer.e) < 2:
        return []
    cited = cited_sentences(sheet, own, answer.e)
    if len({pid for pid, _, _ in cited}) < 2:
        return []
    out = []
    for unit in item.fact.units():
        found = next((c for c in cited if not missing_values(unit, c[1], c[2])), None)
        if found is None:
            return []
        out.append(
            UnitVerdict(
                unit=unit.text,
                kind=unit.kind,
                status=Status.SUPPORTED,
                evidence_ids=[found[0]],
                confidence=answer.c,
                quote=found[1],
            )
        )
    return out
