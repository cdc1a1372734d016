"""Qualifier slots of a clause for the offline decomposer: what, where and when it holds.

Each adverbial of a clause's verbs (``qualifiers`` reads them) becomes a slot of
alternatives; a relative clause opened by "where"/"when" ties back to its host noun. Slots are
kept in text order without repeats or junk, and each combination of coordinated values gives
one fact (at most ``MAX_VARIANTS``).
"""

from __future__ import annotations

import itertools

from triqua.engines.offline.decompose.hygiene import is_junk_argument
from triqua.engines.offline.decompose.phrases import Refer, is_time, noun_phrase, render
from triqua.engines.offline.decompose.predicate import Predicate, predicate
from triqua.engines.offline.decompose.qualifiers import (
    Alternatives,
    child_qualifiers,
    opens_range,
    prep_qualifiers,
)
from triqua.engines.offline.labels import LOCATION, POINT_IN_TIME
from triqua.nlp.tokens import Token

MAX_VARIANTS = 8
"""Most facts one clause splits into over its coordinated qualifier values."""

Positioned = tuple[int, Alternatives]
"""A qualifier slot (its alternatives) with the index of the token it came from."""


def variants(slots: list[Alternatives]) -> list[tuple[tuple[str, str], ...]]:
    """One qualifier tuple per combination of coordinated values (at most ``MAX_VARIANTS``)."""
    return list(itertools.islice(itertools.product(*slots), MAX_VARIANTS)) if slots else [()]


def clause_qualifiers(
    pred: Predicate, refer: Refer, cache: dict[int, Predicate]
) -> list[Positioned]:
    """The qualifier slots of a clause's verbs and of the phrases its arguments gave up."""
    out: list[Positioned] = []
    for verb in pred.verbs:
        children = [c for c in verb.children if c.i not in pred.used]
        range_open = opens_range(children)
        for child in children:
            found = child_qualifiers(child, refer, range_open=range_open)
            out += [(child.i, alts) for alts in found]
    for prep in pred.pulled:
        out += [(prep.i, alts) for alts in prep_qualifiers(prep, refer, range_open=False)]
    if pred.verbs[0].dep_ == "relcl":
        out += _host_qualifier(pred.verbs[0], refer, cache)
    return out


def _host_qualifier(clause: Token, refer: Refer, cache: dict[int, Predicate]) -> list[Positioned]:
    """For "X, where he won Y": the qualifier that ties the clause to the fact about X."""
    word = next(
        (c for c in clause.children if c.dep_ == "advmod" and c.lower_ in {"where", "when"}), None
    )
    if word is None:
        return []
    host = clause.head
    value = render(noun_phrase(host), refer)
    if word.lower_ == "when" or is_time(host):
        return [(host.i, ((POINT_IN_TIME, value),))]
    governor = host.head.head if host.dep_ == "pobj" else host.head
    if governor.pos_ in {"VERB", "AUX"} and governor.i != host.i:
        pred = predicate(governor, cache)
        if host in pred.objects:
            return [(host.i, ((pred.relation_text(), value),))]
    return [(host.i, ((LOCATION, value),))]


def tidy(qualifiers: list[Positioned], objects: list[str]) -> list[Alternatives]:
    """Qualifier slots in text order, without repeats, copies of the object or junk values."""
    out: list[Alternatives] = []
    seen: set[tuple[str, str]] = set()
    for _, alternatives in sorted(qualifiers, key=lambda q: q[0]):
        kept = tuple(
            (label, value)
            for label, value in alternatives
            if value
            and value not in objects
            and (label, value) not in seen
            and not is_junk_argument(value, "object")
        )
        seen.update(kept)
        if kept:
            out.append(kept)
    return out
