"""Dates in text and how a claimed date compares with an evidence date.

"1903" and "December 1903" are supported by "10 December 1903"; "1904" is not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from triqua.engines.offline.lexicon import LEXICON

__all__ = ["DateValue", "date_relation", "find_dates"]

# ----------------------------------------------------------------------------- dates

_MONTHS = LEXICON.month_numbers
_MONTH = r"(?P<mon>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_YEAR = r"(?P<year>1\d{3}|20\d{2})"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
# Centuries written out ("the sixteenth century", "the twenty-first century").
_CENTURY_WORDS = {
    word: n
    for n, word in enumerate(
        [
            "first",
            "second",
            "third",
            "fourth",
            "fifth",
            "sixth",
            "seventh",
            "eighth",
            "ninth",
            "tenth",
            "eleventh",
            "twelfth",
            "thirteenth",
            "fourteenth",
            "fifteenth",
            "sixteenth",
            "seventeenth",
            "eighteenth",
            "nineteenth",
            "twentieth",
        ],
        start=1,
    )
} | {"twenty-first": 21, "twenty first": 21}
_DATE_PATTERNS = [
    re.compile(r"\b(?P<year>1\d{3}|20\d{2})-(?P<mnum>[01]?\d)-(?P<day>[0-3]?\d)\b"),
    re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}\b", re.I),
    re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}\b", re.I),
    re.compile(rf"\b{_MONTH},?\s+(?:of\s+)?{_YEAR}\b", re.I),
    re.compile(r"\b(?P<year>1\d{3}|20\d{2})\s*[–—-]\s*(?P<hi>\d{2,4})\b(?!\s*%)"),
    re.compile(r"\b(?P<decade>1\d{2}0|20[0-9]0)['’]?s\b"),
    re.compile(
        r"\b(?:(?P<part>early|mid|late)[\s-]+)?(?P<century>1\d|20|21|[1-9])(?:st|nd|rd|th)"
        r"[\s-]+century\b",
        re.I,
    ),
    re.compile(
        r"\b(?:(?P<part2>early|mid|late)[\s-]+)?(?P<cword>"
        + "|".join(sorted(_CENTURY_WORDS, key=len, reverse=True))
        + r")[\s-]+century\b",
        re.I,
    ),
    re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}(?![\w])", re.I),
    re.compile(rf"\b{_MONTH}\s+{_DAY}\b(?!\s*[,.]?\s*\d)", re.I),
    re.compile(r"(?<![\d$€£¥.,])\b(?P<year>1\d{3}|20\d{2})\b(?![.,]\d)"),
]
# A bare four-digit number followed by one of these is a quantity, not a year.
_QUANTITY_AFTER = re.compile(
    r"\s*(?:%|percent|per\s?cent|[kcm]?m\b|kg\b|ft\b|feet|mi\b|miles|people|persons|"
    r"metres|meters|tons|tonnes|units|copies|votes|men|troops|dollars|euros|pounds)",
    re.I,
)
# ... and so is one followed by a plural noun ("1500 members"), unless a time preposition
# comes first ("in 1980 elections").
_PLURAL_AFTER = re.compile(
    r"\s+(?!(?:was|has|is|its|his|this|thus|as|us|yes|less|across|plus|whereas)\b)"
    r"[a-z]{2,}[^s\W]s\b"
)
_TIME_BEFORE = re.compile(r"\b(?:in|since|during|from|until|till|by|of|the)\s+$", re.I)
_MAY_WORDS = re.compile(r"\bmay\s+(?:be|have|not|also|the|a|an|i|we|you|he|she|it|they)\b", re.I)


@dataclass(frozen=True)
class DateValue:
    """A date at some granularity: year, year-month or full date; or a year range."""

    text: str
    start: int
    end: int
    year: int | None = None
    month: int | None = None
    day: int | None = None
    year_hi: int | None = None

    @property
    def is_range(self) -> bool:
        """True for a span of years ("1942–43", "1990s")."""
        return self.year_hi is not None and self.year_hi != self.year


def _date_from_match(m: re.Match[str]) -> DateValue | None:
    """Build a date value from one pattern match (None when it is not a valid date)."""
    groups = m.groupdict()
    if groups.get("century") or groups.get("cword"):
        # "the 16th century" is 1500-1599 as it is used; "late" narrows to its last third.
        number = groups.get("century") or _CENTURY_WORDS[" ".join(groups["cword"].lower().split())]
        low = (int(number) - 1) * 100
        low, high = {
            "early": (low, low + 33),
            "mid": (low + 33, low + 66),
            "late": (low + 66, low + 99),
        }.get((groups.get("part") or groups.get("part2") or "").lower(), (low, low + 99))
        return DateValue(m.group(), m.start(), m.end(), year=low, year_hi=high)
    if groups.get("decade"):
        decade = int(groups["decade"])
        return DateValue(m.group(), m.start(), m.end(), year=decade, year_hi=decade + 9)
    year = int(groups["year"]) if groups.get("year") else None
    month = _MONTHS[groups["mon"].lower()] if groups.get("mon") else None
    if groups.get("mnum"):
        month = int(groups["mnum"])
    day = int(groups["day"]) if groups.get("day") else None
    if (month is not None and not 1 <= month <= 12) or (day is not None and not 1 <= day <= 31):
        return None
    year_hi = None
    if groups.get("hi") and year is not None:
        hi = groups["hi"]
        year_hi = int(str(year)[: 4 - len(hi)] + hi)
        if not year < year_hi <= year + 100:
            return None
    return DateValue(m.group(), m.start(), m.end(), year, month, day, year_hi)


def find_dates(text: str) -> list[DateValue]:
    """All dates in ``text``, most specific pattern first, never overlapping."""
    found: list[DateValue] = []
    taken: list[tuple[int, int]] = []
    for pattern in _DATE_PATTERNS:
        for m in pattern.finditer(text):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            month = m.groupdict().get("mon") or ""
            if month.lower() == "may" and _MAY_WORDS.match(text, m.start()):
                continue
            is_bare_year = pattern is _DATE_PATTERNS[-1]
            if is_bare_year and (
                _QUANTITY_AFTER.match(text, m.end())
                or (
                    _PLURAL_AFTER.match(text, m.end())
                    and not _TIME_BEFORE.search(text[max(0, m.start() - 10) : m.start()])
                )
            ):
                continue
            value = _date_from_match(m)
            if value is not None:
                found.append(value)
                taken.append((m.start(), m.end()))
    return sorted(found, key=lambda d: d.start)


def date_relation(claim: DateValue, evidence: DateValue) -> str:
    """Compare a claimed date with an evidence date: 'match', 'conflict' or 'unknown'.

    The claim is supported when every part it states (year, month, day) is stated equal by
    the evidence, so "1903" and "December 1903" are supported by "10 December 1903". A
    differing year (or month of the same year, or day of the same month) is a conflict. A
    part the evidence leaves out is unknown, never a conflict.
    """
    if claim.year is not None and evidence.year is not None:
        c_lo, c_hi = claim.year, claim.year_hi or claim.year
        e_lo, e_hi = evidence.year, evidence.year_hi or evidence.year
        if evidence.is_range and not claim.is_range:
            # A single year is matched by a range's endpoint, contradicted outside it.
            if claim.year in (e_lo, e_hi) and claim.month is None:
                return "match"
            return "conflict" if not e_lo <= claim.year <= e_hi else "unknown"
        if (c_lo, c_hi) != (e_lo, e_hi):
            if claim.is_range and c_lo <= e_lo <= e_hi <= c_hi:
                return "match"
            return "conflict"
    elif claim.year is not None:
        return "unknown"
    for part in ("month", "day"):
        c, e = getattr(claim, part), getattr(evidence, part)
        if c is None:
            continue
        if e is None:
            return "unknown"
        if c != e:
            return "conflict"
    if claim.year is None and claim.month is None and claim.day is None:
        return "unknown"
    return "match"
