"""Facts of identity from appositives and parenthesised glosses.

An appositive ("Marie Curie, a physicist") or a short gloss in parentheses right after a
noun ("Copper (Cu)") states what the noun is.
"""

from __future__ import annotations

import re

from triqua.core.reading.lexicon import LEXICON
from triqua.core.text.opinion import is_evaluative, is_evaluative_word
from triqua.engines.offline.decompose.arguments import (
    DEICTIC_WORDS,
    RawFact,
    argument_text,
)
from triqua.engines.offline.decompose.phrases import (
    PLACE_ENTS,
    Refer,
    is_place,
    is_pronoun,
    is_quantity,
    is_time,
    noun_phrase,
    render,
)
from triqua.engines.offline.labels import LOCATION
from triqua.nlp.tokens import Token

_MAX_ASIDE_WORDS = 4
_NAME_DEPS = {"det", "amod", "compound", "poss", "nmod", "nummod", "punct"}
# Words opening a parenthesised remark rather than another name for the noun before it.
_ASIDE_MARKERS = {
    "also", "and", "approx", "around", "as", "at", "b", "born", "but", "by", "c",
    "ca", "cf", "d", "died", "e.g", "eg", "for", "formerly", "from", "i.e", "ie", "in",
    "including", "incl", "later", "n", "nee", "née", "not", "now", "of", "on", "or", "pictured",
    "r", "see", "sic", "since", "then", "to", "until", "was", "with",
}  # fmt: skip


def appositive_facts(noun: Token, appos: Token, refer: Refer) -> list[RawFact]:
    """An appositive states a property: "Marie Curie, a physicist" is a physicist."""
    subject = argument_text(noun, refer, None)
    obj = render(noun_phrase(appos), refer)
    if subject is None or not obj or any(is_evaluative(t) for t in appos.subtree):
        return []
    if is_quantity(noun) or is_quantity(appos):  # "100 degrees Celsius": one measure
        return []
    if is_place(noun) or is_place(appos):  # "Pensacola, Florida": a place in a larger one
        return []
    if appos.pos_ == "PROPN" and (  # "in films such as A, B": a list
        _in_prep_phrase(noun) or any(c.dep_ == "conj" for c in appos.children)
    ):  # "in the series Doctor Who, Doomsday Dora in ..., Birdie Henshall in ...": a list too
        return []
    return [RawFact(subject, "is", obj)]


def aside_facts(noun: Token, aside: str, refer: Refer) -> list[RawFact]:
    """A short parenthesised name or gloss right after a noun defines it, like an appositive.

    Only a few words without digits, commas or a leading marker ("born", "see", "or") count:
    dates, measures, lists and remarks in parentheses state no identity. A noun inside a
    prepositional phrase is left out, as the appositive rule leaves out its listed names.
    """
    words = aside.split()
    if not words or len(words) > _MAX_ASIDE_WORDS or noun.pos_ not in {"NOUN", "PROPN"}:
        return []
    if any(ch.isdigit() or ch in ",;:=/" for ch in aside) or not aside[0].isalpha():
        return []
    if words[0].lower().rstrip(".") in _ASIDE_MARKERS or any(is_evaluative_word(w) for w in words):
        return []
    if is_quantity(noun) or is_place(noun) or is_time(noun) or _in_prep_phrase(noun):
        return []
    if (is_pronoun(noun) or noun.lower_ in DEICTIC_WORDS) and refer(noun) is None:
        return []
    subject = render(_name_before(noun), refer)
    return [RawFact(subject, "is", aside)] if subject else []


_MONTH = "|".join(sorted((re.escape(m) for m in LEXICON.month_numbers), key=len, reverse=True))
# A date of a life: a year, with a month and day before it ("7 November 1867", "May 1, 1901").
_DATE = (
    rf"(?:(?:\d{{1,2}}\s+)?(?:{_MONTH})\.?\s+(?:\d{{1,2}},?\s+)?)?\d{{3,4}}(?:\s*(?:AD|CE|BC|BCE))?"
)
_DAY = re.compile(r"(?<![\d])\d{1,2}(?![\d])")
_LIFE_RANGE = re.compile(
    rf"^(?:born\s+)?(?P<born>{_DATE})\s*[-\u2013\u2014]\s*(?P<died>{_DATE})$", re.I
)
_LIFE_EVENT = re.compile(
    rf"^(?P<word>born|b\.|died|d\.)\s+(?P<date>{_DATE})(?:,?\s+in\s+(?P<place>[^\d,;()]+))?$",
    re.I,
)


def life_date_facts(noun: Token, aside: str, refer: Refer) -> list[RawFact]:
    """Life dates in parentheses right after a person's name state when they were born and died.

    "Isaac Newton (1643–1727)" gives (Isaac Newton, was born in, 1643) and (Isaac Newton,
    died in, 1727); "(born 1912)", "(b. 1912)", "(died 7 June 1954)" give one of them, in
    the form the clause rules give "was born in 1912" ("on" for a date with a day), and a
    place after the date ("born 1867 in Warsaw") its ``location``. A bare range counts
    after a person's name only (a state's "(1701–1918)" is no life); approximate dates
    ("c. 1643") give nothing.
    """
    if noun.pos_ not in {"NOUN", "PROPN"} or is_time(noun) or is_quantity(noun):
        return []
    text = " ".join(aside.split())
    events: list[tuple[str, str, tuple[tuple[str, str], ...]]] = []
    found = _LIFE_RANGE.match(text)
    if found and noun.ent_type_ == "PERSON":
        events = [("born", found["born"], ()), ("died", found["died"], ())]
    elif (found := _LIFE_EVENT.match(text)) and noun.ent_type_ not in PLACE_ENTS:
        word = "born" if found["word"].lower().startswith("b") else "died"
        place = (found["place"] or "").strip()
        events = [(word, found["date"], ((LOCATION, place),) if place else ())]
    if not events:
        return []
    subject = render(_name_before(noun), refer)
    if noun.pos_ == "PROPN" and subject == noun.text:  # "Newton" alone: the text's full name
        subject = refer(noun) or subject
    if not subject:
        return []
    out = []
    for word, date, qualifiers in events:
        value = date.replace(",", "")
        prep = "on" if _DAY.search(re.sub(r"\d{3,4}", "", value)) else "in"
        relation = f"was born {prep}" if word == "born" else f"died {prep}"
        out.append(RawFact(subject, relation, value, qualifiers))
    return out


def _in_prep_phrase(noun: Token) -> bool:
    """True when ``noun`` sits in a prepositional phrase of its clause ("of the ACL").

    Like a listed appositive, an aside there is left out: the name it defines ("the
    Association for Computational Linguistics (ACL)") cannot be told from the phrase around it.
    """
    for token in [noun, *noun.ancestors]:
        if token.pos_ in {"VERB", "AUX"}:
            return False
        if token.dep_ == "pobj":
            return True
    return False


def _name_before(noun: Token) -> list[Token]:
    """The words of ``noun``'s phrase up to it that name it ("Sodium chloride" of chloride).

    Stops at a lowercase plural modifier, which in a verbless parse is a swallowed verb
    ("Copper displaces iron (Fe)" names iron, not "Copper displaces iron").
    """
    tokens = [noun]
    for child in reversed(list(noun.lefts)):
        if child.dep_ not in _NAME_DEPS or (child.tag_ == "NNS" and child.is_lower):
            break
        tokens += list(child.subtree)
    return tokens
