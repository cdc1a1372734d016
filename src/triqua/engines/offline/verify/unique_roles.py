"""Roles only one holds, as the verifier reads them: another holder contradicts the fact.

"Canberra is the capital of Australia" contradicts "Sydney is the capital of Australia"
though it never names Sydney: the verifier's alignment, which starts from sentences naming
the subject, cannot see that. The reading of roles and their rival holders is the shared reader's
(``core.reading.roles.role_rival``), the grounding rule's too.
"""

from __future__ import annotations

from collections.abc import Iterable

from triqua.core.reading.roles import role_rival as read_role_rival
from triqua.engines.offline.verify.findings import Finding, Sentence
from triqua.schema import Fact, Status

__all__ = ["role_rival"]


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
