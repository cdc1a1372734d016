"""Life dates in parentheses after a name: another date of birth or death contradicts.

"Isaac Newton (1643–1727) was …" states when Newton was born and died with no "born" or
"died" to align a relation on. A claimed date the parenthesis gives is the judge's to
support, behind the value gates, as any other; one it contradicts ("died in 1750") is a
crisp mismatch, a value gate's. The reading of the parenthesis and its comparison with the
claimed date are the shared reader's (``core.reading.values.life_dates``), the grounding
rule's too.
"""

from __future__ import annotations

from collections.abc import Sequence

from triqua.core.reading.fact_parts import FactParts
from triqua.core.reading.values.life_dates import life_date_readings, life_event
from triqua.engines.offline.verify.findings import Finding, Sentence, on_sentence
from triqua.schema import Fact, Status

__all__ = ["life_date_finding"]

_NOUN = {"born": "birth", "died": "death"}


def life_date_finding(fact: Fact, parts: FactParts, top: Sequence[Sentence]) -> Finding | None:
    """A contradiction when the subject's life-date parenthesis gives another birth or death.

    Only a sentence naming the subject in full right before the parenthesis counts, and
    only a claimed date (day, month or year): the dates compare at the claim's granularity.
    A parenthesis that gives the claimed date contradicts nothing (None).
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
