"""Claim records: a verified fact with its evidence, verdict, rounds, costs and revisions."""

from __future__ import annotations

from collections.abc import Sequence

from triqua.core.verdicts.scoring import label_units
from triqua.schema import Fact, Status, Verdict


def resolved_context(question: str | None, previous_chunk: str | None) -> str:
    """The context the fact was decomposed in: the question and the previous chunk."""
    parts = [f"Question: {question}" if question else "", ""]
    if previous_chunk:
        parts[1] = f"Previous chunk: {previous_chunk}"
    return "\n".join(p for p in parts if p)


def with_retrieval_errors(verdict: Verdict, errors: Sequence[str]) -> Verdict:
    """The verdict with the fact's search errors added, unless it is supported anyway."""
    errors = [e for e in errors if e]
    if not errors or verdict.status is Status.SUPPORTED:
        return verdict
    joined = "; ".join(dict.fromkeys(errors))
    return verdict.model_copy(
        update={"error": f"{verdict.error}; {joined}" if verdict.error else joined}
    )


def checkable_statuses(fact: Fact, verdict: Verdict) -> list[Status]:
    """The statuses of the fact's checkable units (for a running score while streaming)."""
    return [s for _, s in label_units(fact, verdict) if s is not Status.NOT_CHECKABLE]
