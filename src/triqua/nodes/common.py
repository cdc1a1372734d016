"""Small helpers shared by nodes: the run context and stream events."""

from __future__ import annotations

from typing import Any

from langgraph.config import get_stream_writer
from langgraph.runtime import Runtime

from triqua.context import Context


def context_of(runtime: Runtime[Context] | None) -> Context:
    """The run's context; defaults (from the environment) when the caller passed none."""
    context = runtime.context if runtime is not None else None
    if context is None:
        return Context()
    if isinstance(context, dict):
        return Context.from_mapping(context)
    return context


def emit(event: str, **payload: Any) -> None:
    """Send a custom stream event (``stream_mode="custom"``); a no-op when nobody listens."""
    try:
        writer = get_stream_writer()
    except RuntimeError:
        return
    writer({"event": event, **payload})
