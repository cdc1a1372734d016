"""How a run's nodes get engines, retriever and limits: settings in, shared objects out.

Nothing here is keyed by run id. Engines and retrievers come from factories cached on
frozen keys computed from the run's settings (``runtime.context``) and, for supplied
evidence, the documents' digest (:func:`retriever_key`); any process, any worker, a resumed
run or a Studio replay rebuilds the same objects from the same settings and state.

What changes during a run (search budget, model call count, facts found) lives in one
:class:`RunLedger` per graph invocation. The runner (:mod:`triqua.runner`) puts it in the
invocation's config and, on resume, charges it with what the checkpointed state says was
spent; a host that invokes the graph itself (Studio, LangGraph server) gets one per
invocation, created on first use and dropped with the invocation.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, TypeVar

from triqua.context import Context
from triqua.core.coalesce import Coalescer
from triqua.engines.factory import Engines, ModelKey, engine
from triqua.instances import PREFIX, instance, instance_id, register_instance
from triqua.limits import CallLimit
from triqua.schema import Document, Mode, Usage, sha256_text
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
    "register_retriever",
    "retriever_for",
    "retriever_key",
    "retriever_kind",
    "run_resources",
]

T = TypeVar("T")

#: Key of the run's :class:`RunLedger` in ``config["configurable"]``.
LEDGER_KEY = "triqua_ledger"


def register_retriever(name: str, retriever: Retriever) -> str:
    """Make a retriever instance usable by name as ``Context.retriever`` (custom backends)."""
    return register_instance(name, retriever)


class FactTally:
    """Thread-safe count of the facts a run's decomposition found and of the chunks it skipped.

    Decomposition stops once ``max_facts`` facts are found, so an over-long input costs no
    more than the facts that will be verified.
    """

    def __init__(self) -> None:
        """Start with nothing found and nothing skipped."""
        self.found = 0
        self.skipped = 0
        self._lock = threading.Lock()

    def add(self, facts: int) -> None:
        """Count the facts of one decomposed chunk."""
        with self._lock:
            self.found += facts

    def skip_if_reached(self, limit: int) -> bool:
        """Count a skipped chunk and return True when ``limit`` facts were already found."""
        with self._lock:
            if self.found < limit:
                return False
            self.skipped += 1
            return True


#: Seconds a verification batch waits for its missing members before its call is made
#: without them. Members queued behind a full worker pool arrive once a slot frees (about
#: one model call later); one that never comes (a resumed run) costs this wait once.
BATCH_WAIT = 5.0


@dataclass
class RunLedger:
    """What one run counts as it goes: searches, model calls, facts; and its documents.

    The documents are the run's supplied evidence (a reference, never copied), so that its
    retriever can be rebuilt from the digest its fact tasks carry.
    """

    budget: SearchBudget
    calls: CallLimit
    facts: FactTally = field(default_factory=FactTally)
    #: Batched verification: the verify requests of one batch, gathered into one call.
    batches: Coalescer[Any, Any] = field(default_factory=lambda: Coalescer(wait=BATCH_WAIT))
    documents: Sequence[Document] = ()
    digest: str | None = None

    def hold(self, documents: Sequence[Document]) -> None:
        """Keep the run's supplied documents at hand, with their digest."""
        self.documents = documents
        self.digest = documents_digest(documents)

    @classmethod
    def for_context(cls, context: Context) -> RunLedger:
        """A fresh ledger with the limits of ``context``."""
        return cls(budget=SearchBudget(context.max_searches), calls=CallLimit(context.max_calls))

    def charge(self, values: dict[str, Any]) -> None:
        """Count what a checkpointed run already spent (its state ``values``), on resume."""
        log = values.get("usage_log", [])
        for _ in range(sum(e.usage.search_calls for e in log if e.role == "search")):
            self.budget.try_spend()
        self.calls.charge(sum(e.usage.model_calls for e in log if e.role != "search"))
        self.facts.add(len(values.get("facts", [])))
        failed = values.get("failed_chunks", [])
        self.facts.skipped += sum(1 for c in failed if c.cause == "max_facts")
        self.calls.skipped_chunks += sum(1 for c in failed if c.cause == "max_calls")


# Ledgers of invocations that did not bring one (Studio, LangGraph server, a bare
# ``graph.invoke``), keyed by the invocation's ``RunControl``, which LangGraph creates once
# per top-level invocation and shares with every task and subgraph of it. It takes no weak
# reference, so the most recent invocations are kept (with their control, so that its id
# stays theirs); hosts rarely run more at once.
_HOSTED: OrderedDict[int, tuple[object, RunLedger]] = OrderedDict()
_HOSTED_MAX = 256
_HOSTED_LOCK = threading.Lock()


def ledger_of(context: Context, runtime: Any = None) -> RunLedger:
    """The current invocation's ledger (call from inside a node).

    Raises:
        RuntimeError: outside a graph invocation.
    """
    from langgraph.config import get_config

    found = get_config().get("configurable", {}).get(LEDGER_KEY)
    if isinstance(found, RunLedger):
        return found
    owner = getattr(runtime, "control", None)
    if owner is None:
        raise RuntimeError("no run ledger: invoke the graph through triqua's runner")
    with _HOSTED_LOCK:
        held = _HOSTED.get(id(owner))
        if held is None or held[0] is not owner:
            held = _HOSTED[id(owner)] = (owner, RunLedger.for_context(context))
            while len(_HOSTED) > _HOSTED_MAX:
                _HOSTED.popitem(last=False)
        return held[1]


def limited_call(
    resources: RunResources,
    engine: object,
    call: Callable[[], T],
    usage: Callable[[T], Usage],
) -> T | None:
    """Make one engine call within the run's model call limit; None when the limit refused it.

    Only engines that call a chat model count; an answer with no model call in its usage
    (served from the cache) gives its reservation back.
    """
    if not calls_model(engine):
        return call()
    if not resources.calls.reserve():
        return None
    called = True
    try:
        result = call()
        called = bool(usage(result).model_calls)
        return result
    finally:
        resources.calls.settle(called)


def calls_model(engine: object) -> bool:
    """True when ``engine`` answers with a chat model (so its calls count against max_calls).

    Cache wrappers (``.inner``) are looked through; the offline engine and the template
    refiner make no model calls.
    """
    from triqua.engines.base import TemplateRefiner
    from triqua.engines.offline.engine import OfflineDecomposer, OfflineJudge

    while hasattr(engine, "inner"):
        engine = engine.inner
    return not isinstance(engine, OfflineDecomposer | OfflineJudge | TemplateRefiner)


def retriever_kind(context: Context, has_documents: bool) -> str:
    """The retriever a run uses: ``context.retriever``, with 'auto' resolved (the one place)."""
    if context.retriever == "auto":
        return "supplied" if has_documents else "closed_book"
    return context.retriever


def mode_of(kind: str) -> Mode:
    """The evidence-contract mode that a retriever kind implies."""
    if kind == "supplied":
        return Mode.SUPPLIED_CONTEXT
    if kind == "closed_book":
        return Mode.CLOSED_BOOK
    return Mode.BOUNDED_SEARCH  # web search, Chroma and registered custom retrievers


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
        cache_path=(context.cache_path or "") if context.cache else None,
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
        from triqua.cache import cache_searches, open_cache, searches_external

        if searches_external(retriever):
            retriever = cache_searches(retriever, open_cache(key.cache_path or None))
    from triqua.tools.rerank import reranking

    return reranking(
        retriever,
        candidates=key.candidates,
        model=key.rerank_model,
        seconds=key.search_timeout or None,
    )


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


def _engines(context: Context) -> Engines:
    """The engines of ``context``, wrapped in the answer cache where it pays."""
    from triqua.engines.factory import ROLES, model_key

    keys = tuple(model_key(context, role) for role in ROLES)
    return _cached_engines(keys, (context.cache_path or "") if context.cache else None)


@functools.lru_cache(maxsize=64)
def _cached_engines(keys: tuple[ModelKey, ...], cache_path: str | None) -> Engines:
    """The engines for the role keys ``keys``, with answers cached at ``cache_path``."""
    from triqua.cache import cache_engines

    decomposer, judge, refiner = (engine(key) for key in keys)
    engines = Engines(decomposer=decomposer, judge=judge, refiner=refiner)  # type: ignore[arg-type]
    return engines if cache_path is None else cache_engines(engines, keys, cache_path or None)


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
