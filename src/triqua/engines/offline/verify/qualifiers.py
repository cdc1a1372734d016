"""Judging a fact's qualifiers ("in 1911", "with Pierre Curie") in the base's evidence window.

A qualifier is judged only in the window its base triple is bound to (the supporting
sentence, and the next one when it continues the same event), so a value stated about
another event is never support.
"""

from __future__ import annotations

import re

from triqua.core.reading.analysis import TextInfo, Token, analyse, coverage, values_relation
from triqua.core.reading.fact_parts import FactParts, sentence_relation_hit
from triqua.core.reading.mentions import REFERS
from triqua.core.reading.name_match import name_match
from triqua.core.reading.part_match import claim_stems, text_matches
from triqua.core.reading.restrictors.markers import (
    check,
    markers,
    object_head,
    reported_by,
)
from triqua.core.reading.slot_rivals import qualifier_rival
from triqua.engines.offline.labels import RESTRICTOR_LABELS, STATED_BY
from triqua.engines.offline.verify.findings import Finding, Sentence, on_sentence
from triqua.engines.offline.verify.qualifier_gates import qualifier_refusal
from triqua.schema import Fact, FactUnit, Status

__all__ = [
    "event_window",
    "judge_qualifier",
    "judge_restrictor",
]

#: Qualifier labels that date the event ("start time", "point in time", "date").
_TEMPORAL = re.compile(r"\b(?:time|date|year|since|until)\b", re.I)


def event_window(
    parts: FactParts, bound: Sentence, by_place: dict[tuple[int, int], Sentence]
) -> list[Sentence]:
    """The evidence window of an event: its sentence, and the next one when it continues.

    The next sentence continues the event when it refers back to the subject ("It
    took place in ...") without stating the relation again: "She won the Nobel Prize
    in Chemistry in 1911" after the Physics sentence is another event.
    """
    window = [bound]
    after = by_place.get((bound.passage, bound.index + 1))
    if (
        after is not None
        and after.subject == REFERS
        and not isinstance(sentence_relation_hit(parts, after.info), Token)
    ):
        window.append(after)
    return window


def _stated_in_window(
    parts: FactParts,
    unit: FactUnit,
    claim: TextInfo,
    full: TextInfo,
    bound: list[Sentence],
    by_place: dict[tuple[int, int], Sentence],
) -> Finding | None:
    """The qualifier's value stated in a window its base is bound to, if it is.

    ``claim`` (the date alone of "until his retirement in 1975") counts in the bound
    sentence itself, ``full`` in its continuation. A sentence that writes the value
    states it only when it passes the qualifier gates (:func:`qualifier_refusal`: the
    value in another verb's slot, or inside a belief frame, is not the qualifier's).
    """
    for anchor in bound:
        for sentence in event_window(parts, anchor, by_place):
            value_here = claim if sentence is anchor else full
            outcome, _ = values_relation(value_here, sentence.info)
            if (
                outcome == "match"
                and text_matches(value_here, sentence.info, sentence.before).ok
                and qualifier_refusal(parts, unit, sentence.info.text) is None
            ):
                return Finding(
                    Status.SUPPORTED,
                    sentence,
                    None,
                    "qualifier value stated in the base's evidence window",
                    anchor.score,
                    window_start=anchor,
                )
            if outcome == "conflict":
                break  # the bound sentence names another value: its neighbour is no help
    return None


def judge_qualifier(
    fact: Fact,
    parts: FactParts,
    label: str,
    value: str,
    base: Finding,
    bound: list[Sentence],
    by_place: dict[tuple[int, int], Sentence],
) -> Finding:
    """Judge one qualifier in the window the base triple is bound to, and only there.

    A value stated only in a sentence about another event is not support. A rival value
    counts only in the bound sentence itself, and only when the base was judged there.
    Without a supported base there is no event to bind to, so the qualifier stays
    insufficient. A continuation sentence is read only when the bound sentence states
    no rival value (a date of another event is not this one's).
    """
    if label in RESTRICTOR_LABELS or label == STATED_BY:
        return judge_restrictor(parts, label, value, bound, by_place)
    claim = analyse(value)
    full = claim
    if claim.dates and claim.content and _TEMPORAL.search(label):
        # "until his retirement in 1975": the date is what the qualifier states; the event
        # named around it (often the subject's own, written out by the decomposer) is how
        # the claim dates it, and evidence dates it by the year ("from 1939 to 1975").
        # The date alone counts only in the sentence the base is bound to.
        claim = analyse(" ".join(d.text for d in claim.dates))
    if not claim.content and not claim.dates and not claim.numbers:
        return Finding(Status.INSUFFICIENT, None, reason="the qualifier has no value")
    if not bound:
        return Finding(
            Status.INSUFFICIENT,
            base.sentence,
            reason="the base is not bound to an evidence window",
        )
    unit = FactUnit(
        kind="qualifier",
        subject=fact.subject,
        relation=fact.relation,
        object=fact.object,
        label=label,
        value=value,
    )
    stated = _stated_in_window(parts, unit, claim, full, bound, by_place)
    if stated is not None:
        return stated
    judged = base.sentence
    if judged is None or base.status == Status.INSUFFICIENT:
        return Finding(Status.INSUFFICIENT, bound[0] if bound else None)
    outcome, wrong = values_relation(claim, judged.info)
    text_ok = text_matches(claim, judged.info, judged.before).ok
    if outcome == "conflict" and text_ok:
        return on_sentence(
            Status.CONTRADICTED,
            judged,
            "the sentence the base is bound to states another value",
            wrong,
        )
    if claim.is_name and not text_ok:
        rival = qualifier_rival(parts, label, value, judged.info)
        if rival:
            return on_sentence(
                Status.CONTRADICTED,
                judged,
                f"the sentence the base is bound to names {rival!r} instead",
                value,
            )
    return Finding(Status.INSUFFICIENT, judged)


def judge_restrictor(
    parts: FactParts,
    label: str,
    value: str,
    bound: list[Sentence],
    by_place: dict[tuple[int, int], Sentence],
) -> Finding:
    """Judge a restrictor ("once", "first", "only") or a reporting frame in the bound window.

    A restrictor must be stated in the window the base is bound to; a rival one there
    ("three World Cups" against "once") contradicts. A frame ("stated by: the Supreme
    Court") needs its source named and a reporting word ("held", "ruled") in the window.
    """
    if not bound:
        return Finding(
            Status.INSUFFICIENT, None, reason="the base is not bound to an evidence window"
        )
    claimed = markers(value)
    rival_seen: Finding | None = None
    for anchor in bound:
        window = event_window(parts, anchor, by_place)
        if label == STATED_BY:
            source = analyse(value)
            ok = any(
                (name_match(source, s.info) > 0 or coverage(source, s.info) >= 1)
                and reported_by(source, s.info)
                for s in window
            )
            outcome = "ok" if ok else "missing"
        else:
            outcome, _, rival = check(
                claimed,
                [s.info for s in window],
                object_head(parts.object),
                said=claim_stems(parts),
            )
            if outcome == "rival" and rival is not None and rival_seen is None:
                rival_seen = on_sentence(
                    Status.CONTRADICTED,
                    anchor,
                    f"the base's evidence window states {rival.text!r} instead",
                    value,
                )
        if outcome == "ok":
            return on_sentence(
                Status.SUPPORTED,
                anchor,
                f"{label} stated in the base's evidence window",
                window_start=anchor,
            )
    return rival_seen or Finding(
        Status.INSUFFICIENT,
        bound[0],
        reason=f"the {label} {value!r} is not stated in the base's evidence window",
    )
