"""Element-level claims of a complex sentence (ElementCheck's verification level).

ElementCheck verifies a complex sentence element by element: each element of its graph with
the attributes the sentence states of it is a claim of its own, judged against evidence,
and the sentence's verdict follows from them. A fact's elements are its subject, its object
and its qualifier values; the base triple states the subject's attribute ("Marie Curie —
won — Nobel Prize in Physics"), each qualifier an attribute of the element it hangs from in
the element graph (the object, or the subject when there is none: "Nobel Prize in Physics —
point in time — 1903"). Each element is judged as a claim of its own, on the fact's
evidence, with only its attributes listed, so the judge reads one element at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from triqua.schema import ElementClaim, Fact, FactUnit, Status, UnitVerdict, Verdict

__all__ = ["ElementGroup", "element_claims", "element_groups", "element_status"]


@dataclass(frozen=True)
class ElementGroup:
    """One element of a fact, the claim fact the judge sees and the units it lists."""

    element: str
    fact: Fact
    units: tuple[FactUnit, ...]


def element_groups(fact: Fact) -> list[ElementGroup]:
    """The fact's elements with the attributes it states of each, in the fact's order.

    The base triple is the subject's attribute; qualifiers are the attributes of their
    anchor (the object, else the subject), judged with the base they modify as context.
    """
    base, *qualifiers = fact.units()
    anchor = fact.object if fact.object.strip() else fact.subject
    if not qualifiers:
        return [ElementGroup(fact.subject, fact, (base,))]
    if anchor == fact.subject:  # one element holds every attribute
        return [ElementGroup(fact.subject, fact, (base, *qualifiers))]
    bare = fact.model_copy(update={"qualifiers": []})
    return [
        ElementGroup(fact.subject, bare, (base,)),
        ElementGroup(anchor, fact, tuple(qualifiers)),
    ]


def _attribute(unit: FactUnit) -> tuple[str, str]:
    if unit.kind == "qualifier":
        return unit.label or "", unit.value or ""
    return unit.relation, unit.object


def element_claims(
    group: ElementGroup, judged: Verdict, fact_verdict: Verdict
) -> list[ElementClaim]:
    """The group's element claims: the judge's verdict on each, beside the fact's own.

    ``judged`` is the settled verdict on the element claim; ``fact_verdict`` the fact's
    (after re-verification). A claim the element judgement left insufficient counts the
    fact's verdict on the same unit: element verdicts add evidence, never remove it.
    """
    mine = {u.unit: u for u in judged.unit_verdicts}
    facts = {u.unit: u for u in fact_verdict.unit_verdicts}
    out = []
    for unit in group.units:
        verdict = mine.get(unit.text)
        status = verdict.status if verdict is not None else Status.INSUFFICIENT
        counted: UnitVerdict | None = verdict
        if status is Status.INSUFFICIENT and unit.text in facts:
            counted = facts[unit.text]
        attribute, value = _attribute(unit)
        out.append(
            ElementClaim(
                element=group.element,
                attribute=attribute,
                value=value,
                unit=unit.text,
                judged=status,
                status=counted.status if counted is not None else status,
                evidence_ids=list(counted.evidence_ids) if counted is not None else [],
                quote=counted.quote if counted is not None else None,
            )
        )
    return out


def element_status(claims: Sequence[ElementClaim]) -> Status | None:
    """A sentence's verdict from its element claims; None when it has none.

    Contradicted when any checkable claim is, supported when every one is, insufficient
    evidence otherwise (ElementCheck: the sentence holds only if all its elements do).
    """
    statuses = [c.status for c in claims if c.status is not Status.NOT_CHECKABLE]
    if not statuses:
        return None
    if Status.CONTRADICTED in statuses:
        return Status.CONTRADICTED
    if all(s is Status.SUPPORTED for s in statuses):
        return Status.SUPPORTED
    return Status.INSUFFICIENT
