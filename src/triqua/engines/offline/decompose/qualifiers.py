"""Qualifier rules of the offline decomposer: which phrases qualify a fact, and as what.

Prepositional phrases, bare noun-phrase adverbials and subordinate clauses attached to a
verb become Wikidata-style qualifiers. The label is a property chosen from the phrase's
marker and the kind of its value (``offline.labels`` holds the table): "point in time",
"start time", "end time", "location", "quantity", "cause", "follows", "together with", ...
never the bare preposition. A coordinated value ("in 1964 and 2021") gives one alternative
per conjunct, which the clause rules turn into separate facts.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from triqua.core.reading.restrictors.words import WORDS
from triqua.engines.offline.decompose.changes import is_comparison_base
from triqua.engines.offline.decompose.phrases import (
    QUANTITY_ENTS,
    TIME_ENTS,
    YEAR,
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
from triqua.engines.offline.labels import (
    CLAUSE_MARKERS,
    CONTEXT,
    END_TIME,
    FREQUENCY,
    LOCATION,
    ORDINAL,
    POINT_IN_TIME,
    QUALIFIER_MARKERS,
    QUANTITY,
    RESTRICTION,
    START_TIME,
    ValueKind,
    label_for,
)
from triqua.nlp.tokens import Token

Alternatives = tuple[tuple[str, str], ...]
"""One qualifier slot: its ``(label, value)``, or one per value of a coordination."""

_RANGE_END_PREPS = {"to", "until", "till", "through", "thru"}
_LEFT_MARKER_WORDS = {"together", "along", "apart", "instead", "ahead", "prior", "due", "owing"}
_AGENT_ENTS = {"PERSON", "ORG", "NORP"}
_COORDINATED_POS = {"NOUN", "PROPN", "NUM"}
_PLACE_PREPS = {"at", "in"}
# Entities that name one thing (a phrase headed by one is a name); values are no names.
_NAMED_ENTS = {"ORG", "GPE", "LOC", "FAC", "EVENT", "WORK_OF_ART", "PRODUCT", "LAW"}
_NOT_PLACE_ENTS = {"PERSON", "NORP", "WORK_OF_ART", "EVENT", "PRODUCT", "LAW", "LANGUAGE"}


def marker_tokens(prep: Token) -> list[Token]:
    """The preposition and the adjacent words that complete it ("as of", "together with")."""
    tokens = [prep]
    left = prep.doc[prep.i - 1] if prep.i > 0 else None
    if (
        left is not None
        and left.lower_ in _LEFT_MARKER_WORDS
        and (left.head.i == prep.i or prep.head.i == left.i)
    ):
        tokens.insert(0, left)
    current = prep
    while len(tokens) < 4:
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
            joined = _joined_prep(current)
            if joined is None:
                break
            tokens += joined
            current = joined[-1]
            continue
        tokens.append(nxt)
        current = nxt
    return tokens


def _joined_prep(prep: Token) -> list[Token] | None:
    """The conjunction and preposition joined to ``prep`` before their shared object, or None.

    "in and around a city", "on or near the coast": the object hangs on the last
    preposition, and the first has none of its own.
    """
    children = {c.i: c for c in prep.children}
    cc, conj = children.get(prep.i + 1), children.get(prep.i + 2)
    if cc is None or conj is None or cc.dep_ != "cc" or conj.dep_ != "conj":
        return None
    if conj.pos_ != "ADP" or any(c.dep_ == "pobj" for c in prep.children):
        return None
    return [cc, conj]


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


def value_kind(head: Token) -> ValueKind:
    """What a value's head denotes: a date/time, a place, a person or organisation, other."""
    if is_time(head):
        return "time"
    if is_place(head):
        return "place"
    if head.ent_type_ in _AGENT_ENTS or head.lower_ in {"him", "her", "them"}:
        return "agent"
    return "other"


def is_qualifier_prep(prep: Token) -> bool:
    """True for a prepositional phrase inside a noun phrase that really qualifies the fact."""
    markers = marker_tokens(prep)
    marker = " ".join(t.lower_ for t in markers)
    if marker in QUALIFIER_MARKERS:
        return True
    obj = prep_object(prep, markers)
    return obj is not None and label_for(marker, "time") == POINT_IN_TIME and is_time(obj)


def is_place_of_named(prep: Token) -> bool:
    """True for "at/in <place>" hung on a name: "the World Wide Web at CERN", "the Louvre in Paris".

    The place (a place or organisation entity, or an unknown name after "at") says where
    the fact holds, not which thing the name is, so the object keeps the name alone and the
    phrase becomes a ``location`` qualifier. A common or indefinite noun keeps its place
    ("a school in Boston" names a school by where it is), as does a phrase under an "of"
    phrase ("the capital of France") or inside the name's own entity.
    """
    head = prep.head
    if prep.dep_ != "prep" or prep.lower_ not in _PLACE_PREPS or prep.i < head.i:
        return False
    if not (head.pos_ == "PROPN" or head.ent_type_ in _NAMED_ENTS) or any(
        c.dep_ == "det" and c.lower_ in {"a", "an"} for c in head.children
    ):
        return False
    obj = prep_object(prep, [prep])
    if obj is None or obj.dep_ != "pobj" or is_time(obj) or obj.ent_type_ in _NOT_PLACE_ENTS:
        return False
    if prep.ent_iob_ == "I":  # the phrase is part of the name's entity
        return False
    if is_place(obj) or obj.ent_type_ == "ORG":
        return True
    # An unknown name counts after "at" only: "at CERN" is a place, "in Physics" a field.
    return prep.lower_ == "at" and obj.pos_ == "PROPN" and not obj.ent_type_


def main_prep(verb: Token, used: Collection[int] = ()) -> Token | None:
    """The prepositional complement that completes a relation ("born in", "played for").

    Non-time phrases win; a time phrase is used only when nothing else completes the verb
    ("died in 1934"). Phrases with a qualifier preposition never complete it.
    """
    plain: list[Token] = []
    timed: list[Token] = []
    for child in verb.children:
        if child.dep_ not in {"prep", "dative"} or child.i < verb.i or child.pos_ != "ADP":
            continue
        if child.i in used:
            continue
        markers = marker_tokens(child)
        marker = " ".join(t.lower_ for t in markers)
        obj = prep_object(child, markers)
        if obj is None or marker in QUALIFIER_MARKERS or markers[0].i < child.i:
            continue
        if not is_time(obj):
            plain.append(child)
        elif marker not in _RANGE_END_PREPS and marker != "from":
            timed.append(child)
    candidates = plain or timed
    return candidates[0] if candidates else None


def coordinated_values(obj: Token) -> list[Token]:
    """The heads of a coordinated value ("1964 and 2021"), or ``[obj]`` when it is one value.

    Only names, nouns and numbers of the same kind split; "March and April 2020" stays whole
    because its first part alone would lose the year.
    """
    heads = [obj]
    todo = [obj]
    while todo:
        current = todo.pop()
        for child in current.children:
            if child.dep_ == "conj" and child.pos_ in _COORDINATED_POS:
                heads.append(child)
                todo.append(child)
    if len(heads) == 1:
        return heads
    kinds = {value_kind(h) for h in heads}
    if len(kinds) > 1:
        return [obj]
    if kinds == {"time"} and not all(YEAR.match(h.text) or _has_year(h) for h in heads):
        return [obj]
    return sorted(heads, key=lambda t: t.i)


def _has_year(head: Token) -> bool:
    return any(YEAR.match(t.text) for t in noun_phrase(head))


def prep_qualifiers(prep: Token, refer: Refer, *, range_open: bool) -> list[Alternatives]:
    """Qualifier slots from one prepositional phrase: a property label and the phrase value.

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
    known = label_for(marker, "other") is not None
    heads = coordinated_values(obj) if known and obj.dep_ == "pobj" else [obj]
    if len(heads) > 1:
        values = [(h, render(noun_phrase(h), refer)) for h in heads]
    else:
        values = [(obj, render((t for t in prep.subtree if t.i not in skip), refer))]
    values = [(h, v) for h, v in values if v]
    if not values:
        return []
    if marker == "from" and is_comparison_base(prep, obj):  # "rose 62% from a year earlier"
        whole = render((t for t in prep.subtree if t.i not in skip - {prep.i}), refer)
        return [((CONTEXT, whole),)] if whole else []
    if marker == "from" and is_time(obj):
        ends = [render((t for t in end.subtree if t.i != end.i), refer) for end in nested]
        return [
            tuple((START_TIME, v) for _, v in values),
            *(((END_TIME, end),) for end in ends if end),
        ]
    if not known:  # keep the unknown preposition in the value, under a neutral property
        whole = render(t for t in prep.subtree if t.i not in skip - {m.i for m in markers})
        return [((CONTEXT, whole),)] if whole else []
    if marker == "to" and is_time(obj) and not range_open:
        return [tuple((POINT_IN_TIME, value) for _, value in values)]
    return [tuple((_label(marker, head), value) for head, value in values)]


def _label(marker: str, head: Token) -> str:
    """The property of a known marker for the value headed by ``head``."""
    kind = value_kind(head)
    if kind == "other" and marker not in QUALIFIER_MARKERS and is_quantity(head):
        return QUANTITY
    return label_for(marker, kind) or CONTEXT


def child_qualifiers(child: Token, refer: Refer, *, range_open: bool) -> list[Alternatives]:
    """Qualifier slots from one dependent of a verb.

    The dependent may be a prepositional phrase, a bare date or amount ("last year", "three
    days later"), or an adverbial clause ("because ...", "after ...").
    """
    dep = child.dep_
    restrictor = restrictor_qualifier(child)
    if restrictor is not None:
        inner = [c for obj in child.children for c in obj.children if c.dep_ == "prep"]
        return [
            (restrictor,),
            *(q for c in inner for q in prep_qualifiers(c, refer, range_open=False)),
        ]
    if dep == "prep":
        return prep_qualifiers(child, refer, range_open=range_open)
    if dep in {"npadvmod", "tmod"}:
        value = render(noun_phrase(child), refer)
        if value and is_time(child):
            return [((POINT_IN_TIME, value),)]
        if value and child.ent_type_ in QUANTITY_ENTS:
            return [((QUANTITY, value),)]
    if dep == "advmod" and child.ent_type_ in TIME_ENTS:  # "three days later"
        value = render(child.subtree, refer)
        if value:
            return [((POINT_IN_TIME, value),)]
    if dep == "advcl":
        mark = next((c for c in child.children if c.dep_ == "mark"), None)
        if mark is not None and mark.lower_ in CLAUSE_MARKERS:
            value = render((t for t in child.subtree if t.i != mark.i), refer)
            label = label_for(mark.lower_, "other")
            if value and label:
                return [((label, value),)]
    return []


def restrictor_qualifier(child: Token) -> tuple[str, str] | None:
    """A verb's restrictor as a qualifier: "once", "five times", "first", "for the first time".

    These words decide whether the fact holds ("won the World Cup once" is false for a
    three-time winner), so they are kept with a label instead of being dropped.
    """
    low = child.lower_
    if child.dep_ == "advmod":
        if low in WORDS.frequency:
            return (FREQUENCY, child.text)
        if low in WORDS.ordinal and low not in {"final", "latest"}:
            return (ORDINAL, child.text)
        if low in WORDS.exclusive:
            return (RESTRICTION, child.text)
    counted = any(c.dep_ == "nummod" or c.lower_ in WORDS.count_words for c in child.children)
    if child.dep_ in {"npadvmod", "advmod", "dobj"} and low in WORDS.frequency_nouns and counted:
        return (FREQUENCY, " ".join(t.text for t in child.subtree))
    time = next((c for c in child.children if c.dep_ == "pobj" and c.lower_ == "time"), None)
    if child.dep_ == "prep" and low == "for" and time is not None:
        rank = [c for c in time.children if c.lower_ in WORDS.ordinal]
        if rank:  # "for the first time (in 1958)"
            return (ORDINAL, f"for the {rank[0].text} time")
    return None


def opens_range(children: Sequence[Token]) -> bool:
    """True when one of a verb's children is "from <time>", so "to <time>" ends a range."""
    for child in children:
        if child.dep_ == "prep" and child.lower_ == "from":
            obj = prep_object(child, [child])
            if obj is not None and is_time(obj):
                return True
    return False


__all__ = [
    "LOCATION",
    "POINT_IN_TIME",
    "Alternatives",
    "child_qualifiers",
    "coordinated_values",
    "is_place_of_named",
    "is_qualifier_prep",
    "main_prep",
    "marker_tokens",
    "opens_range",
    "prep_object",
    "prep_qualifiers",
    "restrictor_qualifier",
    "value_kind",
]
