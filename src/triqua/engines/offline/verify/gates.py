"""The value gates: what a sentence must carry before anything may call a fact supported.

The learned judge reads meaning; these rules read values, which it cannot be trusted with:
every number, date and name word of the object (and qualifiers), polarity, antonyms,
restrictors ("once", "the first", "only") and who the relation belongs to. A window that
fails them is never read for support, however sure the judge is.
"""

from __future__ import annotations

from triqua.engines.offline.verify.align import Token, analyse, values_relation
from triqua.engines.offline.verify.binding import REFERS
from triqua.engines.offline.verify.fact_match import (
    FactParts,
    polarity_differs,
    restrictors_stated,
    sentence_relation_hit,
)
from triqua.engines.offline.verify.findings import Sentence
from triqua.engines.offline.verify.names import name_word_in
from triqua.engines.offline.verify.rules import antonym_in, roles_differ, substitution
from triqua.schema import Fact

__all__ = ["values_present"]


def values_present(fact: Fact, parts: FactParts, sentence: Sentence) -> bool:
    """The hard gates: True when the sentence may state the fact at all.

    It carries every number and date of the object and qualifiers and every name word of
    them, replaces no word of the object, is negated exactly when the fact is, holds no
    antonym of the object, and does not give the relation to someone else.
    """
    info = sentence.info
    if polarity_differs(parts, info) or antonym_in(parts.object, info):
        return False
    hit = sentence_relation_hit(parts, info)
    if (
        isinstance(hit, Token)
        and sentence.subject != REFERS
        and roles_differ(parts.subject, parts.object, info, hit, parts.relation)
    ):
        return False
    values = [parts.object] + [analyse(q.value) for q in fact.qualifiers]
    for value in values:
        if values_relation(value, info, set(), set())[0] != "match":
            return False
        if not all(name_word_in(t, info) for t in value.content if t.is_capitalised):
            return False
    if restrictors_stated(parts, info)[0] != "ok":  # "once", "the first", "only"
        return False
    return substitution(parts.object, info) is None
