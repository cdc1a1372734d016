"""Grammatical gender of person mentions, so "she" and "he" pick a compatible antecedent.

Read by the offline decomposer's coreference and by the name reader both engines share
(``core.reading.values.name_rivals``: "Marie Curie worked with Pierre Curie. She …" is
about Marie Curie).

A cheap stand-in for a coreference model: a title ("Mrs", "Sir"), a common first name, or
a gendered noun said of the person ("an actress", "his wife") marks a mention female or
male; anything else stays unknown and stays a candidate for either pronoun. The name lists
are small on purpose (frequent names across languages); a wrong guess only loses a
candidate, it never invents one.
"""

from __future__ import annotations

import re
from typing import Literal

from triqua.core.reading.described import thing_name
from triqua.nlp.passages import entities

Gender = Literal["female", "male"]

FEMALE_TITLES = frozenset(
    {"mrs", "ms", "miss", "madame", "mme", "lady", "dame", "queen", "princess", "duchess",
     "countess", "empress", "sister"}
)  # fmt: skip
MALE_TITLES = frozenset(
    {"mr", "sir", "lord", "king", "prince", "duke", "count", "emperor", "pope", "brother",
     "monsieur", "herr", "sheikh"}
)  # fmt: skip
FEMALE_NAMES = frozenset(
    {
        "ada", "agatha", "agnes", "alice", "amanda", "amelia", "amy", "ana", "angela",
        "angelina", "ann", "anna", "anne", "audrey", "barbara", "beatrice", "beyonce", "billie",
        "carmen", "carol", "caroline", "catherine", "charlotte", "chloe", "claire", "clara",
        "cleopatra", "cynthia", "diana", "dolly", "dorothy", "edith", "eleanor", "elena",
        "elizabeth", "ella", "ellen", "emily", "emma", "eva", "eve", "florence", "frida",
        "grace", "greta", "hannah", "harriet", "helen", "hillary", "ingrid", "irene", "isabel",
        "isabella", "jane", "janet", "jennifer", "jessica", "joan", "josephine", "judith",
        "julia", "julie", "karen", "kate", "katherine", "laura", "lily", "linda", "lisa",
        "louise", "lucy", "madonna", "margaret", "maria", "marie", "marilyn", "martha", "mary",
        "maya", "meryl", "michelle", "monica", "nancy", "natalie", "nicole", "olivia",
        "patricia", "rachel", "rebecca", "rihanna", "rosa", "rose", "ruth", "sandra", "sarah",
        "serena", "simone", "sophia", "sophie", "susan", "teresa", "tilda", "valentina",
        "vanessa", "victoria", "virginia", "whitney"
    }
)  # fmt: skip
MALE_NAMES = frozenset(
    {
        "abraham", "adam", "albert", "alexander", "alfred", "andrew", "anthony", "antonio",
        "arthur", "barack", "benjamin", "bill", "bob", "brian", "bruce", "carl", "carlos",
        "charles", "christopher", "cristiano", "daniel", "david", "diego", "donald", "edward",
        "elvis", "eric", "ernest", "francis", "frank", "franz", "frederick", "george",
        "gustave", "harry", "henri", "henry", "isaac", "jack", "jacques", "james", "jean",
        "johann", "john", "jorge", "jose", "joseph", "juan", "karl", "kevin", "kobe",
        "leonardo", "lionel", "louis", "ludwig", "luis", "mark", "martin", "matthew", "michael",
        "mohammed", "muhammad", "napoleon", "neil", "nelson", "nikola", "oscar", "pablo",
        "paul", "pedro", "peter", "pierre", "richard", "robert", "ronald", "samuel", "sergio",
        "stephen", "steve", "steven", "thomas", "tim", "tom", "vincent", "walter", "william",
        "winston", "wolfgang"
    }
)  # fmt: skip
FEMALE_NOUNS = frozenset(
    {
        "actress", "aunt", "businesswoman", "chairwoman", "congresswoman", "daughter",
        "duchess", "empress", "girl", "goddess", "grandmother", "heiress", "lady", "mother",
        "niece", "nun", "princess", "queen", "sister", "sportswoman", "waitress", "widow",
        "wife", "woman"
    }
)  # fmt: skip
MALE_NOUNS = frozenset(
    {
        "actor", "boy", "brother", "businessman", "chairman", "congressman", "duke", "emperor",
        "father", "gentleman", "grandfather", "heir", "husband", "king", "man", "monk",
        "nephew", "prince", "son", "sportsman", "uncle", "widower"
    }
)  # fmt: skip
PRONOUN_GENDER: dict[str, Gender] = {
    **dict.fromkeys(["she", "her", "hers", "herself"], "female"),
    **dict.fromkeys(["he", "him", "his", "himself"], "male"),
}


def name_gender(words: list[str]) -> Gender | None:
    """The gender a person's name shows by its title or first name, if any."""
    for word in words[:2]:
        lowered = word.lower().rstrip(".")
        if lowered in FEMALE_TITLES:
            return "female"
        if lowered in MALE_TITLES:
            return "male"
    for word in words[:2]:
        lowered = word.lower()
        if lowered in FEMALE_NAMES:
            return "female"
        if lowered in MALE_NAMES:
            return "male"
    return None


def noun_gender(word: str) -> Gender | None:
    """The gender a noun said of a person implies ("actress"), if any."""
    lowered = word.lower()
    if lowered in FEMALE_NOUNS:
        return "female"
    if lowered in MALE_NOUNS:
        return "male"
    return None


#: Pronouns of one person of a known gender ("he", "her").
_GENDERED = re.compile(r"\b(?:he|she|him|his|her|himself|herself)\b", re.IGNORECASE)


def pronoun_gender(text: str) -> Gender | None:
    """The gender of the first pronoun of one person ``text`` writes ("She was …"), if any."""
    found = _GENDERED.search(text)
    return PRONOUN_GENDER.get(found.group().lower()) if found else None


def may_be_person(name: str, gender: Gender) -> bool:
    """True when a "he" or "she" of ``gender`` may stand for the one ``name`` names.

    Never a thing's name ("University of Queensland": ``described.thing_name``), nor one
    whose title or first name shows the other gender ("Andrew Frankel" for "she").
    """
    shown = name_gender(name.split())
    return not thing_name(name) and shown in (None, gender)


#: Entity kinds no "he" or "she" stands for: places, organisations, works, events.
_THING_KINDS = frozenset({"PLACE_ORG", "WORK", "EVENT"})


def may_stand_for(name: str, sentence: str, gender: Gender, person: bool = False) -> bool:
    """True when a "he" or "she" of ``gender`` may stand for ``name`` as ``sentence`` names it.

    Besides :func:`may_be_person`, a name the entity recogniser reads in ``sentence`` as a
    place, an organisation, a work or an event is no one's ("Warsaw was then part of the
    Russian Empire. She moved to Paris." is not about Warsaw), unless its first name shows a
    person, or the sentence says it is one (``person``: "Her husband Diego Rivera") or speaks
    of one by a pronoun ("Chelsea, her closest friend, …": the recogniser's place).
    """
    if not may_be_person(name, gender):
        return False
    if person or name_gender(name.split()) is not None or pronoun_gender(sentence):
        return True
    found = [(sentence[a:b], kind) for a, b, kind in entities(sentence)]
    return not any(kind in _THING_KINDS and name in text for text, kind in found)
