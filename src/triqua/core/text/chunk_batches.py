"""Consecutive chunks packed into one decomposition call, and its answer split back per chunk.

A model call pays for its system prompt, few-shot examples and output schema whatever the
size of its text, so the chunks of a response go to the decomposer together, up to a size
limit. The batch is shown as one text: the exact slice of the input from its first chunk's
start to its last chunk's end, so offsets in it map straight back to the input. The chunks
stay the unit of the record: each fact, failure and sentence without facts belongs to one.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from triqua.schema import Chunk, Fact, Span

__all__ = ["chunk_of", "merged_chunk", "pack", "split_facts", "split_spans"]


def pack(chunks: Sequence[Chunk], limit: int) -> list[list[Chunk]]:
    """Consecutive chunks grouped so that each group's slice of the text is ≤ ``limit`` chars.

    A chunk longer than the limit is a group of its own; ``limit`` 0 keeps one chunk a group
    (one call per chunk).
    """
    groups: list[list[Chunk]] = []
    for chunk in chunks:
        if groups and limit > 0 and chunk.end - groups[-1][0].start <= limit:
            groups[-1].append(chunk)
        else:
            groups.append([chunk])
    return groups


def merged_chunk(members: Sequence[Chunk], text: str) -> Chunk:
    """The chunks as one: the slice of ``text`` they span, indexed as the first of them.

    Raises:
        ValueError: when the chunks are not consecutive slices of ``text`` (a batch must be
            one stretch of the input for its offsets to mean anything).
    """
    if not members:
        raise ValueError("a chunk batch needs at least one chunk")
    for before, after in pairwise(members):
        if after.start < before.end or after.index != before.index + 1:
            raise ValueError(f"chunks {before.index} and {after.index} are not consecutive")
    for chunk in members:
        if text[chunk.start : chunk.end] != chunk.text:
            raise ValueError(f"chunk {chunk.index} is not the text at {chunk.start}-{chunk.end}")
    start, end = members[0].start, members[-1].end
    return Chunk(index=members[0].index, text=text[start:end], start=start, end=end)


def chunk_of(span: Span, members: Sequence[Chunk]) -> Chunk:
    """The chunk a span belongs to: the one holding its start (a gap counts as the next one)."""
    for chunk in members:
        if span.start < chunk.end:
            return chunk
    return members[-1]


def split_facts(facts: Sequence[Fact], members: Sequence[Chunk]) -> list[list[Fact]]:
    """Each chunk's facts, with ``chunk_index`` set to it (spans stay as they are)."""
    by_chunk: list[list[Fact]] = [[] for _ in members]
    positions = {chunk.index: i for i, chunk in enumerate(members)}
    for fact in facts:
        chunk = chunk_of(fact.span, members) if fact.span is not None else members[0]
        by_chunk[positions[chunk.index]].append(
            fact.model_copy(update={"chunk_index": chunk.index})
        )
    return by_chunk


def split_spans(spans: Sequence[Span], members: Sequence[Chunk]) -> list[list[Span]]:
    """Each chunk's part of the spans: a span across a chunk boundary is cut there."""
    by_chunk: list[list[Span]] = [[] for _ in members]
    for span in spans:
        for i, chunk in enumerate(members):
            start, end = max(span.start, chunk.start), min(span.end, chunk.end)
            if start < end:
                by_chunk[i].append(Span(start=start, end=end))
    return by_chunk
