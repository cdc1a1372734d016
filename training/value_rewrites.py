"""Rewrites of a value in a real sentence, each with the label its premise gives it.

Every rewrite reads the sentence's values with triqua's one reader of values
(``triqua.core.reading.values``) and writes another form of a value from that reader's
tables (``values.json``): a number in words or with a scale ("64.5 million" for "64,500,000"),
in another unit of its dimension ("1.2 km" for "1,200 m"), approximated ("about 1,000"),
bounded ("more than 300" for 412), an ordinal in words or digits ("twelfth", "12th"), a year
as its century or decade, a date at another granularity. A rival form (another value, another
unit, another century) is contradicted; a form that says more than the premise (a month the
premise does not give, an exact value for "more than 300") is neutral. Restrictors ("one of
the largest" is not "the largest") and words that mean the same or nearly the same come from
``data/value_words.json``.

Each function takes a sentence and a ``random.Random`` and returns ``Rewrite`` rows: the
premise (the sentence, or its rewritten form), the hypothesis, the label (0 entailed,
1 neutral, 2 contradicted) and the kind.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

from triqua.core.reading.values.carried import values_match
from triqua.core.reading.values.dates import find_dates
from triqua.core.reading.values.numbers import NumberValue, find_numbers
from triqua.core.reading.values.table import RULES

ENTAILED, NEUTRAL, CONTRADICTED = 0, 1, 2
WORDS = json.loads((Path(__file__).parent / "data" / "value_words.json").read_text("utf-8"))
_NUMBER_WORDS = {n: w for w, n in RULES.word_numbers.items() if 2 <= n <= 20}
_ORDINAL_WORDS = {n: w for w, n in RULES.ordinals.items() if " " not in w}
_MONTHS = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
]  # fmt: skip
#: Units a quantity is rewritten into, per dimension, with the word written.
_TARGETS = {
    "length": ["km", "metres", "miles", "feet"],
    "mass": ["kg", "tonnes", "lb", "grams"],
    "area": ["square kilometres", "square miles"],
}
_BOTH = [m for m, reach in RULES.approximate.items() if reach == "both" and "." not in m]
_MARKER = re.compile(
    r"\b("
    + "|".join(re.escape(m) for m in sorted(RULES.approximate, key=len, reverse=True))
    + r")\s+$",
    re.I,
)


@dataclass(frozen=True)
class Rewrite:
    """A premise-hypothesis pair made from one sentence."""

    premise: str
    hypothesis: str
    label: int
    kind: str


def _swap(text: str, start: int, end: int, new: str) -> str:
    """``text`` with ``new`` in place of its span, capitalised where the sentence opens."""
    if start == 0 and text[:1].isupper():
        new = new[:1].upper() + new[1:]
    return text[:start] + new + text[end:]


def _bare(n: NumberValue) -> tuple[float, str] | None:
    """The figure of a quantity written in digits, and what follows it ("330", " metres").

    None for a number in words, with a currency or a scale ("$5 million"): their bounds and
    approximations are written another way.
    """
    first, _, rest = n.figure.partition(" ")
    if not re.fullmatch(r"\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?", first):
        return None
    if rest and rest.split()[0].lower() in RULES.scales:
        return None
    return float(first.replace(",", "")), f" {rest}" if rest else ""


def _nice(value: float) -> str:
    """A number written as a writer would: commas, at most two decimals."""
    if abs(value - round(value)) < 1e-9:
        return f"{round(value):,}"
    return f"{value:,.2f}".rstrip("0").rstrip(".")


def _round_to(value: float, digits: int) -> float:
    """``value`` rounded to ``digits`` significant digits."""
    if value == 0:
        return 0.0
    step = 10 ** (len(str(int(abs(value)))) - digits)
    return float(round(value / step) * step)


def _scaled(value: float) -> str | None:
    """ "64.5 million" for 64,500,000; None when the value has no short scaled form."""
    for scale, word in ((1e9, "billion"), (1e6, "million")):
        if value >= scale and abs(value / scale - round(value / scale, 2)) < 1e-9:
            return f"{round(value / scale, 2):g} {word}"
    return None


def _agrees(hypothesis: str, premise: str, label: int) -> bool:
    """True when the value reader reads the pair as its label says (entailed: carried)."""
    try:
        carried = values_match(hypothesis, premise)
    except ValueError:
        return False
    return carried if label == ENTAILED else not carried


def _a_quantity(sentence: str, n: NumberValue) -> bool:
    """True for a number that counts or measures, not a label, a name, a score or a span.

    "number 73", "Room 93", "U-27", "7–1", "300 to 400 mg" and numbers in references are
    left alone: their rewrites would not say what the sentence says.
    """
    before, after = sentence[: n.start], sentence[n.start + len(n.figure) :]
    if before and not re.search(r"(?:^|[\s(])[$€£]?$", before):
        return False
    if re.match(r"[\w(/]|\s*(?:[–—-]|to\b|and\s+\d)", after) or _RANGE_BEFORE.search(before):
        return False
    word = re.search(r"(\S+)\s+[$€£]?$", before)
    return word is None or (
        word[1].lower().strip(".,") not in WORDS["label_words"]
        and (not word[1][:1].isupper() or word[1].lower() in ("in", "about", "over"))
    )


_RANGE_BEFORE = re.compile(r"(?:\d\s*(?:[–—-]|to|and)|\bbetween|\bfrom)\s*[$€£]?$", re.I)
_NOT_PROSE = re.compile(r"https?:|www\.|doi|@|\[\s*edit\s*\]|\d{6,}")


def _quantities(sentence: str) -> list[NumberValue]:
    if _NOT_PROSE.search(sentence):
        return []
    dates = [(d.start, d.end) for d in find_dates(sentence)]
    return [
        n
        for n in find_numbers(sentence, dates)
        if len(n.readings) == 1 and _a_quantity(sentence, n)
    ]


def _counted(n: NumberValue, sentence: str) -> bool:
    """True when a plural noun follows the number ("34 strikeouts"), or a unit does."""
    after = sentence[n.start + len(n.figure) :]
    noun = re.match(r"\s+([a-z]+)", after)
    plural = noun is not None and (
        noun[1].endswith("s") or noun[1] in WORDS["plural_irregular"].values()
    )
    return " " in n.figure or plural


def number_forms(sentence: str, rng: random.Random) -> list[Rewrite]:
    """A count in another form (words, digits, a scale, per cent); a rival in another form."""
    out = []
    for n in _quantities(sentence):
        value, dim, _ = n.readings[0]
        figure = n.figure
        start = n.start
        end = start + len(figure)
        if dim == "percent":
            forms = [f"{_nice(value)} per cent", f"{_nice(value)}%", f"{_nice(value)} percent"]
            other = [f for f in forms if f.replace(" ", "") != figure.replace(" ", "")]
            new, rival = rng.choice(other), f"{_nice(value + rng.choice([-9, -4, 3, 7]))}%"
        elif dim == "count" and value in _NUMBER_WORDS and _counted(n, sentence):
            word = figure.lower() in RULES.word_numbers
            new = str(int(value)) if word else _NUMBER_WORDS[int(value)]
            shift = int(value) + (rng.choice([-1, 1, 2]) if value > 2 else rng.choice([1, 2]))
            rival = _NUMBER_WORDS.get(shift, str(shift)) if not word else str(shift)
        elif dim in ("count", "usd", "eur", "gbp") and value >= 1e6:
            scaled = _scaled(value)
            commas = f"{round(value):,}"
            if scaled is None:
                continue
            cur = figure[0] if figure[:1] in "$€£" else ""
            new = cur + (commas if any(w in figure for w in ("illion", "bn", "m")) else scaled)
            if new.lower() == figure.lower():
                continue
            wrong = rng.choice([0.5, 0.7, 1.4, 2.0])
            rival = cur + (_scaled(_round_to(value * wrong, 3)) or f"{value * wrong:,.0f}")
        else:
            continue
        for hyp, label in ((new, ENTAILED), (rival, CONTRADICTED)):
            hypothesis = _swap(sentence, start, end, hyp)
            if _agrees(hypothesis, sentence, label):
                out.append(Rewrite(sentence, hypothesis, label, "value-form"))
    return out


def unit_conversions(sentence: str, rng: random.Random) -> list[Rewrite]:
    """A quantity in another unit of its dimension; the same figure in another unit; a rival."""
    out = []
    for n in _quantities(sentence):
        value, dim, _ = n.readings[0]
        if dim not in _TARGETS or not value:
            continue
        written = n.figure.split()[-1].lower() if " " in n.figure else ""
        targets = [u for u in _TARGETS[dim] if u != written]
        unit = rng.choice(targets)
        converted = value / RULES.units[unit][1]
        if converted < 0.1 or any(w[:1].isupper() for w in n.figure.split()[1:]):
            continue
        shown = _nice(round(converted, 2 if converted < 10 else 1 if converted < 100 else 0))
        plain = _nice(n.plain[0])
        rivals = [
            f"{plain} {unit}",
            f"{_nice(round(converted * rng.choice([0.6, 1.5]), 1))} {unit}",
        ]
        for hyp, label in ((f"{shown} {unit}", ENTAILED), (rng.choice(rivals), CONTRADICTED)):
            hypothesis = _swap(sentence, n.start, n.start + len(n.figure), hyp)
            if _agrees(hypothesis, sentence, label):
                out.append(Rewrite(sentence, hypothesis, label, "value-unit"))
    return out


def _marker_before(sentence: str, start: int) -> re.Match[str] | None:
    return _MARKER.search(sentence, max(0, start - 24), start)


def approximations(sentence: str, rng: random.Random) -> list[Rewrite]:
    """An exact quantity approximated ("about 1,000" for 1,040); a rival approximation."""
    out = []
    for n in _quantities(sentence):
        bare = _bare(n)
        if bare is None or n.approx or _marker_before(sentence, n.start) or bare[0] < 20:
            continue
        if not _counted(n, sentence) or re.search(r"\b(?:the|a|an)\s+$", sentence[: n.start]):
            continue
        value, rest = bare
        near = _round_to(value, 2)
        if abs(near - value) > RULES.relative_tolerance * value or near == value:
            near = _round_to(value, 3)
        far = _round_to(value * rng.choice([0.6, 0.75, 1.3, 1.6]), 2)
        marker = rng.choice(_BOTH)
        for shown, label in ((near, ENTAILED), (far, CONTRADICTED)):
            hypothesis = _swap(
                sentence, n.start, n.start + len(n.figure), f"{marker} {_nice(shown)}{rest}"
            )
            if _agrees(hypothesis, sentence, label):
                out.append(Rewrite(sentence, hypothesis, label, "value-approx"))
    return out


def comparatives(sentence: str, rng: random.Random) -> list[Rewrite]:
    """Bounds: "more than 300" entailed by 412, "more than 500" contradicted; and back.

    A premise that bounds a value ("more than 300 people") entails a looser bound, is
    neutral to an exact value past it, and contradicts a value on the wrong side.
    """
    out = []
    for n in _quantities(sentence):
        bare = _bare(n)
        if bare is None or bare[0] < 10 or not _counted(n, sentence):
            continue
        if re.search(r"\b(?:the|a|an|its|their|his|her)\s+$", sentence[: n.start]):
            continue
        value, rest = bare
        end = n.start + len(n.figure)
        below, above = _round_to(value * 0.8, 1), _round_to(value * 1.3, 1)
        if not below < value < above:
            continue
        marker = _marker_before(sentence, n.start)
        if marker is None:
            less = "fewer than" if n.noun and n.noun.endswith("s") and not rest else "less than"
            options = [
                (f"more than {_nice(below)}", ENTAILED),
                (f"more than {_nice(above)}", CONTRADICTED),
                (f"{less} {_nice(above)}", ENTAILED),
                (f"{less} {_nice(below)}", CONTRADICTED),
                (f"at least {_nice(above)}", CONTRADICTED),
            ]
            for hyp, label in rng.sample(options, 2):
                text = _swap(sentence, n.start, end, hyp + rest)
                out.append(Rewrite(sentence, text, label, "value-compare"))
        elif RULES.approximate[marker.group(1).lower()] == "above" and "least" not in marker[1]:
            start = marker.start(1)
            options = [
                (f"more than {_nice(below)}", ENTAILED),
                (_nice(_round_to(value * 1.2, 2)), NEUTRAL),
                (_nice(below), CONTRADICTED),
            ]
            for hyp, label in options:
                text = _swap(sentence, start, end, hyp + rest)
                out.append(Rewrite(sentence, text, label, "value-compare"))
    return out


_ORDINAL = re.compile(
    r"\b(the|his|her|its|their|a|an|'s)\s+("
    + "|".join(sorted(_ORDINAL_WORDS.values(), key=len, reverse=True))
    + r"|[1-9]\d?(?:st|nd|rd|th))\b(?=\s+[a-z])",
    re.I,
)


def ordinal_digits(number: int) -> str:
    """ "12th" for 12, "21st" for 21."""
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def ordinals(sentence: str, rng: random.Random) -> list[Rewrite]:
    """An ordinal in words for digits and back ("twelfth", "12th"); another ordinal."""
    out = []
    for m in _ORDINAL.finditer(sentence):
        raw = m.group(2)
        if re.search(r"\bof\s+$", sentence[: m.start()]):
            continue  # "one of the first chords" counts no place in a series
        word = raw.lower() in RULES.ordinals
        number = RULES.ordinals[raw.lower()] if word else int(raw[:-2])
        if number not in _ORDINAL_WORDS:
            continue
        other = number + rng.choice([1, 2]) if number < 3 else number + rng.choice([-1, 1])
        if other not in _ORDINAL_WORDS:
            continue

        def written(n: int, as_word: bool, like: str = raw) -> str:
            text = _ORDINAL_WORDS[n] if as_word else ordinal_digits(n)
            return text.capitalize() if like[:1].isupper() else text

        for new, label in (
            (written(number, not word), ENTAILED),
            (written(other, rng.random() < 0.5), CONTRADICTED),
        ):
            out.append(
                Rewrite(
                    sentence, _swap(sentence, m.start(2), m.end(2), new), label, "value-ordinal"
                )
            )
    return out
