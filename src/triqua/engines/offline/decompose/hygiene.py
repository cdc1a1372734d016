"""Hygiene of offline facts: arguments that name nothing checkable, and relation idioms.

A subject or object that is only a number, a unit or a determiner ("100 degrees", "three
siblings", "both") is a parse fragment, not an entity: a fact built on it is junk. The check
works on the written text so a benchmark can apply the same rule to any decomposer's output.
Idioms whose literal reading makes a junk triple ("came into the world" -> "was born") are a
data table here as well.
"""

from __future__ import annotations

import re

DETERMINER_WORDS = frozenset(
    {
        "a", "an", "the", "this", "that", "these", "those", "some", "any", "all", "both",
        "each", "every", "either", "neither", "many", "most", "much", "more", "several",
        "few", "fewer", "such", "other", "others", "another", "one", "ones", "none", "no",
        "half", "it", "they", "them", "he", "she", "him", "her", "there", "which", "what",
        "who", "former", "latter",
    }
)  # fmt: skip
UNIT_WORDS = frozenset(
    {
        "%", "percent", "per", "cent", "degree", "degrees", "celsius", "fahrenheit", "kelvin",
        "metre", "metres", "meter", "meters", "m", "km", "kilometre", "kilometres",
        "kilometer", "kilometers", "mile", "miles", "foot", "feet", "ft", "inch", "inches",
        "yard", "yards", "kg", "kilogram", "kilograms", "gram", "grams", "g", "pound",
        "pounds", "lb", "lbs", "ton", "tons", "tonne", "tonnes", "litre", "litres", "liter",
        "liters", "hectare", "hectares", "acre", "acres", "square", "cubic", "times",
    }
)  # fmt: skip
NUMBER_WORDS = frozenset(
    {
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
        "eighteen", "nineteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy",
        "eighty", "ninety", "hundred", "hundreds", "thousand", "thousands", "million",
        "millions", "billion", "billions", "dozen", "dozens", "first", "second", "third",
    }
)  # fmt: skip
_APPROX = frozenset({"about", "around", "nearly", "almost", "over", "under", "some", "roughly"})
_NUMBER = re.compile(r"^[$€£]?[\d][\d.,]*(?:%|s)?$")
_WORD = re.compile(r"[$€£]?[\w%][\w.,%'’-]*", re.UNICODE)


def _is_number(word: str) -> bool:
    return bool(_NUMBER.match(word)) or word.lower() in NUMBER_WORDS


def is_junk_argument(text: str, role: str) -> bool:
    """True when a subject or object names nothing checkable.

    Junk in either role: only determiners or pronouns ("both", "the"), only units
    ("degrees"). Junk as a subject only: a bare number or a number with at most two
    lowercase words ("100 degrees", "three siblings"); as an object such a quantity is a
    value ("has three siblings") and is kept. An empty object is an intransitive fact.

    Args:
        text: the subject or object as written in the fact.
        role: ``"subject"`` or ``"object"``.
    """
    words = _WORD.findall(text)
    if not words:
        return role == "subject" or bool(text.strip())
    lowered = [w.lower() for w in words]
    if all(w in DETERMINER_WORDS for w in lowered):
        return True
    if all(w in UNIT_WORDS for w in lowered):
        return True
    if role != "subject":
        return False
    rest = [w for w in words if w.lower() not in _APPROX]
    numbers = [w for w in rest if _is_number(w)]
    if not numbers or not _is_number(rest[0]):
        return False
    others = [w for w in rest if not _is_number(w)]
    if any(w.lower() == "of" for w in others):  # "two of his films": a partitive names things
        return False
    return len(others) <= 2 and not any(w[:1].isupper() for w in others)


# Idioms: the verb forms, the words that must follow, and the relation they mean. The
# literal parse of these gives junk ("(Curie, came into, the world)"); "*" matches a
# possessive (his, her, their).
_IDIOM_SOURCE: list[tuple[tuple[str, ...], tuple[str, ...], str]] = [
    (("came",), ("into", "the", "world"), "was born"),
    (("comes", "come"), ("into", "the", "world"), "is born"),
    (("saw",), ("the", "light", "of", "day"), "was born"),
    (("passed", "passes", "pass"), ("away",), "died"),
    (("breathed",), ("*", "last"), "died"),
    (("lost", "loses"), ("*", "life"), "died"),
    (("took", "takes", "take", "taking"), ("place",), "{verb} place"),
    (("took", "takes", "take", "taking"), ("part",), "{verb} part"),
    (("gave", "gives", "give"), ("birth", "to"), "gave birth to"),
    (("made", "makes", "make"), ("*", "debut"), "debuted"),
    (("tied", "ties", "tie"), ("the", "knot", "with"), "married"),
    (("rose", "rise", "rises"), ("to", "fame"), "{verb} to fame"),
    (("came", "comes", "come"), ("to", "power"), "{verb} to power"),
]
IDIOMS: dict[str, list[tuple[tuple[str, ...], str]]] = {}
"""Verb form -> (words that follow it, relation); "{verb}" in a relation is the verb itself."""
for _forms, _tail, _relation in _IDIOM_SOURCE:
    for _form in _forms:
        IDIOMS.setdefault(_form, []).append((_tail, _relation.replace("{verb}", _form)))

POSSESSIVES = frozenset({"his", "her", "their", "its", "my", "our", "your"})
