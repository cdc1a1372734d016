"""The learned judge reads the evidence; the value gates may only take a support back.

The judge reads candidate windows (``entailed``) of the aligned sentences against the fact
written as a sentence and against its source sentence. **Supported** needs a window it finds
entailing (at the bar :func:`needed` sets) that passes the value gates (``gates``), and none
contradicting at the card's ``contradicted``; **contradicted** comes from a crisp value
conflict of the rules or a contradicting window; anything else is **insufficient**. Windows
are read in a cascade: single sentences, wider windows, then joins (``offline.joins``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from triqua.core.reading.analysis import analyse, coverage
from triqua.core.reading.fact_parts import FactParts, fact_parts, sentence_relation_hit
from triqua.core.reading.list_members import left_out_of_list
from triqua.core.reading.part_match import restrictor_left_out, said_object
from triqua.core.reading.part_rivals import substitution
from triqua.core.reading.role_words import occupation_only, role_held_by_another, writes_some
from triqua.core.reading.slot_words import (
    head_rival,
    named_head_rival,
    other_known_relation,
    rewords,
    unique_head_rival,
)
from triqua.engines.offline.verify.entailed import (
    Window,
    joined_windows,
    windows,
    writes_subject_or_relation,
)
from triqua.engines.offline.verify.findings import Finding, Sentence
from triqua.engines.offline.verify.gates import values_present
from triqua.engines.offline.verify.qualifiers import qualifier_refusal
from triqua.engines.offline.verify.rivals import held_elsewhere
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
    orphan: bool = False  # about the subject only by a pronoun nothing else can stand for


def needed(reading: Reading, model: EntailmentModel) -> float:
    """The entailment a window needs to support the base (the card's bars).

    - another word in the object's head slot ("is a county" for "is a city") or the relation
      and object both reworded ("It grows in woodlands" for "are found in forests"): gate and
      judge disagree, and the judge wins only at the card's ``rival`` (never, without one);
    - the relation worded otherwise ("is a 15th-century citadel" for "was built in …"), no
      word of it or the object written, or a restrictor the fact writes left out ("named
      best restaurant" for "one of the best restaurants"): the judge alone, at ``entailed``;
    - the relation's word and no word of the object ("marketed in the United States only"
      for "in multiple countries"): halfway from ``supports`` to ``entailed``;
    - else ``supports``; a window whose subject is only a pronoun nothing else can stand for
      (``core.reading.orphans``) needs at least ``orphan_bar``.
    """
    limits = model.thresholds
    if reading.rival_head:
        bar = max(limits.supports, limits.entailed, min(limits.rival, 1.0))
    elif not reading.worded or not reading.restricted:
        bar = max(limits.supports, limits.entailed)
    elif not reading.filled:
        bar = max(limits.supports, (limits.supports + limits.entailed) / 2)
    else:
        bar = limits.supports
    return max(bar, orphan_bar(model)) if reading.orphan else bar


def orphan_bar(model: EntailmentModel) -> float:
    """The bar for a window whose subject is only a pronoun (halfway to ``rival``)."""
    entailed = max(model.thresholds.supports, model.thresholds.entailed)
    return max(entailed, (entailed + min(model.thresholds.rival, 1.0)) / 2)


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

    A fact with no object ("T2 Trainspotting | is set |") lost what its sentence states, so
    any window about the subject entails it written alone: only its source sentence is read.
    """
    hypothesis = unit_hypothesis(unit)
    sentence = source_hypothesis(fact.source_text, hypothesis)
    if sentence and not fact.object.strip():
        return [sentence]
    return [hypothesis, sentence] if sentence else [hypothesis]


#: A window's gates as its reading keeps them: ``gated``, ``about``, ``rival_head``,
#: ``worded``, ``filled``, ``restricted``, ``orphan``.
_Flags = tuple[bool, bool, bool, bool, bool, bool, bool]
_PLAIN: _Flags = (True, True, False, True, True, True, False)


def _judge(
    model: EntailmentModel,
    found: Sequence[Window],
    hypotheses: Sequence[str],
    flags: Sequence[_Flags] | None = None,
    subject: str = "",
) -> list[Reading]:
    """Read every window against every hypothesis, keeping each window's best probabilities.

    ``flags`` are each window's gates (none given: it passes them all). A window failing them
    can only contradict: with the judge's contradiction off it is not read at all.
    """
    pairs = list(zip(found, flags or [_PLAIN] * len(found), strict=True))
    if model.thresholds.contradicted > 1.0:
        pairs = [(window, flag) for window, flag in pairs if flag[0]]
    asked = [(_premise(window, flag, subject), h) for window, flag in pairs for h in hypotheses]
    if not asked:
        return []
    best = model.predict(asked).reshape(len(pairs), len(hypotheses), -1).max(axis=1)
    return [
        Reading(window, float(row[ENTAILED]), float(row[CONTRADICTED]), *flag)
        for row, (window, flag) in zip(best, pairs, strict=True)
    ]


def _premise(window: Window, flag: _Flags, subject: str) -> str:
    """The window as the judge reads it: an orphan's referent written as the ``subject``.

    "The film was released in 2007." opening a document that names nothing is read as
    "Reign Over Me was released in 2007.": the reference is resolved (``reading.orphans``),
    and what the judge weighs is the statement, at the orphan's higher bar.
    """
    referent = window.first.referent
    if not (flag[6] and subject and referent and window.text.startswith(window.first.info.text)):
        return window.text
    return window.text.replace(referent, subject, 1)


def read(
    fact: Fact,
    parts: FactParts,
    top: Sequence[Sentence],
    by_place: Mapping[tuple[int, int], Sentence],
    passages: Sequence[str],
    model: EntailmentModel,
) -> list[Reading]:
    """The judge's readings of the base triple over the candidate windows, in a cascade.

    Single sentences first; the windows with a neighbour only when no gated single sentence
    is entailed ("She moved to Paris. There she …"); an anchor after its subject's earlier
    name only when nothing else passes.
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
        # A named subject must be named, referred back to or an orphan's: "James Turing worked
        # at Bletchley Park" states nothing of Alan. Another relation's word or past verb where
        # a known relation's word is missing ("was buried in Lisbon" for "was born in"), a role
        # held by another ("the muralist Diego Rivera"), then the value gates.
        named_here = window.first.subject > 0 or window.last.subject > 0
        kept = window.size == 1 or _about(window.last)  # the sentence after it is about it too
        orphan = named and not named_here and window.first.orphan and kept
        about = not named or named_here or orphan
        gated = (
            about
            and not held_elsewhere(fact, parts, window.first, window.last, by_place)
            and named_head_rival(parts.object, parts.relation, text) is None
            and unique_head_rival(said, parts.relation, text) is None
            and not other_known_relation(parts, window.anchor.info)
            and not other_known_relation(parts, text)
            and not occupation_only(parts, text)
            and not role_held_by_another(parts, text)
            and left_out_of_list(parts, said, window.text) is None  # "tasks, including A, B" for C
            and values_present(base_fact, parts, window.as_sentence(), restrictors=False)
        )
        rival = (
            rewords(parts, window.anchor.info)
            or rewords(parts, text)
            or head_rival(said, parts.relation, text) is not None
            or (said is not parts.object and substitution(said, text) is not None)
        )
        # Worded: a known relation by its words; another one ("translated") by a word of it
        # or the object; a fact of no named subject by its subject or relation.
        if known:
            worded = sentence_relation_hit(parts, text) is not None
        elif named:
            worded = writes_some(parts, text)
        else:
            worded = writes_subject_or_relation(parts, window)
        restricted = not (gated and restrictor_left_out(parts, text))
        return gated, about, rival, worded, True, restricted, orphan

    def judged(found: Sequence[Window]) -> list[Reading]:
        gates = [flags(w) for w in found]
        return _filled(parts, _judge(model, found, hypotheses, gates, fact.subject))

    readings = judged(windows(anchors, by_place, passages, wide=False))
    if not any(r.gated and r.entailed >= needed(r, model) for r in readings):
        # A neighbour joins a window only when it speaks about the subject too.
        readings += judged(
            [
                w
                for w in windows(anchors, by_place, passages)
                if w.size > 1 and (not named or (_about(w.first) and _about(w.last)))
            ]
        )
    if named and not any(r.gated and r.entailed >= needed(r, model) for r in readings):
        values = " ".join([fact.object, *(q.value for q in fact.qualifiers)])
        readings += judged(joined_windows(anchors, by_place, passages, fact.subject, values))
    return readings


def _about(sentence: Sentence) -> bool:
    """True when the sentence names or refers back to the subject, or is an orphan's."""
    return sentence.subject > 0 or sentence.orphan


def decide_base(
    readings: Sequence[Reading],
    rules: Finding,
    stated: Sequence[Sentence],
    model: EntailmentModel,
    parts: FactParts,
) -> tuple[Finding, list[Sentence]]:
    """The base triple's finding, and the sentences it is bound to (its qualifiers' windows).

    ``rules`` is the rules' reading of the aligned sentences: a crisp conflict contradicts
    whatever the judge says; an own-words support (``stated`` its sentences) stands unless
    the judge contradicts it. An entailing window binds the base to its sentence that
    writes the relation (:func:`_written_in`).
    """
    limits = model.thresholds
    if rules.status == Status.CONTRADICTED:
        return rules, []
    contradicting = max(
        (r for r in readings if r.about), key=lambda r: r.contradicted, default=None
    )
    vetoed = contradicting is not None and contradicting.contradicted >= limits.contradicted
    entailing = [r for r in readings if r.gated and r.entailed >= needed(r, model)]
    best = None if vetoed else _narrowest(entailing)
    if best is not None:
        # Qualifiers are read where the relation is written, when a window writes it: "met
        # his cousin Queen Victoria in 1836" entails no wedding in 1836 beside "He married
        # her on 10 February 1840".
        binding = [r for r in entailing if r.worded] or entailing
        bound = (_written_in(parts, r.window) for r in binding)
        return _supported(best), list({id(sentence): sentence for sentence in bound}.values())
    if rules.status == Status.SUPPORTED and not vetoed and rules.sentence is not None:
        return rules, list(stated)
    if contradicting is not None and vetoed:
        said = f"contradicted by the judge {contradicting.contradicted:.2f}"
        return contradicting.window.finding(Status.CONTRADICTED, said), []
    closest = max((r.entailed for r in readings), default=0.0)
    insufficient = Finding(
        Status.INSUFFICIENT,
        rules.sentence,
        reason=rules.reason if rules.status == Status.INSUFFICIENT else Finding.reason,
        strength=rules.strength,
        similar=max(rules.similar, closest),
    )
    return insufficient, []


def _written_in(parts: FactParts, window: Window) -> Sentence:
    """The window's sentence that writes the relation (its anchor first): the qualifiers'.

    "He studied at Cambridge. He developed it at Woolsthorpe." places no development.
    """
    for sentence in (window.anchor, window.first, window.last):
        if sentence_relation_hit(parts, sentence.info) is not None:
            return sentence
    return window.anchor


def decide_qualifier(
    fact: Fact,
    unit: FactUnit,
    rules: Finding,
    bound: Sequence[Sentence],
    by_place: Mapping[tuple[int, int], Sentence],
    passages: Sequence[str],
    model: EntailmentModel,
) -> Finding:
    """A qualifier's finding (``rules``: the rules' crisp one), judged in its base's windows.

    A date or number is supported only where the rules find it bound to the base's clause
    ("Physics in 1903 and Chemistry in 1911" does not date Physics 1911), never by the
    judge; another qualifier also where a window entails it and passes the qualifier gates.
    The judge's contradiction, when reachable, takes any support back.
    """
    limits = model.thresholds
    if rules.status == Status.CONTRADICTED or not bound:
        return _open(rules)  # a conflict stands; an unbound support is taken back
    if rules.status == Status.SUPPORTED and limits.contradicted > 1.0:
        return rules  # stated in the base's window, and no contradiction could take it back
    value = analyse(unit.value or "")
    valued = bool(value.dates or value.numbers)  # read for a contradiction alone
    if valued and (rules.status != Status.SUPPORTED or rules.sentence is None):
        return rules
    anchors = [rules.sentence] if valued and rules.sentence else bound[:_ANCHORS]
    found = windows(anchors, by_place, passages, wide=not valued)
    # With the judge's contradiction off no window can take a support back, and the
    # narrowest entailing window is quoted: the wider ones are read only when no single
    # sentence supports the qualifier. With it on, every window is read at once.
    groups = [found]
    if limits.contradicted > 1.0:
        groups = [[w for w in found if w.size == 1], [w for w in found if w.size > 1]]
    hypotheses = _hypotheses(fact, unit)
    for group in groups:
        readings = _judge(model, group, hypotheses)
        if any(r.contradicted >= limits.contradicted for r in readings):
            return _open(rules)
        best = None if valued else _entailing(fact, unit, readings, model)
        if best is not None:
            return _supported(best)
    return rules  # the rules' own-words support, if any, stands: nothing took it back


def _entailing(
    fact: Fact, unit: FactUnit, readings: Sequence[Reading], model: EntailmentModel
) -> Reading | None:
    """The narrowest, then surest, reading entailing the qualifier past its gates."""
    entailing = [r for r in readings if r.entailed >= model.thresholds.supports]
    if entailing:
        parts = fact_parts(fact)
        entailing = [r for r in entailing if qualifier_refusal(parts, unit, r.window.text) is None]
    return _narrowest(entailing)


def _narrowest(readings: Sequence[Reading]) -> Reading | None:
    """The reading quoted of those that entail: the narrowest window, then the surest."""
    return min(readings, key=lambda r: (r.window.size, -r.entailed), default=None)


def _supported(reading: Reading) -> Finding:
    """A support quoting the reading's window."""
    return reading.window.finding(Status.SUPPORTED, f"entailed by the judge {reading.entailed:.2f}")


def _open(rules: Finding) -> Finding:
    """The rules' finding with its support taken back (insufficient evidence)."""
    if rules.status != Status.SUPPORTED:
        return rules
    return Finding(Status.INSUFFICIENT, rules.sentence, strength=rules.strength)
