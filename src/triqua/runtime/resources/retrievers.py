"""Which retriever a run searches: its kind, its key (settings + documents), the cached build."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from triqua.context import Context
from triqua.schema import Document, Mode, sha256_text
from triqua.schema.retriever_kinds import kind_of
from triqua.support.instances import PREFIX, instance, instance_id, register_instance
from triqua.tools.base import Retriever


def register_retriever(name: str, retriever: Retriever) -> str:
    """Make a retriever instance usable by name as ``Context.retriever`` (custom backends)."""
    return register_instance(name, retriever)


def retriever_kind(context: Context, has_documents: bool) -> str:
    """The retriever a run uses: ``context.retriever``, with 'auto' resolved (the one place)."""
    if context.retriever == "auto":
        return "supplied" if has_documents else "closed_book"
    return context.retriever


def mode_of(kind: str) -> Mode:
    """The evidence-contract mode that a retriever kind implies."""
    return kind_of(kind).mode


def documents_digest(documents: Sequence[Document]) -> str | None:
    """Content digest of supplied documents (None for none): their retriever's cache key."""
    if not documents:
        return None
    return sha256_text("\x1e".join(d.model_dump_json() for d in documents))


@dataclass(frozen=True)
class RetrieverKey:
    """What defines a run's retriever: its kind, its settings and its documents' digest.

    ``documents`` rides along to build a supplied retriever but is not part of the key
    (the digest is), so a node holding only the digest finds a retriever built earlier.
    """

    kind: str
    digest: str | None
    instance: int
    collection: str | None
    chroma_path: str | None
    chroma_url: str | None
    include_domains: tuple[str, ...]
    exclude_domains: tuple[str, ...]
    as_of: str | None
    max_results: int
    search_timeout: float
    cache_path: str | None  # None: searches are not cached
    candidates: int | None = None  # None: no reranking stage
    rerank_model: str | None = None
    rerank_instance: int = 0
    documents: tuple[Document, ...] = field(default=(), compare=False, hash=False)


def retriever_key(
    context: Context, documents: Sequence[Document] = (), digest: str | None = None
) -> RetrieverKey:
    """The key of the retriever a run with these settings and documents searches."""
    digest = digest or documents_digest(documents)
    kind = retriever_kind(context, digest is not None)
    return RetrieverKey(
        kind=kind,
        digest=digest if kind == "supplied" else None,
        instance=instance_id(kind),
        collection=context.collection,
        chroma_path=context.chroma_path,
        chroma_url=context.chroma_url,
        include_domains=tuple(context.include_domains),
        exclude_domains=tuple(context.exclude_domains),
        as_of=context.as_of,
        max_results=context.max_results,
        search_timeout=context.search_timeout,
        cache_path=context.cache_location(),
        candidates=context.rerank_candidates(kind),
        rerank_model=context.rerank_model,
        rerank_instance=instance_id(context.rerank_model),
        documents=tuple(documents) if kind == "supplied" else (),
    )


@functools.lru_cache(maxsize=16)
def retriever_for(key: RetrieverKey) -> Retriever:
    """The retriever for ``key``, built and checked on first use, then shared (bounded).

    Raises:
        ValueError: when it is unusable (no documents, no collection, no key, ...).
    """
    from triqua.tools.bounded import bounded
    from triqua.tools.factory import build_retriever

    if key.kind == "supplied" and not key.documents:
        raise ValueError(
            "retriever 'supplied' needs documents (--evidence FILE or documents=); a resumed "
            "run's documents are loaded by triqua.check(resume=...) or `triqua check --resume`"
        )
    if key.kind.startswith(PREFIX):
        retriever = bounded(instance(key.kind, Retriever, "retriever"), key.search_timeout)
    else:
        retriever = build_retriever(
            key.kind,
            documents=list(key.documents),
            collection=key.collection,
            chroma_path=key.chroma_path,
            chroma_url=key.chroma_url,
            include_domains=key.include_domains,
            exclude_domains=key.exclude_domains,
            as_of=date.fromisoformat(key.as_of) if key.as_of else None,
            max_results=max(key.max_results, key.candidates or 0),
            search_timeout=key.search_timeout,
        )
    retriever.check_available()
    if key.cache_path is not None:
        from triqua.runtime.caches.cached_searches import cache_searches, searches_external
        from triqua.runtime.caches.call_cache import open_cache

        if searches_external(retriever):
            retriever = cache_searches(retriever, open_cache(key.cache_path or None))
    from triqua.tools.rerank import reranking

    return reranking(
        retriever,
        candidates=key.candidates,
        model=key.rerank_model,
        seconds=key.search_timeout or None,
    )
