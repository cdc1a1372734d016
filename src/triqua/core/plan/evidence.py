"""Evidence search: one search within the run's budget, and merging evidence without repeats."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from triqua.schema import Evidence, Mode, Usage
from triqua.schema.redaction import redact

#: The error recorded for a search the run's budget did not allow.
BUDGET_SPENT = "search budget spent"


class Found(Protocol):
    """What one search returned (a retriever's ``SearchResult``)."""

    @property
    def evidence(self) -> list[Evidence]:
        """The passages found."""
        ...

    @property
    def error(self) -> str | None:
        """Why the search failed, or None."""
        ...

    @property
    def searched(self) -> bool:
        """False when no search was made (budget spent, closed book)."""
        ...

    @property
    def cached(self) -> bool:
        """True when an earlier search's result was served again."""
        ...


class Searcher(Protocol):
    """What a search needs of a retriever (the ``Retriever`` contract of ``triqua.tools``)."""

    def search(self, query: str, k: int, *, budget: Any = None) -> Found:
        """Up to ``k`` passages for ``query``, counted against ``budget``."""
        ...


class SearchSetup(Protocol):
    """What a search needs from the run: its retriever, search budget and mode."""

    @property
    def retriever(self) -> Searcher:
        """The run's retriever."""
        ...

    @property
    def budget(self) -> object:
        """The run's search budget."""
        ...

    @property
    def mode(self) -> Mode:
        """The run's mode (closed book searches nothing)."""
        ...

    @property
    def slots(self) -> AbstractContextManager[Any]:
        """Held while a search is in flight: bounds the run's calls at once."""
        ...


def merge_evidence(old: Sequence[Evidence], new: Sequence[Evidence]) -> list[Evidence]:
    """Old evidence first, then new passages not seen before (by id)."""
    seen = {item.id for item in old}
    merged = list(old)
    for item in new:
        if item.id not in seen:
            seen.add(item.id)
            merged.append(item)
    return merged


def search(setup: SearchSetup, query: str, k: int) -> tuple[list[Evidence], str | None, Usage]:
    """Run one search; returns evidence, a recorded error (or None) and its usage."""
    if setup.mode is Mode.CLOSED_BOOK:
        return [], None, Usage()
    with setup.slots:
        result = setup.retriever.search(query, k, budget=setup.budget)
    usage = Usage(search_calls=1 if result.searched and not result.cached else 0)
    error = redact(result.error) if result.error else None
    if not result.searched and error is None:
        error = BUDGET_SPENT
    return result.evidence, error, usage
