"""The grounding rule: a verdict on a unit must rest on a verbatim quote from a cited passage.

A unit may be "supported" only when it cites an evidence id of this run and quotes that
passage verbatim (after normalising case, whitespace, unicode quotes and dashes, accents,
punctuation and symbols), and the quote carries the unit's checkable values: its numbers,
dates and capitalised names (a name may be shortened to its last word and half its words;
the subject's name may be carried by a pronoun referring back to it in the passage).
"Contradicted" needs a cited passage of this run (and its quote, when it gives one, must be
found there). Whatever the judge said, anything short of that is insufficient evidence, with
the reason recorded.

Hand-written rather than reusing the offline engine's value parsers: this module sits below
the engines (nothing imports upward) and needs only "is this value written in the quote",
not the offline verifier's alignment.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from triqua.core.numbers import WORD_NUMBERS
from triqua.schema import FactUnit, Status

__all__ = [
    "Grounding",
    "check_quote",
    "locate_quote",
    "missing_values",
    "normalise",
    "unit_values",
]


# ------------------------------------------------------------------ normalisation


@functools.cache  # characters repeat endlessly; unicodedata per character is the cost
def _fold(char: str) -> str:
    """One character folded: accents dropped, case folded, punctuation and symbols a space."""
    out = []
    for part in unicodedata.normalize("NFKD", char):
        if unicodedata.combining(part):
            continue
        if unicodedata.category(part)[0] in "PS":  # quotes, dashes, dots, markup, symbols …
            out.append(" ")
        else:
            out.append(part.casefold())
    return "".join(out)


def _normalise_mapped(text: str) -> tuple[str, tuple[int, ...]]:
    """``text`` normalised, and for each normalised character the index it came from."""
    chars: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(text):
        for folded in _fold(char):
            if folded.isspace():
                if not chars or chars[-1] == " ":
                    continue
                folded = " "
            chars.append(folded)
            origin.append(index)
    if chars and chars[-1] == " ":
        chars.pop()
        origin.pop()
    return "".join(chars), tuple(origin)


#: A passage is checked for many facts of a run: its mapping is kept for the next quotes.
_passage_mapped = functools.lru_cache(maxsize=256)(_normalise_mapped)


@functools.lru_cache(maxsize=4096)  # the same quotes, values and passages recur per unit
def normalise(text: str) -> str:
    """Case-, accent-, punctuation- and whitespace-insensitive form of ``text``."""
    return _normalise_mapped(text)[0]


def locate_quote(passage: str, quote: str) -> tuple[int, int] | None:
    """Character range of ``quote`` in ``passage`` after normalisation, or None if absent.

    The range is widened to whole words, so the slice of the passage is the quote as the
    passage writes it.
    """
    needle = normalise(quote)
    if not needle:
        return None
    haystack, origin = _passage_mapped(passage)
    at = haystack.find(needle)
    if at < 0:
        return None
    start, end = origin[at], origin[at + len(needle) - 1] + 1
    while start > 0 and passage[start - 1].isalnum():
        start -= 1
    while end < len(passage) and passage[end].isalnum():
        end += 1
    return start, end


# ------------------------------------------------------------------ checkable values

_SCALES = {
    "thousand": 1e3,
    "million": 1e6,
    "mn": 1e6,
    "billion": 1e9,
    "bn": 1e9,
    "trillion": 1e12,
}
_WORD_NUMBERS = WORD_NUMBERS
#: Markers that make a claimed number approximate, and which side of it they allow.
_APPROX = {
    "about": "both",
    "around": "both",
    "approximately": "both",
    "roughly": "both",
    "nearly": "below",
    "almost": "below",
    "some": "both",
    "circa": "both",
    "c": "both",
    "over": "above",
    "more than": "above",
    "at least": "above",
    "under": "below",
    "less than": "below",
    "fewer than": "below",
    "up to": "below",
}
_APPROX_TOLERANCE = 0.1
_NUMBER = re.compile(
    r"(?<![\w.])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?P<suffix>st|nd|rd|th|s)?\b"
    r"(?:\s*(?P<century>centur(?:y|ies)))?"
    rf"(?:\s*(?P<scale>{'|'.join(_SCALES)})\b)?",
    re.IGNORECASE,
)
_WORD_NUMBER = re.compile(rf"\b(?P<word>{'|'.join(_WORD_NUMBERS)})\b", re.IGNORECASE)
_APPROX_BEFORE = re.compile(
    rf"(?:^|\W)(?P<m>{'|'.join(sorted(_APPROX, key=len, reverse=True))})\W*$", re.IGNORECASE
)
#: Capitalised words that name nothing on their own.
_STOP_NAMES = frozenset(
    {
        *("a", "an", "the", "of", "in", "on", "at", "to", "for", "and", "or", "by", "with"),
        *("from", "as", "is", "was", "are", "were", "this", "that", "these", "those"),
        *("it", "its", "he", "she", "they", "his", "her", "their", "i"),
    }
)


@dataclass(frozen=True)
class Number:
    """A number as written: its value range ``[low, high]`` and how it is shown to users."""

    text: str
    low: float
    high: float
    approx: str | None = None


def _numbers(text: str) -> list[Number]:
    """Numbers, years, decades ("1990s") and centuries ("19th century") written in ``text``."""
    found: list[Number] = []
    for m in _NUMBER.finditer(text):
        digits = m["num"].replace(",", "")
        value = float(digits)
        half = 10.0 ** -len(digits.split(".")[1]) / 2 if "." in digits else 0.5
        scale = _SCALES.get((m["scale"] or "").lower(), 1.0)
        suffix = (m["suffix"] or "").lower()
        marker = _APPROX_BEFORE.search(text[max(0, m.start() - 16) : m.start()])
        approx = _APPROX[marker["m"].lower()] if marker else None
        if m["century"] and suffix in ("st", "nd", "rd", "th"):
            first = (value - 1) * 100  # "19th century" is the years 1800–1900
            found.append(Number(m.group().strip(), first, first + 100, approx))
        elif suffix == "s" and value >= 10 and value % 10 == 0:  # "1990s", "60s"
            found.append(Number(m.group().strip(), value, value + 9.999, approx))
        else:
            found.append(
                Number(m.group().strip(), (value - half) * scale, (value + half) * scale, approx)
            )
    for m in _WORD_NUMBER.finditer(text):
        value = float(_WORD_NUMBERS[m["word"].lower()])
        found.append(Number(m["word"], value, value))
    return found


_POSSESSIVE = re.compile(r"['’]s?$", re.IGNORECASE)


def _names(text: str) -> list[str]:
    """Capitalised names in ``text``: maximal runs of capitalised words, normalised.

    Lower-case words split runs ("University of Paris" is "university" and "paris"), so a
    name is checked word group by word group; stop words at either end are dropped.
    """
    names: list[str] = []
    run: list[str] = []
    for token in [*text.split(), ""]:
        letters = [c for c in token if c.isalpha()]
        if letters and letters[0].isupper():
            run.append(token)
            continue
        while run and normalise(run[0]) in _STOP_NAMES:
            run.pop(0)
        while run and normalise(run[-1]) in _STOP_NAMES:
            run.pop()
        name = normalise(" ".join(_POSSESSIVE.sub("", word) for word in run))
        if name and name not in names:
            names.append(name)
        run = []
    return names


@dataclass(frozen=True)
class UnitValues:
    """What a quote must carry to ground a unit; ``subject`` names may be carried by reference."""

    numbers: tuple[Number, ...]
    names: tuple[str, ...]
    subject: tuple[str, ...] = ()


def unit_values(unit: FactUnit) -> UnitValues:
    """The unit's checkable values: a base triple's subject and object, a qualifier's value."""
    parts = [unit.subject, unit.object] if unit.kind == "base" else [unit.value or ""]
    numbers = tuple(n for part in parts for n in _numbers(part))
    names = tuple(dict.fromkeys(name for part in parts for name in _names(part)))
    subject = tuple(_names(unit.subject)) if unit.kind == "base" else ()
    return UnitValues(numbers=numbers, names=names, subject=subject)


#: Words by which a quote refers back to a subject named earlier in its passage.
_PRONOUNS = frozenset(["he", "she", "it", "they", "his", "her", "its", "their", "him", "them"])


def _carried(claimed: Number, written: Sequence[Number]) -> bool:
    """True when a number of the quote lies where the claimed number allows."""
    for number in written:
        if claimed.approx is None:
            if number.low < claimed.high and claimed.low < number.high:
                return True
            continue
        centre = (claimed.low + claimed.high) / 2
        band = _APPROX_TOLERANCE * abs(centre)
        value = (number.low + number.high) / 2
        if claimed.approx == "above" and value >= claimed.low:
            return True
        if claimed.approx == "below" and centre - band <= value <= claimed.high:
            return True
        if claimed.approx == "both" and abs(value - centre) <= band:
            return True
    return False


def missing_values(unit: FactUnit, quote: str, before: str = "") -> list[str]:
    """The unit's values (as the unit writes them) that ``quote`` does not carry.

    The subject's name may be carried by reference: a quote with a pronoun ("She won …")
    carries it when ``before`` (the passage text before the quote) names the subject.
    """
    values = unit_values(unit)
    written = _numbers(quote)
    padded = f" {normalise(quote)} "
    refers = bool(_PRONOUNS.intersection(padded.split()))
    earlier = f" {normalise(before)} "
    missing = [n.text for n in values.numbers if not _carried(n, written)]
    for name in values.names:
        if _name_in(name, padded) or _name_is_number(name, values.numbers):
            continue
        if name in values.subject and refers and _name_in(name, earlier):
            continue
        missing.append(name)
    return missing


def _name_in(name: str, padded: str) -> bool:
    """True when a normalised, space-padded text writes the name, or enough of it.

    Names are often shortened ("Obama" for "Barack Obama", "William O. Douglas" for "Justice
    William O. Douglas", "U.S. Supreme Court") or derived ("Kenyan"): the name's last word and
    at least half of its words (initials aside; a word of four letters or more may open a
    longer one) must appear.
    """
    if f" {name} " in padded:
        return True
    words = [w for w in name.split() if len(w) > 1] or name.split()
    present = [w for w in words if f" {w} " in padded or _derived(w, padded)]
    return words[-1] in present and 2 * len(present) >= len(words)


def _derived(word: str, padded: str) -> bool:
    """True when the text writes a word derived from ``word`` ("Kenyan" for "Kenya")."""
    return len(word) >= 4 and f" {word}" in padded


def _name_is_number(name: str, numbers: Sequence[Number]) -> bool:
    """A "name" that is only a number's words ("19th Century") is checked as the number."""
    return any(normalise(n.text) == name for n in numbers)


# ------------------------------------------------------------------ the rule


@dataclass(frozen=True)
class Grounding:
    """The outcome of the grounding check on one unit verdict.

    Attributes:
        ok: The verdict may keep its status.
        reason: Why it may not (recorded with the downgraded unit), else None.
        evidence_ids: The cited ids of this run, the passage holding the quote first.
        quote: The quote as the passage writes it (whole words), when found.
    """

    ok: bool
    reason: str | None = None
    evidence_ids: tuple[str, ...] = ()
    quote: str | None = None


def check_quote(
    unit: FactUnit,
    status: Status,
    evidence_ids: Sequence[str],
    quote: str | None,
    passages: Mapping[str, str],
) -> Grounding:
    """Apply the grounding rule to one unit verdict.

    Args:
        unit: The unit judged.
        status: The judge's status for it; only supported and contradicted need grounding.
        evidence_ids: The ids the judge cited for it.
        quote: The judge's verbatim quote, if any.
        passages: This run's evidence passages for the fact, by id.

    Returns:
        The outcome: ``ok`` False with the reason when the verdict must become
        insufficient evidence.
    """
    if status not in (Status.SUPPORTED, Status.CONTRADICTED):
        return Grounding(ok=True, evidence_ids=tuple(evidence_ids), quote=quote)
    cited = list(dict.fromkeys(i for i in evidence_ids if i in passages))
    unknown = [i for i in evidence_ids if i not in passages]
    if not cited:
        if unknown:
            shown = ", ".join(unknown[:3])
            verb = "is" if len(unknown) == 1 else "are"
            return Grounding(ok=False, reason=f"cited id {shown} {verb} not evidence of this run")
        return Grounding(ok=False, reason="no evidence id cited")
    quote = (quote or "").strip()
    if not quote:
        if status is Status.CONTRADICTED:
            return Grounding(ok=True, evidence_ids=tuple(cited))
        return Grounding(ok=False, reason=f"no quote from {cited[0]}", evidence_ids=tuple(cited))
    for evidence_id in cited:
        span = locate_quote(passages[evidence_id], quote)
        if span is None:
            continue
        exact = passages[evidence_id][span[0] : span[1]]
        ids = (evidence_id, *(i for i in cited if i != evidence_id))
        if status is Status.SUPPORTED:
            lacking = missing_values(unit, exact, passages[evidence_id][: span[0]])
            if lacking:
                return Grounding(
                    ok=False,
                    reason=f"quote lacks value {', '.join(lacking)}",
                    evidence_ids=ids,
                    quote=exact,
                )
        return Grounding(ok=True, evidence_ids=ids, quote=exact)
    return Grounding(
        ok=False, reason=f"quote not found in {', '.join(cited)}", evidence_ids=tuple(cited)
    )
