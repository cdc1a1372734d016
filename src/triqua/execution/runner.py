"""The one runner of the check graph: ``check``/``acheck``, streaming, ``as_tool``/``as_node``.

Every caller hands it an input state and settings; it adds what an invocation needs (a run
id, bounded fan-out, a recursion limit that fits the re-verify loop, the run's
:class:`~triqua.runtime.resources.RunLedger`) and runs the compiled graph, yielding progress events
when asked. Batch, citations and the command line go through ``check``/``acheck``.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig

from triqua.context import Context
from triqua.runtime.request import REQUEST_KEY, CheckRequest
from triqua.runtime.resources import LEDGER_KEY, RunLedger
from triqua.schema import Document, Fact, Report

__all__ = ["EventHandler", "ainvoke", "arun", "astream", "graph_input", "run", "run_config"]

EventHandler = Callable[[dict[str, Any]], None]


def graph_input(
    text: str,
    question: str | None,
    documents: Sequence[Document | str | dict[str, Any]] | None,
    spec_overrides: dict[str, Any] | None,
    case_id: str | None = None,
    facts: Sequence[Fact] | None = None,
) -> dict[str, Any]:
    """The graph's input state; with ``facts``, those are checked and the text not decomposed."""
    state: dict[str, Any] = {
        "text": text,
        "question": question,
        "documents": [documents]
        if isinstance(documents, str | dict)
        else (list(documents) if documents else None),
        "spec_overrides": spec_overrides,
    }
    if case_id:
        state["case_id"] = case_id
    if facts is not None:
        state["given_facts"] = list(facts)
    return state


def run_config(
    context: Context,
    run_id: str | None = None,
    *,
    ledger: RunLedger | None = None,
    metadata: dict[str, Any] | None = None,
    request: CheckRequest | None = None,
) -> RunnableConfig:
    """Invocation config: bounded fan-out, a recursion limit, the run's ledger and request.

    The fan-out is ``Context.workers()`` (capped at the cores for the offline verifier). With
    ``run_id`` the run is checkpointed under it; ``ledger`` carries what a resumed run
    already spent (default: a fresh one); ``request`` is the check's, whose validation,
    documents and chunks the graph's nodes then take as done.
    """
    configurable: dict[str, Any] = {LEDGER_KEY: ledger or RunLedger.for_context(context)}
    if request is not None:
        configurable[REQUEST_KEY] = request
    if run_id:
        configurable["thread_id"] = run_id
    config: RunnableConfig = {
        "max_concurrency": context.workers(),
        "recursion_limit": 25 + 2 * context.reverify_rounds,
        "configurable": configurable,
    }
    if metadata:
        config["metadata"] = metadata
    return config


def _prepared(
    state: dict[str, Any] | None, context: Context, graph: Any, config: RunnableConfig | None
) -> tuple[Any, RunnableConfig]:
    """The graph and config of one invocation; a fresh run gets a run id."""
    if graph is None:
        from triqua.graph.main import compiled_graph

        graph = compiled_graph()
    if state is not None and not state.get("run_id"):
        state["run_id"] = uuid.uuid4().hex
    return graph, config or run_config(context)


async def astream(
    state: dict[str, Any] | None,
    *,
    context: Context,
    graph: Any = None,
    config: RunnableConfig | None = None,
    **options: Any,
) -> AsyncIterator[dict[str, Any] | Report]:
    """Run the graph, yielding each progress event (a dict) and then the ``Report``.

    Per-fact events come from the verification subgraph, hence ``subgraphs=True``. The report
    is taken from the main graph's ``score`` update: streaming ``"values"`` instead would
    build every subgraph's whole state after each of its steps (~4 % of a check's CPU) only
    to drop it. ``state`` None continues a checkpointed run; ``options`` go to ``astream``
    (e.g. ``durability``).
    """
    graph, config = _prepared(state, context, graph, config)
    final: Report | None = None
    async for namespace, mode, chunk in graph.astream(
        state,
        config=config,
        context=context,
        stream_mode=["custom", "updates"],
        subgraphs=True,
        **options,
    ):
        if mode == "custom" and isinstance(chunk, dict):
            yield chunk
        elif not namespace and isinstance(chunk, dict) and "report" in (chunk.get("score") or {}):
            final = chunk["score"]["report"]
    if final is None:
        raise RuntimeError("the check graph finished without a report")
    yield final


async def arun(
    state: dict[str, Any] | None,
    *,
    context: Context,
    graph: Any = None,
    config: RunnableConfig | None = None,
    on_event: EventHandler | None = None,
    **options: Any,
) -> Report:
    """Run the graph to its report; with ``on_event``, hand it each progress event."""
    if on_event is not None:
        async for item in astream(state, context=context, graph=graph, config=config, **options):
            if isinstance(item, Report):
                return item
            on_event(item)
        raise RuntimeError("the check graph finished without a report")
    result = await ainvoke(state, context=context, graph=graph, config=config, **options)
    report: Report = result["report"]
    return report


async def ainvoke(
    state: dict[str, Any] | None,
    *,
    context: Context,
    graph: Any = None,
    config: RunnableConfig | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Run ``graph`` (default: the check graph) to its output state, as every run is invoked."""
    graph, config = _prepared(state, context, graph, config)
    result: dict[str, Any] = await graph.ainvoke(state, config=config, context=context, **options)
    return result


def run(
    state: dict[str, Any],
    *,
    context: Context,
    graph: Any = None,
    config: RunnableConfig | None = None,
) -> Report:
    """Run the graph synchronously (safe inside a running graph's worker thread)."""
    graph, config = _prepared(state, context, graph, config)
    result = graph.invoke(state, config=config, context=context)
    report: Report = result["report"]
    return report
