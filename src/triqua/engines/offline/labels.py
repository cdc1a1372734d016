"""Qualifier labels of the offline decomposer: which property a preposition introduces.

One data table maps each (possibly multi-word) preposition or clause marker to a
Wikidata-style property, chosen by the kind of its value: a date or time, a place, a person
or organisation, or anything else. Labels are properties ("point in time", "location",
"together with"), never the bare preposition, so the facts of both engines read alike and the
verifier can tell a date slot from a place slot. A marker missing from the table gets
``CONTEXT`` and keeps its preposition in the value, so no information is lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ValueKind = Literal["time", "place", "agent", "other"]
"""What a qualifier value denotes: a date/time, a place, a person or organisation, other."""

POINT_IN_TIME = "point in time"
START_TIME = "start time"
END_TIME = "end time"
DURATION = "duration"
LOCATION = "location"
ORIGIN = "origin"
DESTINATION = "destination"
QUANTITY = "quantity"
CAUSE = "cause"
PURPOSE = "purpose"
FOLLOWS = "follows"
PRECEDES = "precedes"
TOGETHER_WITH = "together with"
FREQUENCY = "frequency"
ORDINAL = "ordinal"
RESTRICTION = "restriction"
STATED_BY = "stated by"
"""Restrictor labels: how often, which in a series, how exclusive, who reports it."""
RESTRICTOR_LABELS = frozenset({FREQUENCY, ORDINAL, RESTRICTION})
"""Qualifier labels whose value is a restrictor, which the verifier requires stated."""
CONTEXT = "context"
"""Label of a phrase whose preposition the table does not know; its value keeps the word."""


@dataclass(frozen=True)
class MarkerLabels:
    """The property a marker introduces for each kind of value (``None``: use ``other``)."""

    other: str
    time: str | None = None
    place: str | None = None
    agent: str | None = None

    def label(self, kind: ValueKind) -> str:
        """The label for a value of ``kind``, falling back to the marker's general label."""
        return getattr(self, kind) or self.other


def _m(
    other: str, time: str | None = None, place: str | None = None, agent: str | None = None
) -> MarkerLabels:
    return MarkerLabels(other, time, place, agent)


# Prepositions and clause markers -> property by value kind. Keep this the only place that
# names qualifier labels for prepositions (the verifier reads labels as properties).
MARKER_LABELS: dict[str, MarkerLabels] = {
    # time and place
    "in": _m(LOCATION, POINT_IN_TIME, LOCATION, LOCATION),
    "on": _m(LOCATION, POINT_IN_TIME, LOCATION, LOCATION),
    "at": _m(LOCATION, POINT_IN_TIME, LOCATION, LOCATION),
    "during": _m(POINT_IN_TIME),
    "around": _m(LOCATION, POINT_IN_TIME),
    "circa": _m(POINT_IN_TIME),
    "throughout": _m(LOCATION, DURATION),
    "within": _m(LOCATION, DURATION),
    "near": _m(LOCATION),
    "inside": _m(LOCATION),
    "outside": _m(LOCATION),
    "across": _m(LOCATION),
    "as of": _m(POINT_IN_TIME),
    "by": _m("agent", POINT_IN_TIME, LOCATION, "agent"),
    # ranges
    "since": _m(START_TIME),
    "from": _m(ORIGIN, START_TIME, ORIGIN, ORIGIN),
    "until": _m(END_TIME),
    "till": _m(END_TIME),
    "up to": _m(END_TIME, END_TIME, DESTINATION, DESTINATION),
    "through": _m("via", END_TIME),
    "to": _m(DESTINATION, END_TIME, DESTINATION, "recipient"),
    "into": _m(DESTINATION),
    "toward": _m(DESTINATION),
    "towards": _m(DESTINATION),
    "via": _m("via"),
    "for": _m(PURPOSE, DURATION, DESTINATION, "beneficiary"),
    "over": _m(CONTEXT, DURATION),
    # sequence
    "after": _m(FOLLOWS),
    "following": _m(FOLLOWS),
    "before": _m(PRECEDES),
    "prior to": _m(PRECEDES),
    "ahead of": _m(PRECEDES),
    # cause
    "because": _m(CAUSE),
    "because of": _m(CAUSE),
    "due to": _m(CAUSE),
    "owing to": _m(CAUSE),
    "thanks to": _m(CAUSE),
    "as a result of": _m(CAUSE),
    # participants and means
    "with": _m("instrument", None, None, TOGETHER_WITH),
    "together with": _m(TOGETHER_WITH),
    "alongside": _m(TOGETHER_WITH),
    "along with": _m(TOGETHER_WITH),
    "against": _m("opponent"),
    "under": _m(CONTEXT, None, LOCATION, "director / manager"),
    "as": _m("subject has role"),
    "about": _m("main subject"),
    "on behalf of": _m("on behalf of"),
    "instead of": _m("replaces"),
    # scope and provenance (Wikidata has "excluding" and "including" as properties)
    "excluding": _m("excluding"),
    "except": _m("excluding"),
    "except for": _m("excluding"),
    "apart from": _m("excluding"),
    "without": _m("excluding"),
    "including": _m("including"),
    "among": _m("part of"),
    "according to": _m("stated in"),
    "per": _m(QUANTITY),
}

# Markers whose phrase always qualifies a fact, even inside a noun phrase ("64.5 million,
# excluding overseas departments") and never completes a relation ("played for").
QUALIFIER_MARKERS = frozenset(
    {
        "as of", "since", "until", "till", "after", "following", "before", "prior to",
        "ahead of", "because", "because of", "due to", "owing to", "thanks to",
        "as a result of", "excluding", "including", "except", "except for", "apart from",
        "according to", "together with", "along with",
    }
)  # fmt: skip

# Subordinating conjunctions of adverbial clauses that qualify a fact.
CLAUSE_MARKERS = frozenset({"because", "since", "until", "till", "after", "before"})

# Every label a qualifier may carry: the table's labels, the relation of a host fact
# ("played for"), or these.
KNOWN_LABELS = frozenset(
    {m.label(k) for m in MARKER_LABELS.values() for k in ("time", "place", "agent", "other")}
    | {QUANTITY, CONTEXT, FREQUENCY, ORDINAL, RESTRICTION, STATED_BY}
)

BARE_PREPOSITIONS = frozenset(
    {
        "about", "above", "across", "after", "against", "along", "among", "around", "as",
        "at", "before", "behind", "below", "beside", "between", "beyond", "by", "despite",
        "down", "during", "except", "for", "from", "in", "inside", "into", "like", "near",
        "of", "off", "on", "onto", "out", "outside", "over", "past", "per", "since",
        "through", "throughout", "till", "to", "toward", "towards", "under", "until", "up",
        "upon", "with", "within", "without",
    }
)  # fmt: skip
"""Words that must never be a qualifier label on their own (checked by tests/benchmarks)."""


def label_for(marker: str, kind: ValueKind) -> str | None:
    """The property ``marker`` introduces for a value of ``kind``; ``None`` when unknown."""
    found = MARKER_LABELS.get(marker)
    return found.label(kind) if found is not None else None
