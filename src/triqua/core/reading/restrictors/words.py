"""The restrictor word lists ("once", "first", "the largest", "one of"), read once from data.

The offline decomposer keeps a fact's restrictors (and its reporting verbs); the restrictor
reader (``markers``) finds them in evidence for the verifier. They live in the shared
reader, below both, so neither half of the engine imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from triqua.core.reading.rules_file import read_rules_file

__all__ = ["WORDS", "Example", "Words", "examples"]

_PATH = Path(__file__).parents[1] / "data" / "restrictors.json"


@dataclass(frozen=True)
class Words:
    """The restrictor word lists, lower case."""

    frequency: dict[str, int]
    frequency_nouns: frozenset[str]
    count_words: dict[str, int]
    ordinal: dict[str, int]
    ordinal_not_before: frozenset[str]
    exclusive: frozenset[str]
    superlative_irregular: frozenset[str]
    superlative_not: frozenset[str]
    superlative_determiners: frozenset[str]
    quantifier: dict[str, str]
    #: Superlative -> the first word of its synonym group ("biggest" -> "largest").
    superlative_synonyms: dict[str, str]
    #: Pairs of opposite superlatives, by their synonym group's first word.
    superlative_antonyms: frozenset[frozenset[str]]
    reporting_verbs: frozenset[str]
    #: Phrases that make the word after them one of a group ("one of", "among").
    group_phrases: tuple[tuple[str, ...], ...] = ()
    #: Words between a group phrase and its word ("one of *the most* successful").
    group_determiners: frozenset[str] = frozenset()
    #: Status words that put a role in the past ("former", "ex").
    lapsed: frozenset[str] = frozenset()
    #: Words that end a role's head ("CEO" of "the CEO of Acme").
    role_prepositions: frozenset[str] = frozenset()
    #: Relation words of a statement about the past, which a lapsed role still states.
    past: frozenset[str] = frozenset()
    #: Words that count a claim's object as many ("multiple", "several").
    many: frozenset[str] = frozenset()


def _load(path: Path = _PATH) -> Words:
    """Read the word lists.

    Raises:
        RuntimeError: when the file is missing or lacks a list.
    """
    try:
        raw = read_rules_file(path, "restrictor word list")
        return Words(
            frequency={k.lower(): int(v) for k, v in raw["frequency"].items()},
            frequency_nouns=frozenset(raw["frequency_nouns"]),
            count_words={k.lower(): int(v) for k, v in raw["count_words"].items()},
            ordinal={
                k.lower(): int(v) for k, v in {**raw["ordinal"], **raw["ordinal_synonyms"]}.items()
            },
            ordinal_not_before=frozenset(raw["ordinal_not_before"]),
            exclusive=frozenset(raw["exclusive"]),
            superlative_irregular=frozenset(raw["superlative_irregular"]),
            superlative_not=frozenset(raw["superlative_not"]),
            superlative_determiners=frozenset(raw["superlative_determiners"]),
            quantifier={k.lower(): str(v) for k, v in raw["quantifier"].items()},
            superlative_synonyms={w: g[0] for g in raw["superlative_synonyms"] for w in g},
            superlative_antonyms=frozenset(frozenset(p) for p in raw["superlative_antonyms"]),
            reporting_verbs=frozenset(raw["reporting_verbs"]),
            group_phrases=tuple(tuple(w.lower() for w in p) for p in raw["groups"]["phrases"]),
            group_determiners=frozenset(raw["groups"]["determiners"]),
            lapsed=frozenset(raw["groups"]["lapsed"]),
            role_prepositions=frozenset(raw["groups"]["prepositions"]),
            past=frozenset(raw["groups"]["past"]),
            many=frozenset(w.lower() for w in raw["many"]["words"]),
        )
    except (OSError, KeyError, ValueError, AttributeError, TypeError) as exc:
        raise RuntimeError(f"restrictor word list {path} is unreadable: {exc}") from exc


WORDS = _load()


@dataclass(frozen=True)
class Example:
    """One worked example of a restrictor rule: whether ``evidence`` states ``claim``.

    ``claim`` is a restrictor text and the noun it restricts (``markers``), a unit's
    subject, relation and object (``groups``) or an object counted as many (``many``).
    """

    rule: str
    claim: tuple[str, ...]
    evidence: str
    matches: bool


def examples(path: Path = _PATH) -> list[Example]:
    """Every worked example of the restrictor rules, in file order."""
    raw = read_rules_file(path, "restrictor word list")
    out = []
    for rule in ("markers", "groups", "many"):
        for key, matches in (("match", True), ("no_match", False)):
            for example in raw[rule][key]:
                claim, evidence = (example[:-1], example[-1])
                if rule == "groups":
                    claim = claim[0]
                out.append(Example(rule, tuple(claim), evidence, matches))
    return out
