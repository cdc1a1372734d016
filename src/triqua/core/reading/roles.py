"""Roles only one holds: "the capital of Australia", "the largest city in Texas".

"Sydney is the capital of Australia" names a holder of a role there is one of. A text that
gives that same role to another name ("Canberra is the capital of Australia", "The capital
of Australia is Canberra", "Canberra, the capital of Australia, …") contradicts it, though
it never names Sydney. A role is unique when it is written definite ("the …") with
"capital", a superlative, an ordinal or "only" before its noun (the restrictor reader's
``markers``). Roles that change hands over time (presidents, chief executives) are not
in the list, and only the present tense is read: a sentence naming another holder in the
past may be about another year.

The offline verifier and the grounding rule read roles here alike: the same patterns, the
same holder test (``name_match``: "Pierre Curie" is another holder than "Marie Curie").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from triqua.core.reading.analysis import analyse
from triqua.core.reading.name_match import name_match
from triqua.core.reading.restrictors.markers import markers

__all__ = [
    "RoleRival",
    "holder_and_role",
    "predicate_holder",
    "rival_holder",
    "role_rival",
    "unique_role",
]

#: Nouns of roles only one place or thing holds at once.
_UNIQUE_HEADS = frozenset({"capital"})
#: Only the present tense: "Melbourne was the capital" is no rival of "Canberra is".
_COPULA = frozenset({"is"})
#: A capitalised name: the holder a text gives the role to.
_HOLDER = r"(?P<holder>[A-Z][\w'’.-]*(?:\s+(?:of\s+|de\s+|the\s+)?[A-Z][\w'’.-]*){0,4})"
_LINK = r"(?:\s*,\s*|\s+(?:is|remains|has\s+been)\s+)"
#: A role that goes on with a scope of its own ("the largest city *in the world*") is
#: another role than the claim's shorter one.
_SCOPED = r"(?!\s+(?:in|of|on|at|among|ever|by|for|to|from)\b)"
_NOT_HOLDERS = frozenset({"the", "it", "this", "that", "its", "he", "she", "they", "today"})


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


def holder_and_role(subject: str, relation: str, obj: str) -> tuple[str, str] | None:
    """(holder, role) of "<holder> is <role only one holds>", either way round, or None.

    The holder must be a name: "a city is the capital" names no holder.
    """
    if relation.strip().lower() not in _COPULA:
        return None
    holder, role = subject.strip(), obj.strip()
    if unique_role(holder) and not unique_role(role):
        holder, role = role, holder
    elif not unique_role(role):
        return None
    return (holder, role) if analyse(holder).is_name else None


@lru_cache(maxsize=256)
def _patterns(role: str) -> tuple[re.Pattern[str], ...]:
    written = r"\s+".join(re.escape(w) for w in role.split())
    return (
        re.compile(_HOLDER + _LINK + f"(?i:{written})" + r"\b" + _SCOPED),
        re.compile(f"(?i:{written})" + r"\s+is\s+" + _HOLDER),
    )


def rival_holder(holder: str, role: str, texts: Iterable[str]) -> tuple[int, str] | None:
    """(index of the text, the other name) that ``texts`` give ``role`` to, or None.

    A text that gives the role to ``holder`` itself anywhere among ``texts`` means no rival:
    the evidence may name the holder by another name elsewhere.
    """
    claimed = analyse(holder)
    rival: tuple[int, str] | None = None
    for index, text in enumerate(texts):
        for pattern in _patterns(role):
            for match in pattern.finditer(text):
                named = match.group("holder")
                if named.split()[0].lower() in _NOT_HOLDERS:
                    continue
                other = analyse(named)
                if name_match(claimed, other) > 0 or name_match(other, claimed) > 0:
                    return None  # the text gives the role to the claim's holder
                rival = rival or (index, named)
    return rival


class RoleRival(NamedTuple):
    """Another holder of a fact's role only one holds, as :func:`role_rival` finds it."""

    holder: str  # the fact's holder of the role
    role: str  # the role only one holds
    at: int  # the index of the text that gives the role to another name
    name: str  # that other name


def role_rival(subject: str, relation: str, obj: str, texts: Iterable[str]) -> RoleRival | None:
    """Whether ``texts`` give the role "<subject> <relation> <obj>" claims to another name.

    The fact must be "<holder> is <role only one holds>" (either way round, the holder a
    name: :func:`holder_and_role`); a text giving the role to the fact's own holder anywhere
    means no rival (:func:`rival_holder`). Both checks ask it: the offline verifier of the
    passages' sentences, the grounding rule of a cited window.
    """
    found = holder_and_role(subject, relation, obj)
    if found is None:
        return None
    rival = rival_holder(*found, texts)
    return None if rival is None else RoleRival(*found, *rival)


def predicate_holder(
    subject: str, relation: str, obj: str, texts: Iterable[str]
) -> RoleRival | None:
    """Another name ``texts`` give the predicate "<relation> <obj>" to, in its own sentence.

    Any role, unique or not: "Sydney is a harbour city. Canberra is the seat of government."
    gives "the seat of government" to Canberra, so the two sentences together do not state
    "Sydney is the seat of government", though the judge, reading Sydney beside the words,
    may find them entailing. It is no contradiction (a role many hold may be held by both),
    only a support the judge cannot give. The fact is "<name> is <obj>"; a text giving the
    predicate to the subject itself anywhere means none (:func:`rival_holder`).
    """
    holder, role = subject.strip(), obj.strip()
    if relation.strip().lower() not in _COPULA or not role or not analyse(holder).is_name:
        return None
    rival = rival_holder(holder, role, texts)
    return None if rival is None else RoleRival(holder, role, *rival)
