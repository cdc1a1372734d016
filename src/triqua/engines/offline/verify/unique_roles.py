"""Roles only one holds: "the capital of Australia", "the largest city in Texas".

"Sydney is the capital of Australia" names a holder of a role there is one of. Evidence that
gives that same role to another name ("Canberra is the capital of Australia", "The capital
of Australia is Canberra", "Canberra, the capital of Australia, …") contradicts the fact,
though it never names Sydney: the verifier's alignment, which starts from sentences naming
the subject, cannot see that. A role is unique when the fact writes it definite ("the …")
with a capital, a superlative, an ordinal or "only" before its noun. Roles that change
hands over time (presidents, chief executives) are not in the list, and only the present
tense is read: a sentence naming another holder in the past may be about another year.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from triqua.core.reading.analysis import analyse
from triqua.core.reading.name_match import name_match
from triqua.core.reading.restrictors.markers import markers
from triqua.engines.offline.verify.findings import Finding, Sentence
from triqua.schema import Fact, Status

__all__ = ["role_rival", "unique_role"]

#: Nouns of roles only one place or thing holds at once.
_UNIQUE_HEADS = frozenset({"capital"})
#: Only the present tense: "Melbourne was the capital" is no rival of "Canberra is".
_COPULA = frozenset({"is"})
#: A capitalised name: the holder the evidence gives the role to.
_HOLDER = r"(?P<holder>[A-Z][\w'’.-]*(?:\s+(?:of\s+|de\s+|the\s+)?[A-Z][\w'’.-]*){0,4})"
_LINK = r"(?:\s*,\s*|\s+(?:is|remains|has\s+been)\s+)"
#: A role that goes on with a scope of its own ("the largest city *in the world*") is
#: another role than the fact's shorter one.
_SCOPED = r"(?!\s+(?:in|of|on|at|among|ever|by|for|to|from)\b)"
_NOT_HOLDERS = frozenset({"The", "It", "This", "That", "Its", "He", "She", "They", "Today"})


def unique_role(text: str) -> bool:
    """True when ``text`` writes a role only one holds ("the capital of X", "the largest …")."""
    words = text.split()
    if len(words) < 2 or words[0].lower() != "the":
        return False
    if words[1].lower() in _UNIQUE_HEADS:
        return True
    return any(
        m.kind in ("superlative", "ordinal", "exclusive") for m in markers(" ".join(words[:3]))
    )


def _patterns(role: str) -> tuple[re.Pattern[str], ...]:
    written = r"\s+".join(re.escape(w) for w in role.split())
    return (
        re.compile(_HOLDER + _LINK + f"(?i:{written})" + r"\b" + _SCOPED),
        re.compile(f"(?i:{written})" + r"\s+is\s+" + _HOLDER),
    )


def role_rival(fact: Fact, sentences: Iterable[Sentence]) -> Finding | None:
    """A sentence giving the fact's unique role to another name: the fact is contradicted.

    The fact is "<holder> is <role>" or "<role> is <holder>"; the holder must be a name. A
    sentence that gives the role to the fact's own holder anywhere in the evidence means
    no contradiction.
    """
    if fact.relation.strip().lower() not in _COPULA or fact.qualifiers:
        return None
    holder, role = fact.subject, fact.object
    if unique_role(holder) and not unique_role(role):
        holder, role = role, holder
    elif not unique_role(role):
        return None
    claimed = analyse(holder)
    if not claimed.is_name:
        return None
    patterns = _patterns(role)
    rival: tuple[Sentence, str] | None = None
    for sentence in sentences:
        for pattern in patterns:
            for match in pattern.finditer(sentence.info.text):
                named = match.group("holder")
                if named.split()[0] in _NOT_HOLDERS:
                    continue
                other = analyse(named)
                if name_match(claimed, other) > 0 or name_match(other, claimed) > 0:
                    return None  # the evidence gives the role to the fact's holder
                rival = rival or (sentence, named)
    if rival is None:
        return None
    sentence, named = rival
    return Finding(
        Status.CONTRADICTED,
        sentence,
        holder,
        f"the sentence gives {role!r} to {named!r}",
        max(sentence.score, 0.5),
    )
