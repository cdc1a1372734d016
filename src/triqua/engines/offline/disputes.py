"""A rival name the judge confirms, and a support the evidence itself disputes with one.

"The Eiffel Tower is in Rome." against "… is in Paris.": "is in Paris" rivals "is in Rome"
but not "is in France", and only knowledge of the world tells them apart. The judge's
contradiction alone is not trusted (it contradicts true paraphrases too); a sentence about
the subject that puts another name of the object's type in a bare relation's slot, read as
contradicting at the card's ``rival`` threshold, is (:func:`judged_rival`).

Evidence ``["The Eiffel Tower is in Rome.", "The Eiffel Tower is in Paris."]`` states the
claim and such a rival in another sentence: one of them is wrong, and the run cannot tell
which, so the support does not stand alone (:func:`disputed`): the unit is left
insufficient, its reason naming both passages. The rules' other conflicts ("another value
in the object's slot") are not read here: beside a sentence stating the fact they are too
often about another relation of the subject ("appointed to the county court" beside
"appointed by President Reagan").
"""

from __future__ import annotations

from collections.abc import Sequence

from triqua.core.reading.fact_parts import FactParts, object_kind, sentence_relation_hit
from triqua.core.reading.slot_rivals import rival_entity
from triqua.engines.offline.finding import Finding, Sentence
from triqua.models.entailment import CONTRADICTED, EntailmentModel
from triqua.models.hypotheses import unit_hypothesis
from triqua.schema import Fact, Status

__all__ = ["disputed", "judged_rival"]

_ABOUT = 0.6  # how surely a sentence must be about the subject to rival its object
_READ = 3  # sentences about the subject read for a rival, best aligned first


def disputed(
    fact: Fact,
    parts: FactParts,
    top: list[Sentence],
    support: Finding,
    judge: EntailmentModel | None,
) -> Finding:
    """``support`` left insufficient when another aligned sentence gives a rival value.

    Returns ``support`` itself when no sentence about the subject disputes it.
    """
    said = support.sentence
    if support.status != Status.SUPPORTED or said is None or judge is None:
        return support
    others = [s for s in top if s is not said and s.info.text != said.info.text]
    rival = judged_rival(fact, parts, others, judge)
    if rival is None or rival.sentence is None:
        return support
    other = rival.sentence
    reason = (
        f'the evidence disagrees: [{said.evidence_id}] "{said.info.text}" states it, '
        f'and [{other.evidence_id}] "{other.info.text}" does not ({rival.reason})'
    )
    return Finding(Status.INSUFFICIENT, said, None, reason, support.strength)


def judged_rival(
    fact: Fact, parts: FactParts, top: Sequence[Sentence], model: EntailmentModel
) -> Finding | None:
    """A contradiction where a rival name fills the object's slot and the judge agrees."""
    threshold = model.thresholds.rival
    if threshold > 1.0 or not parts.object.is_name:
        return None
    kind = object_kind(parts)
    if kind is None:
        return None
    spoken = [w.text.lower() for w in parts.relation.tokens]
    found: list[tuple[Sentence, str]] = []
    for sentence in [s for s in top if s.subject >= _ABOUT][:_READ]:
        # A relation with a word of its own ("born in", "joined") is the rules' to read
        # (``base_rules``); here only a bare one ("is in"), found by its last word.
        if sentence_relation_hit(parts, sentence.info) is not True:
            continue
        rival = rival_entity(sentence.info, kind, set(spoken[-1:]), [parts.subject, parts.object])
        if rival is not None:
            found.append((sentence, rival))
    if not found:
        return None
    hypothesis = unit_hypothesis(fact.units()[0])
    rows = model.predict([(s.info.text, hypothesis) for s, _ in found])
    for (sentence, rival), row in zip(found, rows, strict=True):
        if float(row[CONTRADICTED]) >= threshold:
            return Finding(
                Status.CONTRADICTED,
                sentence,
                fact.object,
                f"the sentence names {rival!r} instead, and the judge reads it as "
                f"contradicting ({float(row[CONTRADICTED]):.2f})",
                sentence.score,
            )
    return None
