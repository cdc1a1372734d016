"""A count of people as a clause's subject: "About 500,000 people attended the festival".

A subject that is only a number and a plain noun ("500,000 people", "three siblings") names
no one in particular, so a fact about it is dropped as junk. Where the clause's object names
something, the count is what the sentence states about that object: the fact reads the
other way round, (the festival, was attended by, About 500,000 people), so the thing
counted for is its subject. Only a regular past verb with a direct object and nothing else
in its relation is turned ("attended", "visited"), so its participle is the same word; a
measure ("100 degrees marked the peak") counts no one and stays dropped.
"""

from __future__ import annotations

import re

from triqua.engines.offline.decompose.arguments import RawFact
from triqua.engines.offline.decompose.hygiene import NUMBER_WORDS, UNIT_WORDS, is_junk_argument
from triqua.engines.offline.decompose.predicate import Predicate

_WORD = re.compile(r"[\w%]+")


def counted_agent(fact: RawFact, pred: Predicate) -> RawFact:
    """``fact`` read from its object when its subject is a bare count of people; else itself."""
    verb = pred.verbs[0]
    if len(pred.verbs) != 1 or pred.relation != [verb] or pred.idiom or pred.marker:
        return fact
    if verb.tag_ != "VBD" or not (verb.is_lower and verb.lower_.endswith("ed")):
        return fact
    if not pred.objects or any(o.dep_ != "dobj" for o in pred.objects):
        return fact
    if not any(c.dep_ == "nsubj" for c in verb.children):  # "1963, which reached …"
        return fact
    if not fact.object or is_junk_argument(fact.object, "subject"):
        return fact
    words = [w.lower() for w in _WORD.findall(fact.subject)]
    if not is_junk_argument(fact.subject, "subject") or any(w in UNIT_WORDS for w in words):
        return fact
    if all(w in NUMBER_WORDS or w[:1].isdigit() for w in words):  # a bare number counts none
        return fact
    plural = len(pred.objects) == 1 and pred.objects[0].tag_ in {"NNS", "NNPS"}
    relation = f"{'were' if plural else 'was'} {verb.lower_} by"
    return RawFact(fact.object, relation, fact.subject, fact.qualifiers)
