"""The decomposition judges' verdicts: one per criterion of a fact, and a fact's diagnosis."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, Field

from triqua.evals.decomposition_judges.words import norm
from triqua.schema import Fact, Qualifier

Criterion = Literal["entailed", "decontextualised", "qualifiers_ok"]
CRITERIA: tuple[Criterion, ...] = ("entailed", "decontextualised", "qualifiers_ok")

DEFAULT_CONTAINMENT_THRESHOLD = 0.8
"""Share of an element's content words the source sentence must contain for entailment."""


class CriterionVerdict(BaseModel):
    """One judge's verdict on one criterion of one fact."""

    passed: bool
    elements: list[str] = Field(
        default_factory=list, description="Offending elements: '(s, r, o)' or '(label, value)'."
    )
    reason: str = ""

    @classmethod
    def of(cls, problems: list[tuple[str, str]]) -> CriterionVerdict:
        """Passed when there is no problem, else failed naming each ``(element, why)``."""
        if not problems:
            return cls(passed=True)
        return cls(
            passed=False,
            elements=list(dict.fromkeys(name for name, _ in problems)),
            reason="; ".join(why for _, why in problems),
        )


class FactDiagnosis(BaseModel):
    """One judge's verdicts on a fact, one per criterion."""

    verdicts: dict[str, CriterionVerdict]

    def failed_labels(self, criterion: str, fact: Fact) -> set[str]:
        """Qualifier labels of ``fact`` that fail ``criterion``.

        A failure that names no qualifier (a fact-wide failure, or one on the base triple)
        counts against every qualifier label of the fact only when no element is named.
        """
        verdict = self.verdicts[criterion]
        if verdict.passed:
            return set()
        named = {q.label for q in fact.qualifiers if _names(verdict.elements, q)}
        if verdict.elements:
            return named
        return {q.label for q in fact.qualifiers}


def _names(elements: Iterable[str], qualifier: Qualifier) -> bool:
    """True when an element string refers to ``qualifier`` (as '(label, value)' or label)."""
    wanted = {norm(str(qualifier)), norm(qualifier.label)}
    return any(norm(e) in wanted for e in elements)
