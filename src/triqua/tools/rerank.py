"""Reranked retrieval: fetch more candidates than are kept, score them, keep the best ``k``.

TriQua evaluates retrieval as a search for top-10 candidates followed by a reranking stage
that scores each candidate against the fact's query string. :class:`RerankingRetriever`
wraps a run's retriever (see :func:`triqua.runtime.resources.retriever_for`) and does exactly that,
so every search a fact makes (first retrieval, re-verification queries, tool calls) is
reranked. The default :class:`Reranker` reuses the packaged all-MiniLM-L6-v2 embedder.

A passage scores the best cosine similarity of one of its sentences to the query: a fact
usually matches one sentence, and a whole-chunk vector (the one Chroma searched with)
dilutes it with the rest of the chunk, so sentence scores are a signal the first stage did
not already use. Scores are rounded and ties keep retrieval order, so reranking is
deterministic; scores are cached per (query, passage hash) and sentence vectors per passage
hash, so a passage found again (another fact, a re-verification query) is not re-embedded.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from triqua.context import DEFAULT_CANDIDATES
from triqua.core.budget.deadline import CallTimeoutError, call_with_deadline
from triqua.schema import Evidence
from triqua.support.instances import PREFIX, instance, instance_id
from triqua.tools.base import Retriever, SearchBudget, SearchResult, WrappedRetriever, check_k

__all__ = [
    "DEFAULT_CANDIDATES",
    "PACKAGED_RERANKER",
    "Reranker",
    "RerankingRetriever",
    "reranker_for",
    "reranking",
]

#: Name of the packaged reranker (all-MiniLM-L6-v2, offline).
PACKAGED_RERANKER = "minilm"
#: Decimals kept of a rerank score: equal scores then tie on retrieval rank, deterministically.
SCORE_DECIMALS = 6
_CACHE_SIZE = 8192
_MAX_SENTENCES = 32  # sentences scored per passage (a search passage is a few hundred chars)

Vectors = npt.NDArray[np.float32]
EmbedFn = Callable[[Sequence[str]], Vectors]


def _unit_rows(vectors: Any) -> Vectors:
    """Rows scaled to unit length (a configured model may not normalise)."""
    array = np.asarray(vectors, dtype=np.float32)
    if array.ndim != 2:
        raise ValueError(f"reranker embeddings must be a 2-D array, got shape {array.shape}")
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    return array / np.clip(norms, 1e-12, None)


@functools.lru_cache(maxsize=4096)
def _pieces(text: str) -> list[str]:
    """What a passage is scored by: its sentences (the passage itself when it has one)."""
    from triqua.sentences import sentence_spans

    spans = sentence_spans(text)
    if len(spans) <= 1:
        return [text]
    return [text[s:e] for s, e in spans[:_MAX_SENTENCES]]


class Reranker:
    """Scores passages against a query with a sentence-embedding model and ranks them."""

    def __init__(
        self, embed: EmbedFn, revision: str, *, cache_size: int = _CACHE_SIZE, local: bool = False
    ) -> None:
        """Rank with ``embed`` (texts to vectors); ``revision`` names the model in specs.

        ``local``: ``embed`` runs a model in this process (it cannot stall on a service).
        """
        self._embed = embed
        self.revision = revision
        self.local = local
        self._cache_size = cache_size
        self._scores: OrderedDict[tuple[str, str], float] = OrderedDict()
        self._pieces: OrderedDict[str, Vectors] = OrderedDict()  # vectors by content hash
        self._lock = threading.Lock()

    @classmethod
    def packaged(cls) -> Reranker:
        """The offline reranker: the packaged all-MiniLM-L6-v2 (int8 ONNX) embedder."""
        from triqua.models.embeddings import MODEL_REVISION, get_embedder

        return cls(
            lambda texts: get_embedder().embed(list(texts)),
            f"rerank:{MODEL_REVISION}",
            local=True,
        )

    @classmethod
    def from_embeddings(cls, embeddings: Any, revision: str) -> Reranker:
        """A reranker over a LangChain ``Embeddings`` (``embed_documents``/``embed_query``)."""

        def embed(texts: Sequence[str]) -> Vectors:
            return _unit_rows(embeddings.embed_documents(list(texts)))

        return cls(embed, revision)

    def scores(self, query: str, passages: Sequence[Evidence]) -> list[float]:
        """Each passage's score for ``query``: the best similarity of one of its sentences."""
        with self._lock:
            known = {p.content_hash: self._scores.get((query, p.content_hash)) for p in passages}
        todo = [p for p in dict((p.content_hash, p) for p in passages).values()]
        todo = [p for p in todo if known[p.content_hash] is None]
        if todo:
            fresh = self._score(query, todo)
            known.update(fresh)
            with self._lock:
                for digest, value in fresh.items():
                    self._scores[(query, digest)] = value
                    self._scores.move_to_end((query, digest))
                while len(self._scores) > self._cache_size:
                    self._scores.popitem(last=False)
        return [float(known[p.content_hash]) for p in passages]  # type: ignore[arg-type]

    def _score(self, query: str, passages: Sequence[Evidence]) -> dict[str, float]:
        """Score passages not in the cache: one embedding call for the query and new pieces."""
        with self._lock:
            known = {p.content_hash: self._pieces.get(p.content_hash) for p in passages}
        fresh = [p for p in passages if known[p.content_hash] is None]
        texts = [query]
        for passage in fresh:
            texts += _pieces(passage.text)
        vectors = _unit_rows(self._embed(texts))
        if len(vectors) != len(texts):
            raise ValueError(f"reranker returned {len(vectors)} vectors for {len(texts)} texts")
        at = 1
        with self._lock:
            for passage in fresh:
                count = len(_pieces(passage.text))
                known[passage.content_hash] = vectors[at : at + count]
                self._pieces[passage.content_hash] = vectors[at : at + count]
                at += count
            while len(self._pieces) > self._cache_size:
                self._pieces.popitem(last=False)
        return {
            p.content_hash: round(float(np.max(known[p.content_hash] @ vectors[0])), SCORE_DECIMALS)
            for p in passages
        }

    def rerank(self, query: str, evidence: Sequence[Evidence], k: int) -> list[Evidence]:
        """The best ``k`` passages for ``query``, with their rerank rank and score recorded.

        ``rank`` stays the retriever's rank; ties keep retrieval order.
        """
        if not evidence:
            return []
        scores = self.scores(query, evidence)
        order = sorted(range(len(evidence)), key=lambda i: (-scores[i], i))
        return [
            evidence[i].model_copy(
                update={
                    "rank": evidence[i].rank if evidence[i].rank is not None else i + 1,
                    "rerank_rank": new_rank,
                    "rerank_score": scores[i],
                }
            )
            for new_rank, i in enumerate(order[:k], start=1)
        ]


@functools.lru_cache(maxsize=8)
def _reranker(model: str, ident: int) -> Reranker:
    """The reranker named ``model`` (``ident``: the registered object's identity)."""
    del ident  # part of the cache key only: re-registering a name builds a new reranker
    if model == PACKAGED_RERANKER:
        return Reranker.packaged()
    if model.startswith(PREFIX):
        found = instance(model, object, "reranker")
        if isinstance(found, Reranker):
            return found
        if hasattr(found, "embed_documents"):
            return Reranker.from_embeddings(found, f"rerank:{model}")
        raise ValueError(f"{model!r} is neither a Reranker nor a LangChain Embeddings")
    if ":" not in model:
        raise ValueError(
            f"unknown rerank model {model!r}: use {PACKAGED_RERANKER!r}, 'provider:model' "
            "(a LangChain embeddings model) or 'instance:NAME'"
        )
    from langchain.embeddings import init_embeddings

    return Reranker.from_embeddings(init_embeddings(model), f"rerank:{model}")


def reranker_for(model: str | None) -> Reranker:
    """The reranker for a ``rerank_model`` setting (None: the packaged MiniLM).

    Raises:
        ValueError: for a name that is not the packaged model, ``provider:model`` or a
            registered ``instance:NAME``.
    """
    name = model or PACKAGED_RERANKER
    return _reranker(name, instance_id(name))


class RerankingRetriever(WrappedRetriever):
    """Fetches ``candidates`` passages from ``inner``, reranks them and keeps the best ``k``.

    Reranking runs within ``seconds`` (the search timeout); past it, or when the reranker
    fails, the retrieval order is kept and the result says why in ``error``.
    """

    def __init__(
        self, inner: Retriever, reranker: Reranker, candidates: int, seconds: float | None
    ) -> None:
        """Rerank ``candidates`` passages of ``inner`` with ``reranker``."""
        check_k(candidates)
        super().__init__(inner)  # its revision: the reranking stage is the spec's budget.rerank
        self.reranker = reranker
        self.candidates = candidates
        self.seconds = seconds
        self.in_process = inner.in_process and reranker.local

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        """Search ``max(k, candidates)`` passages, then keep the ``k`` the reranker ranks best."""
        check_k(k)
        self._count_call()
        result = self.inner.search(query, max(k, self.candidates), budget=budget)
        if not result.evidence:
            return result

        def rerank() -> list[Evidence]:
            return self.reranker.rerank(query, result.evidence, k)

        try:
            # The packaged model runs here (it cannot stall); a remote one within the deadline.
            kept = (
                rerank()
                if self.reranker.local
                else call_with_deadline(rerank, self.seconds, "rerank")
            )
        except (CallTimeoutError, ValueError, RuntimeError, OSError) as exc:
            problem = f"rerank failed ({exc}); retrieval order kept"
            return SearchResult(
                evidence=result.evidence[:k],
                error="; ".join(e for e in (result.error, problem) if e),
                searched=result.searched,
                note=result.note,
                cached=result.cached,
            )
        return SearchResult(
            evidence=kept,
            error=result.error,
            searched=result.searched,
            note=result.note,
            cached=result.cached,
        )

    def __repr__(self) -> str:
        return f"RerankingRetriever({self.inner!r}, candidates={self.candidates})"


def reranking(
    retriever: Retriever,
    *,
    candidates: int | None,
    model: str | None,
    seconds: float | None,
) -> Retriever:
    """``retriever`` with a reranking stage over ``candidates`` passages (None: unchanged)."""
    if candidates is None:
        return retriever
    return RerankingRetriever(retriever, reranker_for(model), candidates, seconds)
