"""How a run's nodes get engines, retriever and limits: settings in, shared objects out.

Nothing here is keyed by run id. Engines and retrievers come from factories cached on
frozen keys computed from the run's settings (``runtime.context``) and, for supplied
evidence, the documents' digest (:func:`retriever_key`); any process, any worker, a resumed
run or a Studio replay rebuilds the same objects from the same settings and state.

What changes during a run (search budget, model call count, facts found) lives in one
:class:`RunLedger` per graph invocation. The runner (:mod:`triqua.execution.runner`) puts it in the
invocation's config and, on resume, charges it with what the checkpointed state says was
spent; a host that invokes the graph itself (Studio, LangGraph server) gets one per
invocation, created on first use and dropped with the invocation.

The package splits by concept: ``retrievers`` (kind, key, cached build), ``ledger`` (the
per-run counts); :class:`RunResources` joins them with the engines.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from triqua.context import Context
from triqua.core.budget.limits import CallLimit
from triqua.engines.factory import ROLES, Engines, ModelKey, engine, model_key
from triqua.runtime.resources.ledger import (
    LEDGER_KEY,
    FactTally,
    RunLedger,
    calls_model,
    ledger_of,
    limited_call,
)
from triqua.runtime.resources.retrievers import (
    RetrieverKey,
    documents_digest,
    mode_of,
    register_retriever,
    retriever_for,
    retriever_key,
    retriever_kind,
)
from triqua.schema import Document, Mode
from triqua.tools.base import Retriever, SearchBudget

__all__ = [
    "LEDGER_KEY",
    "FactTally",
    "RetrieverKey",
    "RunLedger",
    "RunResources",
    "build_resources",
    "calls_model",
    "documents_digest",
    "ledger_of",
    "limited_call",
    "mode_of",
    "model_keys",
    "register_retriever",
    "retriever_for",
    "retriever_key",
    "retriever_kind",
    "run_resources",
    "warm_engines",
]


@dataclass(frozen=True)
class RunResources:
    """What a node works with: the engines and retriever its settings define, and the ledger.

    The retriever is resolved on first use, so nodes that never search never build it.
    """

    engines: Engines
    key: RetrieverKey
    ledger: RunLedger

    @property
    def retriever(self) -> Retriever:
        """The run's retriever (cached by its key)."""
        return retriever_for(self.key)

    @property
    def reranker(self) -> str | None:
        """Revision of the reranker that orders search results (None: retrieval order)."""
        from triqua.tools.rerank import RerankingRetriever

        retriever = self.retriever
        return retriever.reranker.revision if isinstance(retriever, RerankingRetriever) else None

    @property
    def mode(self) -> Mode:
        """The evidence-contract mode the retriever implies."""
        return mode_of(self.key.kind)

    @property
    def budget(self) -> SearchBudget:
        """The run's search budget."""
        return self.ledger.budget

    @property
    def calls(self) -> CallLimit:
        """The run's model call limit."""
        return self.ledger.calls

    @property
    def facts(self) -> FactTally:
        """The run's fact tally."""
        return self.ledger.facts

    @property
    def slots(self) -> threading.BoundedSemaphore:
        """Held while a model call or search is in flight (``max_concurrency`` at once)."""
        return self.ledger.slots


def model_keys(context: Context) -> tuple[ModelKey, ...]:
    """Each role's engine key under ``context``, in ``ROLES`` order."""
    return tuple(model_key(context, role) for role in ROLES)


def _engines(context: Context) -> Engines:
    """The engines of ``context``, wrapped in the answer cache where it pays."""
    return _cached_engines(model_keys(context), context.cache_location())


@functools.lru_cache(maxsize=64)
def _cached_engines(keys: tuple[ModelKey, ...], cache_path: str | None) -> Engines:
    """The engines for the role keys ``keys``, with answers cached at ``cache_path``."""
    from triqua.runtime.caches.cached_engines import cache_engines

    decomposer, judge, refiner = (engine(key) for key in keys)
    engines = Engines(decomposer=decomposer, judge=judge, refiner=refiner)  # type: ignore[arg-type]
    return engines if cache_path is None else cache_engines(engines, keys, cache_path or None)


def warm_engines(context: Context) -> None:
    """Build ``context``'s engines and load their models now rather than on a first fact.

    A long-lived worker (a Ray actor of ``triqua batch --ray``) pays the loading once, before
    its first line; an engine loads what it has a ``warm_up`` for (the offline judge: the
    embedder, the entailment judge, spaCy), under its answer cache if any.
    """
    engines = _engines(context)
    for role in (engines.decomposer, engines.judge, engines.refiner):
        inner = getattr(role, "inner", role)
        warm = getattr(inner, "warm_up", None)
        if callable(warm):
            warm()


def build_resources(
    context: Context, documents: Sequence[Document], ledger: RunLedger | None = None
) -> RunResources:
    """Engines, retriever and a ledger for a run; fail fast when a retriever is unusable."""
    key = retriever_key(context, documents)
    retriever_for(key)  # built (and checked) now: an unusable retriever fails the run at once
    return RunResources(
        engines=_engines(context), key=key, ledger=ledger or RunLedger.for_context(context)
    )


def run_resources(
    context: Context,
    runtime: Any,
    *,
    documents: Sequence[Document] | None = None,
    digest: str | None = None,
) -> RunResources:
    """A node's resources: from its settings, its state's documents (or their digest), the ledger.

    Args:
        context: The run's settings.
        runtime: The node's ``Runtime`` (finds the invocation's ledger).
        documents: The run's supplied documents, in nodes of the main graph.
        digest: Their digest, in the verification subgraph (its tasks carry it).
    """
    ledger = ledger_of(context, runtime)
    if documents is None and digest is not None:
        documents = ledger.documents if ledger.digest == digest else ()
    key = retriever_key(context, documents or (), digest)
    return RunResources(engines=_engines(context), key=key, ledger=ledger)
