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

- "The river rose 3 metres overnight.": the amount hangs on the adverb after it ("metres"
  on "overnight"), so the verb has no amount and the fact is dropped. A measure (a unit of
  the value rules, not a time: "traded two years later") before an adverb of the verb is the
  verb's.
- "The ferry runs from Dover to Calais.": "to Calais" hangs on "from", so the route's end
  is lost. A "to" phrase on a "from" phrase of the verb that names a place, not a time or an
  amount ("from 2010 to 2015" is a range), is the verb's: its destination.
- "Tom Hanks starred in the movie Big.": the title after a class noun ("the movie") is read
  as the verb's object, so the fact is (Tom Hanks, starred, Big) in "the movie". A name
  right after the class noun a phrase of the verb ends on names that noun, as "the film
  Big" is read: an apposition.

The repairs run on every parse, after the token merges and before the clause rules.
"""

from __future__ import annotations

from triqua.core.reading.values.table import RULES
from triqua.nlp.tokens import Span, Token

_DETERMINERS = {"the", "a", "an"}
_SUBJECT_DEPS = {"nsubj", "nsubjpass"}
#: What a past verb's phrase may hold for it to be read as the clause's verb ("in 1985").
_ADVERBIAL_DEPS = {"prep", "advmod", "npadvmod", "punct"}


_BE = {"is", "are", "was", "were", "be", "been", "being"}


def repair_misread_words(sent: Span) -> None:
    """Apply the repairs to one sentence, in place."""
    _reattach_determiner(sent)
    _reroot_participle(sent)
    _home_as_complement(sent)
    _amount_before_adverb(sent)
    _route_end(sent)
    _title_after_class_noun(sent)


def _amount_before_adverb(sent: Span) -> None:
    """Hang a measure the parse put on the verb's adverb after it on the verb itself."""
    for amount in sent:
        adverb = amount.head
        if amount.dep_ != "npadvmod" or adverb.pos_ != "ADV" or adverb.dep_ != "advmod":
            continue
        verb = adverb.head
        if verb.pos_ != "VERB" or not verb.i < amount.i < adverb.i:
            continue
        if not any(c.dep_ == "nummod" for c in amount.children):
            continue
        unit = RULES.units.get(amount.lower_)
        if unit is None or unit[0] == "time":
            continue  # "traded two years later": a time, not an amount
        amount.head = verb


def _route_end(sent: Span) -> None:
    """Hang a "to <place>" the parse put on the verb's "from <place>" on the verb."""
    for end in sent:
        start = end.head
        if end.dep_ != "prep" or end.lower_ != "to" or start.lower_ != "from":
            continue
        if start.dep_ != "prep" or start.head.pos_ not in {"VERB", "AUX"}:
            continue
        ends = [c for c in (*start.children, *end.children) if c.dep_ == "pobj"]
        if len(ends) != 2 or not all(o.pos_ == "PROPN" for o in ends):
            continue  # a range of times or amounts ("from 2010 to 2015") stays one phrase
        end.head = start.head


def _title_after_class_noun(sent: Span) -> None:
    """Make a name the parse made the verb's object an apposition of the noun before it."""
    for name in sent:
        verb = name.head
        if name.dep_ != "dobj" or name.pos_ != "PROPN" or verb.pos_ != "VERB":
            continue
        noun = sent.doc[name.left_edge.i - 1] if name.left_edge.i > sent.start else None
        if noun is None or noun.pos_ != "NOUN" or noun.dep_ != "pobj" or not noun.is_lower:
            continue
        prep = noun.head
        if prep.dep_ != "prep" or prep.head.i != verb.i:
            continue
        if not any(c.dep_ == "det" for c in noun.children):
            continue  # "the movie Big", not "in 1988 Big"
        name.head = noun
        name.dep_ = "appos"


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
