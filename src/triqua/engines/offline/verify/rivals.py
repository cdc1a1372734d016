"""Crisp rivals of a fact's value the aligned sentences cannot show alone.

- **A rival name the judge confirms** ("The Eiffel Tower is in Rome." against "… is in
  Paris."): "is in Paris" rivals "is in Rome" but not "is in France", and only knowledge of
  the world tells them apart. The judge's contradiction alone is not trusted (it contradicts
  true paraphrases too); a sentence about the subject that puts another name of the object's
  type in its slot, read as contradicting at the card's ``rival`` threshold, is.
- **A role only one holds** given to another ("Canberra is the capital of Australia" against
  "Sydney is …", though it never names Sydney: ``core.reading.roles``).
- **Life dates** in parentheses after a name ("Isaac Newton (1643–1727)") giving another
  date of birth or death (``core.reading.values.life_dates``); the claimed date is the
  judge's to support, behind the value gates.

The readings are the shared reader's, the grounding rule's too; these only decide.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence

from triqua.core.reading.analysis import coverage
from triqua.core.reading.fact_parts import FactParts, object_kind, sentence_relation_hit
from triqua.core.reading.roles import predicate_holder
from triqua.core.reading.roles import role_rival as read_role_rival
from triqua.core.reading.slot_rivals import rival_entity
from triqua.core.reading.values.life_dates import life_date_readings, life_event
from triqua.engines.offline.verify.findings import Finding, Sentence, on_sentence
from triqua.models.entailment import CONTRADICTED, EntailmentModel
from triqua.models.hypotheses import unit_hypothesis
from triqua.schema import Fact, Status

__all__ = ["held_elsewhere", "judged_rival", "life_date_finding", "role_rival"]

_ABOUT = 0.6  # how surely a sentence must be about the subject to rival its object
_READ = 3  # sentences about the subject read for a rival, best aligned first
_NOUN = {"born": "birth", "died": "death"}
#: The relation a predicate is given by ("Canberra is the seat of government").
_COPULA = frozenset({"is"})
#: Sentences either side of a window where another holder of its predicate is looked for.
_NEAR = 2


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


def role_rival(fact: Fact, sentences: Iterable[Sentence]) -> Finding | None:
    """A sentence giving the fact's unique role ("<name> is <role>") to another name.

    None for a fact with qualifiers, or where any sentence gives the role to its own holder.
    """
    if fact.qualifiers:
        return None
    read = list(sentences)
    rival = read_role_rival(fact.subject, fact.relation, fact.object, [s.info.text for s in read])
    if rival is None:
        return None
    sentence = read[rival.at]
    return Finding(
        Status.CONTRADICTED,
        sentence,
        rival.holder,
        f"the sentence gives {rival.role!r} to {rival.name!r}",
        max(sentence.score, 0.5),
    )


def held_elsewhere(
    fact: Fact,
    parts: FactParts,
    first: Sentence,
    last: Sentence,
    by_place: Mapping[tuple[int, int], Sentence],
) -> bool:
    """True when a sentence near the window gives the fact's predicate to another name.

    "Sydney is a harbour city. Canberra is the seat of government.": the window about Sydney
    states no "Sydney is the seat of government" unless one of its own sentences (not the
    other holder's) writes the whole predicate, or one near it gives it to the subject.
    """
    if fact.qualifiers or fact.relation.strip().lower() not in _COPULA:
        return False
    span = range(first.index - _NEAR, last.index + _NEAR + 1)
    near = [s for k in span if (s := by_place.get((first.passage, k))) is not None]
    holder = functools.partial(predicate_holder, fact.subject, fact.relation, fact.object)
    if holder([s.info.text for s in near]) is None:
        return False
    others = {s.index for s in near if holder([s.info.text])}
    own = [s for s in near if first.index <= s.index <= last.index and s.index not in others]
    return not any(coverage(parts.object, s.info) >= 1 for s in own)


def life_date_finding(fact: Fact, parts: FactParts, top: Sequence[Sentence]) -> Finding | None:
    """A contradiction when the subject's life-date parenthesis gives another birth or death.

    Only a sentence naming the subject in full before it counts; the dates compare at the
    claimed date's granularity, and a parenthesis giving the claimed date means None.
    """
    event = life_event(fact.relation)
    claimed = parts.object.dates
    if event is None or len(claimed) != 1 or not parts.subject.is_name:
        return None
    last = parts.subject.content[-1].text
    for sentence in top:
        if sentence.subject < 1.0:
            continue
        for outcome, _ in life_date_readings(fact.relation, last, claimed[0], sentence.info.text):
            if outcome == "match":
                return None
            said = f"the life dates after the name give another date of {_NOUN[event]}"
            return on_sentence(Status.CONTRADICTED, sentence, said, claimed[0].text)
    return None
