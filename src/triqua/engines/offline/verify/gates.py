"""The value gates: what a window must carry before the judge's entailment may support a fact.

The learned judge reads meaning; these rules read values, which it cannot be trusted with
(:func:`values_present`). A window that fails them is never read for support, however sure
the judge is. The statement gates both engines share are ``core.reading.statements``.
"""

from __future__ import annotations

from triqua.core.reading.analysis import Token, analyse, values_relation
from triqua.core.reading.antonyms import opposite_in
from triqua.core.reading.class_nouns import class_rival, general_head_unwritten
from triqua.core.reading.fact_parts import (
    FactParts,
    antonym_in,
    polarity_differs,
    sentence_relation_hit,
)
from triqua.core.reading.mentions import REFERS
from triqua.core.reading.modifiers import unstated
from triqua.core.reading.name_match import name_words_in
from triqua.core.reading.part_match import restrictor_left_out, restrictors_stated
from triqua.core.reading.part_rivals import roles_differ, substitution
from triqua.core.reading.restrictors.many import one_against_many
from triqua.core.reading.slot_words import subject_head_rival
from triqua.core.reading.statements import clause_refusal, statement
from triqua.engines.offline.verify.findings import Sentence
from triqua.schema import Fact

__all__ = ["values_present"]


def values_present(
    fact: Fact, parts: FactParts, sentence: Sentence, *, restrictors: bool = True
) -> bool:
    """The hard gates: True when the sentence may state the fact at all.

    It reads as a statement, not a list of keywords; carries every number, date and name word
    of the object and qualifiers and their restrictors ("once", "the first", "only"), and
    the modifiers the claim writes ("has yet to", even where the fact lost it); replaces no
    word of the object; has the fact's polarity, no antonym or opposite word, no other class
    for the subject, and gives neither the relation nor its slot to another ("… but the
    company is headquartered in Cupertino"). With ``restrictors`` False, a restrictor the
    sentence leaves out (``part_match.restrictor_left_out``) passes; a rival one still fails.
    """
    info = sentence.info
    if not statement(parts, info) or subject_head_rival(parts.subject, info) is not None:
        return False
    if polarity_differs(parts, info) or antonym_in(parts.object, info):
        return False
    if opposite_in(parts.relation, parts.object, info) is not None:  # "decreases" for "increases"
        return False
    if class_rival(fact.subject, fact.relation, fact.object, info) is not None:
        return False  # "is an American band" for "is a website": another class
    if general_head_unwritten(fact.relation, fact.object, info) is not None:
        return False  # "one of the … methods of sending messages" for "… secret messages"
    hit = sentence_relation_hit(parts, info)
    if (
        isinstance(hit, Token)
        and sentence.subject != REFERS
        and roles_differ(parts.subject, parts.object, info, hit, parts.relation)
    ):
        return False

    values = [parts.object] + [analyse(q.value) for q in fact.qualifiers]
    for value in values:
        if values_relation(value, info)[0] != "match":
            return False
        if not name_words_in(value, info, sentence.before):
            return False
    if restrictors_stated(parts, info)[0] != "ok" and (  # "once", "the first", "only"
        restrictors or not restrictor_left_out(parts, info)
    ):
        return False
    if unstated(fact.triple_text, info.text, fact.source_text) is not None:
        return False  # "has yet to win", "positively reviewed", even where the fact lost it
    if one_against_many(parts.object, info) is not None:  # "multiple shows" / "only in X"
        return False
    if substitution(parts.object, info) is not None:
        return False
    return clause_refusal(parts, info.text) is None  # parsed last: the dearest gate
