"""A cache of model answers and web searches, keyed by revision and exact input (SQLite).

A repeated check of the same text asks no model and searches nothing: each role's answer is
kept under the hash of (model, engine revision, prompt files, the role's exact input), each
search under the hash of (retriever revision, query, k). Cached answers cost nothing, so they
count as 0 model calls and 0 searches in a report's usage. On by default; ``cache=False``
(``--no-cache`` on the command line) asks again.

Not cached, on purpose: the offline engine (deterministic and fast, recomputing is as cheap
as looking up) and local retrievers (supplied documents, closed book, Chroma), which are fast
and whose revisions do not name their content, so a cached answer could outlive the corpus.
Failed answers (provider errors, malformed output) are never stored.

LangChain's model cache (``BaseChatModel.cache``) is not used: it stores raw generations
below the output parser, so a malformed answer would be replayed to every retry, and a hit
looks like a real call to the usage count. Caching each role's parsed result avoids both.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from triqua.core.verify_batches import BatchItem, pool_evidence
from triqua.engines.base import (
    BatchJudgeResult,
    Decomposer,
    DecomposeResult,
    Judge,
    JudgeResult,
    QueryRefiner,
)
from triqua.engines.factory import Engines, ModelKey
from triqua.schema import Chunk, Evidence, Fact, FactUnit, Usage, Verdict, sha256_text, utc_now
from triqua.tools.base import CombinedRetriever, Retriever, SearchBudget, SearchResult
from triqua.tools.paths import triqua_home

__all__ = [
    "CacheFileError",
    "CachedDecomposer",
    "CachedJudge",
    "CachedRefiner",
    "CachedRetriever",
    "ResultCache",
    "cache_key",
    "default_cache_path",
    "open_cache",
]

#: Bumped when the layout of cached values changes, so old entries are simply missed.
CACHE_VERSION = "1"
CACHED_NOTE = "served from the search cache"
_PROMPT_FILES = (
    "decompose_system.md",
    "decompose_examples.json",
    "verify_system.md",
    "refine_system.md",
)


def default_cache_path() -> Path:
    """``cache.sqlite`` in triqua's data directory."""
    return triqua_home() / "cache.sqlite"


def cache_key(kind: str, *parts: Any) -> str:
    """SHA-256 of the canonical JSON of ``kind`` and ``parts``."""
    payload = json.dumps([CACHE_VERSION, kind, *parts], sort_keys=True, default=str)
    return sha256_text(payload)


@cache
def prompts_revision() -> str:
    """Hash of the prompt files: editing a prompt invalidates the answers it produced."""
    from triqua.prompts import load_text

    return sha256_text("".join(load_text(name) for name in _PROMPT_FILES))[:16]


class CacheFileError(ValueError):
    """The cache file cannot be opened or created; the message says what to do."""


class ResultCache:
    """A thread-safe SQLite key-value store of JSON answers."""

    def __init__(self, path: str | Path) -> None:
        """Open (creating when missing) the cache file at ``path``.

        Raises:
            CacheFileError: when the file cannot be opened or created (a directory in its
                place, no permission, a full disk, not a database).
        """
        self.path = Path(path).expanduser()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute(
                "CREATE TABLE IF NOT EXISTS cache (key TEXT PRIMARY KEY, kind TEXT NOT NULL, "
                "value TEXT NOT NULL, created_at TEXT NOT NULL)"
            )
        except (sqlite3.Error, OSError) as exc:
            raise CacheFileError(
                f"cache file {self.path} cannot be used ({exc}): remove or move it, set "
                "cache_path elsewhere, or run with --no-cache"
            ) from None
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        #: The last write that failed (a full disk): the run goes on without caching it.
        self.write_error: str | None = None

    def get(self, key: str) -> str | None:
        """The value stored under ``key``, or None (a read that fails is a miss)."""
        with self._lock:
            try:
                query = "SELECT value FROM cache WHERE key = ?"
                row = self._conn.execute(query, (key,)).fetchone()
            except sqlite3.Error:
                row = None
            if row is None:
                self.misses += 1
                return None
            self.hits += 1
            return str(row[0])

    def put(self, key: str, kind: str, value: str) -> None:
        """Store ``value`` under ``key`` (a later identical answer replaces it).

        A write that fails (a full disk) is kept in ``write_error`` and the run goes on: the
        answer is already in hand, only its reuse is lost.
        """
        with self._lock:
            try:
                self._conn.execute(
                    "INSERT OR REPLACE INTO cache (key, kind, value, created_at) "
                    "VALUES (?, ?, ?, ?)",
                    (key, kind, value, utc_now().isoformat()),
                )
            except sqlite3.Error as exc:
                self.write_error = f"cache file {self.path}: write failed ({exc})"

    def __len__(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT count(*) FROM cache").fetchone()[0])


_OPEN: dict[Path, ResultCache] = {}
_OPEN_LOCK = threading.Lock()


def open_cache(path: str | Path | None = None) -> ResultCache:
    """The process-wide cache at ``path`` (default: :func:`default_cache_path`), opened once."""
    resolved = Path(path or default_cache_path()).expanduser().resolve()
    with _OPEN_LOCK:
        if resolved not in _OPEN:
            _OPEN[resolved] = ResultCache(resolved)
        return _OPEN[resolved]


def _load(model: type[Any], value: str | None) -> Any:
    """Parse a cached value, treating one that no longer validates as a miss."""
    if value is None:
        return None
    try:
        return model.model_validate_json(value)
    except ValidationError:
        return None


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
        hit = _load(DecomposeResult, self.store.get(key))
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
    """A judge that answers repeated (fact, evidence, units) inputs from the cache."""

    def __init__(self, inner: Judge, store: ResultCache, model: str) -> None:
        """Wrap ``inner``; ``model`` names the chat model and its settings."""
        self.inner, self.store, self.model = inner, store, model
        self.revision = inner.revision

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
        hit = _load(Verdict, self.store.get(key))
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
        hits = [_load(Verdict, self.store.get(key)) for key in keys]
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
            getattr(engines, wrappers[key.role][0]), store, key.model_id
        )
        for key in keys
        if key.spec
    }
    return replace(engines, **updates)
