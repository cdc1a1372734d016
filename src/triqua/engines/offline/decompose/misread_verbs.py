"""Parse repairs for a sentence's main verb that the small parser did not read as a verb.

``en_core_web_sm`` sometimes parses a plain clause as one noun phrase: in "Alexander Fleming
discovered penicillin." it reads "discovered" as an adjective on "penicillin" and makes the
noun the root, and in "The Titanic sank in 1912." it tags "sank" as a noun, as it tags
"hunt" in "Wolves hunt in packs." (a "wolves hunt", where the verb agrees with the plural
noun before it and is a verb in the model's lemmatizer tables). A sentence
parsed so has no verb, so the clause rules find nothing in it and a plainly stated fact is
never checked. The repairs here run on every parse, before the clause rules, and rebuild
such a sentence as the clause it is: the verb becomes the root, the name before it the
subject and the noun phrase after it the object. They touch only sentences with no verb
heading a clause, and only where the words on each side of the verb form one phrase each.
In every sentence, a verb also gets back the subject and auxiliaries the parse hung on its
auxiliary ("Jessica Biel got engaged to Eric Winter.") and its tag where the tagger read a
passive participle as an adjective ("was married to").
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from triqua.core.reading.lexicon import LEXICON
from triqua.engines.offline.decompose.misread_words import repair_misread_words
from triqua.nlp.tokens import Doc, Span, Token
from triqua.nlp.verb_forms import is_base_verb, is_third_person_verb

#: How the parse hangs a past-tense verb it took for a modifier on the noun after it.
_MODIFIER_DEPS = {"amod", "compound", "nmod"}
#: The words a subject phrase may end in just before the verb.
_SUBJECT_POS = {"NOUN", "PROPN", "PRON"}
_OBJECT_POS = {"NOUN", "PROPN", "NUM", "PRON"}
_SUBJECT_DEPS = {"nsubj", "nsubjpass"}
#: Words of a subject phrase the parse may hang on the object instead ("The Romans").
_SUBJECT_PARTS = {"det", "poss", "compound", "amod", "nmod", "nummod"}
#: How a phrase opening the sentence before a comma hangs ("In 1928,", "Later,").
_FRONTED_DEPS = {"prep", "advmod", "npadvmod"}
#: A verb's own dependents (besides its subject) the parse may leave on it as a modifier.
_VERB_LEFTS = {"advmod", "neg"}
#: What follows a noun the tagger took for the verb ("sank in 1912", "borders France").
_VERB_RIGHTS = {"prep", "dobj", "npadvmod", "advmod", "agent"}


@cache
def _words() -> dict[str, Any]:
    """The word lists of ``engines/offline/data/noun_phrases.json`` (with their examples)."""
    raw = resources.files("triqua.engines.offline").joinpath("data/noun_phrases.json")
    data: dict[str, Any] = json.loads(raw.read_text("utf-8"))
    return data


def noun_phrase_examples() -> dict[str, list[Any]]:
    """Sentences that must read as noun phrases (``fragment``) or as clauses (``clause``)."""
    found: dict[str, list[Any]] = _words()["examples"]
    return found


def _is_bare_role(verb: Token, obj: Token, subject: Token) -> bool:
    """True for a singular role noun with no determiner after a participle: "educated lawyer".

    A singular count noun takes a determiner as a verb's object, so "Harvard educated
    lawyer" is a lawyer educated at Harvard, not Harvard educating one. Only where the
    subject is no person: "Fleming discovered penicillin" keeps its verb.
    """
    if obj.tag_ != "NN" or obj.i != verb.i + 1 or subject.ent_type_ == "PERSON":
        return False
    after = [c for c in obj.children if c.i > obj.i and not c.is_punct]
    if after or any(c.dep_ in {"det", "poss", "nummod"} for c in obj.children):
        return False
    word = obj.lower_
    return word in LEXICON.definite_heads or word.endswith(tuple(_words()["role_suffixes"]))


def repair_misread_verbs(doc: Doc) -> None:
    """Rebuild each verbless sentence of ``doc`` whose verb the parse misread, in place.

    In every sentence, a subject or auxiliary the parse hung on an auxiliary moves to its
    verb, and a passive participle tagged as an adjective is the verb it is
    (:func:`_repair_auxiliaries`); an opening "The" read as an object, a past verb after a
    name read as its modifier and "home" read as an adverb are repaired (``misread_words``).
    """
    for sent in list(doc.sents):
        _repair_auxiliaries(sent)
        repair_misread_words(sent)
        if _has_clause_verb(sent):
            continue
        if not _reroot_modifier(sent):
            _retag_noun_root(sent)


def _repair_auxiliaries(sent: Span) -> None:
    """Give a verb the subject and auxiliaries the parse hung on its auxiliary, and its tag.

    "Jessica Biel got engaged to Eric Winter.": the parse hangs "Biel" on the auxiliary
    "got", so "engaged" has no subject; the subject moves to the verb, as "has" of "has
    since been re-elected" hung on "been" moves to "re-elected". "Nara was married to
    Icardi's teammate Maxi López.": "married", with its passive auxiliary and a phrase after
    it, is tagged as an adjective and heads no clause; it is retagged as a participle.
    """
    for token in sent:
        head = token.head
        if (
            token.dep_ in _SUBJECT_DEPS | {"aux", "auxpass"}
            and _is_auxiliary(head)
            and head.dep_ in {"aux", "auxpass"}
            and head.i != head.head.i
        ):
            verb = head.head
            if any(c.dep_ in {"aux", "auxpass"} and not _is_auxiliary(c) for c in verb.children):
                continue  # the verb's own auxiliaries are misread words: so is the verb
            if (token.dep_ in {"aux", "auxpass"} and _is_auxiliary(token)) or not any(
                c.dep_ in _SUBJECT_DEPS for c in verb.children
            ):
                token.head = verb
        if (
            token.pos_ == "ADJ"
            and token.is_lower
            and any(c.dep_ == "auxpass" for c in token.children)
            and any(c.dep_ in {"prep", "agent"} and c.i > token.i for c in token.children)
        ):
            token.pos_ = "VERB"
            token.tag_ = "VBN"


def _is_auxiliary(token: Token) -> bool:
    """An auxiliary verb by its tag too ("has", "was", "can"), not a word the parse hung so."""
    return token.pos_ == "AUX" and (token.tag_.startswith("VB") or token.tag_ == "MD")


def _has_clause_verb(sent: Span) -> bool:
    """True when a verb or auxiliary in ``sent`` is more than a noun's modifier.

    A verb inside a prepositional phrase ("After retiring from service, ...") or a clause
    on a noun ("... at the University of Maryland where he had ...") heads no clause of the
    sentence either.
    """
    nested = {"relcl", "acl", "pcomp"}
    return any(
        t.pos_ in {"VERB", "AUX"}
        and t.dep_ not in _MODIFIER_DEPS | {"pcomp"}
        and not (t.dep_ in nested and t.head.pos_ in _OBJECT_POS)
        and not any(a.dep_ in nested for a in t.ancestors)
        for t in sent
    )


def _verb_tag(token: Token) -> str | None:
    """The tag of the verb form ``token`` is, where the parse read it as a noun's modifier.

    "VBD" for a lowercase past-tense or participle form ("discovered", "co-founded",
    "wrote"); "VBP" or "VBZ" for a present form tagged so ("Port Adley exports wool"), or a
    noun-tagged one that agrees with the noun before it (:func:`_present_tag`); ``None``
    for anything else.
    """
    word = token.text.replace("-", "")
    if not (word.isalpha() and token.is_lower):
        return None
    if token.tag_ in {"VBD", "VBN"} or (token.tag_ == "JJ" and token.lower_.endswith("ed")):
        return "VBD"
    if token.pos_ == "VERB" and token.tag_ in {"VBP", "VBZ"}:  # "Port Adley exports wool."
        return str(token.tag_)
    return _present_tag(token)


def _present_tag(verb: Token) -> str | None:
    """The tag ("VBP", "VBZ") of a noun-tagged present verb agreeing with the noun before it.

    A plural noun followed by a verb's base form ("Wolves hunt", "Frogs travel", the
    sentence's first word capitalised and tagged a name) or a singular one followed by a
    third-person form ("Duff McKagan dances"): a compound of the two ("a wolves hunt")
    is rare enough in a sentence with no verb that the verb reading wins. Only in a
    sentence that opens with a capital and ends in a full stop (a heading such as "Sales
    tax rates" or a fragment is none).
    """
    sent = verb.sent
    if verb.pos_ != "NOUN" or not (verb.is_alpha and verb.is_lower) or verb.i == sent.start:
        return None
    if sent[-1].text not in {".", "!"} or not sent[0].text[:1].isupper():
        return None
    before = verb.doc[verb.i - 1]
    if before.lower_ in _words()["plural_modifiers"]:  # "Sales tax rates": a compound noun
        return None
    if before.tag_ in {"NNS", "NNPS"} or (
        before.tag_ == "NNP"
        and before.i == sent.start
        and before.is_title
        and before.lower_.endswith("s")
        and not before.lower_.endswith("ss")
    ):
        return "VBP" if verb.tag_ == "NN" and is_base_verb(verb.lower_) else None
    if before.tag_ in {"NN", "NNP"} and verb.tag_ == "NNS" and is_third_person_verb(verb.lower_):
        return "VBZ"
    return None


def _reroot_modifier(sent: Span) -> bool:
    """Make a verb the parse read as a modifier between two noun phrases the sentence's verb.

    "Alexander Fleming discovered penicillin." parses with "discovered" as an adjective of
    "penicillin"; it is rebuilt as (Fleming <-nsubj- discovered -dobj-> penicillin). The
    verb must follow a complete subject phrase (a noun, or the comma closing an appositive
    of one: "Isaac Newton, the English mathematician, discovered gravity.") and precede
    the object phrase it modifies a word of ("married actor Kevin Bacon"); each side must
    be one phrase of the parse, but for words of the subject the parse hung on the object
    ("The Romans", "Burrell's music style"). A phrase opening the sentence before a comma
    ("In 1807, Humphry Davy isolated sodium.") becomes the verb's. Returns whether the
    sentence was rebuilt.
    """
    doc = sent.doc
    end = sent.end
    while end > sent.start and doc[end - 1].is_punct:
        end -= 1
    for verb in sent:
        if verb.dep_ not in _MODIFIER_DEPS or not verb.i < verb.head.i < end:
            continue
        tag = _verb_tag(verb)
        if tag is None:
            continue
        fronted = _fronted(sent, verb)
        begin = fronted[1].i + 1 if fronted else sent.start
        moved = {t.i for t in fronted or ()}
        if any(c.i > verb.i for c in verb.children):
            continue
        kept = [c for c in verb.lefts if c.dep_ in _VERB_LEFTS]
        start = min([c.left_edge.i for c in kept] + [verb.i])
        # Its other left dependents are words of the subject ("Chopin" read as its nsubj).
        side = [c for c in verb.lefts if c.dep_ not in _VERB_LEFTS and c.i not in moved]
        if any(c.left_edge.i < begin or c.right_edge.i >= start for c in side):
            continue
        obj = _one_phrase(doc, verb.i + 1, end)
        found = _subject(doc, begin, start) if start > begin else None
        if obj is None or found is None or obj.pos_ not in _OBJECT_POS:
            continue
        subject, parts = found
        if _is_bare_role(verb, obj, subject):
            continue
        _rebuild(sent, (verb, tag), subject, obj, end)
        for part in parts:
            part.head = subject
        for word in fronted or ():
            word.head = verb
        return True
    return False


def _fronted(sent: Span, verb: Token) -> tuple[Token, Token] | None:
    """The head of a phrase opening ``sent`` before a comma ("In 1928,"), and the comma."""
    comma = next((t for t in sent if t.text == "," and t.i < verb.i), None)
    if comma is None or comma.i == sent.start:
        return None
    head = _one_phrase(sent.doc, sent.start, comma.i)
    if head is None or head.dep_ not in _FRONTED_DEPS or head.head.i < comma.i:
        return None
    return head, comma


def _subject(doc: Doc, start: int, end: int) -> tuple[Token, list[Token]] | None:
    """The subject head of ``doc[start:end]``, and the words of it the parse hung elsewhere.

    One phrase ending in a noun (or in the comma closing its appositive) is the subject. Else
    the last word is the subject's head when it is a noun and every other word hanging
    outside the span is a modifier of a subject ("The", "Burrell's", "music style").
    """
    outer = [t for t in doc[start:end] if t.head.i == t.i or not start <= t.head.i < end]
    last = doc[end - 1]
    if len(outer) == 1:
        head = outer[0]
        if head.pos_ in _SUBJECT_POS and _ends_subject(last, head):
            return head, []
        return None
    parts = [t for t in outer if t.i != last.i]
    if len(parts) == len(outer) or last.pos_ not in {"NOUN", "PROPN"}:
        return None
    if any(t.dep_ not in _SUBJECT_PARTS for t in parts):
        return None
    return last, parts


def _one_phrase(doc: Doc, start: int, end: int) -> Token | None:
    """The head of ``doc[start:end]`` when the parse makes it one phrase, else ``None``."""
    if start >= end:
        return None
    outer = [t for t in doc[start:end] if t.head.i == t.i or not start <= t.head.i < end]
    return outer[0] if len(outer) == 1 else None


def _ends_subject(last: Token, subject: Token) -> bool:
    """True when ``last`` ends the subject phrase: a noun, or a comma closing its appositive."""
    if last.pos_ in _SUBJECT_POS:
        return True
    if last.text != ",":
        return False
    return any(
        c.dep_ == "appos"
        and c.i < last.i
        and max(t.i for t in c.subtree if t.i <= last.i) in {last.i - 1, last.i}
        for c in subject.children
    )


def _rebuild(sent: Span, tagged: tuple[Token, str], subject: Token, obj: Token, end: int) -> None:
    """Make the verb of ``tagged`` (with its tag) the root over ``subject`` and ``obj``."""
    verb, tag = tagged
    verb.head = verb  # detached first: it hangs below the object, which will hang below it
    verb.dep_ = "ROOT"
    verb.pos_ = "VERB"
    verb.tag_ = tag
    subject.head = verb
    subject.dep_ = "nsubj"
    obj.head = verb
    obj.dep_ = "dobj"
    # A phrase after the object hung on it while the clause read as one noun phrase; it is
    # the verb's ("discovered penicillin in 1928"), but for an "of" phrase, the noun's own.
    for prep in [c for c in obj.rights if c.dep_ == "prep" and c.lower_ != "of"]:
        prep.head = verb
    for mark in sent.doc[end : sent.end]:
        if mark.head.i != verb.i:
            mark.head = verb
            mark.dep_ = "punct"


def _retag_noun_root(sent: Span) -> bool:
    """Read a verbless sentence's noun root that has a subject as the verb it is.

    "The Titanic sank in 1912." is tagged with "sank" as a noun, yet parsed with "Titanic"
    as its subject and "in 1912" hanging on it: the shape of a clause. Such a root, written
    lowercase right after its subject with no modifier of its own and something after it
    (a prepositional phrase or an object), is retagged as a verb. A root whose subject the
    parse hangs on it as a modifier ("Wolves hunt in packs.") is one where it is a present
    verb agreeing with that noun and everything after it reads as a verb's. Returns whether
    it was retagged.
    """
    root = sent.root
    if root.pos_ != "NOUN" or not (root.is_lower and root.is_alpha) or root.i == sent.start:
        return False
    lefts = [c for c in root.lefts if not (c.dep_ == "det" and c.i == sent.start)]
    if len(lefts) != 1 or lefts[0].right_edge.i != root.i - 1:
        return False
    subject = lefts[0]
    if any(t.pos_ in {"VERB", "AUX"} for t in subject.subtree):
        return False  # "A woman dressed in black attaches bags": the verb may be inside
    tag = "VBZ" if root.tag_ == "NNS" else "VBD"
    if subject.dep_ != "nsubj":
        present = _present_tag(root)
        if present is None or subject.dep_ not in _MODIFIER_DEPS or subject.i != root.i - 1:
            return False
        if any(c.dep_ not in _VERB_RIGHTS | {"punct"} for c in root.rights):
            return False
        tag = present
    if not any(c.dep_ in _VERB_RIGHTS for c in root.rights):
        return False
    for det in root.lefts:
        if det.dep_ == "det":
            det.head = subject
    # A noun root's object hangs on it as an adverbial noun ("A child hugs a birdhouse").
    obj = next((c for c in root.rights if c.dep_ == "npadvmod" and c.pos_ != "ADV"), None)
    if obj is not None and not any(c.dep_ == "dobj" for c in root.rights):
        obj.dep_ = "dobj"
    subject.dep_ = "nsubj"
    root.pos_ = "VERB"
    root.tag_ = tag
    return True
