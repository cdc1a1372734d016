"""Works named by their titles: what says a subject names a work, not a person.

The words are data (``engines/offline/data/titles.json``) with sentences run as tests. A
subject names a work where its clause says so: a copula whose complement is a work ("Jerry
Maguire is a 1996 film") or the passive of an author's verb with its agent ("More was
written by Matthew West"). Pronoun resolution reads such a subject as the "it" of what
follows and never as "he" or "she"; the clause rules keep as a subject a title that is also
a pronoun or a determiner ("More", "Her") where it opens such a clause.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any

from triqua.nlp.tokens import Doc, Token


@cache
def _data() -> dict[str, Any]:
    raw = resources.files("triqua.engines.offline").joinpath("data/titles.json")
    data: dict[str, Any] = json.loads(raw.read_text("utf-8"))
    return data


@cache
def _words() -> dict[str, frozenset[str]]:
    """The word lists of ``titles.json``, as sets."""
    return {k: frozenset(v) for k, v in _data().items() if k not in {"_doc", "examples"}}


def title_examples() -> dict[str, list[Any]]:
    """The sentences of ``titles.json`` that are run as tests, by kind."""
    found: dict[str, list[Any]] = _data()["examples"]
    return found


_SUBJECT_DEPS = {"nsubj", "nsubjpass"}
#: Pronouns and determiners that stand for something said before even where the clause
#: reads as a work's ("It was directed by Andy Muschietti" after a film is that film).
_REFERRING = frozenset(
    {"it", "he", "she", "they", "we", "i", "you", "this", "that", "these", "those", "there"}
    | {"which", "what", "who", "whom", "former", "latter"}
)
#: Words that make a subject written about the topic of the clause, not its maker's work.
_TOPIC_PREPOSITIONS = frozenset({"about", "on", "of"})


def names_work(subject: Token) -> bool:
    """True when ``subject``'s clause says it names a work.

    "Jerry Maguire is a 1996 film" (a copula whose complement is a work) and "More was
    written by Matthew West" (an author's verb in the passive, with its agent).
    """
    if subject.dep_ not in _SUBJECT_DEPS:
        return False
    verb, words = subject.head, _words()
    if verb.lemma_ == "be":  # every noun the complement joins is a work's: not "drama writer"
        return any(
            all(
                t.lower_ in words["work_nouns"] or t.text in words["work_nouns"]
                for t in (*attr.conjuncts, attr)
            )
            for attr in verb.children
            if attr.dep_ == "attr"
        )
    return (
        verb.lower_ in words["author_verbs"]
        and any(c.dep_ == "auxpass" for c in verb.children)
        and any(c.dep_ == "agent" for c in verb.children)
        and not any(c.dep_ == "prep" and c.lower_ in _TOPIC_PREPOSITIONS for c in verb.children)
    )


def is_title_word(token: Token, closed_words: frozenset[str]) -> bool:
    """True for a capitalised pronoun or determiner that opens a sentence as a work's title.

    One of the data's ``title_pronouns`` never opens a sentence as its subject ("Her was
    directed by Spike Jonze"); another word of ``closed_words`` (pronouns and determiners)
    does so as a title only where its clause says it names a work, with a singular verb
    ("More is a popular Christian song"; "Most were killed" and "More was spent on defence"
    name no work). Words that refer back ("It was directed by …") stay pronouns.
    """
    word = token.lower_
    if (
        token.dep_ not in _SUBJECT_DEPS
        or token.i != token.sent.start
        or not token.is_title
        or word in _REFERRING
    ):
        return False
    if word in _words()["title_pronouns"]:
        return True
    if word not in closed_words:
        return False
    verb = token.head
    finite = [c for c in verb.children if c.dep_ in {"aux", "auxpass"}] or [verb]
    singular = finite[0].tag_ == "VBZ" or finite[0].lower_ == "was"
    return singular and names_work(token)


def retag_title_words(doc: Doc, closed_words: frozenset[str]) -> None:
    """Tag each title that is also a pronoun or determiner (``is_title_word``) a proper noun."""
    for sent in doc.sents:
        token = sent[0]
        if is_title_word(token, closed_words):
            token.pos_, token.tag_ = "PROPN", "NNP"


def is_title_subject(text: str, tokens: Iterable[Token]) -> bool:
    """True when ``text`` is one proper noun of ``tokens``: a title, whatever its word."""
    return any(t.pos_ == "PROPN" and t.text == text for t in tokens)


def one_title(token: Token, other: Token) -> bool:
    """True when ``token`` and ``other`` stand in one title ("Pride and Prejudice").

    The entity recogniser reads "War and Peace" as one work: its "and" joins no two objects,
    and the title keeps its conjunct.
    """
    low, high = min(token.i, other.i), max(token.i, other.i)
    return any(
        ent.label_ == "WORK_OF_ART" and ent.start <= low and high < ent.end
        for ent in token.doc.ents
    )
