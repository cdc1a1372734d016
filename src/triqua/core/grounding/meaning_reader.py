"""What the grounding rules ask of the entailment judge: a reader of meaning."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from triqua.schema import FactUnit

__all__ = ["MeaningReader"]


class MeaningReader(Protocol):
    """Reads whether a text entails a unit: the entailment judge, seen from the rule.

    ``grounding_threshold`` is the entailment a cited window needs under the "judge" rule
    (and, for a reader that names no ``judged_threshold`` of its own, under the default
    "judged" rule: :func:`triqua.core.grounding.stated.judged_thresholds`).
    Under the strict rule, ``threshold`` applies when the cited text states some of the
    unit's words; ``paraphrase_threshold`` (higher) when it states none of them — a sentence
    that merely names the subject ("X was born in Ulm" for "X was a footballer") must be
    read as entailing the unit with the confidence the offline engine needs to support a
    paraphrase.
    """

    @property
    def revision(self) -> str:
        """The judge's revision (named in the reasons it gives)."""
        ...

    @property
    def threshold(self) -> float:
        """The entailment a unit needs under the strict rule when some words are stated."""
        ...

    @property
    def paraphrase_threshold(self) -> float:
        """The entailment a unit needs under the strict rule when none of them is."""
        ...

    @property
    def grounding_threshold(self) -> float:
        """The entailment a cited window needs under the "judge" rule."""
        ...

    def entailment(self, premises: Sequence[str], unit: FactUnit, source: str) -> float:
        """The best probability that one of ``premises`` entails the unit.

        ``source`` is the sentence the unit's fact came from, a second hypothesis.
        """
        ...
