"""Per-run resources that must be shared by every node of one run: engines, retriever, budget.

They are not graph state (they are not serialisable), so they live here keyed by the run id
that travels in the state and in every ``Send`` payload. A resumed run rebuilds them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any, TypeVar

from triqua.context import Context
from triqua.engines.factory import Engines, resolve_engines
from triqua.limits import CallLimit
from triqua.schema import Document, Mode, Usage
from triqua.tools.base import Retriever, SearchBudget

T = TypeVar("T")

_MAX_RUNS = 64
_RUNS: OrderedDict[str, RunResources] = OrderedDict()
_LOCK = threading.Lock()
_CUSTOM_RETRIEVERS: dict[str, Retriever] = {}


def register_retriever(name: str, retriever: Retriever) -> str:
    """Make a retriever instance usable by name as ``Context.retriever`` (custom backends)."""
    key = name if name.startswith("instance:") else f"instance:{name}"
    with _LOCK:
        _CUSTOM_RETRIEVERS[key] = retriever
    return key


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


@dataclass
class RunResources:
    """What one run shares across nodes."""

    engines: Engines
    retriever: Retriever
    budget: SearchBudget
    mode: Mode
    facts: FactTally = field(default_factory=FactTally)
    calls: CallLimit = field(default_factory=lambda: CallLimit(Context().max_calls))


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
    """The retriever a run uses: ``context.retriever``, with 'auto' resolved."""
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


def build_resources(context: Context, documents: list[Document]) -> RunResources:
    """Create engines, retriever and budget for a run; fail fast when a retriever is unusable."""
    from triqua.tools.bounded import bounded
    from triqua.tools.factory import build_retriever

    kind = retriever_kind(context, bool(documents))
    if kind == "supplied" and not documents:
        raise ValueError("retriever 'supplied' needs documents (--evidence FILE or documents=)")
    options: dict[str, Any] = {
        "documents": documents,
        "collection": context.collection,
        "chroma_path": context.chroma_path,
        "chroma_url": context.chroma_url,
        "include_domains": context.include_domains,
        "exclude_domains": context.exclude_domains,
        "as_of": date.fromisoformat(context.as_of) if context.as_of else None,
        "max_results": context.max_results,
        "search_timeout": context.search_timeout,
    }
    if kind.startswith("instance:"):
        if kind not in _CUSTOM_RETRIEVERS:
            raise ValueError(f"no retriever registered as {kind!r}")
        retriever = bounded(_CUSTOM_RETRIEVERS[kind], context.search_timeout)
    else:
        retriever = build_retriever(kind, **options)
    retriever.check_available()
    engines = resolve_engines(context)
    if context.cache:
        from triqua.cache import apply_cache

        engines, retriever = apply_cache(context, engines, retriever)
    return RunResources(
        engines=engines,
        retriever=retriever,
        budget=SearchBudget(context.max_searches),
        mode=mode_of(kind),
        calls=CallLimit(context.max_calls),
    )


def register(run_id: str, resources: RunResources) -> None:
    """Remember a run's resources (bounded: the oldest runs are forgotten first)."""
    with _LOCK:
        _RUNS[run_id] = resources
        _RUNS.move_to_end(run_id)
        while len(_RUNS) > _MAX_RUNS:
            _RUNS.popitem(last=False)


def find_resources(run_id: str) -> RunResources | None:
    """The run's resources when this process holds them (never rebuilds them)."""
    with _LOCK:
        return _RUNS.get(run_id)


def resources_for(
    run_id: str,
    context: Context,
    documents: list[Document] | None = None,
    *,
    mode: str | None = None,
) -> RunResources:
    """The run's resources, rebuilding them when the run resumes in a new process.

    Args:
        run_id: The run.
        context: The run's settings.
        documents: The run's supplied documents, when they are at hand.
        mode: The run's evidence mode, so a rebuild never silently changes it.

    Raises:
        ValueError: when they must be rebuilt but the run's documents are not at hand.
    """
    with _LOCK:
        found = _RUNS.get(run_id)
    if found is not None:
        return found
    if documents is None and mode == Mode.SUPPLIED_CONTEXT.value:
        raise ValueError(
            f"run {run_id}: its supplied documents are not loaded in this process; "
            "resume it with triqua.check(resume=...) or `triqua check --resume`"
        )
    built = build_resources(context, documents or [])
    register(run_id, built)
    return built
