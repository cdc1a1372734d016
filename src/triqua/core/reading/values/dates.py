"""Dates in text and how a claimed date compares with an evidence date.

"1903" and "December 1903" are supported by "10 December 1903"; "1904" is not. Spans of
years ("1942–43", "the 1990s", "the late 16th century") hold the years inside them; "44
BC" is the year -44; "around 1880" reaches as far as the rules file's year tolerance.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from triqua.core.reading.lexicon_file import read_lexicon
from triqua.core.reading.values.numbers import approximate_before
from triqua.core.reading.values.table import RULES

__all__ = ["DateValue", "date_relation", "find_dates"]

_LEXICON = read_lexicon()
_MONTHS = {
    k.lower(): int(v) for k, v in {**_LEXICON["months"], **_LEXICON["month_abbreviations"]}.items()
}
_MONTH = r"(?P<mon>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_YEAR = r"(?P<year>1\d{3}|20\d{2})"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"


def _era(markers: tuple[str, ...]) -> str:
    return "|".join(re.escape(m.upper()) for m in sorted(markers, key=len, reverse=True))


_BC = rf"(?:{_era(RULES.before_era)})(?!\w)"
_AD = rf"(?:{_era(RULES.common_era)})(?!\w)"
_PART = r"(?:(?P<part>early|mid|late)[\s-]+)?"
_ORDINALS = "|".join(sorted(RULES.ordinals, key=len, reverse=True))
_DATE_PATTERNS = [
    re.compile(rf"\b(?P<bc>\d{{1,4}})\s*{_BC}"),
    re.compile(rf"(?<![\w.])(?:{_AD})\s*(?P<ad>\d{{1,4}})\b|\b(?P<ad2>\d{{1,4}})\s*{_AD}"),
    re.compile(r"\b(?P<year>1\d{3}|20\d{2})-(?P<mnum>[01]?\d)-(?P<day>[0-3]?\d)\b"),
    re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}\b", re.I),
    re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}\b", re.I),
    re.compile(rf"\b{_MONTH},?\s+(?:of\s+)?{_YEAR}\b", re.I),
    re.compile(r"\b(?P<year>1\d{3}|20\d{2})\s*[–—-]\s*(?P<hi>\d{2,4})\b(?!\s*%)"),
    re.compile(r"\b(?P<decade>1\d{2}0|20[0-9]0)['’]?s\b"),
    re.compile(
        rf"\b{_PART}(?:(?P<century>1\d|20|21|[1-9])(?:st|nd|rd|th)|(?P<cword>{_ORDINALS}))"
        rf"[\s-]+century(?:\s+(?P<cbc>{_BC}))?",
        re.I,
    ),
    re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}(?![\w])", re.I),
    re.compile(rf"\b{_MONTH}\s+{_DAY}\b(?!\s*[,.]?\s*\d)", re.I),
    re.compile(r"(?<![\d$€£¥.,])\b(?P<year>1\d{3}|20\d{2})\b(?![.,]\d)"),
]
_BARE_YEAR = _DATE_PATTERNS[-1]
#: The patterns that match without a digit (a century in words): text without a digit is
#: read with these alone, as every other pattern needs one.
_WORDED_PATTERNS = [_DATE_PATTERNS[8]]
_DIGIT = re.compile(r"\d")
_QUANTITY_WORDS = "|".join(
    re.escape(w) + (r"\b" if w[-1].isalnum() else "")
    for w in sorted(RULES.quantity_words, key=len, reverse=True)
)
# A bare four-digit number followed by one of these is a quantity, not a year.
_QUANTITY_AFTER = re.compile(rf"\s*(?:{_QUANTITY_WORDS})", re.I)
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
    """A date at some granularity: year, year-month or full date; or a year range.

    Years before the common era are negative ("44 BC" is -44). ``approx`` is the reach of
    an approximate marker before a year ("around 1880"), as for a number.
    """

    text: str
    start: int
    end: int
    year: int | None = None
    month: int | None = None
    day: int | None = None
    year_hi: int | None = None
    approx: str | None = None

    @property
    def is_range(self) -> bool:
        """True for a span of years ("1942–43", "1990s")."""
        return self.year_hi is not None and self.year_hi != self.year


def _century(groups: dict[str, str | None]) -> tuple[int, int]:
    """The years of a century ("the 16th century" is 1500–1599; "late" its last third)."""
    number = int(
        groups["century"] or RULES.ordinals[" ".join((groups["cword"] or "").lower().split())]
    )
    low = (number - 1) * 100
    low, high = {
        "early": (low, low + 33),
        "mid": (low + 33, low + 66),
        "late": (low + 66, low + 99),
    }.get((groups.get("part") or "").lower(), (low, low + 99))
    if groups.get("cbc"):  # "the 5th century BC" is 500–401 BC
        return -(high + 1), -(low + 1)
    return low, high


def _date_from_match(m: re.Match[str]) -> DateValue | None:
    """Build a date value from one pattern match (None when it is not a valid date)."""
    groups = m.groupdict()
    span = (m.group(), m.start(), m.end())
    if groups.get("century") or groups.get("cword"):
        low, high = _century(groups)
        return DateValue(*span, year=low, year_hi=high)
    if groups.get("decade"):
        decade = int(groups["decade"] or 0)
        return DateValue(*span, year=decade, year_hi=decade + 9)
    if groups.get("bc"):
        return DateValue(*span, year=-int(groups["bc"] or 0))
    if groups.get("ad") or groups.get("ad2"):
        return DateValue(*span, year=int(groups.get("ad") or groups.get("ad2") or 0))
    year = int(groups["year"]) if groups.get("year") else None
    month = _MONTHS[(groups["mon"] or "").lower()] if groups.get("mon") else None
    if groups.get("mnum"):
        month = int(groups["mnum"] or 0)
    day = int(groups["day"] or 0) if groups.get("day") else None
    if (month is not None and not 1 <= month <= 12) or (day is not None and not 1 <= day <= 31):
        return None
    year_hi = None
    if groups.get("hi") and year is not None:
        hi = groups["hi"] or ""
        year_hi = int(str(year)[: 4 - len(hi)] + hi)
        if not year < year_hi <= year + 100:
            return None
    return DateValue(*span, year, month, day, year_hi)


def _skipped(pattern: re.Pattern[str], m: re.Match[str], text: str) -> bool:
    """True for a match that is no date: "may" the verb, a four-digit count ("1500 members")."""
    month = m.groupdict().get("mon") or ""
    if month.lower() == "may" and _MAY_WORDS.match(text, m.start()):
        return True
    return pattern is _BARE_YEAR and bool(
        _QUANTITY_AFTER.match(text, m.end())
        or (
            _PLURAL_AFTER.match(text, m.end())
            and not _TIME_BEFORE.search(text[max(0, m.start() - 10) : m.start()])
        )
    )


def find_dates(text: str) -> list[DateValue]:
    """All dates in ``text``, most specific pattern first, never overlapping.

    The characters a date already holds are marked in one array, so a match is checked
    against the dates before it in the time of its own length: the work grows with the
    text, not with the square of the dates in it.
    """
    found: list[DateValue] = []
    taken = bytearray(len(text))  # 1 where a date found already lies
    patterns = _DATE_PATTERNS if _DIGIT.search(text) else _WORDED_PATTERNS
    for pattern in patterns:
        for m in pattern.finditer(text):
            if taken.find(1, m.start(), m.end()) >= 0 or _skipped(pattern, m, text):
                continue
            value = _date_from_match(m)
            if value is not None:
                if value.month is None and not value.is_range:
                    approx = approximate_before(text, m.start())
                    value = replace(value, approx=approx)
                found.append(value)
                taken[m.start() : m.end()] = b"\x01" * (m.end() - m.start())
    return sorted(found, key=lambda d: d.start)


def _years_relation(claim: DateValue, evidence: DateValue) -> str | None:
    """Compare the years of two dates: 'match', 'conflict', or None to compare the rest."""
    assert claim.year is not None and evidence.year is not None
    c_lo, c_hi = claim.year, claim.year_hi or claim.year
    e_lo, e_hi = evidence.year, evidence.year_hi or evidence.year
    if evidence.is_range and not claim.is_range:
        # A single year is matched by a range's endpoint, contradicted outside it.
        if claim.year in (e_lo, e_hi) and claim.month is None:
            return "match"
        return "conflict" if not e_lo <= claim.year <= e_hi else "unknown"
    if (c_lo, c_hi) == (e_lo, e_hi):
        return None
    if claim.is_range and c_lo <= e_lo <= e_hi <= c_hi:
        return "match"
    if _within_years(claim.approx, claim.year, evidence.year) or (
        evidence.approx == "both" and _within_years("both", evidence.year, claim.year)
    ):
        return "match" if claim.month is None else "unknown"
    return "conflict"


def _within_years(reach: str | None, claimed: int, stated: int) -> bool:
    """True when ``stated`` is inside what an approximate claimed year allows."""
    band = RULES.year_tolerance
    if reach == "both":
        return abs(claimed - stated) <= band
    if reach == "below":
        return claimed - band <= stated <= claimed
    if reach == "at_most":
        return stated <= claimed
    return reach == "above" and stated >= claimed


def date_relation(claim: DateValue, evidence: DateValue) -> str:
    """Compare a claimed date with an evidence date: 'match', 'conflict' or 'unknown'.

    The claim is supported when every part it states (year, month, day) is stated equal by
    the evidence, so "1903" and "December 1903" are supported by "10 December 1903". A
    differing year (or month of the same year, or day of the same month) is a conflict. A
    part the evidence leaves out is unknown, never a conflict.
    """
    if claim.year is not None and evidence.year is not None:
        years = _years_relation(claim, evidence)
        if years is not None:
            return years
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
