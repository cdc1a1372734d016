"""A reader of meaning that entails everything, for testing the grounding rule's value gates.

With every window entailed, only the gates (names, values, pronouns, slots) can refuse a
cited quote, so a test of a gate does not depend on the shipped judge's scores.
"""

from __future__ import annotations

from collections.abc import Sequence

from triqua.schema import FactUnit

__all__ = ["EntailingReader"]


class EntailingReader:
    """Entails every unit: only the value gates can refuse a window."""

    revision = "entailing"
    threshold = paraphrase_threshold = grounding_threshold = 0.5
    judged_threshold = judged_some_threshold = 0.5

    def entailment(self, premises: Sequence[str], unit: FactUnit, source: str) -> float:
        """The same high probability for any window and unit."""
        return 0.99
