"""A retriever whose every search ends within a deadline: a hanging backend cannot stall a run.

Every retriever a run uses is wrapped in :class:`BoundedRetriever` (see ``build_retriever``
and ``build_resources``). A search that outlasts ``seconds`` comes back as a
``SearchResult`` with the error "<name> search timed out after N s", as the retriever
contract asks for failures, so the fact is judged without that evidence and the timeout is
recorded on its verdict. A timed-out search is not retried here: a backend that stalled
once usually stalls again, and every retry would cost the whole bound again (Tavily retries
its own transient HTTP failures inside the bound).
"""

from __future__ import annotations

from triqua.core.budget.deadline import CallTimeoutError, call_with_deadline
from triqua.tools.base import Retriever, SearchBudget, SearchResult, WrappedRetriever

__all__ = ["BoundedRetriever", "bounded"]


class BoundedRetriever(WrappedRetriever):
    """Wraps a retriever so each search returns within ``seconds`` (None or 0: no bound)."""

    def __init__(self, inner: Retriever, seconds: float | None) -> None:
        """Bound ``inner``'s searches to ``seconds`` each."""
        if seconds is not None and seconds < 0:
            raise ValueError(f"search timeout must be >= 0 seconds, got {seconds}")
        super().__init__(inner)
        self.seconds = seconds
        self.timeouts = 0

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        """Search through ``inner``; a search past the deadline is a timed-out result.

        An in-process retriever (``Retriever.in_process``) is searched in this thread: it
        cannot stall on a service, and handing each search to a watcher thread costs a
        thread switch or two per search.
        """
        self._count_call()
        if self.inner.in_process:
            return self.inner.search(query, k, budget=budget)
        try:
            return call_with_deadline(
                lambda: self.inner.search(query, k, budget=budget),
                self.seconds,
                f"{self.inner.name or 'retriever'} search",
            )
        except CallTimeoutError as exc:
            self.timeouts += 1
            return SearchResult(error=str(exc))

    def __repr__(self) -> str:
        return f"BoundedRetriever({self.inner!r}, seconds={self.seconds})"


def bounded(retriever: Retriever, seconds: float | None) -> Retriever:
    """``retriever`` bounded to ``seconds`` per search (wrapped once, never twice)."""
    if isinstance(retriever, BoundedRetriever):
        if retriever.seconds == seconds:
            return retriever
        retriever = retriever.inner
    return BoundedRetriever(retriever, seconds)
