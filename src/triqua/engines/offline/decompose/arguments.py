"""What the clause rules build facts from: the fact type, and a subject's or object's text.

A fact's arguments are noun phrases rendered with pronouns resolved; speaker words, unresolved
pronouns and deictics name nothing checkable, and a complement made only of evaluative words
states an opinion.
"""

from __future__ import annotations

from dataclasses import dataclass

from triqua.engines.offline.decompose.phrases import (
    Refer,
    is_concrete,
    is_pronoun,
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
# Evaluative adjectives: a complement built only from these states an opinion, not a fact.
SUBJECTIVE = {
    "amazing", "awesome", "awful", "bad", "beautiful", "best", "boring", "brilliant",
    "charming", "cool", "delightful", "enjoyable", "excellent", "exciting", "fabulous",
    "fantastic", "fascinating", "favorite", "favourite", "fine", "fun", "glad", "good",
    "gorgeous", "great", "happy", "helpful", "horrible", "impressive", "incredible",
    "interesting", "lovely", "magnificent", "marvelous", "marvellous", "nice", "perfect",
    "pleasant", "remarkable", "sad", "sorry", "splendid", "stunning", "superb", "terrible",
    "unfortunate", "wonderful", "worst",
}  # fmt: skip


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
    if head.lower_ in _SPEAKER_WORDS:
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


def is_opinion(pred: Predicate) -> bool:
    """True when the complement is evaluative and carries no named or numeric content."""
    words = list(pred.relation) + [t for head in pred.objects for t in head.subtree]
    if not any(t.lower_ in SUBJECTIVE for t in words):
        return False
    return not any(is_concrete(t) for head in pred.objects for t in head.subtree)


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
