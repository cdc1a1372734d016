"""The checkable values of a unit, and whether a quote carries them.

A unit's numbers, dates and capitalised names must be written in the text that grounds it.
Hand-written rather than reusing the offline engine's value parsers: this module sits below
the engines (nothing imports upward) and needs only "is this value written in the quote",
not the offline verifier's alignment.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from triqua.core.grounding.numbers import ORDINAL_WORDS, WORD_NUMBERS
from triqua.core.grounding.quotes import normalise
from triqua.core.grounding.statement import definite_heads, word_stems
from triqua.schema import FactUnit

__all__ = ["Number", "UnitValues", "missing_values", "unit_values"]


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
#: Length units and their metres, so "0.33 km" is carried by "330 metres".
_METRES = {
    **dict.fromkeys(["km", "kilometre", "kilometres", "kilometer", "kilometers"], 1000.0),
    **dict.fromkeys(["m", "metre", "metres", "meter", "meters"], 1.0),
    **dict.fromkeys(["cm", "centimetre", "centimetres", "centimeter", "centimeters"], 0.01),
}
_YEAR_TOLERANCE = 5  # "around 1950" allows 1945–1955
_NUMBER = re.compile(
    r"(?<![\w.])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?P<suffix>st|nd|rd|th|s)?\b"
    r"(?:\s*(?P<century>centur(?:y|ies)))?"
    rf"(?:\s*(?P<scale>{'|'.join(_SCALES)})\b)?"
    rf"(?:\s*(?P<unit>{'|'.join(sorted(_METRES, key=len, reverse=True))})\b)?",
    re.IGNORECASE,
)
_ORDINAL_CENTURY = re.compile(
    rf"\b(?P<word>{'|'.join(ORDINAL_WORDS)})\s+centur(?:y|ies)\b", re.IGNORECASE
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
    #: Metres per unit when a length unit follows ("0.33 km" is also 330 m).
    metres: float | None = None

    def ranges(self) -> list[tuple[float, float]]:
        """Its range as written and, with a length unit, in metres."""
        out = [(self.low, self.high)]
        if self.metres and self.metres != 1.0:
            out.append((self.low * self.metres, self.high * self.metres))
        return out


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
            low, high = (value - half) * scale, (value + half) * scale
            metres = _METRES.get((m["unit"] or "").lower())
            found.append(Number(m.group().strip(), low, high, approx, metres))
    for m in _WORD_NUMBER.finditer(text):
        if _not_a_count(text, m.start(), m.end()):
            continue
        value = float(_WORD_NUMBERS[m["word"].lower()])
        found.append(Number(m["word"], value - 0.5, value + 0.5))  # as a written digit
    for m in _ORDINAL_CENTURY.finditer(text):
        first = (ORDINAL_WORDS[m["word"].lower()] - 1) * 100.0
        found.append(Number(m.group(), first, first + 100))  # "twelfth century": 1100–1200
    return found


_NEXT_WORD = re.compile(r"\W*(\w+)")
_PREVIOUS_WORD = re.compile(r"(\w+)\W*$")


def _not_a_count(text: str, start: int, end: int) -> bool:
    """True for a number word that counts nothing: "one of the largest", or a name's last word.

    "Square Two" or "Apollo Eleven" is a name (checked as one): a capitalised number word
    right after a capitalised word. A number word before its noun ("Three Nobel Prizes",
    "for Seven Years") counts, however it is capitalised.
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
        and before[1].lower() not in _WORD_NUMBERS
    )


_POSSESSIVE = re.compile(r"['’]s?$", re.IGNORECASE)
#: Punctuation that ends a name run ("Leadership: Maradona", "Queens, New York").
_RUN_BREAK = (",", ":", ";", ")")


@dataclass(frozen=True)
class _Run:
    """A run of capitalised words, normalised.

    ``possessor`` when it ends "'s" ("Pierre's"), with the word it possesses ("wife").
    """

    name: str
    possessor: bool
    possessed: str = ""


#: Nouns by which "X's <noun>" names another person than X ("Pierre Curie's wife").
_KIN = frozenset(
    (
        "wife", "husband", "spouse", "widow", "widower", "partner", "son", "daughter",
        "child", "children", "father", "mother", "parent", "parents", "brother", "sister",
        "sibling", "siblings", "uncle", "aunt", "nephew", "niece", "cousin", "grandson",
        "granddaughter", "grandfather", "grandmother", "stepson", "stepdaughter",
        "stepfather", "stepmother", "fiance", "fiancee", "girlfriend", "boyfriend", "lover",
        "friend", "colleague", "assistant", "student", "pupil", "teacher", "mentor",
        "successor", "predecessor", "rival", "opponent", "heir", "deputy", "secretary",
        "coach", "manager", "lawyer", "biographer",
    )
)  # fmt: skip


def _name_runs(text: str) -> list[_Run]:
    """Capitalised names in ``text`` as written, one per run (repeats kept)."""
    runs: list[_Run] = []
    run: list[str] = []
    for token in [*text.split(), ""]:
        letters = [c for c in token if c.isalpha()]
        if letters and letters[0].isupper():
            run.append(token)
            if not token.endswith(_RUN_BREAK):
                continue
        while run and normalise(run[0]) in _STOP_NAMES:
            run.pop(0)
        while run and normalise(run[-1]) in _STOP_NAMES:
            run.pop()
        words = [_POSSESSIVE.sub("", word.rstrip(".,:;)")) for word in run]
        name = normalise(" ".join(words))
        if name:
            possessor = bool(_POSSESSIVE.search(run[-1].rstrip(".,:;)")))
            after = normalise(token) if letters else ""
            possessed = after.split()[0] if possessor and after else ""
            runs.append(_Run(name, possessor, possessed))
        run = []
    return runs


#: A regnal or serial number closing a name: "Elizabeth II", "Henry VIII", "World War II".
#: A closing "I" is read as the pronoun and dropped from the run, so "Elizabeth I" compares
#: as "Elizabeth" (no numeral), which still differs from "Elizabeth II".
_NUMERAL = re.compile(r"^(?=[ivxl]+$)x{0,3}(?:ix|iv|v?i{0,3})$")


def _numeral(words: Sequence[str]) -> str:
    """The numeral closing a normalised name ("ii" of "elizabeth ii"), or ""."""
    return words[-1] if len(words) >= 2 and _NUMERAL.match(words[-1]) else ""


def _surname(words: Sequence[str]) -> str:
    """The last word of a name before its numeral ("elizabeth" of "elizabeth ii")."""
    return words[-2] if _numeral(words) else words[-1]


def _names(text: str) -> list[str]:
    """Capitalised names in ``text``: maximal runs of capitalised words, normalised.

    Lower-case words split runs ("University of Paris" is "university" and "paris"), so a
    name is checked word group by word group; stop words at either end are dropped.
    """
    return list(dict.fromkeys(run.name for run in _name_runs(text)))


@dataclass(frozen=True)
class UnitValues:
    """What a quote must carry to ground a unit; ``subject`` names may be carried by reference."""

    numbers: tuple[Number, ...]
    names: tuple[str, ...]
    subject: tuple[str, ...] = ()
    #: A qualifier's base object, which the quote must name too (see ``unit_values``).
    anchors: tuple[str, ...] = ()
    #: A qualifier's base subject: it may stand for the anchors (see ``unit_values``).
    base_subject: tuple[str, ...] = ()


def unit_values(unit: FactUnit) -> UnitValues:
    """The unit's checkable values: a base's subject and object, a qualifier's value.

    A qualifier's quote must also name its base: the base object's names, or its subject
    (a pronoun may carry it) when the quote names nothing else — a date qualifies that
    statement, not another one the passage makes beside it ("She won it again in 1911 for
    Chemistry" gives no year of the Physics prize).
    """
    subject = tuple(_subject_names(unit.subject))
    if unit.kind == "base":
        numbers = tuple(n for part in (unit.subject, unit.object) for n in _numbers(part))
        names = tuple(dict.fromkeys([*subject, *_names(unit.object)]))
        return UnitValues(numbers=numbers, names=names, subject=subject)
    value = unit.value or ""
    return UnitValues(
        numbers=tuple(_numbers(value)),
        names=tuple(_names(value)),
        anchors=tuple(_names(unit.object)),
        base_subject=subject,
    )


def _subject_names(subject: str) -> list[str]:
    """A subject's names, without a capitalised common word that only opens its sentence.

    "Red sauce" or "Sinking sand" is capitalised because a fact starts with it; a one-word
    run followed by a lower-case word is not taken for a name.
    """
    names = _names(subject)
    words = subject.split()
    if names and len(words) > 1 and words[1][:1].islower() and names[0] == normalise(words[0]):
        names = names[1:]
    return names


#: Verb forms that agree only with a plural subject: "Firms are", "Bellflowers have".
_PLURAL_VERBS = frozenset(["are", "were", "have", "do", "aren't", "weren't", "haven't", "don't"])
#: One capitalised word ending in a plural "s" ("Bellflowers"; not "Glass", "Cactus").
_PLURAL_WORD = re.compile(r"[A-Z][a-z]{2,}(?<![su])s")


def _plural_common_noun(unit: FactUnit) -> str:
    """A base's subject, normalised, when it is a plural common noun opening its fact, or "".

    "Bellflowers are found in forests": one capitalised word ending in "s" whose verb
    agrees only with a plural ("are", "were", "have", "do"). A name is singular to its verb
    ("Williams is", "Texas has", "Lawson offers"), so it stays a name written as a name.
    """
    if unit.kind != "base" or not _PLURAL_WORD.fullmatch(unit.subject.strip()):
        return ""
    verb = unit.relation.replace("’", "'").split()[:1]
    return normalise(unit.subject) if verb and verb[0].lower() in _PLURAL_VERBS else ""


def _stem_written(noun: str, text: str) -> bool:
    """True when ``text`` writes the common noun in any case, singular or plural (its stem)."""
    return word_stems(noun) <= word_stems(text)


#: Words by which a quote refers back to a subject named earlier in its passage.
_PRONOUNS = frozenset(["he", "she", "it", "they", "his", "her", "its", "their", "him", "them"])


def _carried(claimed: Number, written: Sequence[Number]) -> bool:
    """True when a number of the quote lies where the claimed number allows.

    Lengths compare as written and in metres ("0.33 km" and "330 metres").
    """
    pairs = [(c, w) for number in written for c in claimed.ranges() for w in number.ranges()]
    for (low, high), (w_low, w_high) in pairs:
        if claimed.approx is None:
            if w_low < high and low < w_high:
                return True
            continue
        centre = (low + high) / 2
        band = _YEAR_TOLERANCE if _is_year(claimed) else _APPROX_TOLERANCE * abs(centre)
        value = (w_low + w_high) / 2
        if claimed.approx == "above" and value >= low:
            return True
        if claimed.approx == "below" and centre - band <= value <= high:
            return True
        if claimed.approx == "both" and abs(value - centre) <= band:
            return True
    return False


def _is_year(number: Number) -> bool:
    """True for a plain four-digit year ("about 1800"): approximate by years, not by 10 %."""
    return number.text.isdigit() and len(number.text) == 4 and 1000 <= number.low <= 2100


def missing_values(unit: FactUnit, quote: str, before: str = "") -> list[str]:
    """The unit's values (as the unit writes them) that ``quote`` does not carry.

    The subject's name may be carried by reference: a quote with a pronoun ("She won …")
    carries it when ``before`` (the passage text before the quote) names the subject. A
    subject that is a plural common noun ("Bellflowers are …") is carried by its stem in
    any case, singular or plural ("Bristly Bellflower", "a bellflower").
    """
    values = unit_values(unit)
    written = _numbers(quote)
    padded = f" {normalise(quote)} "
    refers = bool(_PRONOUNS.intersection(padded.split())) or _definite_reference(padded)
    missing = [n.text for n in values.numbers if not _carried(n, written)]
    said = f"{unit.subject} {unit.object}" if unit.kind == "base" else unit.value or ""
    missing += [t for t in _quoted_titles(said) if f" {normalise(t)} " not in padded]
    opener = normalise(unit.subject.split()[0]) if unit.subject.split() else ""
    possessors = {run.name for run in _name_runs(unit.subject) if run.possessor}
    plural = _plural_common_noun(unit)
    for name in values.names:
        subject = name in values.subject
        if name == plural:
            # "Bellflowers are found …": "a bellflower" or "Bristly Bellflower" writes it.
            if not (_stem_written(name, quote) or (refers and _stem_written(name, before))):
                missing.append(name)
            continue
        how = _How(
            by_reference=refers and subject,
            common=name == opener,
            about=subject and name not in possessors,
        )
        if not _name_is_number(name, values.numbers) and not _named(
            name, quote, padded, before, how
        ):
            missing.append(name)
    unnamed = [a for a in values.anchors if not _named(a, quote, padded, before, _How())]
    if unnamed or (not values.anchors and values.base_subject):
        by_subject = bool(values.base_subject) and all(
            _named(s, quote, padded, before, _How(by_reference=refers)) for s in values.base_subject
        )
        known = {
            w for n in (*values.names, *values.anchors, *values.base_subject) for w in n.split()
        }
        foreign = [n for n in _names(quote) if not set(n.split()) & known]
        if not by_subject or (unnamed and foreign):
            missing += unnamed or list(values.base_subject)
    return missing


#: A title the unit writes in quotes ("Sense and Prejudice"): its words, in that order.
_QUOTED = re.compile(r"[\"“]([^\"“”]{2,120})[\"”]")


def _quoted_titles(text: str) -> list[str]:
    """Titles ``text`` writes in double quotes: a quote must write each whole, in order.

    Word by word "Sense and Prejudice" is in "Pride and Prejudice and Sense and
    Sensibility"; as a title it is not.
    """
    return [m.group(1).strip() for m in _QUOTED.finditer(text) if m.group(1).strip()]


def _definite_reference(padded: str) -> bool:
    """True when the text refers back by a definite description ("the film", "this city")."""
    words = padded.split()
    return any(a in ("the", "this") and b in definite_heads() for a, b in pairwise(words))


@dataclass(frozen=True)
class _How:
    """How a name of the unit may be carried.

    Attributes:
        by_reference: A pronoun of the quote may carry it when ``before`` names it.
        common: It is the one word opening the fact's subject: it may be a common noun
            capitalised only to open its sentence ("Recruiters", or "Giant" of "Giant
            planets" written again in the object), carried in lower case.
        about: It names the one the unit is about (its subject, not written "X's" by the
            unit): a quote writing it only as another person's possessor ("Pierre Curie's
            wife") is about someone else; "Georgia's climate" still says Georgia has one.
    """

    by_reference: bool = False
    common: bool = False
    about: bool = False


def _named(name: str, quote: str, padded: str, before: str, how: _How) -> bool:
    """True when the quote names ``name`` (or, ``how.by_reference``, a pronoun refers to it)."""
    if _written(name, quote, padded, how):
        return not _shortened_for_another(name, quote, before)
    return how.by_reference and _written(name, before, f" {normalise(before)} ", how, near=True)


def _shortened_for_another(name: str, quote: str, before: str) -> bool:
    """True when the quote writes only the last word of ``name`` and ``before`` gives it away.

    "Marie Curie was a physicist. Curie won the prize": the passage names Marie Curie in full
    and never Pierre Curie, so its "Curie" is Marie, not Pierre Curie.
    """
    words = name.split()
    if len(words) < 2 or not before:
        return False
    last = words[-1]
    holding = [run.name.split() for run in _name_runs(quote) if run.name.split()[-1] == last]
    if not holding or any(run != [last] for run in holding):
        return False  # not a surname alone ("Supreme Court" of "U.S. Supreme Court" is no alias)
    earlier = [run.name for run in _name_runs(before) if run.name.split()[-1] == last]
    if any(set(words) <= set(run.split()) for run in earlier):
        return False  # the passage named this one in full: the short form is theirs
    return bool(earlier) and _rival(name, earlier)


def _written(name: str, text: str, padded: str, how: _How, near: bool = False) -> bool:
    """True when ``text`` writes the name as the one it is about, not another one's part.

    With ``near`` (a passage before the quote) only the runs writing the name's last word
    are read: the passage's other names are about other things.
    """
    if not _name_in(name, padded, text, how.common):
        return False
    last = name.split()[-1]
    runs = [run for run in _name_runs(text) if not near or last in run.name.split()]
    holding = [run for run in runs if last in run.name.split()]
    if how.about and holding and all(run.possessed in _KIN for run in holding):
        return False  # "Pierre Curie's wife Marie won": Pierre Curie did not
    # "Curie, Pierre's wife Marie": the Pierre of this text is another person's possessor.
    others = {w for run in runs if run.possessed in _KIN for w in run.name.split()}
    return not _rival(name, [run.name for run in runs], others)


#: Words that make another place of a name they stand before: "South Sudan" is not
#: "Sudan", "West Virginia" not "Virginia", "New York" not "York".
_PLACE_MODIFIERS = frozenset(
    (
        "north", "south", "east", "west", "northern", "southern", "eastern", "western",
        "northeast", "northwest", "southeast", "southwest", "central", "upper", "lower",
        "new", "old", "greater", "great", "little", "inner", "outer", "equatorial",
    )
)  # fmt: skip


def _name_in(name: str, padded: str, raw: str, common: bool = False) -> bool:
    """True when a text writes the name, or enough of it, capitalised.

    Names are often shortened ("Obama" for "Barack Obama", "William O. Douglas" for "Justice
    William O. Douglas", "U.S. Supreme Court") or derived ("Kenyan"): the name's last word and
    at least half of its words (initials aside; a word of four letters or more may open a
    derived one) must appear, and every word that makes it another place ("South" of "South
    Sudan"). A name found by one word must have it capitalised in ``raw`` (the text as
    written): "apple" or "bush" is a common word, not "Apple" or "Bush" (several words,
    "byte pair encoding" for "Byte Pair Encoding", are the name). A one-word ``common`` subject
    "name" that only opens its sentence ("Recruiters screen candidates") is a common noun
    when ``raw`` writes it in lower case, singular or plural ("a recruiter").
    """
    # A count in title case ("Seven Years") is a number and its noun, not a name.
    counted = any(w in _WORD_NUMBERS for w in name.split())
    capitals = frozenset(padded.split()) if counted else _capitalised(raw)
    if f" {name} " in padded and (" " in name or name in capitals):
        return True
    words = [w for w in name.split() if len(w) > 1] or name.split()
    if len(words) == 1 and common and _common_noun(words[0], raw):
        return True
    present = [w for w in words if f" {w} " in padded or _derived(w, padded)]
    return (
        words[-1] in present
        and (len(present) > 1 or _derived(words[-1], f" {' '.join(capitals)} ", exact=True))
        and 2 * len(present) >= len(words)
        and all(w in present for w in words if w in _PLACE_MODIFIERS)
    )


def _capitalised(raw: str) -> frozenset[str]:
    """The normalised words ``raw`` writes with a capital ("O'Connor" gives "o", "connor")."""
    return frozenset(
        word
        for token in raw.split()
        if any(c.isalpha() for c in token) and next(c for c in token if c.isalpha()).isupper()
        for word in normalise(token).split()
    )


def _common_noun(word: str, raw: str) -> bool:
    """True when ``raw`` writes ``word`` (or its singular) in lower case, as a whole word.

    A person is never written in lower case, so "Williams" is not carried by "Prince
    William"; "recruiters" is by "an HR recruiter".
    """
    forms = {word, word[:-1]} if len(word) >= 5 and word.endswith("s") else {word}
    return any(re.search(rf"(?<![\w-]){re.escape(f)}(?![\w-])", raw) for f in forms)


#: Words that may stand before a name without making it another person's.
_TITLES = frozenset(
    (
        "mr", "mrs", "ms", "miss", "dr", "doctor", "prof", "professor", "sir", "dame",
        "lord", "lady", "king", "queen", "prince", "princess", "saint", "st", "pope",
        "president", "justice", "judge", "senator", "governor", "general", "captain",
        "chief", "rev", "reverend", "emperor", "empress", "duke", "duchess", "count",
        "countess", "baron", "sheikh",
    )
)  # fmt: skip


def _rival(name: str, runs: Sequence[str], others: set[str] | None = None) -> bool:
    """True when every name run writing the name's last word names someone else.

    "Marie Curie" writes "Curie" but is not "Pierre Curie": a run that adds a word of its
    own (titles aside) while lacking one of the name's is another person. A run that only
    shortens or lengthens the name ("Curie", "Marie Skłodowska Curie") is the same one,
    unless it lengthens it into another place ("South Sudan" for "Sudan"), writes other
    initials ("George W. Bush" for "George H. W. Bush") or another numeral ("Elizabeth II"
    for "Elizabeth I"), or shortens it while the text
    writes the missing words apart, for someone else (in ``others``: "Curie, Pierre's wife
    Marie" for "Pierre Curie").
    """
    words = {w for w in name.split() if len(w) > 1}
    initials = {w for w in name.split() if len(w) == 1}
    others = others or set()
    last = _surname(name.split())
    # Runs that end with the surname name people; "Novak Instruments" or "Newton's
    # Principia" name things after them and decide nothing.
    holding = [run for run in runs if _surname(run.split()) == last]
    if not holding:
        return False
    for run in holding:
        written = run.split()
        extra = {w for w in written if len(w) > 1} - words - _TITLES
        lacking = words - set(written)
        other_initials = {w for w in written if len(w) == 1}
        if extra & _PLACE_MODIFIERS or lacking & others:
            continue
        if initials and other_initials and initials != other_initials:
            continue
        if _numeral(name.split()) != _numeral(written):
            continue  # "Elizabeth II" is not "Elizabeth I", nor "Henry VII" "Henry VIII"
        if not extra or not lacking:
            return False
    return True


#: Endings that derive a word from a name: "Kenyan", "Japanese", "Marxist", "Cups".
_DERIVING = ("s", "es", "n", "an", "ian", "ean", "ese", "i", "ish", "ic", "ist", "ism", "ite")


def _derived(word: str, padded: str, exact: bool = False) -> bool:
    """True when the text writes ``word`` (with ``exact``) or a word derived from it.

    A derived word is the name and an ending that derives ("Kenyan" for "Kenya"), never a
    longer name ("Nigeria" for "Niger").
    """
    if exact and f" {word} " in padded:
        return True
    if len(word) < 4:
        return f" {word}s " in padded or f" {word}es " in padded
    return any(f" {word}{ending} " in padded for ending in _DERIVING)


def _name_is_number(name: str, numbers: Sequence[Number]) -> bool:
    """A "name" that is only a number's words ("19th Century") is checked as the number."""
    return any(normalise(n.text) == name for n in numbers)
