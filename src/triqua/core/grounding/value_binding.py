"""Which thing of a sentence a year dates: "Physics in 1903 and Chemistry in 1911".

A sentence may state two events with their years. "She won the Nobel Prize in Physics in 1903
and the Nobel Prize in Chemistry in 1911" writes 1911, but not as the year of the Physics
prize. A year qualifier is stated by a sentence only when the sentence gives that year to the
unit's object: the year in the object's own clause, or in a date phrase right before it when
its own has none ("In 1903, she won the Physics prize"); a list of years dates it as one.
A base triple whose object is the year ("won the Nobel Prize in | 1988") dates the thing its
relation names after the verb ("Nobel Prize"), or the verb itself when the relation names
nothing else ("died in | 1564" against "born in 1564 and died in 1642"). A century is a
date as a year is ("begun in the 12th century and completed in 1345" gives 1345 to no
beginning). An end time is the year a clause that only carries the one before on gives
("elected President in 1999, and served until 2007": in office until 2007).
Clauses are cut at commas (not the one inside "June 11, 1942"), semicolons and coordinating
words, without a parse: the grounding rule runs on every engine's verdicts and must stay cheap.
A clause that denies its event ("who did not win the prize in 1903") dates nothing: the
negation gates read it.
"""

from __future__ import annotations

import re

from triqua.core.reading.acronyms import spelled_initials
from triqua.core.reading.words import word_stems
from triqua.schema import FactUnit

__all__ = ["misdated"]

_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
#: A date: a year, or a century ("the 19th century", "the 19th-century"), read as "c19".
_DATE = re.compile(
    r"\b(?P<year>1[0-9]{3}|20[0-9]{2})\b|\b(?P<century>[1-9][0-9]?)(?:st|nd|rd|th)[\s-]+century\b",
    re.I,
)
#: Where a sentence turns to another clause: "… in 1903 and the Chemistry prize in 1911".
_CLAUSE_BREAK = re.compile(r"[,;:]|\b(?:and|but|while|whereas|then|before|after)\b", re.I)
#: A list of years ("in 1971, 1998 and 2002") dates one thing several times: one clause.
_YEAR_LIST = re.compile(
    r"\b(?:1[0-9]{3}|20[0-9]{2})(?:\s*(?:,|and|&)\s*(?:1[0-9]{3}|20[0-9]{2})\b)+"
)
#: A clause that is only a date phrase ("In 1903", "On 5 May 1903"): it dates the next one.
_DATE_PHRASE = re.compile(
    r"\s*(?:(?:in|on|by|from|since|during)\s+)?[\w ]{0,12}\b"
    r"(?:1[0-9]{3}|20[0-9]{2}|[1-9][0-9]?(?:st|nd|rd|th)[\s-]+century)\s*",
    re.I,
)
_WORD = re.compile(r"[^\W_]+")
_STOP = frozenset(
    ("the", "a", "an", "of", "in", "on", "at", "to", "for", "and", "or", "by", "with", "from")
)


#: A negation cue: a clause that denies its event gives its year to nothing.
_DENIED = re.compile(r"\b(?:not|never|no)\b|n['’]t\b", re.I)
#: A date written "June 11, 1942": its comma is no clause break.
_MONTH_DAY_YEAR = re.compile(
    r"\b((?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?\s+\d{1,2}),"
    r"(\s*(?:1[0-9]{3}|20[0-9]{2})\b)"
)


#: A clause that only carries the one before on to its end ("and served until 2007", "and
#: played for them until 2005"): a verb, a pronoun or a bare noun, no name of another thing.
_CARRIED_ON = re.compile(
    r"\s*(?:(?:he|she|they|it)\s+)?[a-z]+(?:\s+(?:for|with|in|at|on))?"
    r"(?:\s+(?:them|him|her|it|there|office))?\s+(?:until|till)\s+"
    r"(?:1[0-9]{3}|20[0-9]{2})\s*[.!?]?\s*"
)
#: A date's day and month words ("June", "11th").
_DAY_MONTH = re.compile(
    r"\b(?:(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?|\d{1,2}(?:st|nd|rd|th)?)"
    r"(?=\W|$)"
)


def _dates(text: str) -> set[str]:
    """The years and centuries ``text`` writes, a century as "c" and its number ("c19").

    "Begun in the 12th century and completed in 1345" dates two events: a century is a
    date as a year is, so 1345 is not the beginning's.
    """
    return {m["year"] or f"c{m['century']}" for m in _DATE.finditer(text)}


def _clauses(sentence: str) -> list[str]:
    joined = _MONTH_DAY_YEAR.sub(r"\1\2", sentence)
    joined = _YEAR_LIST.sub(lambda m: "/".join(_YEAR.findall(m.group())), joined)
    return [c for c in _CLAUSE_BREAK.split(joined) if c and c.strip()]


def _stems(text: str) -> list[frozenset[str]]:
    """The stems of each word of ``text``, and the acronyms it spells out.

    A clause that writes "chief operating officer" writes the object's "COO" (its letters
    meet the object's word), so a year in it is the role's.
    """
    words = [word_stems(w.casefold()) for w in _WORD.findall(text) if w.casefold() not in _STOP]
    return words + [frozenset({letters}) for letters in sorted(spelled_initials(text))]


def misdated(unit: FactUnit, sentence: str) -> str | None:
    """The unit's year when ``sentence`` gives it to another thing than the unit's object.

    Only a qualifier with a year, or a base triple whose object writes one, is judged, only
    in a sentence that writes that year and another one, and only when one of the dated
    thing's words marks a single clause (a word the sentence writes once): otherwise None,
    and the other checks decide.
    """
    if unit.kind == "qualifier" and unit.value:
        claimed, things = _dates(unit.value), [unit.object]
    elif unit.kind == "base":
        claimed, things = _dates(unit.object), _dated(unit)
    else:
        return None
    years = _dates(sentence)
    if not claimed or not claimed <= years or len(years) < 2:
        return None
    clauses = _clauses(sentence)
    words = [_stems(c) for c in clauses]
    counts: dict[str, int] = {}
    for clause in words:
        for stems in clause:
            for stem in stems:
                counts[stem] = counts.get(stem, 0) + 1
    marked: list[int] = []
    for thing in things:  # the first that marks a clause decides
        # A date's own words ("June 11") mark where the date is written, not what it dates.
        undated = _DAY_MONTH.sub(" ", _DATE.sub(" ", thing)) if unit.kind == "base" else thing
        written = {stem for word in _stems(_DATE.sub(" ", undated)) for stem in word}
        distinctive = {stem for stem in written if counts.get(stem) == 1}
        marked = [i for i, clause in enumerate(words) if any(distinctive & s for s in clause)]
        if marked:
            break
    if len(marked) != 1:
        return None
    at = marked[0]
    if _DENIED.search(clauses[at]):
        return None  # "who did not win the prize in 1903, won it in 1911": no year given it
    own = _dates(clauses[at]) or _date_beside(clauses, at)
    if not own or claimed <= own:
        return None
    if unit.label == "end time" and any(
        _CARRIED_ON.fullmatch(c) and _dates(c) == claimed for c in clauses[at + 1 :]
    ):
        return None  # "elected President in 1999, and served until 2007": its end, 2007
    dated = (unit.value if unit.kind == "qualifier" else unit.object) or ""
    return ", ".join(sorted({m.group() for m in _DATE.finditer(dated)}))


def _date_beside(clauses: list[str], at: int) -> set[str]:
    """The years of a date phrase that dates the clause ``at``, which writes none itself.

    A date phrase right before it ("In 1903, she won …"), or after it past at most one
    aside that writes no year ("their final album, In Through the Out Door, in 1979").
    """
    if at > 0 and _DATE_PHRASE.fullmatch(clauses[at - 1]):
        return _dates(clauses[at - 1])
    for clause in clauses[at + 1 : at + 3]:
        if _DATE_PHRASE.fullmatch(clause.rstrip(".!?")):
            return _dates(clause)
        if _DATE.search(clause):
            break
    return set()


#: Words of a relation before its verb: "was" of "was born in", "has" of "has won".
_AUXILIARIES = frozenset(
    ("is", "was", "are", "were", "be", "been", "being", "has", "have", "had", "did", "does")
)


def _dated(unit: FactUnit) -> list[str]:
    """What a base triple with a year as its object dates, most telling first.

    The relation's words after its verb ("Nobel Prize" of "won the Nobel Prize in") with the
    object's other words, then the verb itself ("died" of "died in").
    """
    words = unit.relation.split()
    while words and words[0].casefold() in _AUXILIARIES:
        words = words[1:]
    if not words:
        return []
    after = " ".join([*words[1:], unit.object])
    return [after, words[0]]
