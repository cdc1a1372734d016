"""What a window writes of a fact when its relation is one the lexicon does not know.

A window that writes neither the relation's word nor the object states nothing for the judge
to read at its bare ``supports`` bar. A word written only as the noun for a person who
practises it ("statistician" for "statistics", "painter" for "painted") is a role, not the
word: the suffixes and their must / must-not examples are data (``data/role_nouns.json``).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from triqua.core.reading.analysis import TextInfo, Token, stems_match
from triqua.core.reading.fact_parts import FactParts, sentence_relation_hit
from triqua.core.reading.slot_words import _past_form

__all__ = [
    "occupation_only",
    "role_held_by_another",
    "role_noun",
    "role_noun_examples",
    "writes_some",
]


def writes_some(parts: FactParts, window: TextInfo) -> bool:
    """True when the window writes the relation's word, or an object word in the object's place.

    For a relation the lexicon does not know, a window that writes neither its word nor the
    object states nothing of the fact for the judge to read at its bare ``supports`` bar. An
    object word written only as the noun for a person who practises it does not count
    (``data/role_nouns.json``): "statistician" is what Florence Nightingale was, not the
    "statistics" she taught. Nor does one after the relation's own preposition led by
    another verb in a past form: "was sealed by King John" gives King John another act
    than "was annulled by King John".
    """
    if not parts.relation_words or sentence_relation_hit(parts, window) is not None:
        return True
    if not any(_writes_word(t, window) for t in parts.object.content):
        return False
    return not _other_verb_before(parts, window)


def _other_verb_before(parts: FactParts, window: TextInfo) -> bool:
    """True when another past verb leads the relation's preposition and object in the window.

    "sealed by King John" for "was annulled by King John".
    """
    closing = parts.relation.tokens[-1:] if parts.relation.tokens else []
    words = [t for t in parts.object.tokens if not t.is_stop]
    if not closing or not closing[0].is_stop or not words:
        return False  # a relation with no preposition of its own ("tried to add")
    tokens = window.tokens
    return any(
        stems_match(token.stem, words[0].stem)
        and at >= 2
        and tokens[at - 1].text.lower() == closing[0].text.lower()
        and _past_form(tokens[at - 2])
        for at, token in enumerate(tokens)
    )


def _writes_word(word: Token, window: TextInfo) -> bool:
    """True when the window writes ``word``, inflected or derived, but not as a role noun."""
    return any(
        stems_match(word.stem, t.stem) and not role_noun(word.text, t.text)
        for t in window.tokens
        if t.stem[:3] == word.stem[:3]
    )


def role_noun(word: str, written: str, *, relation: bool = False) -> bool:
    """True when ``written`` is the noun for a person who practises ``word`` ("statistician").

    ``relation``: ``word`` is a relation's verb ("painter" of "painted").
    """
    suffixes = _role_data()["relation_suffixes" if relation else "suffixes"]
    low, other = word.lower(), written.lower()
    return other.endswith(suffixes) and not low.endswith(suffixes) and low != other


def occupation_only(parts: FactParts, window: TextInfo) -> bool:
    """True when the window writes the relation only as a role noun and no object word.

    "Frida Kahlo was a Mexican painter." states her occupation, not that she "painted
    murals": it names no object of the verb to read.
    """
    hit = sentence_relation_hit(parts, window)
    if not isinstance(hit, Token) or not parts.object.content:
        return False
    if not any(role_noun(t.text, hit.text, relation=True) for t in parts.relation.content):
        return False
    return not any(_writes_word(t, window) for t in parts.object.content)


def role_held_by_another(parts: FactParts, window: TextInfo) -> bool:
    """True when the window writes the object's words only as role nouns another name holds.

    "She married the muralist Diego Rivera" writes "murals" only as Diego Rivera's
    occupation: nothing of Frida Kahlo's painting. A role noun right before a name ("the
    muralist Diego Rivera") or after one and its comma ("Diego Rivera, the muralist") is
    that name's; a name of the subject's own words holds it for the subject.
    """
    own = {t.stem for t in parts.subject.content}
    roles = [
        at
        for word in parts.object.content
        for at, token in enumerate(window.tokens)
        if token.stem[:3] == word.stem[:3] and stems_match(word.stem, token.stem)
    ]
    if not roles or any(
        not role_noun(w.text, window.tokens[at].text)
        for w in parts.object.content
        for at in roles
        if stems_match(w.stem, window.tokens[at].stem)
    ):
        return False
    return any(_holder(window, at, own) for at in roles)


def _holder(window: TextInfo, at: int, own: set[str]) -> bool:
    """True when the role noun at ``at`` is held by a name that is not the subject's.

    The name is the run of capitalised words right after the role noun, or the one before
    its comma and article; it is another's when it holds a word the subject's name lacks
    ("F. Scott Fitzgerald" for "Zelda Fitzgerald").
    """
    tokens = window.tokens
    run: list[Token] = []
    step = 1
    start = at + 1
    if at >= 2 and tokens[at - 1].text.lower() in _ARTICLES:
        gap = window.text[tokens[at - 2].end : tokens[at - 1].start]
        if gap.strip() == ",":
            step, start = -1, at - 2
    spot = start
    while 0 <= spot < len(tokens) and tokens[spot].is_capitalised and not tokens[spot].is_stop:
        if run:
            left, right = sorted((run[-1], tokens[spot]), key=lambda t: t.start)
            if window.text[left.end : right.start].strip(" ."):
                break  # punctuation ends the name
        run.append(tokens[spot])
        spot += step
    return any(t.stem not in own for t in run)


_ARTICLES = frozenset({"the", "a", "an"})


@cache
def _role_data() -> dict[str, tuple[str, ...]]:
    raw = resources.files("triqua.core.reading").joinpath("data/role_nouns.json")
    data = json.loads(raw.read_text("utf-8"))
    return {key: tuple(data[key]) for key in ("suffixes", "relation_suffixes")}


def role_noun_examples() -> dict[str, list[list[str]]]:
    """Pairs [word, window word] of ``data/role_nouns.json``, by what they must read as.

    Role nouns of an object word (``role``) or of a relation's verb (``relation_role``), or
    forms that write the word (``written``, ``relation_written``); facts and windows whose
    role noun another name holds (``held_by_another``) or the subject (``held_by_subject``).
    """
    raw = resources.files("triqua.core.reading").joinpath("data/role_nouns.json")
    examples: dict[str, list[list[str]]] = json.loads(raw.read_text("utf-8"))["examples"]
    return examples
