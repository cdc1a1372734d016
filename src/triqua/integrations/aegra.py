"""triqua's graphs on Aegra, an open Agent Protocol server that keeps everything in PostgreSQL.

Serve ``langgraph.json`` (the check graph ``triqua`` and the ingest graph ``triqua_ingest``)
to the LangGraph SDK with no Docker, no Redis and no licence key (``pip install
'triqua[aegra]'``)::

    export DATABASE_URL=postgresql://user@db:5432/triqua AEGRA_CONFIG=langgraph.json
    uvicorn triqua.integrations.aegra:app --host 127.0.0.1 --port 8123

Aegra creates its tables in that database at start (its own migrations), and keeps there the
assistants, threads, runs and their events, and the graphs' checkpoints (LangGraph's
``checkpoints``, ``checkpoint_blobs`` and ``checkpoint_writes``); runs execute in the server
process. ``app`` is Aegra 0.6's own application (``aegra_api.main:app``) with three fixes
that triqua's graphs need, each where Aegra gets it wrong:

* A run's output is stored as JSON: Aegra dumps pydantic models (triqua's ``Report``) in
  Python mode, and the datetimes in a report then fail the JSON column, so every check run
  ends in error. Here models are dumped with ``mode="json"``.
* ``interrupt_before`` / ``interrupt_after`` given with a run are applied: Aegra puts them
  into the run's config, where LangGraph never reads them, so the run did not pause.
* A run that stops at such a breakpoint marks its thread ``interrupted``: Aegra sees only
  the interrupts raised by ``interrupt()``, and refuses to resume any other thread. Resume
  with ``command={"resume": True}`` (Aegra refuses ``input=None``).

And one default: Aegra's pool of database sessions is 2 connections with no overflow, but a
run holds one for as long as it executes and a client waiting for it (``runs.wait``,
``runs.join``) another, so two runs waited on at once stall every request for 30 s and fail.
``SQLALCHEMY_POOL_SIZE`` defaults to 20 here (about ten runs waited on at once); set it to
twice the runs you expect at once.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from typing import Any

os.environ.setdefault("SQLALCHEMY_POOL_SIZE", "20")  # read when Aegra's settings load

import aegra_api.api.runs as _runs
from aegra_api.core.serializers.general import GeneralSerializer
from pydantic import BaseModel

__all__ = ["app"]

_BREAKPOINTS = ("interrupt_before", "interrupt_after")
_python_mode = GeneralSerializer._serialize_object
_stream_graph_events = _runs.stream_graph_events


def _serialize_object(self: GeneralSerializer, obj: Any) -> Any:
    """Aegra's serializer, with pydantic models dumped as JSON (dates as ISO strings)."""
    if isinstance(obj, BaseModel):
        return obj.model_dump(mode="json")
    return _python_mode(self, obj)


async def _paused(graph: Any, config: dict[str, Any]) -> bool:
    """Whether the thread's last checkpoint has steps still to run."""
    thread = {"configurable": {"thread_id": config["configurable"]["thread_id"]}}
    return bool((await graph.aget_state(thread)).next)


async def stream_graph_events(
    graph: Any, input_data: Any, config: dict[str, Any], **kwargs: Any
) -> AsyncIterator[tuple[str, Any]]:
    """Aegra's run stream, with the run's breakpoints set on the graph it executes.

    A run that stopped at one of them ends with the update LangGraph gives a static
    breakpoint (``{"__interrupt__": []}``), which is how Aegra tells an interrupted run.
    """
    breakpoints = {key: config[key] for key in _BREAKPOINTS if config.get(key) is not None}
    if breakpoints:
        config = {key: value for key, value in config.items() if key not in _BREAKPOINTS}
        graph = graph.copy(update={f"{key}_nodes": nodes for key, nodes in breakpoints.items()})
    async for event in _stream_graph_events(
        graph=graph, input_data=input_data, config=config, **kwargs
    ):
        yield event
    if breakpoints and await _paused(graph, config):
        yield "updates", {"__interrupt__": []}


GeneralSerializer._serialize_object = _serialize_object
_runs.stream_graph_events = stream_graph_events

from aegra_api.main import app  # noqa: E402  (after the fixes: it imports the patched names)
