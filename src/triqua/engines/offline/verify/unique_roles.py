"""Roles only one holds, as the verifier reads them: another holder contradicts the fact.

"Canberra is the capital of Australia" contradicts "Sydney is the capital of Australia"
though it never names Sydney: the verifier's alignment, which starts from sentences naming
the subject, cannot see that. The reading of roles and their rival holders is the shared reader's
(``core.reading.roles.role_rival``), the grounding rule's too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from triqua.core.reading.analysis import coverage
from triqua.core.reading.fact_parts import FactParts
from triqua.core.reading.roles import predicate_holder
from triqua.core.reading.roles import role_rival as read_role_rival
from triqua.engines.offline.verify.findings import Finding, Sentence
from triqua.schema import Fact, Status

__all__ = ["held_elsewhere", "role_rival"]


def role_rival(fact: Fact, sentences: Iterable[Sentence]) -> Finding | None:
    """A sentence giving the fact's unique role to another name: the fact is contradicted.

    The fact is "<holder> is <role>" or "<role> is <holder>" with no qualifier; the holder
    must be a name. A sentence that gives the role to the fact's own holder anywhere in the
    evidence means no contradiction.
    """
    if fact.qualifiers:
        return None
    read = list(sentences)
    rival = read_role_rival(fact.subject, fact.relation, fact.object, [s.info.text for s in read])
    if rival is None:
        return None
    sentence = read[rival.at]
    return Finding(
        Status.CONTRADICTED,
        sentence,
        rival.holder,
        f"the sentence gives {rival.role!r} to {rival.name!r}",
        max(sentence.score, 0.5),
    )


#: The relation a predicate is given by ("Canberra is the seat of government").
_COPULA = frozenset({"is"})
#: Sentences either side of a window where another holder of its predicate is looked for.
_NEAR = 2


def held_elsewhere(
    fact: Fact,
    parts: FactParts,
    first: Sentence,
    last: Sentence,
    by_place: Mapping[tuple[int, int], Sentence],
) -> bool:
    """True when a sentence near the window gives the fact's predicate to another name.

    "Sydney is a harbour city. Canberra is the seat of government." gives "the seat of
    government" to Canberra in a sentence of its own; the window about Sydney then does not
    state "Sydney is the seat of government", whatever the judge reads in it, unless one of
    its own sentences (not the other holder's) writes every word of the predicate. A
    sentence near the window that gives the predicate to the subject means no other holder
    (``core.reading.roles.predicate_holder``).
    """
    if fact.qualifiers or fact.relation.strip().lower() not in _COPULA:
        return False
    span = range(first.index - _NEAR, last.index + _NEAR + 1)
    near = [s for k in span if (s := by_place.get((first.passage, k))) is not None]
    if (
        predicate_holder(fact.subject, fact.relation, fact.object, [s.info.text for s in near])
        is None
    ):
        return False
    others = {
        s.index
        for s in near
        if predicate_holder(fact.subject, fact.relation, fact.object, [s.info.text])
    }
    own = [s for s in near if first.index <= s.index <= last.index and s.index not in others]
    return not any(coverage(parts.object, s.info) >= 1 for s in own)
