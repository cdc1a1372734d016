"""The retriever contract: a search budget, search results, errors and the ``Retriever`` base.

Every evidence source (supplied documents, closed book, Tavily, Chroma) implements
:class:`Retriever`; graph nodes call ``search``/``asearch`` and never see the backend.
Per-query failures come back as ``SearchResult.error`` so one bad query never ends a run.
"""

from __future__ import annotations

import asyncio
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field

from triqua.schema import Evidence
from triqua.support.wording import counted

__all__ = [
    "BudgetExhausted",
    "CombinedRetriever",
    "Retriever",
    "RetrieverError",
    "RetrieverUnavailable",
    "SearchBudget",
    "SearchResult",
    "budget_refused",
    "format_evidence",
]

#: Upper bound on passages a tool call may ask for.
MAX_TOOL_K = 20

#: What Chroma's users are told when the ``chroma`` extra is not installed.
CHROMA_MISSING = (
    "Chroma is not installed: pip install 'triqua[chroma]' "
    "(needed by --retriever chroma and triqua ingest)"
)


class BudgetExhausted(Exception):  # noqa: N818 - name fixed by the retriever contract
    """Raised by :meth:`SearchBudget.spend` when the run has no searches left."""


class RetrieverError(Exception):
    """A retriever failure with a short, key-free message fit for records and logs."""


class RetrieverUnavailable(RetrieverError):  # noqa: N818 - name fixed by the contract
    """The configured retriever cannot be used at all (no key, no collection, no server)."""


class SearchBudget:
    """Thread-safe run-wide count of external searches, bounded by ``max_searches``."""

    def __init__(self, max_searches: int) -> None:
        """Allow ``max_searches`` searches (0 allows none)."""
        if max_searches < 0:
            raise ValueError(f"max_searches must be >= 0, got {max_searches}")
        self.max_searches = max_searches
        self._used = 0
        self._refused = 0
        self._lock = threading.Lock()

    def try_spend(self) -> bool:
        """Count one search and return True, or return False (counted) when it is spent."""
        with self._lock:
            if self._used >= self.max_searches:
                self._refused += 1
                return False
            self._used += 1
            return True

    @property
    def refused(self) -> int:
        """Searches asked for after the budget was spent (not made)."""
        with self._lock:
            return self._refused

    def spend(self) -> None:
        """Count one search, raising :class:`BudgetExhausted` when none is left."""
        if not self.try_spend():
            raise BudgetExhausted(
                f"search budget of {counted(self.max_searches, 'search', 'searches')} is spent"
            )

    @property
    def used(self) -> int:
        """Searches counted so far."""
        with self._lock:
            return self._used

    @property
    def remaining(self) -> int:
        """Searches still allowed."""
        with self._lock:
            return self.max_searches - self._used

    @property
    def exhausted(self) -> bool:
        """True when no search is left."""
        return self.remaining <= 0

    def __repr__(self) -> str:
        return f"SearchBudget(used={self.used}, max_searches={self.max_searches})"


@dataclass
class SearchResult:
    """Evidence found for one query, or why none was found.

    ``error`` records a failed search (outage, rate limit, bad key...); ``searched`` is
    False when no search was made (budget spent, closed book), with the reason in ``note``.
    ``cached`` is True when an earlier search's result was served again (no search made).
    """

    evidence: list[Evidence] = field(default_factory=list)
    error: str | None = None
    searched: bool = True
    note: str | None = None
    cached: bool = False


BUDGET_SPENT_NOTE = "search budget spent: no search made"


def budget_refused() -> SearchResult:
    """The result of a search the budget did not allow."""
    return SearchResult(evidence=[], searched=False, note=BUDGET_SPENT_NOTE)


class _SearchArgs(BaseModel):
    """Arguments of a retriever tool call."""

    query: str = Field(description="What to look for: a claim or the key terms of a claim.")
    k: int = Field(default=5, ge=1, le=MAX_TOOL_K, description="How many passages to return.")


def format_evidence(query: str, result: SearchResult) -> str:
    """Render a search result as text for a model: one numbered block per passage."""
    if not result.searched:
        reason = result.note or result.error or "no search was made"
        return f"No search made for {query!r}: {reason}."
    if result.error and not result.evidence:
        return f"Search failed for {query!r}: {result.error}"
    if not result.evidence:
        return f"No evidence found for {query!r}."
    blocks = []
    for ev in result.evidence:
        where = ev.source or ev.document_id
        if ev.start is not None and ev.end is not None:
            where += f" [{ev.start}:{ev.end}]"
        score = "" if ev.score is None else f" score={ev.score:.3f}"
        title = f" title={ev.title!r}" if ev.title else ""
        blocks.append(f"[{ev.rank}] id={ev.id} source={where}{title}{score}\n{ev.text}")
    return "\n\n".join(blocks)


class Retriever(ABC):
    """A source of evidence passages for a query."""

    name: str = ""
    revision: str = ""
    #: Whether searches draw on the run's search budget (``max_searches``).
    uses_budget: bool = False
    #: Whether results of budgeted searches may be served again from the result cache.
    cacheable: bool = True
    #: Whether a search is computation in this process over data it holds (an index of the
    #: supplied documents, nothing at all): it cannot stall on a service, so the search
    #: timeout needs no watcher thread around it.
    in_process: bool = False

    def __init__(self) -> None:
        """Start the call counter at zero."""
        self._calls = 0
        self._calls_lock = threading.Lock()

    @property
    def calls(self) -> int:
        """Searches made through this retriever (budget-refused ones excluded)."""
        with self._calls_lock:
            return self._calls

    def _count_call(self) -> None:
        """Count one search made."""
        with self._calls_lock:
            self._calls += 1

    @abstractmethod
    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        """Return up to ``k`` passages for ``query``; failures go in ``SearchResult.error``."""

    async def asearch(
        self, query: str, k: int, *, budget: SearchBudget | None = None
    ) -> SearchResult:
        """Async ``search``: runs the blocking search in a worker thread."""
        return await asyncio.to_thread(self.search, query, k, budget=budget)

    def check_available(self) -> None:  # noqa: B027 - optional hook, most retrievers need it
        """Raise :class:`RetrieverUnavailable` when the retriever cannot be used."""

    def as_tool(self, *, budget: SearchBudget | None = None) -> BaseTool:
        """Wrap the retriever as a LangChain tool ``search_<name>(query, k)`` returning text."""

        def run(query: str, k: int = 5) -> str:
            return format_evidence(query, self.search(query, k, budget=budget))

        async def arun(query: str, k: int = 5) -> str:
            return format_evidence(query, await self.asearch(query, k, budget=budget))

        return StructuredTool.from_function(
            func=run,
            coroutine=arun,
            name=f"search_{self.name}",
            description=(
                f"Search {self.describe()} for passages about a claim. Returns numbered "
                "passages with their evidence id, source and score."
            ),
            args_schema=_SearchArgs,
        )

    def describe(self) -> str:
        """A few words on where this retriever looks, for tool descriptions."""
        return self.name

    def __repr__(self) -> str:
        return f"{type(self).__name__}(revision={self.revision!r})"


def check_k(k: int) -> None:
    """Reject a non-positive passage count early, with a clear message."""
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")


class CombinedRetriever(Retriever):
    """Ask ``primary`` first; ask ``fallback`` only when primary finds nothing relevant.

    Relevant means at least one passage scores ``min_score`` or more (passages without a
    score count as relevant). Both retrievers draw on the same budget.
    """

    def __init__(self, primary: Retriever, fallback: Retriever, *, min_score: float = 0.0):
        """Combine two retrievers; ``min_score`` is the primary's relevance threshold."""
        super().__init__()
        self.primary = primary
        self.fallback = fallback
        self.min_score = min_score
        self.name = f"{primary.name}+{fallback.name}"
        self.revision = f"{primary.revision} then {fallback.revision} (min_score={min_score})"
        self.uses_budget = primary.uses_budget or fallback.uses_budget

    def _relevant(self, result: SearchResult) -> list[Evidence]:
        """Primary passages at or above the relevance threshold."""
        return [e for e in result.evidence if e.score is None or e.score >= self.min_score]

    def _merge(self, first: SearchResult, second: SearchResult | None) -> SearchResult:
        """Keep the relevant primary passages or, failing those, the fallback's."""
        relevant = self._relevant(first)
        if second is None:
            return SearchResult(
                evidence=relevant, error=first.error, searched=first.searched, note=first.note
            )
        errors = [e for e in (first.error, second.error) if e]
        notes = [n for n in (first.note, second.note) if n]
        return SearchResult(
            evidence=second.evidence,
            error="; ".join(errors) or None,
            searched=first.searched or second.searched,
            note="; ".join(notes) or None,
        )

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        """Search primary, then fallback when primary has nothing relevant."""
        check_k(k)
        self._count_call()
        first = self.primary.search(query, k, budget=budget)
        if self._relevant(first):
            return self._merge(first, None)
        return self._merge(first, self.fallback.search(query, k, budget=budget))

    async def asearch(
        self, query: str, k: int, *, budget: SearchBudget | None = None
    ) -> SearchResult:
        """Async search: primary, then fallback when primary has nothing relevant."""
        check_k(k)
        self._count_call()
        first = await self.primary.asearch(query, k, budget=budget)
        if self._relevant(first):
            return self._merge(first, None)
        return self._merge(first, await self.fallback.asearch(query, k, budget=budget))

    def check_available(self) -> None:
        """Both retrievers must be usable."""
        self.primary.check_available()
        self.fallback.check_available()

    def describe(self) -> str:
        """Where the combination looks."""
        return f"{self.primary.describe()}, then {self.fallback.describe()} if needed"


class WrappedRetriever(Retriever):
    """A retriever that adds a stage around another one and otherwise stands in for it.

    It takes the wrapped retriever's name, revision and budget/cache flags, and passes
    availability checks, descriptions and every other attribute through to it.
    """

    def __init__(self, inner: Retriever) -> None:
        """Stand in for ``inner``."""
        super().__init__()
        self.inner = inner
        self.name = inner.name
        self.revision = inner.revision
        self.uses_budget = inner.uses_budget
        self.cacheable = inner.cacheable
        self.in_process = inner.in_process

    def check_available(self) -> None:
        """The wrapped retriever must be usable."""
        self.inner.check_available()

    def describe(self) -> str:
        """Where the wrapped retriever looks."""
        return self.inner.describe()

    def __getattr__(self, name: str) -> object:
        """Everything else is the wrapped retriever's (its settings, its client...)."""
        if name == "inner":  # not set yet (during construction or unpickling)
            raise AttributeError(name)
        return getattr(self.inner, name)
