"""The chat-model roles with their answers served from the call cache (:mod:`.call_cache`).

Each role's parsed answer is kept under the hash of (model, engine revision, prompt files,
the role's exact input); a served answer counts as no model call.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from triqua.core.grounding.rule import MeaningReader
from triqua.core.plan.verify_batches import BatchItem, pool_evidence
from triqua.engines.base import (
    BatchJudgeResult,
    Decomposer,
    DecomposeResult,
    Judge,
    JudgeResult,
    QueryRefiner,
)
from triqua.engines.factory import Engines, ModelKey
from triqua.runtime.caches.call_cache import (
    ResultCache,
    cache_key,
    load_cached,
    open_cache,
    prompts_revision,
)
from triqua.schema import Chunk, Evidence, Fact, FactUnit, Usage, Verdict, sha256_text

__all__ = ["CachedDecomposer", "CachedJudge", "CachedRefiner", "cache_engines", "evidence_key"]


class CachedDecomposer(Decomposer):
    """A decomposer that answers repeated chunks from the cache."""

    def __init__(self, inner: Decomposer, store: ResultCache, model: str) -> None:
        """Wrap ``inner``; ``model`` names the chat model and its settings."""
        self.inner, self.store, self.model = inner, store, model
        self.revision = inner.revision

    def decompose(
        self,
        chunk: Chunk,
        *,
        previous_chunk: str | None,
        question: str | None,
        chunked: bool,
        parts: Sequence[Chunk] = (),
    ) -> DecomposeResult:
        """Facts of ``chunk``, from the cache when this exact input was decomposed before."""
        key = cache_key(
            "decompose",
            self.model,
            self.revision,
            prompts_revision(),
            chunk.model_dump(),
            previous_chunk,
            question,
            chunked,
            *([[p.start, p.end] for p in parts] if parts else []),
        )
        hit = load_cached(DecomposeResult, self.store.get(key))
        if hit is not None:
            return hit.model_copy(update={"usage": Usage()})
        result = self.inner.decompose(
            chunk, previous_chunk=previous_chunk, question=question, chunked=chunked, parts=parts
        )
        if result.error is None:
            self.store.put(key, "decompose", result.model_dump_json())
        return result


def evidence_key(evidence: Sequence[Evidence]) -> list[list[str | None]]:
    """What of each passage reaches the judge's prompt: id, source and text."""
    return [[e.id, e.source or e.document_id, e.text] for e in evidence]


class CachedJudge(Judge):
    """A judge that answers repeated (fact, evidence, units) inputs from the cache.

    Only the judge's raw answer is kept; the grounding rule reads it afresh in every run with
    the wrapped judge's :attr:`reader`, so a run's verdicts are the same with the cache on,
    served from it, or off.
    """

    def __init__(self, inner: Judge, store: ResultCache, model: str) -> None:
        """Wrap ``inner``; ``model`` names the chat model and its settings."""
        self.inner, self.store, self.model = inner, store, model
        self.revision = inner.revision
        # The entailment judge recorded beside the LLM's revision (spec, regrade), if any.
        self.second_opinion: str | None = getattr(inner, "second_opinion", None)

    @property
    def reader(self) -> MeaningReader | None:  # type: ignore[override]
        """The wrapped judge's reader of paraphrase, which the grounding rule reads with."""
        return self.inner.reader

    def verify(
        self,
        fact: Fact,
        evidence: Sequence[Evidence],
        *,
        units: Sequence[FactUnit] | None = None,
        closed_book: bool = False,
    ) -> JudgeResult:
        """The verdict, from the cache when this exact input was judged before."""
        key = cache_key(
            "verify",
            self.model,
            self.revision,
            prompts_revision(),
            fact.to_string(),
            evidence_key(evidence),
            [u.text for u in units] if units is not None else None,
            closed_book,
        )
        hit = load_cached(Verdict, self.store.get(key))
        if hit is not None:
            return JudgeResult(verdict=hit, usage=Usage())
        result = self.inner.verify(fact, evidence, units=units, closed_book=closed_book)
        if result.verdict.error is None:
            self.store.put(key, "verify", result.verdict.model_dump_json())
        return result

    @property
    def batched(self) -> bool:  # type: ignore[override]
        """Whether the wrapped judge has a batched call."""
        return self.inner.batched

    def verify_batch(
        self, items: Sequence[BatchItem], *, closed_book: bool = False
    ) -> BatchJudgeResult:
        """The batch's verdicts from the cache when this exact batch was judged before.

        A batch's verdicts depend on the whole batch (its facts and pooled passages), so the
        key of each member holds them all, and a batch is answered from the cache only whole.
        """
        from triqua.prompts import load_text

        batch: list[Any] = [
            self.model,
            self.revision,
            prompts_revision(),
            sha256_text(load_text("verify_batch.md")),
            [
                [i.fact.to_string(), [u.text for u in i.units or ()], [e.id for e in i.evidence]]
                for i in items
            ],
            evidence_key(pool_evidence(items)),
            closed_book,
        ]
        keys = [cache_key("verify-batch", *batch, index) for index in range(len(items))]
        hits = [load_cached(Verdict, self.store.get(key)) for key in keys]
        if all(hit is not None for hit in hits):
            return BatchJudgeResult(
                results=[JudgeResult(verdict=hit) for hit in hits if hit is not None]
            )
        result = self.inner.verify_batch(items, closed_book=closed_book)
        for key, judged in zip(keys, result.results, strict=True):
            if judged is not None and judged.verdict.error is None:
                self.store.put(key, "verify", judged.verdict.model_dump_json())
        return result


class CachedRefiner(QueryRefiner):
    """A query refiner that answers repeated (fact, units, round) inputs from the cache."""

    def __init__(self, inner: QueryRefiner, store: ResultCache, model: str) -> None:
        """Wrap ``inner``; ``model`` names the chat model and its settings."""
        self.inner, self.store, self.model = inner, store, model
        self.revision = inner.revision

    def refine(
        self, fact: Fact, units: Sequence[FactUnit], round_index: int
    ) -> tuple[list[str], Usage]:
        """Queries for ``units``, from the cache when asked before."""
        key = cache_key(
            "refine",
            self.model,
            self.revision,
            prompts_revision(),
            fact.to_string(),
            [u.text for u in units],
            round_index,
        )
        hit = self.store.get(key)
        if hit is not None:
            return list(json.loads(hit)), Usage()
        queries, usage = self.inner.refine(fact, units, round_index)
        # The refiner falls back to plain queries on failure and says so only through
        # estimated usage; only answers the provider accounted for are kept.
        if not usage.tokens_estimated:
            self.store.put(key, "refine", json.dumps(queries))
        return queries, usage


def cache_engines(
    engines: Engines, keys: Sequence[ModelKey], path: str | Path | None = None
) -> Engines:
    """The engines with each chat-model role's answers cached (the offline engine is not).

    ``keys`` are the roles' model keys; the cache file (``path``) is opened only when some
    role calls a chat model.
    """
    if not any(key.spec for key in keys):
        return engines
    store = open_cache(path)
    wrappers: dict[str, tuple[str, Any]] = {
        "decompose": ("decomposer", CachedDecomposer),
        "verify": ("judge", CachedJudge),
        "refine": ("refiner", CachedRefiner),
    }
    updates = {
        wrappers[key.role][0]: wrappers[key.role][1](
            getattr(engines, wrappers[key.role][0]), store, store.model_name(key.model_id)
        )
        for key in keys
        if key.spec
    }
    return replace(engines, **updates)
