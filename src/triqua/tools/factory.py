"""Build a retriever by kind name (as written in settings, specs and on the command line)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from triqua.context import DEFAULT_SEARCH_TIMEOUT
from triqua.schema import Document
from triqua.schema.retriever_kinds import RETRIEVER_KINDS, kind_of
from triqua.tools.base import CombinedRetriever, Retriever
from triqua.tools.bounded import bounded

__all__ = ["DEFAULT_MIN_RELEVANCE", "build_retriever"]

#: Cosine similarity a Chroma passage needs before web search is skipped ("chroma+tavily").
#: MiniLM puts unrelated sentence pairs mostly below 0.2 and paraphrases above 0.5.
DEFAULT_MIN_RELEVANCE = 0.3


def build_retriever(
    kind: str,
    *,
    documents: Sequence[Document] | None = None,
    passage_chars: int = 600,
    collection: str | None = None,
    chroma_path: str | Path | None = None,
    chroma_url: str | None = None,
    tavily_api_key: str | None = None,
    max_results: int = 5,
    include_domains: Sequence[str] = (),
    exclude_domains: Sequence[str] = (),
    as_of: date | None = None,
    tavily_options: Mapping[str, Any] | None = None,
    min_relevance: float = DEFAULT_MIN_RELEVANCE,
    search_timeout: float | None = DEFAULT_SEARCH_TIMEOUT,
) -> Retriever:
    """Build the retriever ``kind`` (one of ``RETRIEVER_KINDS``).

    Args:
        kind: ``supplied``, ``closed_book``, ``chroma``, a web search (``tavily``, ``serper``,
            ``brave``) or Chroma then a web search (``chroma+tavily``...).
        documents: The supplied documents (kind ``supplied``).
        passage_chars: Passage size for supplied documents.
        collection: Chroma collection name (kinds with ``chroma``).
        chroma_path: Embedded Chroma store directory.
        chroma_url: Chroma server URL (instead of the embedded store).
        tavily_api_key: Tavily key; defaults to ``$TAVILY_API_KEY`` (Serper and Brave read
            theirs from the environment only).
        max_results: Most web results per search.
        include_domains: Only these domains may serve as web evidence.
        exclude_domains: These domains never serve as web evidence.
        as_of: Keep web results to pages published on or before this date.
        tavily_options: More ``TavilyRetriever`` keyword arguments (timeout, search_depth...).
        min_relevance: Chroma score below which ``chroma+<web>`` falls back to the web.
        search_timeout: Seconds each search may take (None or 0: no bound); every kind is
            wrapped in a :class:`~triqua.tools.bounded.BoundedRetriever`, and web search also
            gets it as its HTTP timeout.

    Raises:
        ValueError: for an unknown kind or a missing required argument.
    """
    # Backends are imported on demand: chromadb and the HTTP stack are slow to import.
    if kind == "supplied":
        from triqua.tools.supplied import SuppliedRetriever

        if documents is None:
            raise ValueError("retriever 'supplied' needs documents (none were given)")
        return bounded(SuppliedRetriever(documents, passage_chars=passage_chars), search_timeout)
    if kind == "closed_book":
        from triqua.tools.closed_book import ClosedBookRetriever

        return bounded(ClosedBookRetriever(), search_timeout)
    if kind not in RETRIEVER_KINDS:
        raise ValueError(f"unknown retriever {kind!r}; choose one of {', '.join(RETRIEVER_KINDS)}")
    web: Retriever | None = None
    if kind_of(kind).web:
        web_name = kind.rsplit("+", 1)[-1]
        web = _web_retriever(
            web_name,
            tavily_api_key=tavily_api_key,
            max_results=max_results,
            include_domains=include_domains,
            exclude_domains=exclude_domains,
            as_of=as_of,
            tavily_options=tavily_options,
            search_timeout=search_timeout,
        )
        if kind == web_name:
            return web
    if not collection:
        raise ValueError(f"retriever {kind!r} needs a Chroma collection name")
    chroma = _chroma_retriever(collection, chroma_path, chroma_url, search_timeout)
    return chroma if web is None else CombinedRetriever(chroma, web, min_score=min_relevance)


def _web_retriever(
    web_name: str,
    *,
    tavily_api_key: str | None,
    max_results: int,
    include_domains: Sequence[str],
    exclude_domains: Sequence[str],
    as_of: date | None,
    tavily_options: Mapping[str, Any] | None,
    search_timeout: float | None,
) -> Retriever:
    """The bounded web search ``web_name`` ('tavily', 'serper' or 'brave'), as configured.

    Only Tavily takes the API key and the extra options; every backend gets the search
    timeout as its HTTP timeout unless the options set one.
    """
    options = dict(tavily_options or {}) if web_name == "tavily" else {}
    if search_timeout:
        options.setdefault("timeout", search_timeout)
    return bounded(
        _web_class(web_name)(
            api_key=tavily_api_key if web_name == "tavily" else None,
            max_results=max_results,
            include_domains=include_domains,
            exclude_domains=exclude_domains,
            as_of=as_of,
            **options,
        ),
        search_timeout,
    )


def _chroma_retriever(
    collection: str,
    chroma_path: str | Path | None,
    chroma_url: str | None,
    search_timeout: float | None,
) -> Retriever:
    """The bounded Chroma retriever of ``collection`` (embedded store or server)."""
    from triqua.tools.chroma import ChromaRetriever

    return bounded(
        ChromaRetriever(
            collection, path=chroma_path, url=chroma_url, timeout=search_timeout or None
        ),
        search_timeout,
    )


def _web_class(name: str) -> Any:
    """The web retriever class of a kind's web part ('tavily', 'serper' or 'brave')."""
    if name == "serper":
        from triqua.tools.serper import SerperRetriever

        return SerperRetriever
    if name == "brave":
        from triqua.tools.brave import BraveRetriever

        return BraveRetriever
    from triqua.tools.tavily import TavilyRetriever

    return TavilyRetriever
