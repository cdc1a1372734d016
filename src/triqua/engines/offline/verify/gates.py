"""The value gates: what a window must carry before the judge's entailment may support a fact.

The learned judge reads meaning; these rules read values, which it cannot be trusted with:
every number, date and name word of the object (and qualifiers), polarity, antonyms,
restrictors ("once", "the first", "only"; many against "only one"), who the relation
belongs to, and the word that ends the object's phrase (:func:`head_rival`). A window that
fails them is never read for support, however sure the judge is. The statement gates both
engines share are ``core.reading.statements``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise, takewhile

from triqua.core.reading.analysis import (
    TextInfo,
    Token,
    analyse,
    has_stem,
    stems_match,
    values_relation,
)
from triqua.core.reading.fact_parts import (
    FactParts,
    antonym_in,
    polarity_differs,
    sentence_relation_hit,
)
from triqua.core.reading.name_match import name_words_in
from triqua.core.reading.restrictors.many import one_against_many
from triqua.core.reading.statements import clause_refusal, statement
from triqua.engines.offline.verify.binding import REFERS
from triqua.engines.offline.verify.fact_match import restrictors_stated
from triqua.engines.offline.verify.findings import Sentence
from triqua.engines.offline.verify.rules import roles_differ, substitution
from triqua.schema import Fact

__all__ = ["head_rival", "named_head_rival", "subject_head_rival", "values_present"]


def values_present(fact: Fact, parts: FactParts, sentence: Sentence) -> bool:
    """The hard gates: True when the sentence may state the fact at all.

    It reads as a statement, not a list of keywords; carries every number and date of the
    object and qualifiers and every name word of them, replaces no word of the object, is
    negated exactly when the fact is, holds no antonym of the object, does not give the
    relation to someone else, and puts no other name of the object's type in the relation's
    slot ("… in Seattle, but the company is headquartered in Cupertino").
    """
    info = sentence.info
    if not statement(parts, info) or subject_head_rival(parts.subject, info) is not None:
        return False
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
        if values_relation(value, info)[0] != "match":
            return False
        if not name_words_in(value, info, sentence.before):
            return False
    if restrictors_stated(parts, info)[0] != "ok":  # "once", "the first", "only"
        return False
    if one_against_many(parts.object, info) is not None:  # "multiple shows" / "only in X"
        return False
    if substitution(parts.object, info) is not None:
        return False
    return clause_refusal(parts, info.text) is None  # parsed last: the dearest gate


def subject_head_rival(subject: TextInfo, sentence: TextInfo) -> str | None:
    """Another noun heading the subject's complement in the sentence, if any.

    "city" of "The largest city of Australia" for the subject "The capital of Australia": a
    subject that is a noun with an "of" complement (no name) is named by its head noun; a
    sentence that never writes it and puts another noun before the same "of" complement
    speaks of another thing of the complement.
    """
    if subject.is_name:
        return None
    tokens = list(subject.tokens)
    at = next((k for k, t in enumerate(tokens) if t.text.lower() == "of"), None)
    complement = [t for t in tokens[at + 1 :] if not t.is_stop] if at else []
    heads = [t for t in tokens[:at] if not t.is_stop] if at else []
    if not complement or not heads or has_stem(sentence.stems, heads[-1].stem):
        return None
    words = sentence.tokens
    for k in range(1, len(words) - 1):
        if words[k].text.lower() != "of" or not stems_match(words[k + 1].stem, complement[0].stem):
            continue
        before = words[k - 1]
        if not before.is_stop and not before.is_capitalised:
            return before.text
    return None


def head_rival(part: TextInfo, relation: TextInfo, sentence: TextInfo) -> str | None:
    """Another word in the object's head slot: the object's words up to its head, then not it.

    "a 2017 British comedy drama film" for "a 2017 British comedy drama book", "is a county"
    for "is a city" (the relation's word leads an object of function words only): the
    sentence writes the object's own lead-in and ends the phrase on another word, so it
    states something else. An inserted modifier is no rival ("a 2017 American film" for "a
    2017 film": the phrase goes on), nor a capitalised word (names are the name gate's); a
    year before a noun only labels it ("is a 1973 painting" for "is a film": the class is
    "painting").
    After a copula, the class the sentence gives is a rival too when it writes none of the
    object's modifiers ("is a city along the Great Lakes" for "is a U.S. state").
    """
    tokens = list(part.tokens)
    if not tokens or tokens[-1].is_stop or tokens[-1].is_capitalised:
        return None
    head, lead = tokens[-1], tokens[:-1]
    if any(
        stems_match(w.stem, head.stem) and (k == 0 or not w.is_capitalised)
        for k, w in enumerate(sentence.tokens)
    ):
        return None  # the head is written (not as a word of a name: "the United States")
    if all(t.is_stop for t in lead):
        lead = [*relation.tokens[-1:], *lead]
    if len(lead) < 2 and all(t.is_stop for t in lead):
        return None  # "a" alone leads anything
    rival = _rival_after(part, lead, sentence)
    copula = list(relation.tokens[-1:])
    if rival is None and copula and copula[0].text.lower() in _COPULAS:
        determiners = list(takewhile(lambda t: t.is_stop, tokens[:-1]))
        if determiners and len(determiners) < len(lead):
            rival = _rival_after(part, [*copula, *determiners], sentence)
    return rival


_COPULAS = frozenset({"is", "was", "are", "were"})


def named_head_rival(part: TextInfo, relation: TextInfo, sentence: TextInfo) -> str | None:
    """The head slot's rival word when the part's head is written only inside a name.

    "is a city in Yavapai County" for "is a county": the sentence gives its subject the
    class "city"; "County" is a word of another place's name, not the subject's class, so it
    neither aligns the object nor lets the judge, misled by the shared word, outweigh the
    rival (:func:`head_rival` reads the slot). None when the head is written as a word of
    its own, or the slot holds no rival.
    """
    tokens = list(part.tokens)
    if not tokens or tokens[-1].is_stop or tokens[-1].is_capitalised:
        return None
    head = tokens[-1]
    written = [k for k, w in enumerate(sentence.tokens) if stems_match(w.stem, head.stem)]
    if not written or any(k == 0 or not sentence.tokens[k].is_capitalised for k in written):
        return None
    return head_rival(part, relation, sentence)


def _rival_after(part: TextInfo, lead: list[Token], sentence: TextInfo) -> str | None:
    """The word ending the phrase that ``lead`` opens in the sentence, if not the part's."""
    words, text, n = sentence.tokens, sentence.text, len(lead)
    for i in range(len(words) - n):
        run = words[i : i + n + 1]
        if not all(stems_match(w.stem, t.stem) for w, t in zip(run, lead, strict=False)):
            continue
        if any(text[a.end : b.start].strip() for a, b in pairwise(run)):
            continue  # the lead-in and its word are not written together
        at = _past_labels(words, i + n, text, part)
        rival = words[at] if at is not None else None
        if rival is None or rival.is_stop or rival.is_capitalised:
            continue
        if has_stem(part.stems, rival.stem):
            continue
        after = words[at + 1] if at is not None and at + 1 < len(words) else None
        gap = text[rival.end : after.start].strip() if after is not None else ""
        if after is None or after.is_stop or gap not in ("", "-"):
            return rival.text  # the phrase ends on it ("wrought-iron" goes on)
    return None


def _past_labels(words: Sequence[Token], at: int, text: str, part: TextInfo) -> int | None:
    """The index of the word after the lead-in, past the years and numbers labelling the noun.

    "is a 1973 painting by …" is read at "painting": a year before a noun only labels it,
    the noun after is the class. A label the object writes too ("a 1973 film") is its own;
    None when the phrase ends on a label.
    """
    end = at
    while words[end].text[:1].isdigit():
        if has_stem(part.stems, words[end].stem) or end + 1 >= len(words):
            return None
        after = words[end + 1]
        if after.is_stop or text[words[end].end : after.start].strip():
            return None
        end += 1
    return end
