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
from dataclasses import dataclass

from triqua.core.reading.analysis import TextInfo, analyse, has_stem
from triqua.core.reading.fact_parts import FactParts, fact_parts, sentence_relation_hit
from triqua.engines.offline.verify.entailed import (
    Window,
    other_known_relation,
    rewords,
    windows,
)
from triqua.engines.offline.verify.findings import Finding, Sentence
from triqua.engines.offline.verify.gates import head_rival, named_head_rival, values_present
from triqua.engines.offline.verify.qualifier_gates import qualifier_refusal
from triqua.engines.offline.verify.rules import substitution
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


def needed(reading: Reading, model: EntailmentModel) -> float:
    """The entailment a window needs to support the base: more when its head word differs.

    A window that writes the object's lead-in and ends it on another word ("… comedy drama
    film" for "… comedy drama book", "is a county" for "is a city": ``gates.head_rival``)
    states another value unless the word is a synonym ("world championships" for "world
    titles"): gate and judge disagree, and the judge wins only where it is as sure as the
    card's ``rival`` asks of a judge that outweighs a gate (never, when the card has none),
    not merely at ``supports`` or ``entailed``; so does a window that writes neither a
    known relation's word nor the whole object ("It grows in woodlands" for "Bellflowers
    are found in forests": ``entailed.rewords``). A window that words a known relation
    otherwise ("is a 15th-century citadel" for "was built in the 15th century") has no
    relation word for the gates to match: the judge alone decides, at the card's
    ``entailed``; so it does for a window about a named subject that writes neither the word
    of a relation the lexicon does not know nor any word of the object ("was a Polish
    physicist" for "campaigned for reform").
    """
    limits = model.thresholds
    if reading.rival_head:
        return max(limits.supports, limits.entailed, min(limits.rival, 1.0))
    if not reading.worded:
        return max(limits.supports, limits.entailed)
    return limits.supports


def _writes_some(parts: FactParts, window: TextInfo) -> bool:
    """True when the window writes a word of the relation or of the object, or there is none."""
    if not parts.relation_words or sentence_relation_hit(parts, window) is not None:
        return True
    return any(has_stem(window.stems, t.stem) for t in parts.object.content)


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


def _said_object(fact: Fact, parts: FactParts) -> TextInfo:
    """The object as the claim says it: a lost one is its sentence's words after the verb.

    "Humphrey Bogart | was ranked |" from "… was ranked worst male star of Classic American
    cinema": a window with "greatest" in the place of "worst" rivals what the sentence says.
    """
    if parts.object.content or not fact.relation.strip():
        return parts.object
    source = " ".join(fact.source_text.split())
    relation = " " + fact.relation.strip().lower() + " "
    at = source.lower().find(relation)
    tail = source[at + len(relation) :].rstrip(" .!;") if at >= 0 else ""
    return analyse(tail) if tail else parts.object


def _judge(
    model: EntailmentModel,
    found: Sequence[Window],
    hypotheses: Sequence[str],
    gated: list[bool],
    about: list[bool] | None = None,
    rival_head: list[bool] | None = None,
    worded: list[bool] | None = None,
) -> list[Reading]:
    """Read every window against every hypothesis in one batched call.

    A window that fails the gates can only contradict: with the judge's contradiction off
    (its threshold above 1) it is not read at all.
    """
    about = about if about is not None else [True] * len(found)
    rival_head = rival_head if rival_head is not None else [False] * len(found)
    worded = worded if worded is not None else [True] * len(found)
    if model.thresholds.contradicted > 1.0:
        kept = [k for k, ok in enumerate(gated) if ok]
        found = [found[k] for k in kept]
        gated = [True] * len(kept)
        about = [about[k] for k in kept]
        rival_head = [rival_head[k] for k in kept]
        worded = [worded[k] for k in kept]
    asked = [(w.text, h) for w in found for h in hypotheses]
    if not asked:
        return []
    rows = model.predict(asked)
    per = len(hypotheses)
    return [
        Reading(
            window,
            max(float(r[ENTAILED]) for r in rows[k * per : (k + 1) * per]),
            max(float(r[CONTRADICTED]) for r in rows[k * per : (k + 1) * per]),
            ok,
            about[k],
            rival_head[k],
            worded[k],
        )
        for k, (window, ok) in enumerate(zip(found, gated, strict=True))
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

    def about(found: list[Window]) -> list[bool]:
        # A named subject must be named (or referred back to) in the window: "James Turing
        # worked at Bletchley Park" states nothing of Alan, for or against.
        return [not named or w.first.subject > 0 or w.last.subject > 0 for w in found]

    def gate(found: list[Window]) -> list[bool]:
        # Neither the anchor nor the window may put another relation's word or past verb
        # where a known relation's word is missing ("was buried in Lisbon" never states "was
        # born in Lisbon"), nor miss both the relation and the object. Then the value gates.
        return [
            speaks
            and not held_elsewhere(fact, parts, w.first, w.last, by_place)
            and named_head_rival(parts.object, parts.relation, analyse(w.text)) is None
            and not other_known_relation(parts, w.anchor.info)
            and not other_known_relation(parts, analyse(w.text))
            and values_present(base_fact, parts, w.as_sentence())
            for w, speaks in zip(found, about(found), strict=True)
        ]

    said = _said_object(fact, parts)

    def rival(found: list[Window]) -> list[bool]:
        # A window rewording both the relation and the object (``rewords``) is read as a
        # rival's is: only a judge as sure as the card's ``rival`` reads it as the fact.
        return [
            rewords(parts, w.anchor.info)
            or rewords(parts, analyse(w.text))
            or head_rival(said, parts.relation, analyse(w.text)) is not None
            or (said is not parts.object and substitution(said, analyse(w.text)) is not None)
            for w in found
        ]

    def worded(found: list[Window]) -> list[bool]:
        # A relation the lexicon knows is missed by its words. Another one ("translated") is
        # the judge's to read in other words, but a window that writes neither its word nor
        # any word of the object states nothing of the fact to read ("was an English
        # mathematician" for "translated an article").
        if not any(len(group) > 1 for group in parts.relation_words):
            if not named:
                return [True] * len(found)
            return [_writes_some(parts, analyse(w.text)) for w in found]
        return [sentence_relation_hit(parts, analyse(w.text)) is not None for w in found]

    singles = windows(anchors, by_place, passages, wide=False)
    readings = _judge(
        model, singles, hypotheses, gate(singles), about(singles), rival(singles), worded(singles)
    )
    if not any(r.gated and r.entailed >= needed(r, model) for r in readings):
        # A neighbour joins a window only when it speaks about the subject too: "Alan Turing
        # was born in London. … James Turing worked at Bletchley Park." states nothing of Alan.
        wide = [
            w
            for w in windows(anchors, by_place, passages)
            if w.size > 1 and (not named or (w.first.subject > 0 and w.last.subject > 0))
        ]
        readings += _judge(
            model, wide, hypotheses, gate(wide), about(wide), rival(wide), worded(wide)
        )
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
        quoted = windows([rules.sentence], by_place, passages, wide=False)
        vetoed = _judge(model, quoted, hypotheses, [True] * len(quoted))
        if any(r.contradicted >= model.thresholds.contradicted for r in vetoed):
            return _open(rules)
        return rules
    found = windows(bound[:_ANCHORS], by_place, passages)
    if model.thresholds.contradicted > 1.0:
        # No window can take a support back, and the narrowest entailing window is quoted:
        # the wider ones are read only when no single sentence supports the qualifier.
        singles = [w for w in found if w.size == 1]
        best = _entailing(
            fact, unit, _judge(model, singles, hypotheses, [True] * len(singles)), model
        )
        if best is None:
            wide = [w for w in found if w.size > 1]
            best = _entailing(
                fact, unit, _judge(model, wide, hypotheses, [True] * len(wide)), model
            )
    else:
        readings = _judge(model, found, hypotheses, [True] * len(found))
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
