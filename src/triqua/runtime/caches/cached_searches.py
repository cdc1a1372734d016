"""Web searches served from the call cache (:mod:`.call_cache`): same revision, query and k.

Only searches that draw on the external budget are cached; local retrievers (supplied
documents, closed book, Chroma) are fast and their revisions do not name their content.
"""

from __future__ import annotations

import json

from triqua.runtime.caches.call_cache import ResultCache, cache_key
from triqua.schema import Evidence
from triqua.tools.base import CombinedRetriever, Retriever, SearchBudget, SearchResult

__all__ = ["CACHED_NOTE", "CachedRetriever", "cache_searches", "searches_external"]

CACHED_NOTE = "served from the search cache"


class CachedRetriever(Retriever):
    """A retriever that serves repeated searches (same revision, query and k) from the cache.

    A served result spends no budget and is marked ``cached``; failed searches are not kept.
    """

    def __init__(self, inner: Retriever, store: ResultCache) -> None:
        """Wrap ``inner``, keeping its name, revision and budget use."""
        super().__init__()
        self.inner, self.store = inner, store
        self.name, self.revision, self.uses_budget = inner.name, inner.revision, inner.uses_budget

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        """Search through ``inner`` unless this search was made before."""
        key = cache_key("search", self.revision, query, k)
        hit = self.store.get(key)
        if hit is not None:
            evidence = [Evidence.model_validate(item) for item in json.loads(hit)]
            return SearchResult(evidence=evidence, searched=True, cached=True, note=CACHED_NOTE)
        result = self.inner.search(query, k, budget=budget)
        if result.searched and result.error is None:
            self._count_call()
            payload = [item.model_dump(mode="json") for item in result.evidence]
            self.store.put(key, "search", json.dumps(payload))
        return result

    def check_available(self) -> None:
        """The wrapped retriever must be usable."""
        self.inner.check_available()

    def describe(self) -> str:
        """Where the wrapped retriever looks."""
        return self.inner.describe()


def searches_external(retriever: Retriever) -> bool:
    """True when some of the retriever's searches draw on the external budget."""
    if isinstance(retriever, CombinedRetriever):
        return searches_external(retriever.primary) or searches_external(retriever.fallback)
    return retriever.uses_budget and retriever.cacheable


def cache_searches(retriever: Retriever, store: ResultCache) -> Retriever:
    """Wrap the searches that draw on the external budget (web search); leave local ones."""
    if isinstance(retriever, CombinedRetriever):
        return CombinedRetriever(
            cache_searches(retriever.primary, store),
            cache_searches(retriever.fallback, store),
            min_score=retriever.min_score,
        )
    if retriever.uses_budget and retriever.cacheable and not isinstance(retriever, CachedRetriever):
        return CachedRetriever(retriever, store)
    return retriever
