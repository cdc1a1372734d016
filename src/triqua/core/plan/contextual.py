"""Contextual claims for re-verification (ElementCheck's re-verification of the NEI subgraph).

For the units of a complex fact left insufficient, the contextual claim is those units plus
the elements that connect them to the rest of their sentence's element graph, written as a
sentence: it is searched with and judged, so the judge sees the unresolved part in the
context that makes it checkable ("… became a citizen in 1941, where … moved to the United
States in 1929").
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from triqua.core.plan.routing import element_graph, normalise
from triqua.schema import Fact, FactUnit, Qualifier, Status, Verdict

#: Qualifier label under which connecting facts travel to the judge (context, not a unit).
CONTEXT_LABEL = "context"
#: Most connecting facts a contextual claim carries.
MAX_CONNECTING = 2

Phrase = Callable[[str, str], str]
"""Writes a qualifier ``(label, value)`` as the words it adds to its fact ("in 1903")."""


def labelled(label: str, value: str) -> str:
    """A qualifier as ``label: value``: the notation when no phrasing is given."""
    return f"{label}: {value}"


@dataclass(frozen=True)
class ContextualClaim:
    """The claim sentence, the fact the judge sees, and the connecting facts it carries."""

    text: str
    fact: Fact
    connecting: tuple[Fact, ...]


def _elements(fact: Fact) -> set[str]:
    return {normalise(n) for n in (fact.subject, fact.object, *(q.value for q in fact.qualifiers))}


def _same_fact(a: Fact, b: Fact) -> bool:
    return (a.id and a.id == b.id) or a.to_string() == b.to_string()


def connecting_facts(
    fact: Fact,
    units: Sequence[FactUnit],
    sentence: Sequence[Fact],
    limit: int = MAX_CONNECTING,
    resolved: Collection[str] | None = None,
) -> list[Fact]:
    """Facts of the sentence adjacent to the unresolved units' elements in the element graph.

    The unresolved elements are looked at in order: qualifier values first (what is unknown),
    then the object, then the subject; a fact connects when one of its elements is that
    element or its neighbour in the sentence's graph. ``resolved`` (ids of the sentence's
    facts whose base triple the first pass supported), when known, keeps only those: the
    claim is put in the context of what is already established, not of other guesses.
    """
    # A sibling stating the same base triple (another qualifier of it) connects nothing new.
    others = [f for f in sentence if not _same_fact(f, fact) and _clause(f) != _clause(fact)]
    if resolved is not None:
        others = [f for f in others if f.id in resolved]
    if not others:
        return []
    graph = element_graph([fact, *others])
    order = [normalise(u.value or "") for u in units if u.kind == "qualifier"]
    order += [normalise(fact.object), normalise(fact.subject)]
    chosen: list[Fact] = []
    for element in (e for e in order if e and e in graph):
        near = {element, *graph.neighbors(element)}
        for other in others:
            if len(chosen) < limit and other not in chosen and _elements(other) & near:
                chosen.append(other)
    return chosen


def _clause(fact: Fact) -> str:
    return " ".join(p for p in (fact.subject, fact.relation, fact.object) if p.strip())


def contextual_claim(
    fact: Fact,
    units: Sequence[FactUnit],
    sentence: Sequence[Fact],
    resolved: Collection[str] | None = None,
    phrase: Phrase | None = None,
) -> ContextualClaim:
    """The contextual claim of ``fact``'s unresolved ``units`` within its ``sentence``'s facts.

    The judged fact keeps the base triple (qualifiers modify it), the unresolved qualifiers,
    and each connecting fact (of the ``resolved`` ones, when known) as a ``context``
    qualifier; only the unresolved units are judged. ``phrase`` writes each qualifier into
    the sentence as words ("… became a citizen in 1941"), so the claim reads as a statement
    the judge can take as its hypothesis and a search engine as its query; without it the
    qualifiers stand in brackets as ``label: value``.
    """
    pending = [
        Qualifier(label=u.label or "", value=u.value or "") for u in units if u.kind == "qualifier"
    ]
    connecting = connecting_facts(fact, units, sentence, resolved=resolved)
    text = _clause(fact)
    if pending and phrase is not None:
        text = " ".join([text, *(phrase(q.label, q.value) for q in pending)])
    elif pending:
        text += " (" + ", ".join(labelled(q.label, q.value) for q in pending) + ")"
    if connecting:
        text += ", where " + "; ".join(_clause(c) for c in connecting)
    judged = fact.model_copy(
        update={
            "qualifiers": [
                *pending,
                *(Qualifier(label=CONTEXT_LABEL, value=_clause(c)) for c in connecting),
            ],
            "source_text": text + ".",
        }
    )
    return ContextualClaim(text=text + ".", fact=judged, connecting=tuple(connecting))


def resolved_facts(
    sentence: Sequence[Fact], judged: Sequence[tuple[Fact, Verdict]]
) -> frozenset[str]:
    """Ids of the ``sentence``'s facts that can serve as context: the resolved neighbours.

    A fact judged in ``judged`` (the first pass's verdicts at hand) is resolved when its base
    triple is supported; a fact judged elsewhere (another batch) is kept, its verdict unknown.
    """
    verdicts = {fact.id: verdict for fact, verdict in judged}
    out = set()
    for fact in sentence:
        verdict = verdicts.get(fact.id)
        if verdict is None:
            out.add(fact.id)
            continue
        base = fact.units()[0].text
        statuses = {u.unit: u.status for u in verdict.unit_verdicts}
        if statuses.get(base, verdict.status) is Status.SUPPORTED:
            out.add(fact.id)
    return frozenset(out)
