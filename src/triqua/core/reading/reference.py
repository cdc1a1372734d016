"""Pronouns that stand for the one a sentence is about, and pronouns inside another's phrase.

"She was born in Warsaw" says it of her; "Her rival was born in Warsaw" and "The man who
married her was born in Warsaw" say it of someone else, although they hold her pronoun: the
pronoun sits inside the phrase that is the sentence's subject, headed by another noun. A
pronoun carries the unit's subject only where it stands free of such a phrase (the parser's
dependencies): as the subject itself, or anywhere outside another subject ("The prize was
awarded to her").
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from triqua.core.reading.owned_things import owned_thing
from triqua.core.reading.person_roles import person_role
from triqua.core.reading.rules_file import read_rules_file
from triqua.nlp.clauses import window_parse
from triqua.nlp.parses import parse_many

if TYPE_CHECKING:
    from triqua.nlp.tokens import Token

__all__ = [
    "another_person",
    "coordinated_phrases",
    "core_names",
    "free_pronoun",
    "main_subject",
    "named_other_subject",
    "plural_subject",
    "prepositional_persons",
    "tenure_place",
    "typed_core_names",
]

#: Dependencies of a clause's subject.
_SUBJECTS = frozenset(("nsubj", "nsubjpass", "csubj", "expl"))


def free_pronoun(text: str, pronouns: frozenset[str]) -> bool:
    """True when ``text`` writes one of ``pronouns`` outside the subject phrase of another.

    A pronoun whose chain of heads reaches a clause's subject other than itself ("Her" of
    "Her rival", "her" of "who married her" under "The man") is part of a phrase about
    someone else.
    """
    if not text.strip():
        return False
    # Dependencies only, read from the window's one full parse (``nlp.clauses``).
    for token in window_parse(text):
        if token.lower_ not in pronouns:
            continue
        if token.dep_ in _SUBJECTS:
            return True
        head, inside = token, False
        while head.head.i != head.i:
            head = head.head
            if head.dep_ in _SUBJECTS and head.lower_ not in pronouns:
                inside = True
                break
        if not inside:
            return True
    return False


def named_other_subject(
    text: str, pronouns: frozenset[str], owners: frozenset[str] = frozenset()
) -> bool:
    """True when a clause's subject that holds one of ``pronouns`` is named as someone else.

    "Her sister Bronya studied medicine" is about Bronya, named beside the noun the pronoun
    qualifies; "Her move to Paris came in 1891" names only a place inside its subject, and
    is still about her; so is "his debut album LP1", a thing one of ``owners`` (the
    possessives of the quote's pronoun) holds (``core.reading.owned_things``).
    """
    if not text.strip():
        return False
    doc = parse_many([text])[0]
    for token in doc or ():
        if token.dep_ not in _SUBJECTS or token.lower_ in pronouns or owned_thing(token, owners):
            continue
        if not any(t.lower_ in pronouns for t in token.subtree if t.i != token.i):
            continue
        if token.pos_ == "PROPN" or any(
            c.dep_ == "appos" and c.pos_ == "PROPN" for c in token.children
        ):
            return True
    return False


#: Dependencies of the words a subject's name is written with: "Oskar" of "Oskar Lindqvist",
#: "Rolling" of "The Rolling Stones", "Bronya" of "Her sister Bronya", "Einstein" of
#: "Einstein's theory", "Henri Becquerel" of "Pierre Curie and Henri Becquerel".
_NAMING = frozenset(("compound", "flat", "appos", "poss", "conj"))


def main_subject(text: str) -> list[Token] | None:
    """The words of the main clause's subject that may write a name, or None when it has none.

    The subject is the ``nsubj``/``nsubjpass`` of the parse's root, with the words naming it
    (compounds, appositions, possessors, conjuncts). A name inside an opening phrase is no
    part of it: "Trained by Oskar Lindqvist, the chemist won …" is about the chemist, and
    "After Newton left Ulm, the family moved …" about the family. A fragment without a
    subject ("1 in 18 countries") gives None.
    """
    if not text.strip():
        return None
    doc = parse_many([text])[0]
    for root in (t for t in doc or () if t.dep_ == "ROOT"):
        subject = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if subject is None:
            continue
        words, stack = [subject], [subject]
        while stack:
            for child in stack.pop().children:
                if child.dep_ in _NAMING:
                    words.append(child)
                    stack.append(child)
        return sorted(words, key=lambda t: t.i)
    return None


#: Dependencies of a clause's core arguments: its subject, object and what it is said to be.
_CORE = frozenset(("nsubj", "nsubjpass", "dobj", "attr", "conj", "appos"))


#: Entity types of a name a pronoun or "the film" may stand for: a person, or what the
#: parser takes a person or a titled work for ("Joker", "Okja"); not "the Nobel Prize".
_WHO = frozenset(("PERSON", "ORG"))


def core_names(text: str) -> list[str]:
    """The names ``text`` gives a clause as its subject, object or complement, as written.

    Only names of people (or what the parser takes for one, or for an organisation) count.

    "Pierre Curie married Marie Curie" gives both; "Marie Curie won it, together with
    Pierre Curie" only Marie Curie (a name after a preposition is no core argument).
    """
    return [name for name, _ in typed_core_names(text)]


#: Words inside a person's name between its proper nouns ("Jean-Paul", "Simone de Beauvoir").
_NAME_LINKS = frozenset(
    ("-", "de", "da", "das", "do", "dos", "van", "von", "der", "den", "bin", "ibn", "al")
) | frozenset(("del", "di", "du", "la", "le"))


def _name_run(token: Token) -> list[Token]:
    """The proper nouns of the name closing at ``token``, within its phrase.

    "Born in Bastia, Corsica, Rami began …" names Rami, not "Bastia Corsica Rami"; a hyphen
    or a particle inside a name keeps it one ("Jean-Paul Sartre", "Simone de Beauvoir"), and
    so does a possessor's "'s" ("Beethoven's Ninth Symphony" is Beethoven's, no other name).
    """
    doc, subtree, start = token.doc, {t.i for t in token.subtree}, token.i
    while start - 1 in subtree and (
        doc[start - 1].pos_ == "PROPN"
        or (
            (doc[start - 1].lower_ in _NAME_LINKS or doc[start - 1].tag_ == "POS")
            and start - 2 in subtree
            and doc[start - 2].pos_ == "PROPN"
        )
    ):
        start -= 1
    return [doc[i] for i in range(start, token.i + 1) if doc[i].pos_ == "PROPN"]


def typed_core_names(text: str) -> list[tuple[str, str]]:
    """The names :func:`core_names` reads, each with its entity type ("PERSON", "ORG")."""
    if not text.strip():
        return []
    doc = parse_many([text])[0]
    found = []
    for token in doc or ():
        if token.pos_ != "PROPN" or token.dep_ not in _CORE or token.ent_type_ not in _WHO:
            continue
        words = _name_run(token)
        # A conjunct or apposition of a prepositional object is no core argument.
        head = token
        while head.dep_ in ("conj", "appos") and head.head.i != head.i:
            head = head.head
        if head.dep_ not in _CORE - {"conj", "appos"} or _alias(head):
            continue
        name = " ".join(t.text for t in words if t.i >= words[0].i)
        found.append((name, token.ent_type_))
    return found


#: Nouns by which a clause gives a name to one named before it ("whose real name is …").
_NAME_NOUNS = frozenset(("name", "nickname", "surname", "alias", "pseudonym"))


def _alias(token: Token) -> bool:
    """True when ``token`` is another name of the one a relative clause describes.

    "Ji Sung, whose real name is Kwak Tae-geun, was born …" names one person: the name
    after "whose … name is" is no other one beside him.
    """
    verb = token.head
    return (
        token.dep_ == "attr"
        and verb.dep_ in ("relcl", "appos")
        and verb.head.pos_ == "PROPN"
        and any(c.dep_ == "nsubj" and c.lower_ in _NAME_NOUNS for c in verb.children)
    )


#: Prepositions whose object may be a person a later "he" or "she" stands for.
_PERSON_PREPOSITIONS = frozenset(
    ("with", "to", "by", "from", "under", "for", "alongside", "against", "beside", "between")
)
#: Entity types of a name after such a preposition that may be a person's: the recogniser
#: takes "Galileo Galilei" for a product and "Sergei Diaghilev" for no entity, but a place,
#: an organisation or a date is none ("worked in Prague", "was fired from Apple"). It takes
#: some people for organisations or places too ("Leo Szilard"): those are persons only by a
#: role that only a person holds (``core.reading.person_roles``: "corresponded with").
_PERSON_LIKE = frozenset(("PERSON", "PRODUCT", ""))


def prepositional_persons(
    text: str, kin: frozenset[str] = frozenset(), chained: frozenset[str] = frozenset()
) -> list[str]:
    """The names ``text`` gives as a person-taking preposition's object, as written.

    "Johannes Kepler corresponded with Galileo Galilei" gives "Galileo Galilei"; so do "was
    succeeded by Harry S. Truman", "studied under Plato" and "worked for Thomas Edison". A
    "he" or "she" in the sentence after it may mean that person as well as the subject.
    "By" counts only as a passive's agent: "translated an article by Luigi Menabrea" names
    an author inside a phrase, no one the sentence is about. Nor is the place of a tenure a
    person ("began his career with Shakhtar Donetsk", "played for Paris Saint-Germain":
    :func:`tenure_place`), whatever the recogniser takes it for; nor a name after an article
    ("against the Malayan Union"), nor one set beside a common noun that is no person's
    ("for his crime drama, Shiva"; ``kin`` holds the nouns that are: "his friend Marcel
    Grossmann"). A name after one of the pronouns ``chained`` (outside the name's phrase)
    is none either: the sentence already goes on about the one that pronoun stands for
    ("when he played … alongside Lee Byung-hun. He …").
    """
    if not text.strip():
        return []
    doc = parse_many([text])[0]
    found = []
    for token in doc or ():
        if token.pos_ != "PROPN" or token.is_upper:
            continue  # a word in capitals is a heading's or an acronym ("TO POLITICIAN")
        typed = token.ent_type_ in _PERSON_LIKE  # else a person only by its role, below
        head = token
        while head.dep_ in ("conj", "appos") and head.head.i != head.i:
            if head.dep_ == "appos" and head.head.pos_ == "NOUN" and head.head.lower_ not in kin:
                break  # "his crime drama, Shiva": a drama's name
            head = head.head  # "with Pierre Curie and Paul Langevin"
        preposition = head.head
        if head.dep_ != "pobj" or preposition.lower_ not in _PERSON_PREPOSITIONS:
            continue
        if preposition.lower_ == "by" and preposition.dep_ != "agent":
            continue  # an author inside a phrase ("an article by Luigi Menabrea")
        if (
            tenure_place(preposition)
            or _after_article(token)
            or _chained_before(preposition, chained)
        ):
            continue  # a club one played for; "the Malayan Union"; "… he played alongside X"
        words = _name_run(token)
        if not (typed or person_role(words, preposition)):
            continue  # "with Leo Szilard" typed a body: a person by "corresponded with"
        found.append(" ".join(t.text for t in words if t.i >= words[0].i))
    return found


#: Articles: a name after one is a thing's or a body's ("the Malayan Union"), no person's.
_ARTICLES = frozenset(("the", "a", "an"))


def _after_article(token: Token) -> bool:
    """True when the name closing at ``token`` opens with an article ("the House")."""
    return any(c.dep_ == "det" and c.lower_ in _ARTICLES for c in token.children)


def _chained_before(preposition: Token, chained: frozenset[str]) -> bool:
    """True when a pronoun of ``chained`` comes before ``preposition``'s phrase, outside it."""
    inside = {t.i for t in preposition.subtree}
    return any(
        t.lower_ in chained and t.pos_ == "PRON" and t.i not in inside
        for t in preposition.doc[: preposition.i]
    )


TENURES_PATH = Path(__file__).parent / "data" / "tenures.json"


@functools.cache
def _tenures() -> tuple[frozenset[str], frozenset[tuple[str, str]]]:
    """The tenure nouns and the head-preposition pairs of ``data/tenures.json``."""
    raw = read_rules_file(TENURES_PATH, "tenures")
    pairs = frozenset((head, prep) for head, prep in raw["head_prepositions"])
    return frozenset(raw["nouns"]), pairs


def _forms(word: str) -> set[str]:
    """The words an inflected ``word`` may be written for ("seasons", "played", "scored")."""
    w = word.lower()
    return {w, w[:-1], w[:-2], w[:-3], w[:-3] + "e"} - {""}


def tenure_place(preposition: Token) -> bool:
    """True when ``preposition`` gives the place of someone's tenure, never a person.

    Its object is where one served: hung on a tenure noun ("his career with Shakhtar
    Donetsk"), on a verb whose direct object is one ("spent seven seasons with Dynamo Kyiv"),
    or given by a verb or an office that takes the body or the seat one serves ("played for
    Paris Saint-Germain", "Member of Parliament for Blair").
    The words are data (``data/tenures.json``, with examples run as tests).
    """
    nouns, pairs = _tenures()
    head, prep = preposition.head, preposition.lower_
    forms = _forms(head.text)
    if forms & nouns or any((form, prep) in pairs for form in forms):
        return True
    if head.pos_ not in ("VERB", "AUX"):
        return False
    return any(c.dep_ == "dobj" and _forms(c.text) & nouns for c in head.children)


def coordinated_phrases(text: str) -> list[tuple[str, str]]:
    """Noun phrases ``text`` joins as equals in a clause's core part, each pair as written.

    "The Bengal tiger and the Amur tiger are both endangered" gives ("The Bengal tiger",
    "the Amur tiger"): a pronoun or "the species" after it may mean either. A pair after a
    preposition ("founded by Bill Gates and Paul Allen") is no core part.
    """
    if not text.strip():
        return []
    doc = parse_many([text])[0]
    pairs = []
    for token in doc or ():
        head = token.head
        if token.dep_ != "conj" or token.pos_ not in _NOUNS or head.pos_ not in _NOUNS:
            continue
        if head.dep_ in _CORE - {"conj", "appos"}:
            pairs.append((_phrase(head), _phrase(token)))
    return pairs


_NOUNS = frozenset(("NOUN", "PROPN"))


def _phrase(token: Token) -> str:
    """The words of the noun phrase ``token`` heads, without the phrases joined to it."""
    left = [t for t in token.lefts if t.dep_ not in ("cc", "conj", "punct", "preconj")]
    start = min((t.left_edge.i for t in left), default=token.i)
    return token.doc[start : token.i + 1].text


#: A person's pronouns as the object of a verb or preposition ("defended her").
_OBJECT_PRONOUNS = frozenset(("her", "him", "them"))
_OBJECT_DEPS = frozenset(("dobj", "dative", "iobj", "pobj"))


def another_person(subject: Sequence[Token], kin: frozenset[str]) -> bool:
    """True when an unnamed subject is a person other than the one named before it.

    A noun of a person known by another ("The lawyer …", "Her coach …": the words by
    which "X's <noun>" names another person) is someone else; so is any subject acting on
    a person's pronoun ("The lawyer defended her"): its sentence speaks of two people,
    and a pronoun after it ("She won the case") may be either of them. ``kin`` holds the
    nouns of a person known by another.
    """
    head = next((t for t in subject if t.dep_ in _PERSON_SUBJECTS), None)
    if head is None:
        return False
    if head.lower_ in kin or head.lemma_.lower() in kin:
        return True
    return any(
        t.lower_ in _OBJECT_PRONOUNS and t.tag_ == "PRP" and t.dep_ in _OBJECT_DEPS
        for t in head.head.subtree
    )


_PERSON_SUBJECTS = frozenset(("nsubj", "nsubjpass"))


def plural_subject(subject: Sequence[Token]) -> bool:
    """True when a subject's head is a plural common noun ("Her parents", "Doctors").

    A "he" or "she" after its sentence is none of them: it goes on about the one named before.
    """
    return any(t.dep_ in _PERSON_SUBJECTS and t.tag_ == "NNS" for t in subject)
