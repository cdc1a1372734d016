"""Closed book: a retriever that declares no evidence, so verdicts rest on the judge alone."""

from __future__ import annotations

from triqua.tools.base import Retriever, SearchBudget, SearchResult, check_k

__all__ = ["CLOSED_BOOK_NOTE", "ClosedBookRetriever"]

CLOSED_BOOK_NOTE = "closed book: no evidence is retrieved in this mode"


class ClosedBookRetriever(Retriever):
    """Returns no evidence and says so; never searches and never spends the budget."""

    name = "closed_book"
    revision = "closed_book"
    in_process = True

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        """Return an empty result marked as not searched, with the reason."""
        check_k(k)
        return SearchResult(evidence=[], searched=False, note=CLOSED_BOOK_NOTE)

    def describe(self) -> str:
        """Where this retriever looks (nowhere)."""
        return "nothing (closed book)"
