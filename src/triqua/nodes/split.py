"""Split: chunk the input text (``core.chunking``), keeping character offsets.

Given facts (``triqua verify``) skip decomposition: they enter the run here, each in the
chunk its span starts in (``core.given_facts``).
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from triqua.context import Context
from triqua.core.chunking import split_text
from triqua.core.given_facts import given_note, in_chunks
from triqua.nodes.common import context_of
from triqua.runtime.resources import run_resources
from triqua.schema import Fact
from triqua.state import State


def split(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Chunk the input text; tell the decomposer which chunks are coming, or take given facts."""
    context = context_of(runtime)
    chunks = split_text(state["text"], context.chunk_size)
    given = state.get("given_facts")
    if given is not None:
        facts = in_chunks([Fact.model_validate(f) for f in given], chunks)
        return {"chunks": chunks, "facts": facts, "notes": [given_note(len(facts))]}
    run_resources(context, runtime).engines.decomposer.prepare(chunks)
    return {"chunks": chunks}
