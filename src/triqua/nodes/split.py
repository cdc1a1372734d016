"""Split: chunk the input text (``core.text.chunking``), keeping character offsets.

A sentence longer than ``max_sentence_chars`` is a chunk of its own, recorded as skipped and
named in the report's notes, never decomposed (``core.text.long_sentences``). Given facts
(``triqua verify``) skip decomposition: they enter the run here, each in the chunk its span
starts in (``core.plan.given_facts``). A run started through the API takes the chunks its
:class:`~triqua.runtime.request.CheckRequest` cut.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from triqua.context import Context
from triqua.core.plan.given_facts import given_note, in_chunks
from triqua.core.text.chunking import chunk_failure, split_text
from triqua.core.text.long_sentences import (
    LONG_SENTENCE,
    chunks_to_check,
    long_sentence_note,
    skipped_reason,
)
from triqua.nodes.common import context_of
from triqua.runtime.request import request_of
from triqua.runtime.resources import run_resources
from triqua.schema import Fact
from triqua.state import State


def split(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Chunk the input text; tell the decomposer which chunks are coming, or take given facts."""
    context = context_of(runtime)
    given = state.get("given_facts")
    request = request_of(state)
    if given is not None:
        if request is not None and request.facts is not None:
            chunks = list(request.chunks)
        else:
            chunks = split_text(state["text"], context.chunk_size)
        facts = in_chunks([Fact.model_validate(f) for f in given], chunks)
        return {"chunks": chunks, "facts": facts, "notes": [given_note(len(facts))]}
    limit = context.max_sentence_chars
    if request is not None and request.facts is None:
        chunks, long = list(request.chunks), list(request.long)
    else:
        chunks, long = chunks_to_check(state["text"], context.chunk_size, limit)
    decomposed = [c for c in chunks if c.index not in long]
    run_resources(context, runtime).engines.decomposer.prepare(decomposed)
    update: dict[str, Any] = {"chunks": chunks}
    if long:
        skipped = [chunks[i] for i in long]
        update["failed_chunks"] = [
            chunk_failure(c, skipped_reason(c, limit), LONG_SENTENCE) for c in skipped
        ]
        update["notes"] = [long_sentence_note(c, limit) for c in skipped]
    return update
