"""Fractions written in words, read as values.

"a quarter of a percentage point", "half a million", "two-thirds of the land" and "a dozen
astronauts" are quantities. A fraction of a unit, a scale or a counted noun is that much
of it (0.25 percentage points, 500,000, 12 astronauts); a fraction of a whole ("two-thirds
of Japan's land", "half the population") is a share, in percent (67 percent, 50 percent).
The fraction words and their worked examples are the ``fractions`` rule of the value rules
file; ``numbers`` turns each reading here into a quantity like any other, so both engines
read them alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from triqua.core.reading.values.table import RULES

__all__ = ["Share", "find_shares"]

_COUNTS = {"a": 1, "an": 1, **{w: n for w, n in RULES.word_numbers.items() if 1 <= n <= 9}}
_FRACTIONS = "|".join(sorted(RULES.fractions, key=len, reverse=True))
_WORD_SCALES = "|".join(w for w in sorted(RULES.scales, key=len, reverse=True) if len(w) > 2)
_UNITS = "|".join(  # a unit of words ("percentage point") with any spaces between them
    r"\s+".join(map(re.escape, u.split()))
    for u in sorted(RULES.units, key=len, reverse=True)
    if u.replace(" ", "").isalpha() and len(u) > 2
)
_FRACTION = re.compile(
    rf"\b(?:(?P<count>{'|'.join(_COUNTS)})[\s-]+)?(?P<frac>{_FRACTIONS})\b"
    rf"(?:\s+of)?(?P<rest>\s+(?:(?:a|an)\s+(?:(?P<scale>{_WORD_SCALES})|(?P<unit>{_UNITS})"
    rf"|(?P<noun>[a-z]+))\b|(?P<whole>the|his|her|its|their|[A-Z]\w*['’]s)\b))",
    re.I,
)
_ONE_SCALE = re.compile(rf"\b(?:a|an)\s+(?P<scale>{_WORD_SCALES})\b(?!\s+(?:of|or|and)\b)", re.I)
_AFTER = re.compile(r"\s+(?:of\s+)?(?P<noun>[a-z][a-z-]+)")
#: Words before "half" that make it a part of a span, not a share ("the second half").
_TAKEN = re.compile(r"\b(?:the|first|second|third|last|latter|other|early|late)\s+$", re.I)
#: A share's precision, in percent: "two-thirds" is 66.7 ± 0.5 percent.
_SHARE_STEP = 0.5
#: The precision of one of a scale, as a share of it: "a million" is 1,000,000 ± 50,000.
_ONE_STEP = 0.05


@dataclass(frozen=True)
class Share:
    """One fraction written in words: its span, value and step as written, and what it counts.

    ``dimension`` is "percent" for a share of a whole, a unit's dimension (value in its base
    unit) for a fraction of a unit, else "count"; ``noun`` is the counted word after it.
    """

    start: int
    end: int
    value: float
    step: float
    dimension: str
    noun: str | None
    figure: str


def find_shares(text: str) -> list[Share]:
    """Every fraction written in words in ``text``, and every "a dozen", "a million"."""
    found: list[Share] = []
    for m in _FRACTION.finditer(text):
        counted = m.group("count")
        frac = m.group("frac").lower()
        if counted is None and not frac.startswith("hal"):
            continue  # "the Latin Quarter": only "half" reads without its count
        if counted is None and _TAKEN.search(text, 0, m.start()):
            continue
        value = _COUNTS.get((counted or "a").lower(), 1) * RULES.fractions[frac]
        share = _share(m, text, value)
        if share is not None:
            found.append(share)
    taken = [(s.start, s.end) for s in found]
    for m in _ONE_SCALE.finditer(text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        scale = RULES.scales[m.group("scale").lower()]
        after = _AFTER.match(text, m.end())
        noun = after.group("noun") if after else None
        end = after.end() if after else m.end()
        step = max(0.5, _ONE_STEP * scale)  # "a million" is a round figure
        found.append(Share(m.start(), end, scale, step, "count", noun, m.group()))
    return sorted(found, key=lambda s: s.start)


def _share(m: re.Match[str], text: str, value: float) -> Share | None:
    """The reading of one fraction: of a scale, a unit, a counted noun or a whole."""
    start, figure = m.start(), m.group()
    if m.group("whole"):
        end = m.end("frac")
        return Share(start, end, value * 100, _SHARE_STEP, "percent", None, text[start:end])
    step = 0.01  # a fraction is written to about two decimals ("a quarter": 0.25)
    if m.group("scale"):
        scale = RULES.scales[m.group("scale").lower()]
        after = _AFTER.match(text, m.end())
        noun = after.group("noun") if after else None
        end = after.end() if after else m.end()
        return Share(start, end, value * scale, step * scale, "count", noun, figure)
    if m.group("unit"):
        dimension, factor = RULES.units[m.group("unit").lower()]
        return Share(start, m.end(), value * factor, step * factor, dimension, None, figure)
    return Share(start, m.end(), value, step, "count", m.group("noun"), figure)
