"""The learned judge reads the evidence; the value gates may only take a support back.

For each fact the aligned sentences (lexical + embedding retrieval, ``verifier``) give
candidate windows of one to three consecutive sentences within a paragraph (``entailed``).
The judge reads each window against the fact written as a sentence and against the fact's
source sentence, and answers entailed / neutral / contradicted. Then:

- **supported** needs a window the judge finds entailing at its calibrated ``entailed``
  threshold that passes the value gates (``gates.values_present``: the fact's numbers,
  dates, names, polarity, restrictors, roles), and no window contradicting at its
  ``contradicted`` threshold;
- **contradicted** comes from a crisp value conflict the rules find (a rival number, date,
  name or role in the aligned sentence), or from a window the judge finds contradicting at
  its ``contradicted`` threshold;
- anything else is **insufficient evidence**.

A gate never turns anything into "supported": rules decide only what they are strong at,
values. Windows are read in a cascade (single sentences first, wider ones only when no
single sentence entails), so most facts cost one batched judge call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from triqua.core.reading.analysis import analyse, coverage
from triqua.core.reading.fact_parts import FactParts, fact_parts, sentence_relation_hit
from triqua.core.reading.part_match import said_object
from triqua.core.reading.part_rivals import substitution
from triqua.core.reading.role_words import occupation_only, role_held_by_another, writes_some
from triqua.core.reading.slot_words import (
    head_rival,
    named_head_rival,
    other_known_relation,
    rewords,
)
from triqua.engines.offline.verify.entailed import Window, windows, writes_subject_or_relation
from triqua.engines.offline.verify.findings import Finding, Sentence
from triqua.engines.offline.verify.gates import restrictor_left_out, values_present
from triqua.engines.offline.verify.qualifier_gates import qualifier_refusal
from triqua.engines.offline.verify.unique_roles import held_elsewhere
from triqua.models.entailment import CONTRADICTED, ENTAILED, EntailmentModel
from triqua.models.hypotheses import source_hypothesis, unit_hypothesis
from triqua.schema import Fact, FactUnit, Status

__all__ = ["Reading", "decide_base", "decide_qualifier", "needed", "read"]

_ANCHORS = 3  # aligned sentences whose windows the judge reads


@dataclass(frozen=True)
class Reading:
    """The judge's reading of one window: its best entailed and contradicted probabilities."""

    window: Window
    entailed: float
    contradicted: float
    gated: bool  # the window passes the value gates
    about: bool = True  # the window speaks about the fact's subject
    rival_head: bool = False  # another word stands in the object's head slot
    worded: bool = True  # the window writes a word of the relation (or it has none to write)
    filled: bool = True  # the window writes a word of the object beside the relation's word
    restricted: bool = True  # the window states every restrictor the fact writes


def needed(reading: Reading, model: EntailmentModel) -> float:
    """The entailment a window needs to support the base: more when its head word differs.

    A window that writes the object's lead-in and ends it on another word ("… comedy drama
    film" for "… comedy drama book", "is a county" for "is a city": ``slot_words.head_rival``)
    states another value unless the word is a synonym ("world championships" for "world
    titles"): gate and judge disagree, and the judge wins only where it is as sure as the
    card's ``rival`` asks of a judge that outweighs a gate (never, when the card has none),
    not merely at ``supports`` or ``entailed``; so does a window that writes neither a
    known relation's word nor the whole object ("It grows in woodlands" for "Bellflowers
    are found in forests": ``slot_words.rewords``). A window that words a known relation
    otherwise ("is a 15th-century citadel" for "was built in the 15th century") has no
    relation word for the gates to match: the judge alone decides, at the card's
    ``entailed``; so it does for a window about a named subject that writes neither the word
    of a relation the lexicon does not know nor any word of the object ("was a Polish
    physicist" for "campaigned for reform"), and for any window that neither names nor
    refers to the subject nor writes the relation's word. A window that writes the
    relation's word and no word of the object ("are marketed in the United States only" for
    "are marketed in multiple countries") fills the slot with another value, or none: the
    judge must be surer there, halfway from ``supports`` to ``entailed``. A window that leaves
    out a restrictor the fact writes and states no rival one ("named best restaurant" for
    "one of the best restaurants": ``gates.restrictor_left_out``) is read at ``entailed``.
    """
    limits = model.thresholds
    if reading.rival_head:
        return max(limits.supports, limits.entailed, min(limits.rival, 1.0))
    if not reading.worded or not reading.restricted:
        return max(limits.supports, limits.entailed)
    if not reading.filled:
        return max(limits.supports, (limits.supports + limits.entailed) / 2)
    return limits.supports


def _filled(parts: FactParts, readings: list[Reading]) -> list[Reading]:
    """The readings, each marked whether its window writes an object word (or need not)."""
    if not parts.object.content or not parts.relation_words:
        return readings
    return [
        replace(r, filled=False)
        if coverage(parts.object, (info := analyse(r.window.text))) == 0
        and sentence_relation_hit(parts, info) is not None
        else r
        for r in readings
    ]


def _hypotheses(fact: Fact, unit: FactUnit) -> list[str]:
    """The unit written as a sentence, and the fact's source sentence when it differs.

    A fact with no object ("T2 Trainspotting | is set |" from "… is set in and around a
    city") lost what its sentence states: written alone it says next to nothing ("T2
    Trainspotting is set."), so any window about the subject entails it. Only its source
    sentence is read then.
    """
    hypothesis = unit_hypothesis(unit)
    sentence = source_hypothesis(fact.source_text, hypothesis)
    if sentence and not fact.object.strip():
        return [sentence]
    return [hypothesis, sentence] if sentence else [hypothesis]


#: A window's gates as its reading keeps them: ``gated``, ``about``, ``rival_head``,
#: ``worded``, ``filled``, ``restricted``.
_Flags = tuple[bool, bool, bool, bool, bool, bool]
_PLAIN: _Flags = (True, True, False, True, True, True)


def _judge(
    model: EntailmentModel,
    found: Sequence[Window],
    hypotheses: Sequence[str],
    flags: Sequence[_Flags] | None = None,
) -> list[Reading]:
    """Read every window against every hypothesis in one batched call.

    ``flags`` are each window's gates (:class:`Reading`; none given: it passes them all). A
    window that fails the gates can only contradict: with the judge's contradiction off (its
    threshold above 1) it is not read at all.
    """
    pairs = list(zip(found, flags or [_PLAIN] * len(found), strict=True))
    if model.thresholds.contradicted > 1.0:
        pairs = [(window, flag) for window, flag in pairs if flag[0]]
    asked = [(window.text, h) for window, _ in pairs for h in hypotheses]
    if not asked:
        return []
    rows = model.predict(asked)
    per = len(hypotheses)
    return [
        Reading(
            window,
            max(float(r[ENTAILED]) for r in rows[k * per : (k + 1) * per]),
            max(float(r[CONTRADICTED]) for r in rows[k * per : (k + 1) * per]),
            *flag,
        )
        for k, (window, flag) in enumerate(pairs)
    ]


def read(
    fact: Fact,
    parts: FactParts,
    top: Sequence[Sentence],
    by_place: Mapping[tuple[int, int], Sentence],
    passages: Sequence[str],
    model: EntailmentModel,
) -> list[Reading]:
    """The judge's readings of the base triple over the candidate windows, in a cascade.

    Single sentences are read first; the windows with a neighbour only when no gated single
    sentence is entailed (a statement split over two sentences, "She moved to Paris. There
    she …").
    """
    anchors = list(top[:_ANCHORS])
    if not anchors:
        return []
    base_fact = fact.model_copy(update={"qualifiers": []}) if fact.qualifiers else fact
    hypotheses = _hypotheses(fact, fact.units()[0])
    named = parts.subject.is_name
    known = any(len(group) > 1 for group in parts.relation_words)
    said = said_object(fact, parts)

    def flags(window: Window) -> _Flags:
        text = analyse(window.text)
        # A named subject must be named (or referred back to) in the window: "James Turing
        # worked at Bletchley Park" states nothing of Alan, for or against.
        about = not named or window.first.subject > 0 or window.last.subject > 0
        # Neither the anchor nor the window may put another relation's word or past verb
        # where a known relation's word is missing ("was buried in Lisbon" never states "was
        # born in Lisbon"), nor miss both the relation and the object. Then the value gates.
        gated = (
            about
            and not held_elsewhere(fact, parts, window.first, window.last, by_place)
            and named_head_rival(parts.object, parts.relation, text) is None
            and not other_known_relation(parts, window.anchor.info)
            and not other_known_relation(parts, text)
            and not occupation_only(parts, text)
            and not role_held_by_another(parts, text)  # "the muralist Diego Rivera"
            and values_present(base_fact, parts, window.as_sentence(), restrictors=False)
        )
        # A window rewording both the relation and the object (``rewords``) is read as a
        # rival's is: only a judge as sure as the card's ``rival`` reads it as the fact.
        rival = (
            rewords(parts, window.anchor.info)
            or rewords(parts, text)
            or head_rival(said, parts.relation, text) is not None
            or (said is not parts.object and substitution(said, text) is not None)
        )
        # A relation the lexicon knows is missed by its words. Another one ("translated") is
        # the judge's to read in other words, but a window that writes neither its word nor
        # any word of the object states nothing of the fact to read ("was an English
        # mathematician" for "translated an article"). Nor does one that neither names nor
        # refers to the subject nor writes the relation's word ("Humans are good at learning"
        # for "the AI system understands humans").
        if known:
            worded = sentence_relation_hit(parts, text) is not None
        elif named:
            worded = writes_some(parts, text)
        else:
            worded = writes_subject_or_relation(parts, window)
        restricted = not (gated and restrictor_left_out(parts, text))
        return gated, about, rival, worded, True, restricted

    singles = windows(anchors, by_place, passages, wide=False)
    readings = _filled(parts, _judge(model, singles, hypotheses, [flags(w) for w in singles]))
    if not any(r.gated and r.entailed >= needed(r, model) for r in readings):
        # A neighbour joins a window only when it speaks about the subject too: "Alan Turing
        # was born in London. … James Turing worked at Bletchley Park." states nothing of Alan.
        wide = [
            w
            for w in windows(anchors, by_place, passages)
            if w.size > 1 and (not named or (w.first.subject > 0 and w.last.subject > 0))
        ]
        readings += _filled(parts, _judge(model, wide, hypotheses, [flags(w) for w in wide]))
    return readings


def decide_base(
    readings: Sequence[Reading],
    rules: Finding,
    stated: Sequence[Sentence],
    model: EntailmentModel,
) -> tuple[Finding, list[Sentence]]:
    """The base triple's finding from the judge's readings and the rules' value reading.

    ``rules`` is what the rules read in the aligned sentences: a crisp conflict (a rival
    value, name or role) contradicts whatever the judge says; a sentence that states the
    base in its own words, values normalised ("64.5 million" for "64,500,000"), with
    ``stated`` its sentences, is a support the judge can take back by contradiction.
    Returns the finding and the sentences the base is bound to (where its qualifiers are
    judged). Whose clause holds the object is the statement gates' to read
    (``core.reading.statements``).
    """
    limits = model.thresholds
    if rules.status == Status.CONTRADICTED:
        return rules, []
    contradicting = max(
        (r for r in readings if r.about), key=lambda r: r.contradicted, default=None
    )
    vetoed = contradicting is not None and contradicting.contradicted >= limits.contradicted
    entailing = [r for r in readings if r.gated and r.entailed >= needed(r, model)]
    # The narrowest entailing window is quoted (one sentence before two).
    ordered = sorted(entailing, key=lambda r: (r.window.size, -r.entailed))
    best = ordered[0] if ordered and not vetoed else None
    if best is not None:
        finding = best.window.finding(
            Status.SUPPORTED, f"entailed by the judge {best.entailed:.2f}"
        )
        # Qualifiers are read where the relation is written, when a window writes it: "met
        # his cousin Queen Victoria in 1836" entails no wedding in 1836 beside "He married
        # her on 10 February 1840".
        binding = [r for r in entailing if r.worded] or entailing
        anchors = {id(r.window.anchor): r.window.anchor for r in binding}
        return finding, list(anchors.values())
    if rules.status == Status.SUPPORTED and not vetoed and rules.sentence is not None:
        return rules, list(stated)
    if contradicting is not None and vetoed:
        finding = contradicting.window.finding(
            Status.CONTRADICTED, f"contradicted by the judge {contradicting.contradicted:.2f}"
        )
        return finding, []
    closest = max((r.entailed for r in readings), default=0.0)
    insufficient = Finding(
        Status.INSUFFICIENT,
        rules.sentence,
        reason=rules.reason if rules.status == Status.INSUFFICIENT else Finding.reason,
        strength=rules.strength,
        similar=max(rules.similar, closest),
    )
    return insufficient, []


def decide_qualifier(
    fact: Fact,
    unit: FactUnit,
    rules: Finding,
    bound: Sequence[Sentence],
    by_place: Mapping[tuple[int, int], Sentence],
    passages: Sequence[str],
    model: EntailmentModel,
) -> Finding:
    """A qualifier's finding, judged in the windows its base is bound to.

    A rival value the rules find in those windows contradicts it. A date or number is a
    value: it is supported where the rules find it bound to the base's clause ("Physics in
    1903 and Chemistry in 1911" does not date Physics 1911), never inferred by the judge.
    Any other qualifier is supported where the rules find it stated in the base's window, or
    when one of those windows is entailed with the qualifier; else insufficient. The
    judge's contradiction (when its threshold is reachable) takes any of these back; a
    window that fails the qualifier gates (:func:`qualifier_refusal`) is not read for
    support.
    """
    if rules.status == Status.CONTRADICTED or not bound:
        return rules if rules.status == Status.CONTRADICTED else _open(rules)
    value = analyse(unit.value or "")
    if rules.status == Status.SUPPORTED and model.thresholds.contradicted > 1.0:
        return rules  # stated in the base's window, and no contradiction could take it back
    hypotheses = _hypotheses(fact, unit)
    if value.dates or value.numbers:
        if rules.status != Status.SUPPORTED or rules.sentence is None:
            return rules
        vetoed = _judge(
            model, windows([rules.sentence], by_place, passages, wide=False), hypotheses
        )
        if any(r.contradicted >= model.thresholds.contradicted for r in vetoed):
            return _open(rules)
        return rules
    found = windows(bound[:_ANCHORS], by_place, passages)
    if model.thresholds.contradicted > 1.0:
        # No window can take a support back, and the narrowest entailing window is quoted:
        # the wider ones are read only when no single sentence supports the qualifier.
        singles = [w for w in found if w.size == 1]
        wide = [w for w in found if w.size > 1]
        best = _entailing(fact, unit, _judge(model, singles, hypotheses), model) or _entailing(
            fact, unit, _judge(model, wide, hypotheses), model
        )
    else:
        readings = _judge(model, found, hypotheses)
        if any(r.contradicted >= model.thresholds.contradicted for r in readings):
            return _open(rules)
        best = _entailing(fact, unit, readings, model)
    if best is None:
        return rules  # the rules' own-words support, if any, stands: nothing took it back
    return best.window.finding(Status.SUPPORTED, f"entailed by the judge {best.entailed:.2f}")


def _entailing(
    fact: Fact, unit: FactUnit, readings: Sequence[Reading], model: EntailmentModel
) -> Reading | None:
    """The narrowest, then surest, reading that entails the qualifier and passes its gates.

    A window that fails the qualifier gates (:func:`qualifier_refusal`) supports nothing.
    """
    entailing = [r for r in readings if r.entailed >= model.thresholds.supports]
    if entailing:
        parts = fact_parts(fact)
        entailing = [r for r in entailing if qualifier_refusal(parts, unit, r.window.text) is None]
    return min(entailing, key=lambda r: (r.window.size, -r.entailed), default=None)


def _open(rules: Finding) -> Finding:
    """The rules' finding with its support taken back (insufficient evidence)."""
    if rules.status != Status.SUPPORTED:
        return rules
    return Finding(Status.INSUFFICIENT, rules.sentence, strength=rules.strength)
