"""Number words read as values, shared by the grounding rule and the offline engine."""

from __future__ import annotations

#: Spelled-out numbers and their values ("two" = 2), as claims and evidence write them.
WORD_NUMBERS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "hundred": 100,
}

#: Spelled-out ordinals and their values ("twelfth century" = the 12th century).
_ORDINALS = (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
    "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
)
ORDINAL_WORDS = {
    **{word: i for i, word in enumerate(_ORDINALS.split(), start=1)},
    "twenty-first": 21,
}
