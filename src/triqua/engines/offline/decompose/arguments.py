"""What the clause rules build facts from: the fact type, and a subject's or object's text.

A fact's arguments are noun phrases rendered with pronouns resolved; speaker words, unresolved
pronouns and deictics name nothing checkable, and a complement made only of evaluative words
states an opinion.
"""

from __future__ import annotations

from dataclasses import dataclass

from triqua.core.text.opinion import is_evaluative, is_praise_superlative, is_ranking_verb
from triqua.engines.offline.decompose.phrases import (
    Refer,
    is_concrete,
    is_pronoun,
    is_side_part,
    noun_phrase,
    render,
)
from triqua.engines.offline.decompose.predicate import Predicate
from triqua.engines.offline.decompose.qualifiers import (
    Alternatives,
    is_place_of_named,
    is_qualifier_prep,
)
from triqua.engines.offline.decompose.slots import variants
from triqua.nlp.tokens import Token

_SPEAKER_WORDS = {"i", "me", "my", "we", "us", "our", "you", "your", "yourself"}
DEICTIC_WORDS = {"this", "that", "these", "those", "what", "which", "who", "whom", "there"}
_QUANTIFIERS = {"some", "many", "most", "one", "all", "each", "several", "few", "both", "none"}
#: Demonstratives that stand for a noun named again by their "of" ("that of Rome").
_STAND_INS = {"that", "those"}


@dataclass(frozen=True)
class RawFact:
    """A fact as plain strings, before it is tied to a span and a chunk."""

    subject: str
    relation: str
    object: str
    qualifiers: tuple[tuple[str, str], ...] = ()


def argument_text(head: Token, refer: Refer, pred: Predicate | None) -> str | None:
    """Text of a subject or object, or ``None`` when it names nothing checkable."""
    if pred is not None and pred.phrase_object and head in pred.objects:
        return render(head.subtree, refer) or None
    if not (_ends_name(head) or _is_partitive(head, refer)):
        opening_name = head.pos_ == "PROPN" and head.i == head.sent.start  # "Us is a film"
        if head.lower_ in _SPEAKER_WORDS and not opening_name:
            return None
        if (is_pronoun(head) or head.lower_ in DEICTIC_WORDS) and refer(head) is None:
            return None
    drop = [c for c in head.children if c.dep_ == "prep" and is_qualifier_prep(c)]
    if pred is not None and head in pred.objects:  # "invented the Web at CERN": a place
        drop += [c for c in head.children if c not in drop and is_place_of_named(c)]
    if pred is not None:
        pred.pulled += drop
    text = render(noun_phrase(head, drop), refer)
    if head.pos_ == "PROPN" and text == head.text:  # "Curie" alone: the text's "Marie Curie"
        text = refer(head) or text
    return text or None


def _ends_name(head: Token) -> bool:
    """A pronoun's word written as the last word of a name: "Francis I", "Doctor Who".

    Capitalised inside the sentence after a name word it heads, it names what the name
    names, not the speaker or something said before; one the parse opens a relative clause
    with stays a relative pronoun. "Me" or "You" ending a title ("Kill Me, Heal Me") is left
    out: such titles come in lists the parse misreads as appositives.
    """
    return (
        head.text[:1].isupper()
        and head.i > head.sent.start
        and (head.text == "I" or head.lower_ not in _SPEAKER_WORDS)
        and not (head.dep_ in {"nsubj", "nsubjpass"} and head.head.dep_ == "relcl")
        and any(c.dep_ == "compound" and c.i == head.i - 1 for c in head.children)
    )


def _is_partitive(head: Token, refer: Refer) -> bool:
    """A quantifier with its "of" phrase ("some of the brightest objects"): it names things.

    So does a demonstrative standing in for a noun said before, with its "of" ("stronger
    than those of neutron stars", "larger than that of Rome"). Only where the phrase names
    them itself: "some of them" with "them" unresolved does not.
    """
    if head.lower_ not in _QUANTIFIERS and head.lower_ not in _STAND_INS:
        return False
    return any(
        g.dep_ == "pobj" and (not is_pronoun(g) or refer(g) is not None)
        for c in head.children
        if c.dep_ == "prep" and c.lower_ == "of"
        for g in c.children
    )


def is_opinion(pred: Predicate) -> bool:
    """True when the complement is evaluative and carries no named or numeric content.

    A side remark on the complement that its text leaves out (a relative clause after a
    comma or opened by "where": "played college football at Maryland where he had
    impressive statistics") is judged as its own clause, not as part of the complement; an
    evaluative word with a "for" states an effect ("is good for heart health"), and praise
    after a verb of ranking ("was named one of the greatest players") states a ranking, which
    can be checked.
    """
    aside = {t.i for h in pred.objects for c in h.children if is_side_part(c) for t in c.subtree}
    words = [t for t in pred.relation if _judges(t)] + [
        t for head in pred.objects for t in head.subtree if t.i not in aside and _judges(t)
    ]
    if not any(is_evaluative(t) for t in words) or any(is_ranking_verb(v) for v in pred.verbs):
        return False
    # A superlative of praise ranks by taste within any period ("of the century").
    within = any(is_praise_superlative(t) for t in words)
    return not any(
        is_concrete(t) and not (within and t.ent_type_ in {"DATE", "TIME"})
        for head in pred.objects
        for t in head.subtree
    )


def _judges(word: Token) -> bool:
    """False for an evaluative ``word`` with a "for" of what it acts on: an effect.

    "is good for heart health", "is bad for the lungs" state an effect, which can be checked.
    """
    holders = [word, word.head] if word.dep_ == "acomp" else [word]  # "is bad for the lungs"
    return not any(c.dep_ == "prep" and c.lower_ == "for" for h in holders for c in h.children)


def combine(
    subjects: list[str | None],
    pred: Predicate,
    objects: list[str | None],
    slots: list[Alternatives],
) -> list[RawFact]:
    """One fact per subject, object and combination of qualifier values (no object: "")."""
    relation = pred.relation_text()
    return [
        RawFact(subject, relation, obj or "", quals)
        for subject in subjects
        if subject
        for obj in objects or [""]
        for quals in variants(slots)
    ]
