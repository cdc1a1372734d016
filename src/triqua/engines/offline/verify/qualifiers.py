"""Judging a fact's qualifiers ("in 1911", "with Pierre Curie") in the base's evidence window.

A qualifier is judged only in the sentences its base triple is bound to, so a value stated
about another event ("He retired in 2022" after "won Wimbledon eight times") is never the
rules' support. Its value may still stand in another clause ("started in 1959, and … opened
in 1973"): the qualifier gates (:func:`qualifier_refusal`: value slots and clauses, frames,
another occurrence of the verb, another agent, an unreported source) only take support away.
"""

from __future__ import annotations

import re

from triqua.core.reading.agents import other_agent
from triqua.core.reading.analysis import TextInfo, analyse, coverage, values_relation
from triqua.core.reading.clause_owners import held_by_another
from triqua.core.reading.clause_values import value_clause_refusal
from triqua.core.reading.fact_parts import FactParts
from triqua.core.reading.frames import frame_of
from triqua.core.reading.name_match import name_match
from triqua.core.reading.negation import value_denied
from triqua.core.reading.part_match import claim_stems, text_matches
from triqua.core.reading.restrictors.markers import (
    check,
    markers,
    named_unreported,
    object_head,
    reported_by,
)
from triqua.core.reading.slot_rivals import qualifier_rival
from triqua.core.reading.value_slot import coordinated_slot, other_occurrence, qualifier_slot
from triqua.engines.offline.labels import RESTRICTOR_LABELS, STATED_BY
from triqua.engines.offline.verify.findings import Finding, Sentence, on_sentence
from triqua.schema import Fact, FactUnit, Status

__all__ = ["judge_qualifier", "judge_restrictor", "qualifier_refusal"]

#: Qualifier labels that date the event ("start time", "point in time", "date").
_TEMPORAL = re.compile(r"\b(?:time|date|year|since|until)\b", re.I)
_UNBOUND = "the base is not bound to an evidence window"


def _stated_in_window(
    parts: FactParts, unit: FactUnit, claim: TextInfo, bound: list[Sentence]
) -> Finding | None:
    """The qualifier's value (``claim``) stated in a bound sentence past the qualifier gates."""
    for sentence in bound:
        outcome, _ = values_relation(claim, sentence.info)
        if (
            outcome == "match"
            and text_matches(claim, sentence.info, sentence.before).ok
            and qualifier_refusal(parts, unit, sentence.info.text) is None
        ):
            said = "qualifier value stated in the base's evidence window"
            return on_sentence(Status.SUPPORTED, sentence, said, window_start=sentence)
    return None


def judge_qualifier(
    fact: Fact, parts: FactParts, unit: FactUnit, base: Finding, bound: list[Sentence]
) -> Finding:
    """Judge one qualifier ``unit`` in the sentences the base triple is bound to, and only there.

    A value stated only in a sentence about another event is not support. A rival value
    counts only in the sentence the base was judged in. Without a supported base there is
    no event to bind to, so the qualifier stays insufficient.
    """
    label, value = unit.label or "", unit.value or ""
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
        return Finding(Status.INSUFFICIENT, base.sentence, reason=_UNBOUND)
    stated = _stated_in_window(parts, unit, claim, bound)
    if stated is not None:
        return stated
    judged = base.sentence
    if judged is None or base.status == Status.INSUFFICIENT:
        return Finding(Status.INSUFFICIENT, bound[0] if bound else None)
    outcome, wrong = values_relation(claim, judged.info)
    text_ok = text_matches(claim, judged.info, judged.before).ok
    said: str | None = None
    span = wrong
    if outcome == "conflict" and text_ok:
        said = "states another value"
    elif claim.is_name and not text_ok:
        rival = qualifier_rival(parts, label, value, judged.info)
        said, span = (f"names {rival!r} instead" if rival else None), value
    if said is None:
        return Finding(Status.INSUFFICIENT, judged)
    return on_sentence(
        Status.CONTRADICTED, judged, f"the sentence the base is bound to {said}", span
    )


def judge_restrictor(parts: FactParts, label: str, value: str, bound: list[Sentence]) -> Finding:
    """Judge a restrictor ("once", "first", "only") or a reporting frame in the bound window.

    A restrictor must be stated in the window the base is bound to; a rival one there
    ("three World Cups" against "once") contradicts. A frame ("stated by: the Supreme
    Court") needs its source named and a reporting word ("held", "ruled") in the window.
    """
    if not bound:
        return Finding(Status.INSUFFICIENT, None, reason=_UNBOUND)
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
                claimed, [anchor.info], object_head(parts.object), said=claim_stems(parts)
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


#: Label words that make a qualifier's value the relation's agent ("by", "performer").
_AGENT_LABELS = frozenset({"by"})


def qualifier_refusal(parts: FactParts, unit: FactUnit, text: str) -> str | None:
    """Why ``text`` cannot state the qualifier ``unit`` of the fact ``parts`` reads; else None.

    Args:
        parts: The analysed base triple of the qualifier's fact.
        unit: The qualifier unit (its ``label`` and ``value``).
        text: The sentence (or window) the rules found the qualifier's value in.
    """
    if unit.kind != "qualifier" or not unit.value or not text.strip():
        return None
    value = analyse(unit.value)
    if (unit.label or "").strip().lower() == STATED_BY and named_unreported(value, text):
        return f"the cited text has no reporting word governed by {unit.value!r}"
    denial = value_denied(unit, text)  # "who did not win it in 1903, won it in 1911"
    if denial is not None:
        return f"the cited text denies it ({denial!r})"
    governed = qualifier_slot(unit, text)
    if governed:
        return f"the cited text's {unit.relation!r} governs {governed}, not {unit.value}"
    relation = frozenset().union(*parts.relation_words) if parts.relation_words else frozenset()
    subject = frozenset(t.stem for t in parts.subject.content)
    objects = frozenset(t.stem for t in parts.object.content)
    values = frozenset(t.stem for t in value.content)
    stated = objects | values
    frame = frame_of(text, relation, stated, relation | subject | stated)
    if frame is not None:
        return f"the cited text states it only inside a frame ({frame!r})"
    head = value.content[-1:]  # the value's head word ("Beijing" of "the relay in Beijing")
    filler = coordinated_slot(text, relation, frozenset(t.stem for t in head))
    if filler is not None:
        return f"the cited text's {parts.relation.text!r} governs {filler!r}, not {unit.value}"
    # A clause of another name holds the value: "John XXIII was elected pope in 1958, and
    # John Paul II … in 1978" gives 1958 to John XXIII; the fact's own object is no other
    # ("Athens hosted the Games in 1896" for "the Games were held in Athens in 1896").
    holder = held_by_another(parts.subject, value, text, relation)
    if holder is not None and not objects & {t.stem for t in analyse(holder).content}:
        return f"the cited text gives {unit.value!r} to the clause of {holder!r}"
    if value.is_name:
        other = other_occurrence(text, relation, objects, values)
        if other is not None:
            return f"the cited text gives {unit.value!r} to another {unit.relation!r}: {other!r}"
    label = {t.text.lower() for t in analyse(unit.label or "").tokens}
    if label & _AGENT_LABELS and values:
        agent = other_agent(text, relation, values, subject)
        if agent is not None:
            return f"the cited text gives the relation to {agent!r} (by {agent})"
    return value_clause_refusal(unit, text)  # "After graduating in 1940, he served …"
