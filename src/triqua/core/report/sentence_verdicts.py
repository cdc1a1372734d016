"""Sentence verdicts: each checked source sentence read as one claim, as ElementCheck reads it.

ElementCheck gives a sentence one verdict: a simple sentence is judged as a whole, a complex
one element by element. triqua judges a simple sentence's facts together (a batched call
holds whole sentences) and a complex one's unit by unit with re-verification; either way the
sentence's verdict is what its units earn together: supported only when every checkable unit
is, contradicted when any is, insufficient evidence otherwise (``combined_status``). The
records keep the facts' verdicts, which TriQuaScore counts; this is the sentence-level view
beside them, with the units that make a sentence wrong or unverified named.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from triqua.core.plan.element_claims import element_status
from triqua.core.plan.routing import sentence_key
from triqua.core.verdicts.scoring import combined_status, label_units
from triqua.schema import ClaimRecord, SentenceVerdict, Status

__all__ = ["problem_marks", "sentence_verdicts"]


def sentence_verdicts(records: Sequence[ClaimRecord]) -> list[SentenceVerdict]:
    """One verdict per source sentence of ``records`` (given in text order), in text order.

    A sentence is complex when any of its facts took the element-level route (routing
    decides per sentence, so its facts agree unless a caller gave mixed routes).
    """
    groups: dict[Hashable, list[ClaimRecord]] = {}
    for record in records:
        groups.setdefault(sentence_key(record.fact), []).append(record)
    verdicts = [_sentence_verdict(group) for group in groups.values()]
    return sorted(verdicts, key=lambda v: (v.chunk_index, v.span.start if v.span else 0))


def _sentence_verdict(records: list[ClaimRecord]) -> SentenceVerdict:
    """The verdict of one sentence's records, its units counted once per text."""
    first = records[0].fact
    pairs = [(r.fact, r.verdict) for r in records]
    units: dict[str, Status] = {}
    for fact, verdict in pairs:
        for unit, status in label_units(fact, verdict):
            if status is not Status.NOT_CHECKABLE:
                units.setdefault(unit.text, status)
    elements = [claim for r in records for claim in r.elements]
    status = combined_status(pairs)
    # A complex sentence is judged element by element, when every unit of its facts was
    # (the run's model calls may have run out before some element was judged).
    if elements and all(len(r.elements) == len(r.fact.units()) for r in records):
        status = element_status(elements) or status
    return SentenceVerdict(
        chunk_index=first.chunk_index,
        span=first.span,
        text=first.source_text or first.to_string(),
        route="complex" if any(r.route == "complex" for r in records) else "simple",
        status=status,
        facts=[r.claim_id for r in records],
        units_supported=sum(1 for s in units.values() if s is Status.SUPPORTED),
        units_total=len(units),
        wrong=[u for u, s in units.items() if s is Status.CONTRADICTED],
        unverified=[u for u, s in units.items() if s is Status.INSUFFICIENT],
        elements=elements,
    )


def problem_marks(sentence: SentenceVerdict) -> list[str]:
    """The units that decide a sentence's verdict, as a report shows them: ✗ wrong, ? unverified.

    A sentence judged element by element names its element claims instead ("✗ Marie Curie —
    was born in — Paris").
    """
    if sentence.elements:
        wrong = [c.text for c in sentence.elements if c.status is Status.CONTRADICTED]
        unverified = [c.text for c in sentence.elements if c.status is Status.INSUFFICIENT]
        return [f"✗ {t}" for t in wrong] + [f"? {t}" for t in unverified]
    return [f"✗ {u}" for u in sentence.wrong] + [f"? {u}" for u in sentence.unverified]
