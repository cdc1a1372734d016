"""Judging a fact's qualifiers ("in 1911", "with Pierre Curie") in the base's evidence window.

A qualifier is judged only in the sentences its base triple is bound to, so a value stated
about another event, the next sentence's included ("He retired in 2022" after "won
Wimbledon eight times"), is never the rules' support; the judge reads the wider window.
"""

from __future__ import annotations

import re

from triqua.core.reading.analysis import TextInfo, analyse, coverage, values_relation
from triqua.core.reading.fact_parts import FactParts
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
    "judge_qualifier",
    "judge_restrictor",
]

#: Qualifier labels that date the event ("start time", "point in time", "date").
_TEMPORAL = re.compile(r"\b(?:time|date|year|since|until)\b", re.I)


def _stated_in_window(
    parts: FactParts,
    unit: FactUnit,
    claim: TextInfo,
    bound: list[Sentence],
) -> Finding | None:
    """The qualifier's value (``claim``) stated in a sentence its base is bound to, if it is.

    A sentence that writes the value states it only when it passes the qualifier gates
    (:func:`qualifier_refusal`: the value in another verb's slot, or inside a belief frame,
    is not the qualifier's).
    """
    for sentence in bound:
        outcome, _ = values_relation(claim, sentence.info)
        if (
            outcome == "match"
            and text_matches(claim, sentence.info, sentence.before).ok
            and qualifier_refusal(parts, unit, sentence.info.text) is None
        ):
            return Finding(
                Status.SUPPORTED,
                sentence,
                None,
                "qualifier value stated in the base's evidence window",
                sentence.score,
                window_start=sentence,
            )
    return None


def judge_qualifier(
    fact: Fact,
    parts: FactParts,
    label: str,
    value: str,
    base: Finding,
    bound: list[Sentence],
) -> Finding:
    """Judge one qualifier in the sentences the base triple is bound to, and only there.

    A value stated only in a sentence about another event is not support. A rival value
    counts only in the sentence the base was judged in. Without a supported base there is
    no event to bind to, so the qualifier stays insufficient.
    """
    if label in RESTRICTOR_LABELS or label == STATED_BY:
        return judge_restrictor(parts, label, value, bound)
    claim = analyse(value)
    if claim.dates and claim.content and _TEMPORAL.search(label):
        # "until his retirement in 1975": the date is what the qualifier states; the event
        # named around it (often the subject's own, written out by the decomposer) is how
        # the claim dates it, and evidence dates it by the year ("from 1939 to 1975").
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
    stated = _stated_in_window(parts, unit, claim, bound)
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
        if label == STATED_BY:
            source = analyse(value)
            ok = (
                name_match(source, anchor.info) > 0 or coverage(source, anchor.info) >= 1
            ) and reported_by(source, anchor.info)
            outcome = "ok" if ok else "missing"
        else:
            outcome, _, rival = check(
                claimed,
                [anchor.info],
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
