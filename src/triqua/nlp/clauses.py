"""Clauses read from spaCy's dependency parse: who owns a word's clause, which clause states it.

A window of evidence is parsed once (reusing the element graph's parse of the same text,
:mod:`triqua.nlp.parses`) and read for two things: the nominal subject of the nearest
clause that governs a word (:func:`clause_owner`: "Canberra" owns "capital" in "…, but Canberra is
the capital of Australia") and the head of the clause that states a word
(:func:`clause_head`). The offline verifier's clause gates, which the grounding rule's
reader of meaning also runs, read windows through them; the decisions are theirs.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from triqua.nlp.parses import parse_many
from triqua.nlp.pipeline import NLP_LOCK, load_nlp

if TYPE_CHECKING:
    from triqua.nlp.tokens import Doc
    from triqua.nlp.tokens import Token as SpacyToken

__all__ = [
    "SUBJECTS",
    "clause_head",
    "clause_owner",
    "entities",
    "people",
    "predicate_head",
    "window_parse",
]

SUBJECTS = frozenset({"nsubj", "nsubjpass", "csubj"})
"""Dependency labels of a clause's subject."""
_DESCRIBES = frozenset({"relcl", "appos"})  # clauses and phrases that describe a noun
_RELATIVE_TAGS = frozenset({"WDT", "WP", "WP$"})  # "which", "who", "whose": the noun itself
_MERGED = frozenset({"relcl", "acl", "pcomp"})
_PERSONAL = frozenset({"it", "he", "she", "they"})  # pronouns that stand for a clause's subject


@functools.lru_cache(maxsize=512)
def window_parse(text: str) -> Doc:
    """SpaCy's full parse of a window, cached: the facts of one sentence share its windows.

    The parse is the whole pipeline's, entity recogniser included, and is kept with the
    run's parses (:mod:`triqua.nlp.parses`): a window that is a sentence the element graph
    parsed reuses that parse, and another is parsed once for every reader. Every attribute
    of a token (its entity kind too) is so a function of the text alone, never of what was
    parsed before it in the process: "Dr. King" in "Dr. King led the march." is the same
    person to the clause gates whether or not the sentence was read earlier.
    """
    doc = parse_many([text])[0] if text else None
    if doc is None:
        with NLP_LOCK:
            return load_nlp()(text)
    return doc


@functools.lru_cache(maxsize=64)
def entities(text: str) -> tuple[tuple[int, int, str], ...]:
    """Token spans and kinds ("PERSON", "GPE", …) of the entities the recogniser finds.

    Read from :func:`window_parse`'s parse, so the spans index its tokens.
    """
    return tuple((e.start, e.end, e.label_) for e in window_parse(text).ents)


@functools.lru_cache(maxsize=64)
def people(text: str) -> tuple[tuple[int, int], ...]:
    """Token spans of the people the entity recogniser finds in ``text``.

    Read from :func:`window_parse`'s parse, so the spans index its tokens.
    """
    return tuple((e.start, e.end) for e in window_parse(text).ents if e.label_ == "PERSON")


def clause_owner(token: SpacyToken) -> SpacyToken | None:
    """The nominal subject of the nearest clause that governs ``token`` (None: no clause).

    A relative clause or an apposition belongs to the noun it describes ("a boy named Masaru,
    who is the heir"; "the son of James Taylor, the founder of the mission"), unless the
    clause has a subject of its own ("Corinthians, where he won the cup": he won it). A pronoun
    subject that opens a later sentence is read as the subject of the sentence before it, as
    a reader takes it ("Marie married Pierre. She was born in Warsaw": she is Marie), and so is
    one opening a clause conjoined to another ("Grenoble was founded …, and it hosted …").
    An apposition in brackets is its noun's, its head word too ("Neil Armstrong (the first man
    on the Moon)"). A noun
    the copula says the subject is stands for that subject: "Adil Rami is a footballer who
    was born in 1985" and "Rami was a defender, a player who won the cup" are Rami's.
    """
    for head in (token, *token.ancestors):
        # The verb of a relative clause is the clause itself: "who was born in Lagos" is the
        # noun's, whether read from "Lagos" or from "born".
        if head.dep_ in _DESCRIBES and (
            head is not token or head.dep_ == "relcl" or _bracketed(head)
        ):
            # "Corinthians, where he won the cup": a relative clause with a subject of its own
            # (not the relative pronoun) is that subject's statement.
            own = [c for c in head.children if c.dep_ in SUBJECTS and c.tag_ not in _RELATIVE_TAGS]
            return own[0] if own else _predicated_of(head.head)
        found = [child for child in head.children if child.dep_ in SUBJECTS]
        # A label before a colon ("Passage for: …", "Note: …") is parsed as a subject too.
        found = [c for c in found if not any(t.text == ":" for t in c.subtree)] or found
        if found:
            subject = found[0]
            sentence = subject.sent
            if subject.pos_ == "PRON" and head.dep_ == "conj" and subject.lower_ in _PERSONAL:
                # "Grenoble was founded by the Romans, and it hosted …": a pronoun opening a
                # conjoined clause is read as the first clause's subject, as a reader takes it.
                first = [c for c in head.head.children if c.dep_ in SUBJECTS]
                if first and first[0].pos_ != "PRON":
                    return first[0]
            if subject.pos_ == "PRON" and subject.i == sentence.start and sentence.start > 0:
                before = subject.doc[sentence.start - 1].sent
                antecedent = [t for t in before.root.children if t.dep_ in SUBJECTS]
                if antecedent and antecedent[0].pos_ != "PRON":
                    return antecedent[0]
            return subject
    return None


def _bracketed(phrase: SpacyToken) -> bool:
    """True when ``phrase`` opens right after a bracket and renames its noun alone.

    "Neil Armstrong (the first man on the Moon)" renames Armstrong; after a preposition's
    object inside a noun phrase the bracket may rename the whole phrase ("the war against
    Germany (Second World War)"), and its head word is read with the clause.
    """
    start = phrase.left_edge.i
    if start == 0 or phrase.doc[start - 1].text not in ("(", "["):
        return False
    noun = phrase.head
    return not (noun.dep_ == "pobj" and noun.head.head.pos_ in ("NOUN", "PROPN"))


def _predicated_of(noun: SpacyToken) -> SpacyToken:
    """The subject a copula says ``noun`` is ("footballer" of "Rami is a footballer"), or it.

    An apposition of that complement is the complement too ("a defender, a player who …"),
    and so is a conjunct of it; an apposition of any other noun is that noun.
    """
    complement = noun
    # A clause after "N of <bare common noun>" may describe either noun ("a period of change
    # that began in 1789"): the complement read through "of" is the copula's too. A noun with
    # a determiner is a referent of its own: "the wife of the playwright who wrote Hamlet".
    governor = noun.head.head
    if (
        noun.dep_ == "pobj"
        and noun.pos_ == "NOUN"
        and not any(c.dep_ in ("det", "poss") for c in noun.children)
        and noun.head.lower_ == "of"
        and governor.pos_ == "NOUN"
        and governor.dep_ == "attr"
    ):
        complement = governor
    while complement.dep_ == "appos" and complement.head.i != complement.i:
        complement = complement.head
    # What a common noun's apposition describes is the name it stands beside ("The Street
    # League, a charity that organizes …"; "the novelist Claire Martin, who …" stays
    # Claire Martin's); a conjunct complement is the copula's too ("is a professor,
    # scholar, and politician who served …").
    described = noun if noun.pos_ == "PROPN" else complement
    while complement.dep_ == "conj" and complement.head.i != complement.i:
        complement = complement.head
    verb = complement.head
    if complement.dep_ != "attr" or verb.lemma_ != "be":
        return described
    subject = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    return subject[0] if subject else noun


def clause_head(token: SpacyToken) -> int:
    """The index of the head of the clause that states ``token``.

    The nearest governing word with a subject of its own; a relative or participial clause
    belongs to the noun it describes, a clause after a preposition to the clause that governs
    it ("has changed, with van Leer being the only constant member"), a verb conjoined without
    a subject to its first verb ("was born and raised in Salzburg" is one statement).
    """
    for head in (token, *token.ancestors):
        if head.dep_ in _MERGED:
            continue
        if any(child.dep_ in SUBJECTS for child in head.children):
            return head.i
    return token.sent.root.i


#: Dependents that complete a verb's predicate ("was *provost*", "served *as* …").
_COMPLEMENTS = frozenset(
    {"dobj", "attr", "acomp", "prep", "dative", "oprd", "xcomp", "ccomp", "agent"}
)


def predicate_head(token: SpacyToken) -> int:
    """The index of the head of the predicate that states ``token``.

    As :func:`clause_head`, but a verb conjoined to another is a predicate of its own when
    both have complements.
    "Condoleezza Rice was provost of Stanford and served as Secretary of State under George W.
    Bush" states two predicates of one subject, and neither says she was provost under Bush;
    "was born and raised in Salzburg" is one ("born" has no complement of its own).
    """
    for head in (token, *token.ancestors):
        if head.dep_ in _MERGED:
            continue
        if (
            head.dep_ == "conj"
            and head.pos_ in ("VERB", "AUX")
            and head.head.pos_ in ("VERB", "AUX")
            and _completed(head)
            and _completed(head.head)
        ):
            return head.i
        if any(child.dep_ in SUBJECTS for child in head.children):
            return head.i
    return token.sent.root.i


def _completed(verb: SpacyToken) -> bool:
    """True when ``verb`` has a complement of its own before any verb conjoined to it."""
    return any(c.dep_ in _COMPLEMENTS for c in verb.children)
