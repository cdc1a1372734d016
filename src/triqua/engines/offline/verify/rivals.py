"""Crisp rivals of a fact's value the aligned sentences cannot show alone.

- **A rival name the judge confirms** ("The Eiffel Tower is in Rome." against "… is in
  Paris."): ``engines.offline.disputes.judged_rival``, which a support's dispute reads too.
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
from triqua.core.reading.fact_parts import FactParts
from triqua.core.reading.roles import predicate_holder
from triqua.core.reading.roles import role_rival as read_role_rival
from triqua.core.reading.values.life_dates import life_date_readings, life_event
from triqua.engines.offline.verify.findings import Finding, Sentence, on_sentence
from triqua.schema import Fact, Status

__all__ = ["held_elsewhere", "life_date_finding", "role_rival"]

_NOUN = {"born": "birth", "died": "death"}
#: The relation a predicate is given by ("Canberra is the seat of government").
_COPULA = frozenset({"is"})
#: Sentences either side of a window where another holder of its predicate is looked for.
_NEAR = 2


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
