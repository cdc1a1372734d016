"""Qualifier rules of the offline decomposer: which phrases qualify a fact, and as what.

Prepositional phrases, bare noun-phrase adverbials and subordinate clauses attached to a
verb become Wikidata-style qualifiers: time ("point in time", "start time", "end time"),
place ("location"), "quantity", "cause", sequence ("after", "before"), provenance
("according to") and constraints ("excluding", "including", "except"). Any other
preposition is kept with the preposition itself as the label.
"""

from __future__ import annotations

from collections.abc import Sequence

from spacy.tokens import Token

from triqua.engines.offline.decomposer_phrases import (
    QUANTITY_ENTS,
    Refer,
    is_date_list,
    is_place,
    is_quantity,
    is_side_part,
    is_time,
    noun_phrase,
    render,
    substitute_relative,
)

POINT_IN_TIME = "point in time"
START_TIME = "start time"
END_TIME = "end time"
LOCATION = "location"
QUANTITY = "quantity"
CAUSE = "cause"

# Prepositions (single or multi-word) and the qualifier label each one introduces.
MARKER_LABELS = {
    "as of": POINT_IN_TIME,
    "since": START_TIME,
    "until": END_TIME,
    "till": END_TIME,
    "after": "after",
    "following": "after",
    "before": "before",
    "prior to": "before",
    "because": CAUSE,
    "because of": CAUSE,
    "due to": CAUSE,
    "owing to": CAUSE,
    "thanks to": CAUSE,
    "excluding": "excluding",
    "including": "including",
    "except": "except",
    "except for": "except",
    "according to": "according to",
}
# Subordinating conjunctions of adverbial clauses and the qualifier label each introduces.
_MARK_LABELS = {
    "because": CAUSE,
    "since": START_TIME,
    "until": END_TIME,
    "till": END_TIME,
    "after": "after",
    "before": "before",
}
_TIME_PREPS = {"in", "on", "at", "during", "around", "circa", "by", "throughout"}
_PLACE_PREPS = {"in", "at", "on", "near", "inside", "outside", "across", "throughout", "within"}
_RANGE_END_PREPS = {"to", "until", "till", "through", "thru"}


def marker_tokens(prep: Token) -> list[Token]:
    """The preposition and the adjacent words that complete it ("as of", "due to")."""
    tokens = [prep]
    current = prep
    while len(tokens) < 3:
        nxt = next(
            (
                c
                for c in current.children
                if c.dep_ in {"prep", "pcomp"}
                and c.i == current.i + 1
                and c.pos_ in {"ADP", "SCONJ"}
            ),
            None,
        )
        if nxt is None:
            break
        tokens.append(nxt)
        current = nxt
    return tokens


def marker_text(prep: Token) -> str:
    """The lowercased (possibly multi-word) preposition, e.g. "according to"."""
    return " ".join(t.lower_ for t in marker_tokens(prep))


def prep_object(prep: Token, markers: Sequence[Token]) -> Token | None:
    """The object of a (possibly multi-word) preposition: its pobj, else its pcomp."""
    for tok in reversed(markers):
        for child in tok.children:
            if child.dep_ == "pobj":
                return substitute_relative(child)
    for tok in reversed(markers):
        for child in tok.children:
            if child.dep_ == "pcomp" and child not in markers:
                return child
    return None


def is_qualifier_prep(prep: Token) -> bool:
    """True for a prepositional phrase inside a noun phrase that really qualifies the fact."""
    markers = marker_tokens(prep)
    marker = " ".join(t.lower_ for t in markers)
    if marker in MARKER_LABELS:
        return True
    obj = prep_object(prep, markers)
    return obj is not None and marker in _TIME_PREPS and is_time(obj)


def main_prep(verb: Token) -> Token | None:
    """The prepositional complement that completes a relation ("born in", "played for").

    Non-time phrases win; a time phrase is used only when nothing else completes the verb
    ("died in 1934"). Phrases with a qualifier preposition never complete it.
    """
    plain: list[Token] = []
    timed: list[Token] = []
    for child in verb.children:
        if child.dep_ not in {"prep", "dative"} or child.i < verb.i or child.pos_ != "ADP":
            continue
        markers = marker_tokens(child)
        marker = " ".join(t.lower_ for t in markers)
        obj = prep_object(child, markers)
        if obj is None or marker in MARKER_LABELS:
            continue
        if not is_time(obj):
            plain.append(child)
        elif marker not in _RANGE_END_PREPS and marker != "from":
            timed.append(child)
    candidates = plain or timed
    return candidates[0] if candidates else None


def prep_qualifiers(prep: Token, refer: Refer, *, range_open: bool) -> list[tuple[str, str]]:
    """Qualifiers from one prepositional phrase: a label from its kind and the phrase value.

    Args:
        prep: the preposition token.
        refer: pronoun lookup used to write the value.
        range_open: whether a "from <time>" sibling makes "to <time>" an end time.
    """
    markers = marker_tokens(prep)
    marker = " ".join(t.lower_ for t in markers)
    obj = prep_object(prep, markers)
    if obj is None:
        return []
    nested = (
        [c for c in prep.children if c.dep_ == "prep" and c.lower_ in _RANGE_END_PREPS]
        if marker == "from"
        else []
    )
    skip = {t.i for t in markers} | {t.i for c in nested for t in c.subtree}
    skip |= {
        t.i
        for c in obj.children
        if is_side_part(c) and not (is_time(obj) and is_date_list(c))
        for t in c.subtree
    }
    value = render((t for t in prep.subtree if t.i not in skip), refer)
    if not value:
        return []
    if marker in MARKER_LABELS:
        return [(MARKER_LABELS[marker], value)]
    if is_time(obj):
        if marker == "from":
            ends = [render((t for t in end.subtree if t.i != end.i), refer) for end in nested]
            return [(START_TIME, value), *((END_TIME, end) for end in ends if end)]
        if marker in _RANGE_END_PREPS and range_open:
            return [(END_TIME, value)]
        if marker in _TIME_PREPS:
            return [(POINT_IN_TIME, value)]
    if marker in _PLACE_PREPS and is_place(obj):
        return [(LOCATION, value)]
    if is_quantity(obj):
        return [(QUANTITY, value)]
    return [(marker, value)]


def child_qualifiers(child: Token, refer: Refer, *, range_open: bool) -> list[tuple[str, str]]:
    """Qualifiers from one dependent of a verb.

    The dependent may be a prepositional phrase, a bare date or amount ("last year"), or an
    adverbial clause ("because ...", "after ...").
    """
    dep = child.dep_
    if dep == "prep":
        return prep_qualifiers(child, refer, range_open=range_open)
    if dep in {"npadvmod", "tmod"}:
        value = render(noun_phrase(child), refer)
        if value and is_time(child):
            return [(POINT_IN_TIME, value)]
        if value and child.ent_type_ in QUANTITY_ENTS:
            return [(QUANTITY, value)]
    if dep == "advcl":
        mark = next((c for c in child.children if c.dep_ == "mark"), None)
        if mark is not None and mark.lower_ in _MARK_LABELS:
            value = render((t for t in child.subtree if t.i != mark.i), refer)
            if value:
                return [(_MARK_LABELS[mark.lower_], value)]
    return []


def opens_range(children: Sequence[Token]) -> bool:
    """True when one of a verb's children is "from <time>", so "to <time>" ends a range."""
    for child in children:
        if child.dep_ == "prep" and child.lower_ == "from":
            obj = prep_object(child, [child])
            if obj is not None and is_time(obj):
                return True
    return False
