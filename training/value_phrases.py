"""Rewrites of dates, centuries, restrictors and words in a real sentence, with their labels.

A year becomes its century ("in 1850" → "in the 19th century", "in the nineteenth century")
or its decade ("in the 1850s"): entailed; another century or decade: contradicted. A
century or decade in the premise is neutral to a year inside it and contradicts one
outside. A full date entails its month and year; another day, month or year contradicts
it; a month the premise does not give is neutral. "One of the largest cities" does not
state "the largest city" (neutral), "one of the founders" contradicts "the sole founder",
and "the largest city" entails "one of the largest cities". Words that mean the same
(``data/value_words.json``: "founded" / "established") keep a sentence entailed; near
misses ("wrote" / "published") make it neutral.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from value_rewrites import (
    _MONTHS,
    _ORDINAL_WORDS,
    CONTRADICTED,
    ENTAILED,
    NEUTRAL,
    WORDS,
    Rewrite,
    _agrees,
    _swap,
    ordinal_digits,
)

from triqua.core.reading.values.dates import find_dates

#: Words ending in "-est" that are no superlative ("the forest", "the interest"): the
#: offline verifier's own list.
_RESTRICTORS = Path(__file__).resolve().parents[1] / "src/triqua/core/reading/data/restrictors.json"
_NOT_SUPERLATIVE = frozenset(json.loads(_RESTRICTORS.read_text("utf-8"))["superlative_not"])
#: Restrictors that say the same whatever their noun: "the sole candidate" is "the only
#: candidate", "the biggest city" is "the largest city" (the verifier's list has more, such
#: as "greatest", that hold for some nouns only).
_SAME_RESTRICTOR = {
    "only": ["sole"],
    "sole": ["only"],
    "largest": ["biggest"],
    "biggest": ["largest"],
}

_IN_YEAR = re.compile(r"\b(in|In) (1[1-9]\d\d|20[01]\d)\b(?![\d,.]\d|s\b|['’]s|\s*[–—-]\s*\d)")
_SPAN = re.compile(r"\b(in|In) the ((1[1-9]\d0|20[01]0)s|(1[1-9]|2[01])(?:st|nd|rd|th) century)\b")


def _century_forms(year: int, rng: random.Random) -> list[tuple[str, int]]:
    century = year // 100 + 1
    other = century + rng.choice([-1, 1])
    decade = year // 10 * 10
    word = _ORDINAL_WORDS.get(century)
    forms = [
        (f"in the {ordinal_digits(century)} century", ENTAILED),
        (f"in the {decade}s", ENTAILED),
        (f"in the {ordinal_digits(other)} century", CONTRADICTED),
        (f"in the {decade + rng.choice([-20, -10, 10, 20])}s", CONTRADICTED),
    ]
    if word:
        forms.append((f"in the {word} century", ENTAILED))
    return forms


def centuries(sentence: str, rng: random.Random) -> list[Rewrite]:
    """A year as its century or decade, and back (a year inside a span is neutral)."""
    out = []
    for m in _IN_YEAR.finditer(sentence):
        for new, label in rng.sample(_century_forms(int(m.group(2)), rng), 3):
            new = new[0].upper() + new[1:] if m.group(1) == "In" else new
            hypothesis = _swap(sentence, m.start(), m.end(), new)
            if _agrees(hypothesis, sentence, label):
                out.append(Rewrite(sentence, hypothesis, label, "value-century"))
    for m in _SPAN.finditer(sentence):
        found = [d for d in find_dates(m.group()) if d.year_hi is not None]
        if not found or found[0].year is None or found[0].year_hi is None:
            continue
        low, high = found[0].year, found[0].year_hi
        inside = rng.randint(low + 1, high - 1)
        outside = rng.choice([low - rng.randint(1, 30), high + rng.randint(1, 30)])
        for year, label in ((inside, NEUTRAL), (outside, CONTRADICTED)):
            new = f"{m.group(1)} {year}"
            out.append(
                Rewrite(sentence, _swap(sentence, m.start(), m.end(), new), label, "value-century")
            )
    return out


def dates(sentence: str, rng: random.Random) -> list[Rewrite]:
    """A full date written otherwise or less precisely; another day, month or year."""
    out = []
    for d in find_dates(sentence):
        if d.year is None or d.year_hi is not None or d.year < 1000:
            continue
        before = sentence[: d.start]
        on = re.search(r"\b([Oo]n) $", before)
        if d.day and d.month:
            month = _MONTHS[d.month - 1]
            day = d.day + rng.choice([-3, -1, 1, 2, 5]) if 4 <= d.day <= 26 else d.day + 1
            forms = [
                (f"{month} {d.day}, {d.year}", ENTAILED),
                (f"{d.day} {month} {d.year}", ENTAILED),
                (f"in {month} {d.year}", ENTAILED),
                (f"in {d.year}", ENTAILED),
                (f"{day} {month} {d.year}", CONTRADICTED),
                (
                    f"{d.day} {_MONTHS[(d.month + rng.choice([0, 2, 5])) % 12]} {d.year}",
                    CONTRADICTED,
                ),
                (f"in {d.year + rng.choice([-2, -1, 1, 3])}", CONTRADICTED),
            ]
            for new, label in rng.sample(forms, 3):
                start = on.start(1) if on and new.startswith("in ") else d.start
                if new.startswith("in ") and not on:
                    new = new[3:]
                hypothesis = _swap(sentence, start, d.end, new)
                if new.replace(",", "") != d.text.replace(",", "") and _agrees(
                    hypothesis, sentence, label
                ):
                    out.append(Rewrite(sentence, hypothesis, label, "value-date"))
        elif d.month is None and re.search(r"\bin $", before):
            new = f"{rng.choice(_MONTHS)} {d.year}"
            out.append(
                Rewrite(sentence, _swap(sentence, d.start, d.end, new), NEUTRAL, "value-date")
            )
    return out


def singular(word: str) -> str | None:
    """The singular of a regular plural noun ("cities" → "city"), else None."""
    lower = word.lower()
    for single, many in WORDS["plural_irregular"].items():
        if many == lower:
            return str(single)
    if not lower.endswith("s") or lower.endswith(("ss", "us", "is")) or len(lower) < 4:
        return None
    if lower.endswith("ies"):
        return word[:-3] + "y"
    if lower.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    return word[:-1]


def plural(word: str) -> str:
    """The plural of a regular noun ("city" → "cities")."""
    if word.lower() in WORDS["plural_irregular"]:
        return str(WORDS["plural_irregular"][word.lower()])
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + ("es" if word.endswith(("ch", "sh", "x", "s")) else "s")


_SUPERLATIVE = r"(?:most \w+|least \w+|best|worst|\w+est)"
_ONE_OF = re.compile(rf"\b([Oo]ne of the) (?:({_SUPERLATIVE}) )?([a-z]+)\b")
_THE_SUPERLATIVE = re.compile(rf"\b([Tt]he) ({_SUPERLATIVE}) ([a-z]+)\b")
_THE_RESTRICTED = re.compile(r"\b([Tt]he) (only|sole|largest|biggest) ([a-z]+)\b")


def _a_noun(word: str) -> bool:
    return (
        len(word) > 3
        and word not in WORDS["function_words"]
        and not word.endswith(("ing", "ly", "ed"))
    )


def restrictors(sentence: str, rng: random.Random) -> list[Rewrite]:
    """ "One of the largest cities" is not "the largest city"; nor are founders a sole one.

    A restrictor the verifier counts as the same ("sole" for "only", "biggest" for
    "largest") keeps the sentence entailed.
    """
    out = []
    for m in _ONE_OF.finditer(sentence):
        noun = singular(m.group(3))
        if noun is None or not _a_noun(m.group(3)):
            continue
        the = "The" if m.group(1)[0] == "O" else "the"
        if m.group(2):
            new, label = f"{the} {m.group(2)} {noun}", NEUTRAL
        else:
            new, label = f"{the} {rng.choice(['only', 'sole'])} {noun}", CONTRADICTED
        out.append(
            Rewrite(sentence, _swap(sentence, m.start(), m.end(), new), label, "value-restrictor")
        )
    for m in _THE_SUPERLATIVE.finditer(sentence):
        noun = m.group(3)
        if m.group(2).lower() in _NOT_SUPERLATIVE or singular(noun) or not _a_noun(noun):
            continue
        if not re.match(
            r"\s+(?:in|of|on|at|for|to|is|was|that|who|ever)\b|[,.;]", sentence[m.end() :]
        ):
            continue  # "the most frequently occurring byte pairs": the noun comes later
        one = "One" if m.group(1)[0] == "T" else "one"
        new = f"{one} of the {m.group(2)} {plural(m.group(3))}"
        out.append(
            Rewrite(
                sentence, _swap(sentence, m.start(), m.end(), new), ENTAILED, "value-restrictor"
            )
        )
    for m in _THE_RESTRICTED.finditer(sentence):
        others = _SAME_RESTRICTOR.get(m.group(2).lower())
        if not others or singular(m.group(3)) or not _a_noun(m.group(3)):
            continue
        new = f"{m.group(1)} {rng.choice(others)} {m.group(3)}"
        out.append(
            Rewrite(
                sentence, _swap(sentence, m.start(), m.end(), new), ENTAILED, "value-restrictor"
            )
        )
    return out


def synonyms(sentence: str, rng: random.Random) -> list[Rewrite]:
    """A word for one that means the same (entailed) or nearly the same (neutral)."""
    out = []
    for group, label in ((WORDS["synonyms"], ENTAILED), (WORDS["near_misses"], NEUTRAL)):
        for one, other in group:
            pairs = [(one, other)] if label == NEUTRAL else [(one, other), (other, one)]
            for old, new in pairs:
                m = re.search(rf"\b{re.escape(old)}\b", sentence)
                if m:
                    hypothesis = _swap(sentence, m.start(), m.end(), new)
                    out.append(Rewrite(sentence, hypothesis, label, "value-synonym"))
    return rng.sample(out, min(2, len(out)))


#: A name and the parenthesis after it: "Isaac Newton (25 December 1642 – 20 March 1727)".
_LIFE = re.compile(
    r"(?P<name>[A-Z][\w'’.-]+(?:\s+(?:de |van |von )?[A-Z][\w'’.-]+){0,3})\s*"
    r"\((?P<inside>[^()]{4,60})\)"
)
_LIFE_RANGE = re.compile(r"\s*[–—-]\s*")
_BORN_ONLY = re.compile(r"^(?:born|b\.)\s+", re.I)
#: First words of a capitalised phrase that names no person ("The Great War (1914–1918)").
_NOT_PERSON = frozenset({"The", "A", "An", "In", "On", "At", "During", "After", "Before"})


def _life_sides(inside: str) -> tuple[int | None, int | None] | None:
    """The birth and death years a life-date parenthesis states (None: a side not given)."""
    text = inside.split(";")[0].strip()
    if _BORN_ONLY.match(text):
        born = find_dates(_BORN_ONLY.sub("", text))
        return (born[0].year, None) if len(born) == 1 and born[0].year_hi is None else None
    sides = _LIFE_RANGE.split(text)
    if len(sides) != 2:
        return None
    years = [find_dates(side) for side in sides]
    if any(len(found) != 1 or found[0].year_hi is not None for found in years):
        return None
    return years[0][0].year, years[1][0].year


def life_dates(sentence: str, rng: random.Random) -> list[Rewrite]:
    """Birth and death years read from the parenthesis after a name ("Newton (1642–1727)").

    The first date is the birth, the last the death: "<name> was born in <first year>" and
    "<name> died in <last year>" are entailed, another year or the other side's year is
    contradicted, and a death after "(born 1912)" is neutral.
    """
    out = []
    for m in _LIFE.finditer(sentence):
        sides = _life_sides(m.group("inside"))
        if sides is None or sides[0] is None or sides[0] < 1000:
            continue
        name, (born, died) = m.group("name"), sides
        if len(name.split()) < 2 or name.split()[0] in _NOT_PERSON:
            continue  # a person is named by given name and surname
        shift = rng.choice([-12, -3, -1, 1, 2, 7])
        forms = [
            (f"{name} was born in {born}.", ENTAILED),
            (f"{name} was born in {born + shift}.", CONTRADICTED),
        ]
        if died is None:
            forms.append((f"{name} died in {born + rng.choice([40, 55, 70])}.", NEUTRAL))
        elif died != born:
            forms += [
                (f"{name} died in {died}.", ENTAILED),
                (f"{name} died in {died - shift}.", CONTRADICTED),
                (f"{name} was born in {died}.", CONTRADICTED),
            ]
        out += [Rewrite(sentence, h, label, "value-life-dates") for h, label in forms]
    return out
