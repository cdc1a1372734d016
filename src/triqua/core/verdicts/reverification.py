"""Re-verification rules: which units are pending, what to search next, how rounds merge.

The re-verify node calls these around its engine calls; see ``nodes/reverify.py`` for the
loop and its bounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from triqua.core.grounding.rule import DEFAULT_GROUNDING, GroundingMode, MeaningReader
from triqua.core.plan.evidence import BUDGET_SPENT, SearchSetup, merge_evidence, search
from triqua.core.verdicts.settling import settle
from triqua.schema import (
    Evidence,
    Fact,
    FactUnit,
    ReverifyRound,
    Status,
    UnitVerdict,
    Usage,
    Verdict,
)


def pending_units(fact: Fact, verdict: Verdict) -> list[FactUnit]:
    """Units of the fact whose verdict is still insufficient evidence."""
    insufficient = {u.unit for u in verdict.unit_verdicts if u.status is Status.INSUFFICIENT}
    return [unit for unit in fact.units() if unit.text in insufficient]


def element_queries(fact: Fact, units: Sequence[FactUnit]) -> list[str]:
    """Queries built from the pending units' elements, not from the whole fact.

    A qualifier is searched with the subject it belongs to ("Marie Curie 1903") and with
    the object too ("Marie Curie Nobel Prize in Physics 1903"); a base with its subject and
    object alone, without the relation's wording. They reach passages that the fact's own
    query, ranked on all its words, left out.
    """
    out: list[str] = []
    for unit in units:
        if unit.kind == "qualifier" and unit.value:
            out += [f"{fact.subject} {unit.value}", f"{fact.subject} {fact.object} {unit.value}"]
        elif fact.object:
            out.append(f"{fact.subject} {fact.object}")
    return [" ".join(q.split()) for q in out]


def value_queries(
    fact: Fact, units: Sequence[FactUnit], neighbours: Sequence[Fact] = ()
) -> list[str]:
    """Queries for the value the evidence gives the units' relation, the claimed one left out.

    Every other query carries the claimed value, so search ranks first the passages that
    repeat it (a date facet keeps only them); a passage that states the subject's actual
    value ("… founded the laboratory in 1931" for a claimed 1936) shares only the subject
    and the relation with them. A qualifier is searched with its base triple alone
    ("Gerhard Fischer founded Fischer Research Laboratory"); a base with its subject and
    relation ("Gerhard Fischer founded"), and with each resolved neighbour's other element
    beside them ("Gerhard Fischer founded Palo Alto" for the neighbour "(Gerhard Fischer,
    moved to, Palo Alto)"). A rival value found there reaches the judge, whose rival gates
    turn the unit contradicted.
    """
    out: list[str] = []
    for unit in units:
        if unit.kind == "qualifier" and unit.value:
            out.append(f"{fact.subject} {fact.relation} {fact.object}")
            continue
        out.append(f"{fact.subject} {fact.relation}")
        for other in neighbours:
            extra = [e for e in (other.subject, other.object) if e and e not in fact.subject]
            out += [f"{fact.subject} {fact.relation} {e}" for e in extra[:1]]
    return [" ".join(q.split()) for q in out if fact.subject.strip()]


def wider_queries(
    fact: Fact, units: Sequence[FactUnit], neighbours: Sequence[Fact] = ()
) -> list[str]:
    """Queries one step beyond the pending units' own elements, for rounds after the first.

    The sentence the fact came from in its own words; the unit's elements without the
    subject ("won the Nobel Prize in Physics", "the Nobel Prize in Physics 1903"), which reach
    passages that name the subject another way ("She won …"); and, for each resolved
    neighbour of the contextual claim, the subject with the neighbour's other element and
    the unit's own ("Marie Curie Sorbonne 1903"). A round that has asked every query of the
    units' elements thus still has new ones to ask.
    """
    out = [fact.source_text.rstrip(". ")]
    for unit in units:
        own = unit.value if unit.kind == "qualifier" and unit.value else fact.object
        if unit.kind == "qualifier" and unit.value:
            out.append(f"{fact.object} {unit.value}")
        else:
            out.append(f"{fact.relation} {fact.object}")
        for other in neighbours:
            extra = [e for e in (other.subject, other.object) if e and e not in fact.subject]
            out += [f"{fact.subject} {e} {own}" for e in extra[:1]]
    return [" ".join(q.split()) for q in out]


def fresh_queries(
    claim: str,
    refined: Sequence[str],
    fact: Fact,
    rounds: Sequence[ReverifyRound],
    units: Sequence[FactUnit] = (),
    wider: Sequence[str] = (),
    values: Sequence[str] = (),
) -> list[str]:
    """The claim (searched first), the refiner's, the elements', ``values`` and ``wider``.

    Less those asked before, by the first pass or an earlier round.
    """
    queries = [claim.rstrip("."), *refined, *element_queries(fact, units), *values, *wider]
    asked = {fact.query(), *(q for r in rounds for q in r.queries)}
    return [q for q in dict.fromkeys(queries) if q.strip() and q not in asked]


def round_depth(max_results: int, round_index: int) -> int:
    """Passages read per query in re-verification round ``round_index`` (from 1).

    Each round reads one more first page deeper than the first pass did: a fact left
    insufficient on the first ``max_results`` passages gets the next ones too.
    """
    return max_results * (round_index + 1)


def stopped_round(
    round_index: int,
    units: Sequence[FactUnit],
    claim: str,
    reason: str,
    queries: Sequence[str] = (),
    evidence_ids: Sequence[str] = (),
) -> ReverifyRound:
    """The record of a round that ended the loop without a new verdict, and why."""
    return ReverifyRound(
        round=round_index,
        units=[u.text for u in units],
        claim=claim,
        queries=list(queries),
        evidence_ids=list(evidence_ids),
        stop_reason=reason,
    )


@dataclass
class RoundSearch:
    """What one round's searches found: the merged evidence, new ids, errors and usage."""

    evidence: list[Evidence]
    new_ids: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    stop_reason: str | None = None


def search_round(
    setup: SearchSetup, queries: Sequence[str], k: int, evidence: Sequence[Evidence]
) -> RoundSearch:
    """Search every query, merging new passages into ``evidence``; a spent budget stops it.

    ``new_ids`` are the passages the fact did not hold before the round, in the order found:
    a passage the first pass (or an earlier round) already read is not new.
    """
    found_all = RoundSearch(evidence=list(evidence))
    held = {item.id for item in evidence}
    for query in queries:
        found, error, usage = search(setup, query, k)
        found_all.usage = found_all.usage + usage
        if error:
            found_all.errors.append(error)
            if error == BUDGET_SPENT:
                found_all.stop_reason = error
        for item in found:
            if item.id not in held:
                held.add(item.id)
                found_all.new_ids.append(item.id)
        found_all.evidence = merge_evidence(found_all.evidence, found)
    return found_all


def merge_round(
    fact: Fact,
    previous: Verdict,
    fresh: Verdict,
    units: Sequence[FactUnit],
    evidence: Sequence[Evidence],
    reader: MeaningReader | None = None,
    *,
    grounding: GroundingMode = DEFAULT_GROUNDING,
) -> tuple[Verdict, list[UnitVerdict]]:
    """The fact's verdict with this round's unit verdicts in place, and those verdicts.

    Every unit the earlier verdict left insufficient was judged again; this round's error
    (if any) goes on the verdict. (A verdict with an error never enters a round: see
    ``nodes/reverify.wants_round``.)
    ``reader`` and ``grounding`` are the judge's and the run's, as in
    :func:`~triqua.core.verdicts.settling.settle`.
    """
    targets = {unit.text for unit in units}
    updated = {u.unit: u for u in fresh.unit_verdicts if u.unit in targets}
    merged_units = [updated.get(u.unit, u) for u in previous.unit_verdicts]
    merged = settle(
        fact,
        previous.model_copy(update={"unit_verdicts": merged_units, "error": fresh.error}),
        list(evidence),
        reader=reader,
        grounding=grounding,
    )
    return merged, list(updated.values())
