"""A rival name the judge confirms: "The Eiffel Tower is in Rome." against "… is in Paris.".

A value gate alone cannot contradict a place or a name: "is in Paris" rivals "is in Rome"
but not "is in France", and only knowledge of the world tells them apart. The learned judge
has that knowledge, but its contradiction alone is not trusted (it contradicts true
paraphrases too). Together they are: a sentence about the subject that puts another name of
the object's type in the object's slot (the gate), read by the judge as contradicting the
unit at the card's ``rival`` threshold (chosen on a dev split), contradicts the fact. Either
alone leaves it open.
"""

from __future__ import annotations

from collections.abc import Sequence

from triqua.core.reading.fact_parts import FactParts, object_kind, sentence_relation_hit
from triqua.core.reading.slot_rivals import rival_entity
from triqua.engines.offline.verify.findings import Finding, Sentence
from triqua.models.entailment import CONTRADICTED, EntailmentModel
from triqua.models.hypotheses import unit_hypothesis
from triqua.schema import Fact, Status

__all__ = ["judged_rival"]

_ABOUT = 0.6  # how surely a sentence must be about the subject to rival its object
_READ = 3  # sentences about the subject read for a rival, best aligned first


def judged_rival(
    fact: Fact, parts: FactParts, top: Sequence[Sentence], model: EntailmentModel
) -> Finding | None:
    """A contradiction where a rival name fills the object's slot and the judge agrees.

    Returns None when the card sets no reachable ``rival`` threshold, the object is no
    name, or no sentence about the subject both names a rival and is read as contradicting.
    """
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
