"""Quantities in text (numbers with scales, units, currencies) and how they compare.

"64.5 million" equals "64,500,000" and "64.5m"; "8,849 metres" equals "8.849 km"; an
approximate marker ("about", "nearly", "over") widens the tolerance the lexicon states.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from triqua.core.grounding.numbers import WORD_NUMBERS
from triqua.engines.offline.lexicon import LEXICON
from triqua.engines.offline.verify.words import stem, stems_match
from triqua.nlp.tokens import STOP_WORDS

__all__ = ["NumberValue", "find_numbers", "number_relation"]

# --------------------------------------------------------------------------- numbers

_SCALES = {
    "thousand": 1e3,
    "k": 1e3,
    "million": 1e6,
    "mn": 1e6,
    "mio": 1e6,
    "m": 1e6,
    "billion": 1e9,
    "bn": 1e9,
    "b": 1e9,
    "trillion": 1e12,
    "tn": 1e12,
    "hundred": 1e2,
    "dozen": 12,
}
# Unit -> (dimension, factor to the dimension's base unit).
_UNITS = {
    "%": ("percent", 1.0),
    "percent": ("percent", 1.0),
    "per cent": ("percent", 1.0),
    "km": ("length", 1000.0),
    "kilometre": ("length", 1000.0),
    "kilometer": ("length", 1000.0),
    "kilometres": ("length", 1000.0),
    "kilometers": ("length", 1000.0),
    "m": ("length", 1.0),
    "metre": ("length", 1.0),
    "meter": ("length", 1.0),
    "metres": ("length", 1.0),
    "meters": ("length", 1.0),
    "cm": ("length", 0.01),
    "mm": ("length", 0.001),
    "mi": ("length", 1609.344),
    "mile": ("length", 1609.344),
    "miles": ("length", 1609.344),
    "ft": ("length", 0.3048),
    "feet": ("length", 0.3048),
    "foot": ("length", 0.3048),
    "kg": ("mass", 1.0),
    "kilogram": ("mass", 1.0),
    "kilograms": ("mass", 1.0),
    "g": ("mass", 0.001),
    "grams": ("mass", 0.001),
    "tonnes": ("mass", 1000.0),
    "tonne": ("mass", 1000.0),
    "tons": ("mass", 1000.0),
    "lb": ("mass", 0.4536),
    "lbs": ("mass", 0.4536),
    "km2": ("area", 1e6),
    "sq km": ("area", 1e6),
    "square kilometres": ("area", 1e6),
    "square kilometers": ("area", 1e6),
    "square miles": ("area", 2.59e6),
    "°c": ("celsius", 1.0),
    "°f": ("fahrenheit", 1.0),
}
_CURRENCY = {
    "$": "usd",
    "€": "eur",
    "£": "gbp",
    "¥": "jpy",
    "usd": "usd",
    "dollars": "usd",
    "euros": "eur",
    "eur": "eur",
    "gbp": "gbp",
    "pounds": "gbp",
}
_WORD_NUMBERS = WORD_NUMBERS
_UNIT_RE = "|".join(re.escape(u) for u in sorted(_UNITS, key=len, reverse=True))
_SCALE_RE = "|".join(sorted(_SCALES, key=len, reverse=True))
_NUMBER = re.compile(
    rf"(?P<cur>[$€£¥])?\s?(?P<num>\b(?:\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    rf"|\b(?:{'|'.join(_WORD_NUMBERS)})\b)"
    rf"(?:\s*(?P<scale>{_SCALE_RE})\b)?"
    rf"(?:\s*(?P<unit>{_UNIT_RE})(?![a-z]))?"
    rf"(?:\s+(?P<noun>[a-z][a-z-]+))?",
    re.I,
)


@dataclass(frozen=True)
class NumberValue:
    """A quantity: its readings (value in base units, dimension, precision) and counted noun.

    The precision is half the step of the last written digit ("64.5 million" -> 50,000).
    """

    text: str
    start: int
    end: int
    readings: tuple[tuple[float, str, float], ...]
    noun: str | None = None
    approx: str | None = None  # "both", "below" or "above": an approximate marker's reach


_APPROX_BEFORE = re.compile(
    r"(?:^|\W)(?P<m>"
    + "|".join(re.escape(m) for m in sorted(LEXICON.approximate, key=len, reverse=True))
    + r")\s*(?:a\s+|an\s+)?[$€£¥]?\s*$",
    re.I,
)


def _approximate(text: str, start: int) -> str | None:
    """The reach of an approximate marker right before ``start`` ("about 8,849"), if any."""
    found = _APPROX_BEFORE.search(text[max(0, start - 24) : start])
    return LEXICON.approximate[found.group("m").lower()] if found else None


def _precision(num: str) -> float:
    """Half the step of the last written digit ("64.5" -> 0.05, "1200" -> 0.5)."""
    digits = num.replace(",", "")
    return 10.0 ** -len(digits.split(".")[1]) / 2 if "." in digits else 0.5


def find_numbers(text: str, exclude: list[tuple[int, int]] | None = None) -> list[NumberValue]:
    """All quantities in ``text`` outside the ``exclude`` spans (dates, usually)."""
    exclude = exclude or []
    values: list[NumberValue] = []
    for m in _NUMBER.finditer(text):
        if any(m.start("num") < e and s < m.end("num") for s, e in exclude):
            continue
        if text[m.start("num") - 1 : m.start("num")] == "[" or text[m.end("num") :].startswith("]"):
            continue  # a citation marker ("[2]"), not a quantity
        raw = m.group("num")
        word_number = raw.lower() in _WORD_NUMBERS
        if word_number and not m.group("noun") and not m.group("unit"):
            continue  # "one of the ..." is not a quantity.
        base = float(_WORD_NUMBERS[raw.lower()]) if word_number else float(raw.replace(",", ""))
        scale_word = (m.group("scale") or "").lower()
        unit_word = (m.group("unit") or "").lower()
        noun = m.group("noun")
        noun_stem = stem(noun) if noun and noun.lower() not in STOP_WORDS else None
        readings: list[tuple[float, str, float]] = []
        currency = _CURRENCY.get(m.group("cur") or "") or _CURRENCY.get((noun or "").lower())
        dimension = currency or "count"
        scale = _SCALES.get(scale_word, 1.0)
        step = 0.5 if word_number else _precision(raw)
        if unit_word in _UNITS:
            dim, factor = _UNITS[unit_word]
            readings.append((base * scale * factor, dim, step * scale * factor))
        elif scale_word == "m":
            # "64.5m": million or metres, read both ways.
            readings.extend([(base * 1e6, dimension, step * 1e6), (base, "length", step)])
        else:
            readings.append((base * scale, dimension, step * scale))
        end = m.end("noun") if noun_stem else max(m.end("num"), m.end("scale"), m.end("unit"))
        values.append(
            NumberValue(
                text=text[m.start("num") : end].strip(),
                start=m.start("num"),
                end=end,
                readings=tuple(readings),
                noun=noun_stem,
                approx=_approximate(text, m.start()),
            )
        )
    return values


def number_relation(claim: NumberValue, evidence: NumberValue) -> str:
    """Compare quantities: 'match', 'conflict' (same dimension, other value) or 'unknown'.

    Values match within the coarser of the two precisions, so "65 million" is matched by
    "64.5 million" and "64,500,000" equals "64.5 million". Different counted nouns ("3
    children" vs "3 books") are unknown, never a conflict. An approximate claim ("about
    9,000", "nearly 9,000", "over 8,000") is matched within the lexicon's tolerance, on
    the side its marker allows; so is an exact claim against an approximate evidence value.
    """
    if claim.noun and evidence.noun and not stems_match(claim.noun, evidence.noun):
        return "unknown"
    same_dimension = False
    for c_value, c_dim, c_tol in claim.readings:
        for e_value, e_dim, e_tol in evidence.readings:
            if c_dim != e_dim:
                continue
            same_dimension = True
            if abs(c_value - e_value) <= max(c_tol, e_tol) * (1 + 1e-9):
                return "match"
            if _within_marker(claim.approx, c_value, e_value) or (
                evidence.approx == "both" and _within_marker("both", e_value, c_value)
            ):
                return "match"
    return "conflict" if same_dimension else "unknown"


def _within_marker(reach: str | None, claimed: float, stated: float) -> bool:
    """True when ``stated`` is inside what an approximate ``claimed`` value allows."""
    if reach is None:
        return False
    band = LEXICON.approximate_tolerance * abs(claimed)
    if reach == "above":
        return stated >= claimed
    if reach == "below":
        return claimed - band <= stated <= claimed
    return abs(claimed - stated) <= band
