"""The word lists of triqua's word reader, read once from the lexicon file (``lexicon_file``).

The offline decomposer and verifier and the grounding rule's word check all read these
lists, so a word form or a relation synonym added once reaches every engine.
Relation synonyms, negation cues, antonym prefixes, the nouns a definite description ("the
city") names a topic with, and the month names are data, not code, so they can be extended
without touching the rules that use them. Value tables (approximate markers, tolerances,
units) are the value reader's (``core/reading/values/data/values.json``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from triqua.core.reading.lexicon_file import LEXICON_PATH, read_lexicon

__all__ = ["LEXICON", "Lexicon"]


@dataclass(frozen=True)
class Lexicon:
    """The word lists, normalised to lower case."""

    relation_groups: tuple[tuple[str, ...], ...]
    negation_cues: frozenset[str]
    #: The grammatical negators ("not", "never", "without") that the grounding rule's word
    #: check reads as one word, "not"; the wider ``negation_cues`` add words that deny by
    #: their meaning ("refused", "myth").
    negation_words: frozenset[str]
    #: Words that deny the words right after them ("not the capital"), as the grounding
    #: rule's negation gate reads them, and words after one that keep it from denying
    #: ("not only").
    denial_cues: frozenset[str]
    not_denying: frozenset[str]
    #: Phrases that deny as "not" does right after a linking verb ("was far from short").
    denial_phrases: tuple[str, ...]
    denial_phrase_verbs: frozenset[str]
    negation_prefixes: tuple[str, ...]
    definite_heads: frozenset[str]
    #: Third-person pronouns by which a sentence refers back to a subject named before it.
    pronouns: frozenset[str]
    #: Full month names ("may" included) with their numbers.
    months: dict[str, int]
    #: Short month names ("sept") with their numbers.
    month_abbreviations: dict[str, int]
    #: Relation words that take many objects ("lived in", "founded"): another object in
    #: their slot is another one, never a rival that contradicts the claimed one.
    multi_valued: frozenset[str] = frozenset()
    #: Irregular and derived word forms with the word they stand for ("won" -> "win"): the
    #: grounding rule's word check reads the same table.
    word_forms: dict[str, str] = field(default_factory=dict)
    #: Words of an indefinite count with the least number each means ("several": 3).
    vague_counts: dict[str, int] = field(default_factory=dict)
    #: Words that judge rather than classify ("favorable", "significant"): opening the
    #: object unconfirmed by a word before it, another word in their place is no substitution.
    appraisals: frozenset[str] = frozenset()

    @property
    def month_numbers(self) -> dict[str, int]:
        """Every month name, full or short, with its number."""
        return {**self.months, **self.month_abbreviations}


def _load(path: Path = LEXICON_PATH) -> Lexicon:
    """Read and check the lexicon file.

    Raises:
        RuntimeError: when the file is missing or lacks a list.
    """
    try:
        raw = read_lexicon(path)
        return Lexicon(
            relation_groups=tuple(tuple(w.lower() for w in g) for g in raw["relation_groups"]),
            negation_cues=frozenset(w.lower() for w in raw["negation_cues"]),
            negation_words=frozenset(w.lower() for w in raw["negation_words"]),
            denial_cues=frozenset(w.lower() for w in raw["denial_cues"]),
            not_denying=frozenset(w.lower() for w in raw["not_denying"]),
            denial_phrases=tuple(w.lower() for w in raw["denial_phrases"]),
            denial_phrase_verbs=frozenset(w.lower() for w in raw["denial_phrase_verbs"]),
            negation_prefixes=tuple(raw["negation_prefixes"]),
            definite_heads=frozenset(w.lower() for w in raw["definite_heads"]),
            pronouns=frozenset(w.lower() for w in raw["pronouns"]),
            months={k.lower(): int(v) for k, v in raw["months"].items()},
            month_abbreviations={k.lower(): int(v) for k, v in raw["month_abbreviations"].items()},
            multi_valued=frozenset(w.lower() for w in raw["multi_valued"]),
            word_forms={k.lower(): v.lower() for k, v in raw["word_forms"].items()},
            vague_counts={k.lower(): int(v) for k, v in raw["vague_counts"].items()},
            appraisals=frozenset(w.lower() for w in raw["appraisals"]),
        )
    except (RuntimeError, KeyError, ValueError) as exc:
        raise RuntimeError(f"lexicon {path} is unreadable: {exc}") from exc


LEXICON = _load()
