"""Sentence ends after abbreviations: "Sr., a pastor" goes on; "King Jr. He was born" ends.

SpaCy's rule sentencizer ends a sentence at every period its tokenizer splits off, and the
English tokenizer keeps only some abbreviations whole ("Dr.", "Jr."): "Martin Luther King
Sr., a pastor, was born in Atlanta" was two sentences, "Martin Luther King Sr.," and "a
pastor, was born in Atlanta", so a fact about King Sr. was read against half a sentence. A
sentence never goes on with a comma, nor after an abbreviation with a lower-case word or a
number, so a break there is undone. The abbreviations are data (``data/abbreviations.json``,
with every abbreviation the tokenizer keeps whole), so a period after an ordinary word
followed by a lower-case word (a sentence that starts in lower case) still ends a sentence.

The other way round, the sentencizer never ends a sentence at a period the tokenizer keeps
inside a word ("Jr.", "Inc.", "U.S."), so "Martin Luther King Jr. He was born in Atlanta."
was one sentence and its second half was read as said of whoever the first half named. A
sentence does end there when the abbreviation is one that closes a name, firm or place (the
data's ``closing`` list, or dotted initials such as "U.S.") and the next word is a sentence
opener of the data (a capitalised pronoun, article or "In", "After", ...). Titles that stand
before a name ("Dr.", "St.") never end one: "Dr. He Jiankui" is a name.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from triqua.nlp.tokens import Doc, Language

__all__ = [
    "COMPONENT",
    "abbreviation_ends",
    "abbreviations",
    "closes_sentence",
    "closing_words",
    "join_abbreviation_ends",
    "split_abbreviation_ends",
]

COMPONENT = "abbreviation_ends"
"""Name of the pipeline component that runs :func:`join_abbreviation_ends` after a sentencizer."""

#: Punctuation a sentencizer keeps at the end of a sentence after its period.
_TRAILING = frozenset({",", ";", ":", ")", "]", '"', "'", "’", "”"})
#: Punctuation right after a period that shows the sentence goes on.
_GOES_ON = frozenset({",", ";"})
#: Dotted initials a sentence can end on ("U.S.", "D.C.", "Ph.D.").
_DOTTED = re.compile(r"(?:[A-Za-z]{1,2}\.){2,}")


@cache
def _data() -> dict[str, list[str]]:
    raw = resources.files("triqua.nlp").joinpath("data/abbreviations.json").read_text("utf-8")
    data: dict[str, list[str]] = json.loads(raw)
    return data


@cache
def abbreviations() -> frozenset[str]:
    """Abbreviations whose period ends no sentence before a comma, lower-case word or number.

    The shipped list (``data/abbreviations.json``) and every abbreviation with a period that
    spaCy's English tokenizer keeps whole.
    """
    from spacy.lang.en import English

    listed = set(_data()["abbreviations"])
    exceptions = English.Defaults.tokenizer_exceptions
    kept_whole = {k for k in exceptions if len(k) > 1 and k.endswith(".")}
    return frozenset(listed | kept_whole)


def _abbreviation_before(doc: Doc, start: int) -> tuple[str, bool] | None:
    """The word ending in a period before the sentence start ``start``, and whether a comma follows.

    Trailing punctuation after the period is passed over; None when no period is there.
    """
    k = start - 1
    while k > 0 and doc[k].text in _TRAILING:
        k -= 1
    period = doc[k]
    goes_on = k + 1 < start and doc[k + 1].text in _GOES_ON
    if period.text == "." and k > 0 and not doc[k - 1].whitespace_:
        return doc[k - 1].text + ".", goes_on
    if len(period.text) > 1 and period.text.endswith("."):
        return period.text, goes_on
    if period.text == ".":
        return ".", goes_on
    return None


def join_abbreviation_ends(doc: Doc) -> Doc:
    """Undo the sentence breaks ``doc``'s sentencizer made after an abbreviation's period.

    A break goes when the period is followed by a comma or semicolon ("Sr., a pastor"), or
    when the word before it is a listed abbreviation and the next sentence would open with a
    lower-case word or a number ("et al. found", "c. 1850").
    """
    words = abbreviations()
    for token in doc[1:]:
        if not token.is_sent_start:
            continue
        found = _abbreviation_before(doc, token.i)
        if found is None:
            continue
        word, goes_on = found
        opens = token.text[:1]
        if goes_on or (word in words and (opens.islower() or opens.isdigit())):
            token.is_sent_start = False
    return doc


@cache
def closing_words() -> tuple[frozenset[str], frozenset[str]]:
    """The abbreviations that can close a sentence, and the words that open the next one."""
    data = _data()
    return frozenset(data["closing"]), frozenset(data["openers"])


def closes_sentence(word: str, following: str) -> bool:
    """Whether ``word`` (a token the tokenizer kept whole, period included) ends its sentence.

    It does when it closes a name, firm or place ("Jr.", "Inc.", "U.S.") and ``following``
    opens a sentence ("He", "The", "In").
    """
    closing, openers = closing_words()
    return following in openers and (word in closing or _DOTTED.fullmatch(word) is not None)


def split_abbreviation_ends(doc: Doc) -> Doc:
    """End a sentence after a closing abbreviation the sentencizer read through.

    "Martin Luther King Jr. He was born in Atlanta." is two sentences; "Dr. He Jiankui" and
    "the U.S. Army" stay one.
    """
    for token in doc[:-1]:
        text = token.text
        if not (len(text) > 2 and text.endswith(".") and token.whitespace_):
            continue  # most tokens: the next one is not looked up
        after = doc[token.i + 1]
        if not after.is_sent_start and closes_sentence(text, after.text):
            after.is_sent_start = True
    return doc


def abbreviation_ends(doc: Doc) -> Doc:
    """Both: breaks after an abbreviation undone where the sentence goes on, made where it ends."""
    return split_abbreviation_ends(join_abbreviation_ends(doc))


def add_to(nlp: Language) -> None:
    """Add the component to ``nlp``, after its sentencizer."""
    from spacy.language import Language as SpacyLanguage

    if not SpacyLanguage.has_factory(COMPONENT):
        SpacyLanguage.component(COMPONENT, func=abbreviation_ends)
    nlp.add_pipe(COMPONENT, after="sentencizer")
