"""The value rules file (``data/values.json``): markers, tolerances, scales, units, words.

Every reader of values in triqua (the grounding rule and the offline verifier) takes its
tables from here, so an approximate number reaches as far in one as in the other: one
policy, a quantity 5 % ("about 1,000" is 950–1,050), a year 5 years ("around 1880" is
1875–1885). Each rule of the file carries examples that must and must not match; the tests
run all of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from triqua.core.reading.rules_file import read_rules_file

__all__ = [
    "NAME_RULES",
    "NEGATING_WORDS",
    "RULES",
    "RULES_PATH",
    "Example",
    "ValueRules",
    "examples",
    "load_rules",
    "negated_markers",
    "without_negated_markers",
]

#: Words that negate alone and qualify a number only inside a whole marker ("no more than").
NEGATING_WORDS = frozenset(["no", "not"])

#: Rules whose examples are names (every name of the claim written in the evidence), not
#: numbers and dates.
NAME_RULES = frozenset(["name_suffixes", "demonyms", "name_particles"])

RULES_PATH = Path(__file__).parent / "data" / "values.json"


@dataclass(frozen=True)
class ValueRules:
    """The tables of the rules file, normalised to lower case."""

    #: Approximate marker → its reach: "both" or "below" (within the tolerance), "above"
    #: or "at_most" (a bound: any value on its side).
    approximate: dict[str, str]
    #: An approximate quantity's reach as a share of it (0.05: about 1,000 is 950–1,050).
    relative_tolerance: float
    #: An approximate year's reach in years (5: around 1880 is 1875–1885).
    year_tolerance: int
    scales: dict[str, float]
    #: Unit → (dimension, factor to the dimension's base unit).
    units: dict[str, tuple[str, float]]
    currencies: dict[str, str]
    word_numbers: dict[str, int]
    #: Fraction word → its value ("quarter": 0.25), of a unit, a scale or a whole.
    fractions: dict[str, float]
    ordinals: dict[str, int]
    #: Era markers after a year that make it one before the common era ("44 BC").
    before_era: tuple[str, ...]
    #: Era markers that keep a small number a year of the common era ("AD 79").
    common_era: tuple[str, ...]
    #: Words after a bare four-digit number that make it a quantity ("1500 people").
    quantity_words: tuple[str, ...]
    #: Lower-case words that, after a hyphen, make an adjective of a name ("Java-based").
    name_suffixes: frozenset[str] = frozenset()
    #: Lower-case words that stand inside a name between capitalised ones ("bin" of "Osama
    #: bin Laden", "da" of "Leonardo da Vinci").
    name_particles: frozenset[str] = frozenset()
    #: A place's name (lower case, no article) → the demonyms that name it ("china":
    #: "chinese").
    demonyms: dict[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Example:
    """One worked example of a rule: whether ``evidence`` carries the values of ``claim``."""

    rule: str
    claim: str
    evidence: str
    matches: bool


def _rule(raw: dict[str, Any], name: str) -> dict[str, Any]:
    rule = raw[name]
    if not isinstance(rule, dict):
        raise ValueError(f"rule {name!r} is not an object")
    return rule


def _parse(raw: dict[str, Any]) -> ValueRules:
    """The tables of a parsed rules file (KeyError or ValueError when one is malformed)."""
    tolerance = _rule(raw, "tolerance")
    eras = _rule(raw, "eras")
    return ValueRules(
        approximate={k.lower(): str(v) for k, v in _rule(raw, "approximate")["markers"].items()},
        relative_tolerance=float(tolerance["relative"]),
        year_tolerance=int(tolerance["years"]),
        scales={k.lower(): float(v) for k, v in _rule(raw, "scales")["table"].items()},
        units={k.lower(): (str(d), float(f)) for k, (d, f) in _rule(raw, "units")["table"].items()},
        currencies={k.lower(): str(v) for k, v in _rule(raw, "currencies")["table"].items()},
        word_numbers={k.lower(): int(v) for k, v in _rule(raw, "word_numbers")["table"].items()},
        fractions={k.lower(): float(v) for k, v in _rule(raw, "fractions")["table"].items()},
        ordinals={k.lower(): int(v) for k, v in _rule(raw, "ordinals")["table"].items()},
        before_era=tuple(m.lower() for m in eras["markers_before"]),
        common_era=tuple(m.lower() for m in eras["markers_after"]),
        quantity_words=tuple(w.lower() for w in _rule(raw, "not_years")["quantity_words"]),
        name_suffixes=frozenset(w.lower() for w in _rule(raw, "name_suffixes")["table"]),
        name_particles=frozenset(w.lower() for w in _rule(raw, "name_particles")["table"]),
        demonyms={
            k.lower(): tuple(d.lower() for d in v)
            for k, v in _rule(raw, "demonyms")["table"].items()
        },
    )


@lru_cache(maxsize=4)
def _read(path: Path) -> dict[str, Any]:
    return read_rules_file(path, "value rules")


def load_rules(path: Path = RULES_PATH) -> ValueRules:
    """Read and check the rules file.

    Raises:
        RuntimeError: when the file is missing, is not JSON, or lacks a table.
    """
    try:
        return _parse(_read(path))
    except (KeyError, ValueError, TypeError) as exc:
        raise RuntimeError(f"value rules {path} are unreadable: {exc}") from exc


def examples(path: Path = RULES_PATH) -> list[Example]:
    """Every worked example of every rule, in file order."""
    out = []
    for name, rule in _read(path).items():
        if name.startswith("_"):
            continue
        for key, matches in (("match", True), ("no_match", False)):
            out += [Example(name, claim, evidence, matches) for claim, evidence in rule[key]]
    return out


RULES = load_rules()


def negated_markers(rules: ValueRules = RULES) -> tuple[str, ...]:
    """The markers holding a negating word ("no more than"), longest first."""
    found = (m for m in rules.approximate if NEGATING_WORDS & set(m.split()))
    return tuple(sorted(found, key=len, reverse=True))


_NEGATED_MARKER = re.compile(
    r"\b(?:" + "|".join(re.escape(m) for m in negated_markers()) + r")\b", re.I
)


def without_negated_markers(text: str) -> str:
    """``text`` with each whole negated marker ("no more than", "not less than") blanked.

    Such a marker qualifies the number after it (the value readers check it), so its "no"
    or "not" negates nothing; a "no" or "not" anywhere else is still a negation. Offsets
    are kept: the marker becomes spaces.
    """
    return _NEGATED_MARKER.sub(lambda m: " " * len(m.group()), text)
