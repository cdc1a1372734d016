"""Apposition: a name written in one noun phrase with a class noun is of that class.

"… a member of the boy band One Direction" says One Direction is a boy band, "appeared in
several films, including Kick the Moon and Blood Rain" that each is a film, and "NumFOCUS,
a nonprofit charity in the United States" that NumFOCUS is one, although the clause is the
singer's, the actor's or the co-founder's. The clause gates (``core.reading.statements``)
read who owns a clause from the parse, which a small parser often gets wrong in such
phrases; this reader reads the phrase from the words alone, so a class written so is the
fact's own, never given to the clause's owner.

Only a fact "X is a Y" is read (a copula, an indefinite object without a preposition), and
every word of the object must stand right before its head noun in the phrase: "the rock band
Velvet Lane" says nothing of a jazz band. Between the class noun and the name stand only
punctuation, determiners, a list's opener ("including", "such as") and the list's other
names. The words are data (``data/apposition.json``, with examples that must and must not
match, run as tests).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from triqua.core.reading.rules_file import read_rules_file
from triqua.core.reading.words import stem

__all__ = [
    "APPOSITION_PATH",
    "IN_ONE_PHRASE",
    "apposed",
    "apposed_nouns",
    "apposition_rules",
    "phrased",
]

APPOSITION_PATH = Path(__file__).parent / "data" / "apposition.json"

_WORD = re.compile(r"[^\W_](?:[\w'’-]|\.(?=\w))*")  # "F.C", "Seung-won"; no closing stop
_TOKEN = re.compile(rf"{_WORD.pattern}|[^\w\s]")
_PUNCT = frozenset(",\"“”‘’'():")
_JOINS = frozenset(("and", "or", "&"))
_REACH = 60  # tokens between a class noun and a name of its list
_AFTER = 10  # tokens between "X, a" and the class noun ("a 501(c)(3) nonprofit charity")


@functools.lru_cache(maxsize=1)
def apposition_rules() -> dict[str, Any]:
    """The rules file ``data/apposition.json``, as written."""
    return read_rules_file(APPOSITION_PATH, "apposition rules")


def _words(name: str) -> frozenset[str]:
    return frozenset(apposition_rules()[name])


def _object(relation: str, obj: str) -> tuple[str, frozenset[str]] | None:
    """(head stem, modifier stems) of a class object "a Y" after a copula, else None."""
    if relation.strip().casefold() not in _words("copulas"):
        return None
    words = [w.casefold() for w in _WORD.findall(obj)]
    if len(words) < 2 or words[0] not in _words("indefinite"):
        return None
    if any(w in _words("title_words") for w in words[1:]):
        return None  # "a member of …": not a class noun phrase
    return stem(words[-1]), frozenset(stem(w) for w in words[1:-1])


def apposed(subject: str, relation: str, obj: str, text: str) -> bool:
    """True when ``text`` writes ``subject`` in one noun phrase with the class ``obj``.

    Args:
        subject: The fact's subject ("One Direction").
        relation: The fact's relation: only a copula is read.
        obj: The fact's object, an indefinite class ("a boy band").
        text: The window read.
    """
    read = _object(relation, obj)
    if read is None:
        return False
    return _apposed(tuple(w.casefold() for w in _TOKEN.findall(subject)), *read, text)


@functools.lru_cache(maxsize=4096)
def _apposed(subject: tuple[str, ...], head: str, modifiers: frozenset[str], text: str) -> bool:
    """:func:`apposed` on the subject's tokens and the object's stems (remembered)."""
    tokens = _TOKEN.findall(text)
    low = [t.casefold() for t in tokens]
    n = len(subject)
    if not n:
        return False
    for i in range(len(tokens) - n + 1):
        if tuple(low[i : i + n]) != subject:
            continue
        if _before(tokens, i, head, modifiers) or _after(low, i + n, head, modifiers):
            return True
    return False


def _modified(low: list[str], at: int, modifiers: frozenset[str]) -> bool:
    """True when the words right before the class noun at ``at`` hold every modifier."""
    reach = low[max(0, at - len(modifiers) - 2) : at]
    return modifiers <= {stem(w) for w in reach}


def _before(tokens: list[str], at: int, head: str, modifiers: frozenset[str]) -> bool:
    """True when the class noun stands before the name at ``at``, joined only as a phrase."""
    low = [t.casefold() for t in tokens]
    listed = opened = False
    for j in range(at - 1, max(-1, at - 1 - _REACH), -1):
        token, word = tokens[j], low[j]
        if stem(word) == head:
            return _modified(low, j, modifiers) and (opened or not listed)
        if token in _PUNCT or word in _JOINS or word in _words("determiners"):
            continue
        if word in _words("list_openers"):
            opened = True
        elif token[:1].isupper() or token[:1].isdigit():
            listed = True  # another name of the list ("Kick the Moon, Jail Breakers")
        elif not (listed and word in _words("title_words")):
            return False
    return False


def _after(low: list[str], at: int, head: str, modifiers: frozenset[str]) -> bool:
    """True when "X, a … Y" follows the name: the class noun in apposition after it."""
    if low[at : at + 1] != [","] or low[at + 1 : at + 2] not in (["a"], ["an"]):
        return False
    for j in range(at + 2, min(len(low), at + 2 + _AFTER)):
        if low[j] in (",", ";", "."):
            return False
        if stem(low[j]) == head:
            return modifiers <= {stem(w) for w in low[at + 2 : j]}
    return False


def apposed_nouns(subject: str, text: str) -> tuple[tuple[int, str], ...]:
    """The words ``text`` writes in one noun phrase with ``subject``, each with its offset.

    The word the phrase closes on before the name ("band" of "the boy band One Direction",
    "films" of "several films, including Green Hollow": a list's class is a plural) and the
    words up to the first preposition after "X, a …" ("nonprofit" and "charity" of
    "NumFOCUS, a nonprofit charity in …"). A reader that knows the parse keeps the nouns.
    """
    wanted = tuple(w.casefold() for w in _TOKEN.findall(subject))
    found = [(m.start(), m.group()) for m in _TOKEN.finditer(text)]
    low = [t.casefold() for _, t in found]
    n = len(wanted)
    out: list[tuple[int, str]] = []
    for i in range(len(found) - n + 1 if n else 0):
        if tuple(low[i : i + n]) != wanted:
            continue
        j = _phrase_start([t for _, t in found], i)
        if j is not None:
            out.append(found[j])
        out += [found[j] for j in _appended(low, i + n)]
    return tuple(out)


def _phrase_start(tokens: list[str], at: int) -> int | None:
    """The index of the word the phrase before the name at ``at`` closes on, else None."""
    listed = opened = False
    for j in range(at - 1, max(-1, at - 1 - _REACH), -1):
        token, word = tokens[j], tokens[j].casefold()
        if token in _PUNCT or word in _JOINS or word in _words("determiners"):
            continue
        if word in _words("list_openers"):
            opened = True
        elif token[:1].isupper() or token[:1].isdigit():
            listed = True
        elif listed and word in _words("title_words"):
            continue
        elif word in _words("title_words") or (listed and not opened):
            return None
        elif opened and not word.endswith("s"):
            return None  # "the cast, including X": X is in the cast, not a cast
        else:
            return j
    return None


def _appended(low: list[str], at: int) -> list[int]:
    """The indices of the words of "X, a …" after the name, up to a preposition or comma.

    "NumFOCUS, a nonprofit charity in …" gives "nonprofit" and "charity", "Paris, a city he
    loved" "city", "he" and "loved": the parse tells which is a noun.
    """
    if low[at : at + 1] != [","] or low[at + 1 : at + 2] not in (["a"], ["an"]):
        return []
    words = []
    for j in range(at + 2, min(len(low), at + 2 + _AFTER)):
        if low[j] in (",", ";", ".") or low[j] in _words("title_words"):
            break
        if low[j][:1].isalpha():
            words.append(j)
    return words


def phrased(subject: str, relation: str, obj: str, text: str) -> bool:
    """True when ``text`` writes the fact as one noun phrase: subject, preposition, object.

    "(The friendly match, was against, Norway)" by "… in a friendly match against Norway",
    "(The software tools, are for, data science)" by "… provides software tools for data
    science": the phrase says it, whoever owns the clause. The relation must be a copula
    and at most two words after it ("against", "adjacent to"), written between the two.
    """
    words = [w.casefold() for w in _WORD.findall(relation)]
    if len(words) < 2 or len(words) > 3 or words[0] not in _words("copulas"):
        return False
    subject_words = _core(subject)
    object_words = _core(obj)
    if not subject_words or not object_words:
        return False
    low = [t.casefold() for t in _TOKEN.findall(text)]
    phrase = [*subject_words, *words[1:]]
    for i in range(len(low) - len(phrase) + 1):
        if low[i : i + len(phrase)] != phrase:
            continue
        after = low[i + len(phrase) :]
        while after and after[0] in _words("determiners"):
            after = after[1:]
        if after[: len(object_words)] == object_words:
            return True
    return False


def _core(phrase: str) -> list[str]:
    """The tokens of ``phrase`` after its opening determiner, case-folded."""
    tokens = [t.casefold() for t in _TOKEN.findall(phrase)]
    return tokens[1:] if tokens[:1] and tokens[0] in _words("determiners") else tokens


#: The readings of a fact written in one phrase, for the clause gates: "the boy band One
#: Direction" (:func:`apposed`), "a friendly match against Norway" (:func:`phrased`).
IN_ONE_PHRASE = (apposed, phrased)
