"""Split: chunk the input text (``core.chunking``), keeping character offsets."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from triqua.context import Context
from triqua.core.chunking import split_text
from triqua.nodes.common import context_of
from triqua.runtime.resources import run_resources
from triqua.state import State


def split(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Chunk the input text, and tell the decomposer which chunks are coming."""
    context = context_of(runtime)
    chunks = split_text(state["text"], context.chunk_size)
    run_resources(context, runtime).engines.decomposer.prepare(chunks)
    return {"chunks": chunks}
