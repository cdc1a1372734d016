"""What one run counts as it goes (searches, model calls, facts) and how nodes find it."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from triqua.context import Context
from triqua.core.budget.limits import CallLimit
from triqua.runtime.resources.retrievers import documents_digest
from triqua.schema import Document, Usage
from triqua.tools.base import SearchBudget

if TYPE_CHECKING:
    from triqua.runtime.resources import RunResources

T = TypeVar("T")

#: Calls in flight of a ledger built without settings (``Context.max_concurrency``'s default).
DEFAULT_SLOTS = 8

#: Key of the run's :class:`RunLedger` in ``config["configurable"]``.
LEDGER_KEY = "triqua_ledger"


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
class RunLedger:
    """What one run counts as it goes: searches, model calls, facts; and its documents.

    The documents are the run's supplied evidence (a reference, never copied), so that its
    retriever can be rebuilt from the digest its fact tasks carry.
    """

    budget: SearchBudget
    calls: CallLimit
    facts: FactTally = field(default_factory=FactTally)
    documents: Sequence[Document] = ()
    digest: str | None = None
    #: Model calls and searches in flight at once: a batch's members make theirs side by
    #: side (``nodes.members``), so ``max_concurrency`` is held here, not by the graph.
    slots: threading.BoundedSemaphore = field(
        default_factory=lambda: threading.BoundedSemaphore(DEFAULT_SLOTS)
    )
    #: The settings digest this run's settings were found to agree with: a run's settings
    #: are compared with those it started with once (``spec.refuse_other_settings``).
    settings_checked: str | None = None

    def hold(self, documents: Sequence[Document]) -> None:
        """Keep the run's supplied documents at hand, with their digest."""
        self.documents = documents
        self.digest = documents_digest(documents)

    @classmethod
    def for_context(cls, context: Context) -> RunLedger:
        """A fresh ledger with the limits of ``context``."""
        return cls(
            budget=SearchBudget(context.max_searches),
            calls=CallLimit(context.max_calls),
            slots=threading.BoundedSemaphore(context.max_concurrency),
        )

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
        with resources.slots:
            result = call()
        called = bool(usage(result).model_calls)
        return result
    finally:
        resources.calls.settle(called)


def calls_model(engine: object) -> bool:
    """True when ``engine`` answers with a chat model (so its calls count against max_calls).

    Cache wrappers (``.inner``) are looked through; each engine says so itself
    (``calls_model``: False for the offline engine and the template refiner).
    """
    while hasattr(engine, "inner"):
        engine = engine.inner
    return bool(getattr(engine, "calls_model", True))
