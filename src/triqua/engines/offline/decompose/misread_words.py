"""Parse repairs for words of a plain clause that the small parser misreads.

Three shapes of a plain clause come out of ``en_core_web_sm`` with no fact to read:

- "The Great Wall of China attracts about 10 million visitors a year.": the opening "The"
  hangs on the verb as its object (tagged a pronoun), so the object is a bare determiner
  and the fact is dropped as junk. A determiner opening the sentence right before the
  subject is the subject's: it becomes the determiner of the subject's first noun's head.
- "Radiohead formed in Manchester.": the name is the root and "formed" a participle on it
  ("Radiohead [that was] formed in Manchester"), so the sentence has no clause. A regular
  past form ("-ed", the same word as the participle) right after a name that the sentence
  opens with, with only adverbials after it that name a place, date or number, is the
  sentence's verb. An indefinite noun
  ("A study published in 2019.") keeps its caption reading.
- "The lake is home to many fish.": "home" is read as an adverb of "is" ("went home"), so
  "is" has no complement. After a form of "be" with none, it is the complement noun it is:
  (The lake, is, home to many fish).

The repairs run on every parse, after the token merges and before the clause rules.
"""

from __future__ import annotations

from triqua.nlp.tokens import Span, Token

_DETERMINERS = {"the", "a", "an"}
_SUBJECT_DEPS = {"nsubj", "nsubjpass"}
#: What a past verb's phrase may hold for it to be read as the clause's verb ("in 1985").
_ADVERBIAL_DEPS = {"prep", "advmod", "npadvmod", "punct"}


_BE = {"is", "are", "was", "were", "be", "been", "being"}


def repair_misread_words(sent: Span) -> None:
    """Apply the three repairs to one sentence, in place."""
    _reattach_determiner(sent)
    _reroot_participle(sent)
    _home_as_complement(sent)


def _home_as_complement(sent: Span) -> None:
    """Make "home" the parse hung on a bare "is" as an adverb that verb's complement."""
    for home in sent:
        be = home.head
        if home.lower_ != "home" or home.dep_ != "advmod" or be.lower_ not in _BE:
            continue
        if any(c.dep_ in {"attr", "acomp", "dobj"} for c in be.children):
            continue
        if not any(c.dep_ == "prep" and c.lower_ == "to" for c in home.children):
            continue
        home.dep_ = "attr"
        home.pos_ = "NOUN"
        home.tag_ = "NN"


def _reattach_determiner(sent: Span) -> None:
    """Hang an opening "The" the parse made the verb's object on the subject after it."""
    first = sent[0]
    if first.lower_ not in _DETERMINERS or first.dep_ in {"det", "ROOT"} or first.i + 1 >= sent.end:
        return
    verb = first.head
    subject = next((c for c in verb.children if c.dep_ in _SUBJECT_DEPS), None)
    if subject is None or subject.left_edge.i != first.i + 1 or subject.pos_ != "PROPN":
        return
    first.head = subject
    first.dep_ = "det"
    first.pos_ = "DET"
    first.tag_ = "DT"


def _reroot_participle(sent: Span) -> None:
    """Make a past verb the parse hung on the opening name as a participle the root."""
    root = sent.root
    if root.pos_ not in {"PROPN", "NOUN"} or sent[-1].text != "." or not sent[0].is_title:
        return
    if any(t.pos_ in {"VERB", "AUX"} and t.dep_ not in {"acl"} for t in sent):
        return
    if any(c.dep_ == "det" and c.lower_ in {"a", "an"} for c in root.children):
        return
    verb = next((c for c in root.rights if c.dep_ == "acl"), None)
    if verb is None or verb.i != root.i + 1 or root.left_edge.i != sent.start:
        return
    if verb.tag_ not in {"VBD", "VBN"} or not (verb.is_lower and verb.lower_.endswith("ed")):
        return
    preps = [c for c in verb.children if c.dep_ == "prep"]
    if not preps or any(c.dep_ not in _ADVERBIAL_DEPS for c in verb.children):
        return
    if not all(_names(c) for c in preps):  # "dissolved with gold forms chloroauric acid"
        return
    if any(c.dep_ not in {"acl", "punct"} for c in root.rights):
        return
    _make_root(sent, verb, root)


def _names(prep: Token) -> bool:
    """True when a phrase's object is a name, a date or a number: "in Manchester", "in 1985"."""
    objects = [c for c in prep.children if c.dep_ == "pobj"]
    return bool(objects) and all(o.pos_ == "PROPN" or o.ent_type_ for o in objects)


def _make_root(sent: Span, verb: Token, subject: Token) -> None:
    verb.head = verb
    verb.dep_ = "ROOT"
    verb.pos_ = "VERB"
    verb.tag_ = "VBD"
    subject.head = verb
    subject.dep_ = "nsubj"
    for mark in sent:
        if mark.is_punct and mark.head.i == subject.i:
            mark.head = verb
