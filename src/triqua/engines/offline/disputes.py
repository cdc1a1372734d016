"""A rival name the judge confirms, and a support the evidence itself disputes with one.

"The Eiffel Tower is in Rome." against "… is in Paris.": "is in Paris" rivals "is in Rome"
but not "is in France", and only knowledge of the world tells them apart. The judge's
contradiction alone is not trusted (it contradicts true paraphrases too); a sentence about
the subject that puts another name of the object's type in a bare relation's slot, read as
contradicting at the card's ``rival`` threshold, is (:func:`judged_rival`).

Evidence ``["Marie Curie was born in Paris.", "Marie Curie was born in Warsaw in 1867."]``
states the claim and such a rival in another sentence: one of them is wrong, and the run
cannot tell which, so the support does not stand alone (:func:`disputed`): the unit is left
insufficient, its reason naming both passages. A support is disputed by a bare relation's
rival, by a birth's or a death's own word with another place or year, and by a role only
one holds given to another name: the reading is ``core.reading.disputes``, the grounding
rule's too. The rules' other conflicts ("another value in the object's slot") are not
read here: beside a sentence stating the fact they are too often about another relation
of the subject ("appointed to the county court" beside "appointed by President Reagan").
"""

from __future__ import annotations

from collections.abc import Sequence

from triqua.core.reading.disputes import (
    Contradiction,
    confirmed_rival,
    dispute_reason,
    role_dispute,
)
from triqua.core.reading.fact_parts import FactParts
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
    rival = _rival(fact, parts, others, judge, owned=True)
    if rival is None:
        role = role_dispute(fact, [s.info.text for s in others])
        rival = None if role is None else (others[role.at], role.why)
    if rival is None:
        return support
    other, why = rival
    reason = dispute_reason(
        (said.evidence_id, said.info.text), (other.evidence_id, other.info.text), why
    )
    return Finding(Status.INSUFFICIENT, said, None, reason, support.strength)


def judged_rival(
    fact: Fact, parts: FactParts, top: Sequence[Sentence], model: EntailmentModel
) -> Finding | None:
    """A contradiction where a rival name fills a bare relation's slot and the judge agrees."""
    if not parts.object.is_name:
        return None
    rival = _rival(fact, parts, top, model, owned=False)
    if rival is None:
        return None
    sentence, why = rival
    return Finding(Status.CONTRADICTED, sentence, fact.object, why, sentence.score)


def _rival(
    fact: Fact, parts: FactParts, top: Sequence[Sentence], model: EntailmentModel, *, owned: bool
) -> tuple[Sentence, str] | None:
    """The best aligned sentence about the subject with a rival the judge confirms, and why."""
    about = [s for s in top if s.subject >= _ABOUT][:_READ]
    found = confirmed_rival(
        parts, [s.info for s in about], _judge(fact, model), model.thresholds.rival, owned=owned
    )
    if found is None:
        return None
    dispute, _ = found
    return about[dispute.at], dispute.why


def _judge(fact: Fact, model: EntailmentModel) -> Contradiction:
    """The judge's contradiction of the fact's base by each sentence text."""
    hypothesis = unit_hypothesis(fact.units()[0])

    def contradiction(texts: Sequence[str]) -> list[float]:
        return [float(row[CONTRADICTED]) for row in model.predict([(t, hypothesis) for t in texts])]

    return contradiction
