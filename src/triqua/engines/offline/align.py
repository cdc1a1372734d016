"""Value normalisation for evidence alignment: tokens, stems, dates, numbers, names, negation.

Pure functions with no model behind them, so the offline verifier can compare a fact's
values with an evidence sentence's values cheaply and predictably: "64.5 million" equals
"64,500,000" and "64.5m"; "1903" is supported by "10 December 1903" but "1904" is not;
"Curie" names "Marie Curie".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from spacy.lang.en.stop_words import STOP_WORDS

__all__ = [
    "DateValue",
    "NumberValue",
    "Token",
    "date_relation",
    "find_dates",
    "find_numbers",
    "is_negated",
    "number_relation",
    "relation_stems",
    "stem",
    "stems_match",
    "tokenize",
]

# ---------------------------------------------------------------------------- tokens


@dataclass(frozen=True)
class Token:
    """A word of a text: surface form, normalised stem and character offsets."""

    text: str
    stem: str
    start: int
    end: int

    @property
    def is_capitalised(self) -> bool:
        """True for a word that starts with a capital letter (a name part, usually)."""
        return self.text[:1].isupper()

    @property
    def is_stop(self) -> bool:
        """True for a function word that carries no content of its own."""
        return self.text.lower() in STOP_WORDS or self.stem in _EXTRA_STOP


_WORD = re.compile(r"[^\W_]+(?:['’.][^\W_]+)*", re.UNICODE)
_EXTRA_STOP = frozenset({"be", "have", "do", "s", "also", "mr", "mrs", "ms", "dr"})
_NEGATIONS = frozenset({"not", "n't", "never", "no", "neither", "nor", "none", "cannot"})

# Irregular forms and agent nouns that a suffix stemmer cannot bring together. spaCy's
# lemmatizer would, but it needs the tagger (~3 ms a sentence), too slow for every
# candidate sentence; this table plus the suffix rules only has to make inflections meet.
_IRREGULAR = {
    "won": "win", "winning": "win", "winner": "win", "winners": "win", "victory": "win",
    "born": "bear", "birth": "bear", "bore": "bear", "was": "be", "were": "be", "is": "be",
    "are": "be", "been": "be", "am": "be", "being": "be", "has": "have", "had": "have",
    "having": "have", "did": "do", "does": "do", "done": "do", "made": "make",
    "wrote": "write", "written": "write", "writer": "write", "author": "write",
    "led": "lead", "leader": "lead", "began": "begin", "begun": "begin", "became": "become",
    "took": "take", "taken": "take", "gave": "give", "given": "give", "went": "go",
    "gone": "go", "saw": "see", "seen": "see", "held": "hold", "left": "leave",
    "built": "build", "sold": "sell", "bought": "buy", "taught": "teach", "spoke": "speak",
    "spoken": "speak", "ran": "run", "grew": "grow", "grown": "grow", "knew": "know",
    "known": "know", "met": "meet", "paid": "pay", "said": "say", "told": "tell",
    "lost": "lose", "fell": "fall", "fought": "fight", "drew": "draw", "drawn": "draw",
    "chose": "choose", "chosen": "choose", "rose": "rise", "risen": "rise", "died": "die",
    "dies": "die", "dying": "die", "death": "die", "dead": "die", "children": "child",
    "men": "man", "women": "woman", "founder": "found", "founding": "found",
    "married": "marry", "marriage": "marry", "populated": "population", "inhabitants": "population",
    "discovered": "discover", "discovery": "discover", "invention": "invent",
    "inventor": "invent", "creator": "create", "creation": "create", "located": "locate",
    "location": "locate", "situated": "locate", "n't": "not", "cannot": "not",
}

# A small relation-synonym table: a relation word is matched by any word of its group.
_RELATION_GROUPS = (
    {"win", "award", "receive", "earn", "get", "claim", "honor", "honour", "prize"},
    {"bear", "native", "birthplace"},
    {"die", "pass", "kill"},
    {"found", "establish", "create", "start", "launch", "set", "form", "institute"},
    {"locate", "situate", "base", "lie", "site", "headquarter"},
    {"write", "pen", "compose", "publish"},
    {"marry", "wife", "husband", "spouse", "wed"},
    {"join", "sign", "transfer", "move"},
    {"lead", "head", "direct", "chair", "run", "manage", "captain"},
    {"play", "star", "appear", "portray"},
    {"release", "publish", "launch", "issue", "debut", "premiere"},
    {"invent", "develop", "design", "build", "create", "make", "devise", "construct"},
    {"discover", "find", "identify", "detect"},
    {"population", "inhabitant", "resident", "people"},
    {"capital", "seat"},
    {"study", "attend", "graduate", "educate", "student", "alumnus"},
    {"work", "employ", "serve"},
    {"own", "acquire", "buy", "purchase"},
    {"cause", "lead", "result", "trigger"},
    {"increase", "rise", "grow", "gain"},
    {"decrease", "fall", "drop", "decline", "reduce"},
    {"use", "utilize", "employ", "apply"},
    {"produce", "generate", "create", "make"},
    {"contain", "include", "comprise", "consist"},
    {"speak", "say", "state", "announce"},
    {"height", "tall", "high"},
    {"length", "long"},
    {"area", "size", "cover", "span"},
    {"weigh", "weight", "mass"},
    {"age", "old"},
    {"cost", "price", "worth", "value"},
)


def _undouble(word: str) -> str:
    """Undo a doubled final consonant left by a stripped suffix ("stopp" -> "stop")."""
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouslz":
        return word[:-1]
    return word


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Normalise a word so inflected forms meet: case, possessive, plural, -ed, -ing, final e.

    Hand-written because the project's stemming options are spaCy's lemmatizer (too slow
    for every candidate sentence, see ``_IRREGULAR``) and no stemmer package is installed.
    """
    w = word.lower().replace("’", "'").strip(".")
    if w.endswith("'s"):
        w = w[:-2]
    w = w.replace(".", "")
    if w in _IRREGULAR:
        return _suffix_stem(_IRREGULAR[w])
    return _suffix_stem(w)


def _suffix_stem(w: str) -> str:
    """Strip inflectional suffixes and a final e from a lower-case word."""
    if not w.isalpha() or len(w) <= 3:
        return w
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if w.endswith("ing") and len(w) > 5:
        w = _undouble(w[:-3])
    elif w.endswith("ed") and len(w) > 4:
        w = _undouble(w[:-2])
    if w in _IRREGULAR:
        return _suffix_stem(_IRREGULAR[w])
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    return w


def stems_match(a: str, b: str) -> bool:
    """True when two stems are the same word or share a long common prefix (derivations)."""
    if a == b:
        return True
    shorter = min(len(a), len(b))
    if shorter < 5:
        return False
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    return common >= 5 and common >= 0.75 * shorter


def tokenize(text: str) -> list[Token]:
    """Split text into word tokens with stems and offsets (punctuation dropped)."""
    tokens = []
    for m in _WORD.finditer(text):
        word = m.group()
        if word.lower().endswith("n't") and len(word) > 3:
            # "didn't" -> "did" + "n't", so the negation is its own token.
            cut = m.start() + len(word) - 3
            tokens.append(Token(word[:-3], stem(word[:-3]), m.start(), cut))
            tokens.append(Token("n't", "not", cut, m.end()))
            continue
        tokens.append(Token(word, stem(word), m.start(), m.end()))
    return tokens


def relation_stems(stem_: str) -> frozenset[str]:
    """The stem itself plus its synonyms from the relation-synonym table."""
    out = {stem_}
    for group in _STEMMED_GROUPS:
        if stem_ in group:
            out |= group
    return frozenset(out)


_STEMMED_GROUPS = tuple(frozenset(stem(word) for word in group) for group in _RELATION_GROUPS)


def is_negated(tokens: list[Token]) -> bool:
    """True when the tokens carry a negation cue ("not", "n't", "never", "no" ...)."""
    return any(t.text.lower() in _NEGATIONS or t.stem == "not" for t in tokens)


# ----------------------------------------------------------------------------- dates

_MONTHS = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
    "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}
_MONTH = r"(?P<mon>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_YEAR = r"(?P<year>1\d{3}|20\d{2})"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_DATE_PATTERNS = [
    re.compile(r"\b(?P<year>1\d{3}|20\d{2})-(?P<mnum>[01]?\d)-(?P<day>[0-3]?\d)\b"),
    re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}\b", re.I),
    re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}\b", re.I),
    re.compile(rf"\b{_MONTH},?\s+(?:of\s+)?{_YEAR}\b", re.I),
    re.compile(r"\b(?P<year>1\d{3}|20\d{2})\s*[–—-]\s*(?P<hi>\d{2,4})\b(?!\s*%)"),
    re.compile(r"\b(?P<decade>1\d{2}0|20[0-9]0)['’]?s\b"),
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
            if is_bare_year and _QUANTITY_AFTER.match(text, m.end()):
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


# --------------------------------------------------------------------------- numbers

_SCALES = {
    "thousand": 1e3, "k": 1e3, "million": 1e6, "mn": 1e6, "mio": 1e6, "m": 1e6,
    "billion": 1e9, "bn": 1e9, "b": 1e9, "trillion": 1e12, "tn": 1e12,
    "hundred": 1e2, "dozen": 12,
}
# Unit -> (dimension, factor to the dimension's base unit).
_UNITS = {
    "%": ("percent", 1.0), "percent": ("percent", 1.0), "per cent": ("percent", 1.0),
    "km": ("length", 1000.0), "kilometre": ("length", 1000.0), "kilometer": ("length", 1000.0),
    "kilometres": ("length", 1000.0), "kilometers": ("length", 1000.0),
    "m": ("length", 1.0), "metre": ("length", 1.0), "meter": ("length", 1.0),
    "metres": ("length", 1.0), "meters": ("length", 1.0), "cm": ("length", 0.01),
    "mm": ("length", 0.001), "mi": ("length", 1609.344), "mile": ("length", 1609.344),
    "miles": ("length", 1609.344), "ft": ("length", 0.3048), "feet": ("length", 0.3048),
    "foot": ("length", 0.3048), "kg": ("mass", 1.0), "kilogram": ("mass", 1.0),
    "kilograms": ("mass", 1.0), "g": ("mass", 0.001), "grams": ("mass", 0.001),
    "tonnes": ("mass", 1000.0), "tonne": ("mass", 1000.0), "tons": ("mass", 1000.0),
    "lb": ("mass", 0.4536), "lbs": ("mass", 0.4536), "km2": ("area", 1e6),
    "sq km": ("area", 1e6), "square kilometres": ("area", 1e6),
    "square kilometers": ("area", 1e6), "square miles": ("area", 2.59e6),
    "°c": ("celsius", 1.0), "°f": ("fahrenheit", 1.0),
}
_CURRENCY = {"$": "usd", "€": "eur", "£": "gbp", "¥": "jpy", "usd": "usd", "dollars": "usd",
             "euros": "eur", "eur": "eur", "gbp": "gbp", "pounds": "gbp"}
_WORD_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "hundred": 100,
}
_UNIT_RE = "|".join(re.escape(u) for u in sorted(_UNITS, key=len, reverse=True))
_SCALE_RE = "|".join(sorted(_SCALES, key=len, reverse=True))
_NUMBER = re.compile(
    rf"(?P<cur>[$€£¥])?\s?(?P<num>\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?"
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
            )
        )
    return values


def number_relation(claim: NumberValue, evidence: NumberValue) -> str:
    """Compare quantities: 'match', 'conflict' (same dimension, other value) or 'unknown'.

    Values match within the coarser of the two precisions, so "65 million" is matched by
    "64.5 million" and "64,500,000" equals "64.5 million". Different counted nouns ("3
    children" vs "3 books") are unknown, never a conflict.
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
    return "conflict" if same_dimension else "unknown"
