"""Ranges to an elliptical end: "from one generation to the next", "from one port to another".

A "from X to Y" phrase whose end names nothing on its own ("the next", "another", "the
other") is no origin and destination: "the next" is no value a verifier could look up. The
phrase describes the fact's object, so it stays in the object's words ("the transmission
of traits from one generation to the next"); where "from" completes the relation ("pass
from one generation"), the elliptical end follows the object ("one generation to the next").
"""

from __future__ import annotations

from collections.abc import Sequence

from triqua.engines.offline.decompose.phrases import Refer, render
from triqua.nlp.tokens import Token

ELLIPTICAL_ENDS = frozenset({"next", "other", "others", "another"})
"""Heads of a range's end that stand for a noun left out ("to the next [generation]")."""


def _elliptical_end(prep: Token) -> bool:
    return (
        prep.dep_ == "prep"
        and prep.lower_ == "to"
        and any(c.dep_ == "pobj" and c.lower_ in ELLIPTICAL_ENDS for c in prep.children)
    )


def elliptical_range(verbs: Sequence[Token], used: set[int]) -> tuple[Token, Token] | None:
    """The "from" and "to" phrases of a clause's range to an elliptical end, if any.

    The "to" phrase hangs on the verb next to "from" or inside the "from" phrase.
    """
    for verb in verbs:
        starts = [c for c in verb.children if c.dep_ == "prep" and c.lower_ == "from"]
        for start in starts:
            ends = [c for c in (*verb.children, *start.children) if c.i > start.i]
            end = next((c for c in ends if c.i not in used and _elliptical_end(c)), None)
            if end is not None:
                return start, end
    return None


def with_elliptical_range(
    verbs: Sequence[Token], used: set[int], objects: list[str | None], refer: Refer
) -> list[str | None]:
    """``objects`` with a range to an elliptical end written after them; its phrases used.

    When "from" completes the relation (it is in ``used``), only the end follows the
    object. Without an object the phrases are left to the qualifier rules.
    """
    found = elliptical_range(verbs, used)
    if found is None or not objects or not all(objects):
        return objects
    start, end = found
    tokens = [*end.subtree] if start.i in used else [*start.subtree, *end.subtree]
    tail = render(tokens, refer)
    used |= {start.i, end.i}
    return [f"{o} {tail}" for o in objects]
