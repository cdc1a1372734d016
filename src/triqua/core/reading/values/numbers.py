"""Quantities in text (numbers with scales, units, currencies, spans) and how they compare.

"64.5 million" equals "64,500,000" and "64.5m"; "8,849 metres" equals "8.849 km"; "two
million" is 2,000,000; "310–320 mg" is one value, any point of the span. An approximate
marker ("about", "nearly") widens the match by the rules file's one tolerance, on the side
the marker allows; a bound ("more than", "fewer than") reaches any value on its side.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from triqua.core.reading.values.shares import Share, find_shares
from triqua.core.reading.values.table import RULES

__all__ = [
    "NumberValue",
    "approximate_before",
    "find_numbers",
    "number_relation",
    "within_marker",
]

_WORDS = RULES.word_numbers
_TENS = [w for w, n in _WORDS.items() if 20 <= n <= 90]
_UNITS_WORDS = [w for w, n in _WORDS.items() if 1 <= n <= 9]
_OTHER_WORDS = [w for w in sorted(_WORDS, key=len, reverse=True) if w not in _TENS]
_WORD_RE = (
    rf"\b(?:(?:{'|'.join(_TENS)})(?:[\s-](?:{'|'.join(_UNITS_WORDS)}))?\b"
    rf"|(?:{'|'.join(_OTHER_WORDS)})\b)"
)
_DIGITS_RE = r"\b(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
_UNIT_RE = "|".join(re.escape(u) for u in sorted(RULES.units, key=len, reverse=True))
_SCALE_RE = "|".join(sorted(RULES.scales, key=len, reverse=True))
_NUMBER = re.compile(
    rf"(?P<cur>[$€£¥])?\s?(?P<num>{_DIGITS_RE}|{_WORD_RE})"
    rf"(?:\s*[–—-]\s*(?P<hi>{_DIGITS_RE})(?![-–—]?\d))?"
    rf"(?:\s*(?P<scale>{_SCALE_RE})\b)?"
    rf"(?:\s*(?P<unit>{_UNIT_RE})(?![a-z]))?"
    rf"(?:\s+(?P<noun>[a-z][a-z-]+))?",
    re.I,
)
_BETWEEN = re.compile(rf"\bbetween\s+(?P<lo>{_DIGITS_RE})\s+and\s+(?=\d)", re.I)
_APPROX_BEFORE = re.compile(
    r"(?:^|\W)(?P<m>"
    + "|".join(re.escape(m) for m in sorted(RULES.approximate, key=len, reverse=True))
    + r")\s*(?:a\s+|an\s+)?[$€£¥]?\s*$",
    re.I,
)
_NEXT_WORD = re.compile(r"\W*(\w+)")
_PREVIOUS_WORD = re.compile(r"(\w+)\W*$")

#: A reading of a quantity: (value in its dimension's base unit, dimension, precision).
Reading = tuple[float, str, float]


@dataclass(frozen=True)
class NumberValue:
    """A quantity: its readings (value in base units, dimension, precision) and counted noun.

    The precision is half the step of the last written digit ("64.5 million" -> 50,000),
    or half a span ("310–320 mg" is 315 ± 5 mg). ``plain`` is the value and precision as
    written, before any unit converts it ("8.849 km" is 8.849).
    """

    text: str
    start: int
    end: int
    readings: tuple[Reading, ...]
    noun: str | None = None
    #: An approximate marker's reach: "both", "below", "above" or "at_most".
    approx: str | None = None
    plain: tuple[float, float] = (0.0, 0.0)
    #: The number as written without its counted noun ("two" of "two prizes").
    figure: str = ""


def approximate_before(text: str, start: int) -> str | None:
    """The reach of an approximate marker right before ``start`` ("about 8,849"), if any."""
    found = _APPROX_BEFORE.search(text[max(0, start - 24) : start])
    return RULES.approximate[found.group("m").lower()] if found else None


def _precision(num: str) -> float:
    """Half the step of the last written digit ("64.5" -> 0.05, "1200" -> 0.5)."""
    digits = num.replace(",", "")
    return 10.0 ** -len(digits.split(".")[1]) / 2 if "." in digits else 0.5


def _word_value(word: str) -> float | None:
    """The value of a number written in words ("seven", "twenty-five"), else None."""
    parts = re.split(r"[\s-]+", word.lower())
    if not all(p in _WORDS for p in parts):
        return None
    return float(sum(_WORDS[p] for p in parts))


def _not_a_count(text: str, start: int, end: int) -> bool:
    """True for a number word that counts nothing: "one of the largest", or a name's last word.

    "Square Two" or "Apollo Eleven" is a name: a capitalised number word right after a
    capitalised word. A number word before its noun ("Three Nobel Prizes", "for Seven
    Years") counts, however it is capitalised.
    """
    after = _NEXT_WORD.match(text, end)
    if text[start:end].lower() == "one" and after and after[1].lower() == "of":
        return True
    if not text[start].isupper():
        return False
    before = _PREVIOUS_WORD.search(text, 0, start)
    return (
        before is not None
        and not text[before.end(1) : start].strip()
        and before[1][:1].isupper()
        and before[1].lower() not in _WORDS
    )


def _between(text: str, start: int) -> re.Match[str] | None:
    """The "between 10 and" that opens a span ending in the number at ``start``, if any."""
    found = [b for b in _BETWEEN.finditer(text, max(0, start - 40), start + 1) if b.end() == start]
    return found[-1] if found else None


def _value_and_step(m: re.Match[str], text: str) -> tuple[float, float] | None:
    """The number's value and precision as written (a span's middle and half-width)."""
    raw = m.group("num")
    word = _word_value(raw)
    if word is not None:
        return None if _not_a_count(text, m.start("num"), m.end("num")) else (word, 0.5)
    low = float(raw.replace(",", ""))
    between = _between(text, m.start("num"))
    if between is not None:
        hi, low = low, float(between["lo"].replace(",", ""))
        return (low + hi) / 2, (hi - low) / 2 + _precision(raw)
    if m.group("hi"):
        hi = float(m.group("hi").replace(",", ""))
        if hi > low and not text[m.start() - 1 : m.start()].isdigit():
            return (low + hi) / 2, (hi - low) / 2 + _precision(raw)
    return low, _precision(raw)


def _readings(m: re.Match[str], value: float, step: float, noun: str | None) -> list[Reading]:
    """A quantity's readings: in its unit's base, as money, as a count; "64.5m" both ways."""
    scale_word = (m.group("scale") or "").lower()
    unit_word = (m.group("unit") or "").lower()
    currency = RULES.currencies.get(m.group("cur") or "") or RULES.currencies.get(
        (noun or "").lower()
    )
    dimension = currency or "count"
    scale = RULES.scales.get(scale_word, 1.0)
    if unit_word in RULES.units:
        dim, factor = RULES.units[unit_word]
        return [(value * scale * factor, dim, step * scale * factor)]
    if scale_word == "m":  # "64.5m": million or metres, read both ways
        return [(value * 1e6, dimension, step * 1e6), (value, "length", step)]
    return [(value * scale, dimension, step * scale)]


def _plain_noun(word: str) -> str | None:
    return word.lower()


def find_numbers(
    text: str,
    exclude: list[tuple[int, int]] | None = None,
    counted: Callable[[str], str | None] = _plain_noun,
) -> list[NumberValue]:
    """All quantities in ``text`` outside the ``exclude`` spans (dates, usually).

    ``counted`` gives the form a word after the number is compared by as its counted noun
    ("3 children"), or None for a word that counts nothing ("3 of them").
    """
    exclude = exclude or []
    shares = [
        s for s in find_shares(text) if not any(s.start < e and a < s.end for a, e in exclude)
    ]
    values: list[NumberValue] = [_share_value(s, text, counted) for s in shares]
    exclude = [*exclude, *((s.start, s.end) for s in shares)]
    lows = {b.start("lo") for b in _BETWEEN.finditer(text)}  # read with the span's end
    for m in _NUMBER.finditer(text):
        start = m.start("num")
        if start in lows or any(start < e and s < m.end("num") for s, e in exclude):
            continue
        if text[start - 1 : start] == "[" or text[m.end("num") :].startswith("]"):
            continue  # a citation marker ("[2]"), not a quantity
        read = _value_and_step(m, text)
        if read is None:
            continue
        noun = counted(m.group("noun")) if m.group("noun") else None
        readings = _readings(m, read[0], read[1], m.group("noun"))
        scale_word = (m.group("scale") or "").lower()
        # As written, "8,849 m" is 8,849 (metres, the reading a bare count can share).
        scale = 1.0 if scale_word == "m" else RULES.scales.get(scale_word, 1.0)
        figure_end = max(m.end("num"), m.end("hi"), m.end("scale"), m.end("unit"))
        end = m.end("noun") if noun else figure_end
        between = _between(text, start)
        first = between.start() if between is not None else start
        values.append(
            NumberValue(
                text=text[first:end].strip(),
                start=first,
                end=end,
                readings=tuple(readings),
                noun=noun,
                approx=approximate_before(text, m.start() if first == start else first),
                plain=(read[0] * scale, read[1] * scale),
                figure=text[first:figure_end].strip(),
            )
        )
    return sorted(values, key=lambda v: v.start)


def _share_value(share: Share, text: str, counted: Callable[[str], str | None]) -> NumberValue:
    """A fraction written in words (``shares``) as a quantity like any other."""
    return NumberValue(
        text=text[share.start : share.end].strip(),
        start=share.start,
        end=share.end,
        readings=((share.value, share.dimension, share.step),),
        noun=counted(share.noun) if share.noun else None,
        approx=approximate_before(text, share.start),
        plain=(share.value, share.step),
        figure=share.figure,
    )


def _same_word(a: str, b: str) -> bool:
    return a == b


def number_relation(
    claim: NumberValue, evidence: NumberValue, same_noun: Callable[[str, str], bool] | None = None
) -> str:
    """Compare quantities: 'match', 'conflict' (same dimension, other value) or 'unknown'.

    Values match within the coarser of the two precisions, so "65 million" is matched by
    "64.5 million" and "64,500,000" equals "64.5 million". Different counted nouns ("3
    children" vs "3 books", by ``same_noun``) are unknown, never a conflict. An approximate
    claim ("about 9,000", "nearly 9,000") is matched within the rules file's tolerance, on
    the side its marker allows, and a bound ("over 8,000", "fewer than 500") by any value
    on its side; an exact claim is matched within the tolerance of an "about" evidence value.
    """
    if claim.noun and evidence.noun and not (same_noun or _same_word)(claim.noun, evidence.noun):
        return "unknown"
    same_dimension = False
    for c_value, c_dim, c_tol in claim.readings:
        for e_value, e_dim, e_tol in evidence.readings:
            if c_dim != e_dim:
                continue
            same_dimension = True
            if abs(c_value - e_value) <= max(c_tol, e_tol) * (1 + 1e-9):
                return "match"
            if within_marker(claim.approx, c_value, e_value) or (
                evidence.approx == "both" and within_marker("both", e_value, c_value)
            ):
                return "match"
    return "conflict" if same_dimension else "unknown"


def within_marker(reach: str | None, claimed: float, stated: float) -> bool:
    """True when ``stated`` is inside what an approximate ``claimed`` value allows.

    "nearly 500" reaches only the tolerance below 500, while "fewer than 500" is a bound
    that any smaller value meets (412 people are fewer than 500), as "more than 300" is
    met by any larger one.
    """
    if reach is None:
        return False
    band = RULES.relative_tolerance * abs(claimed)
    if reach == "above":
        return stated >= claimed
    if reach == "at_most":
        return stated <= claimed
    if reach == "below":
        return claimed - band <= stated <= claimed
    return abs(claimed - stated) <= band
