"""Object pronouns read as the name they stand for: "She married him" after "… met Pierre Curie".

A sentence that writes "him", "her" or "them" as its verb's object states its fact of the
one the sentence before it named, and names no more: "Marie Curie … met Pierre Curie. She
married him in 1895." states that she married Pierre Curie, which neither sentence states
alone. The name is found by the grammar of the two sentences, never by the fact checked:

- when the pronoun's clause has a pronoun subject ("She married him"), the subject is the
  topic and the object another: the last name the sentence before gives as its verb's
  object ("met Pierre Curie", "met his cousin Queen Victoria", "saw the Beatles");
- when its subject is a name ("Pope Leo III crowned him"), the pronoun is the topic: the
  name the sentence before has as its subject ("Charlemagne was King of the Franks").

The pronoun and the name agree in number ("them" for "the Beatles", "him" for one name).
Anything else (two object pronouns, no such name) is read as written.

A possessive pronoun before a property the label list knows states that property of the
name the sentence before has as its subject: "The Amazon River flows through Peru. Its
length is about 6,400 kilometres." reads "The length of The Amazon River is about 6,400
kilometres." (:func:`resolve_possessive_label`, the templates of ``label_lines``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from triqua.core.reading.label_lines import LABELS, label_sentence
from triqua.nlp.clauses import window_parse

if TYPE_CHECKING:
    from triqua.nlp.tokens import Token

__all__ = ["resolve_object_pronoun", "resolve_possessive_label"]

_SINGULAR = frozenset(("him", "her"))
_PLURAL = frozenset(("them",))
_OBJECTS = frozenset(("dobj", "dative", "iobj"))
_SUBJECTS = frozenset(("nsubj", "nsubjpass"))
_NAME_PARTS = frozenset(("compound", "flat", "det"))
_CUE = re.compile(r"\b(?:him|her|them)\b", re.IGNORECASE)


def resolve_object_pronoun(previous: str, sentence: str) -> str | None:
    """``sentence`` with its object pronoun written as the name it stands for, else None.

    ``previous`` is the sentence before it in the same paragraph.
    """
    if not _CUE.search(sentence) or not previous.strip():
        return None
    pronouns = [
        t
        for t in window_parse(sentence)
        if t.lower_ in _SINGULAR | _PLURAL and t.tag_ == "PRP" and t.dep_ in _OBJECTS
    ]
    if len(pronouns) != 1:
        return None
    pronoun = pronouns[0]
    subject = next((c for c in pronoun.head.children if c.dep_ in _SUBJECTS), None)
    if subject is None:
        return None
    before = window_parse(previous)
    if subject.tag_ == "PRP":
        named = [t for t in before if t.pos_ == "PROPN" and _object_of_verb(t)]
    elif subject.pos_ == "PROPN":
        named = [t for t in before if t.pos_ == "PROPN" and t.dep_ in _SUBJECTS]
    else:
        return None
    if not named:
        return None
    head = named[-1]
    plural = head.tag_ == "NNPS"
    if plural != (pronoun.lower_ in _PLURAL):
        return None
    name = _phrase(head)
    at = pronoun.idx
    return sentence[:at] + name + sentence[at + len(pronoun.text) :]


_POSSESSIVE = re.compile(
    r"^(?P<pronoun>its|his|her|their)\s+(?P<label>[a-z][a-z ]{1,30}?)\s+(?:is|was|are|were)\s+"
    r"(?P<value>[^.;]+?)\s*\.?$",
    re.IGNORECASE,
)


def resolve_possessive_label(previous: str, sentence: str) -> str | None:
    """``sentence`` ("Its length is …") as its property of the previous sentence's subject.

    None unless the sentence is a possessive pronoun, a property the label list knows, a
    copula and a value, and the sentence before has a name as its subject that agrees in
    number with the pronoun.
    """
    found = _POSSESSIVE.match(sentence.strip())
    if found is None or " ".join(found["label"].lower().split()) not in LABELS:
        return None
    root = next((t for t in window_parse(previous) if t.dep_ == "ROOT"), None)
    subject = (
        next((c for c in root.children if c.dep_ in _SUBJECTS), None) if root is not None else None
    )
    if subject is None or subject.pos_ != "PROPN":
        return None
    if any(c.dep_ == "conj" for c in subject.children):
        return None  # "Pfizer and Moderna developed … Its headquarters …": either one
    if (subject.tag_ == "NNPS") != (found["pronoun"].lower() == "their"):
        return None
    return label_sentence(_phrase(subject), found["label"], found["value"])


def _object_of_verb(token: Token) -> bool:
    """A verb's object, or a name beside it ("his cousin Queen Victoria")."""
    return token.dep_ in _OBJECTS or (token.dep_ == "appos" and token.head.dep_ in _OBJECTS)


def _phrase(head: Token) -> str:
    """The name a head word writes, with its compounds and article ("the Beatles")."""
    words = [head]
    stack = [head]
    while stack:
        for child in stack.pop().children:
            if child.dep_ in _NAME_PARTS and child.i < head.i:
                words.append(child)
                stack.append(child)
    words.sort(key=lambda t: t.i)
    doc = head.doc
    return doc[words[0].i : head.i + 1].text
