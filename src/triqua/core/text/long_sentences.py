"""Sentences too long to decompose: set aside before chunking, each named in a note.

A "sentence" of hundreds of thousands of characters (a minified file, a table flattened to
one line, a paste gone wrong) is no statement a fact can be checked against: chunked, it
became over a thousand fragments cut at commas and spaces, each decomposed in turn (minutes
and a gigabyte for a 398,000-character one) and none yielding a sound fact. A sentence longer
than ``max_sentence_chars`` is therefore a chunk of its own that is not decomposed: it is
recorded as a skipped chunk (cause ``max_sentence_chars``), the report's notes name it (where
it is, how long, how it starts) and it counts as unchecked text in the coverage.

Sentence ends are found with a pattern rather than the sentencizer: it runs in milliseconds
on any length, and any end it adds (after an abbreviation, at a line break) only shortens a
stretch, so a sentence is never set aside for being long unless it is.
"""

from __future__ import annotations

import re

from triqua.core.text.chunking import split_text
from triqua.schema import Chunk, ChunkCause

__all__ = [
    "LONG_SENTENCE",
    "chunks_to_check",
    "long_sentence_note",
    "long_sentences",
    "skipped_reason",
]
#: The cause recorded on a long sentence's skipped chunk.
LONG_SENTENCE: ChunkCause = "max_sentence_chars"
#: The end of a sentence (its punctuation, closing quotes and brackets) or a line break.
_END = re.compile(r"[.!?;。！？…]+[\"'”’»)\]]*(?=\s|\Z)|\n")
#: Characters of a set-aside sentence quoted in its note.
_PREVIEW = 60


def long_sentences(text: str, limit: int) -> list[tuple[int, int]]:
    """``(start, end)`` of each stretch of ``text`` between sentence ends longer than ``limit``.

    ``limit`` 0 (or less) sets no bound. Spans are trimmed of surrounding whitespace.
    """
    if limit <= 0 or len(text.strip()) <= limit:
        return []
    found = []
    start = 0
    for end in [m.end() for m in _END.finditer(text)] + [len(text)]:
        piece = text[start:end]
        left = start + len(piece) - len(piece.lstrip())
        right = start + len(piece.rstrip())
        if right - left > limit:
            found.append((left, right))
        start = end
    return found


def chunks_to_check(text: str, chunk_size: int, limit: int) -> tuple[list[Chunk], list[int]]:
    """The text's chunks, and the indices of those that are sentences longer than ``limit``.

    Each long sentence is a chunk of its own, never decomposed; the text between them is
    chunked as it would be alone. Offsets stay offsets into ``text``, chunks are numbered in
    text order.
    """
    long = long_sentences(text, limit)
    if not long:
        return split_text(text, chunk_size), []
    chunks: list[Chunk] = []
    skipped: list[int] = []

    def add(start: int, body: str) -> None:
        chunks.append(Chunk(index=len(chunks), text=body, start=start, end=start + len(body)))

    cursor = 0
    for start, end in long:
        for chunk in split_text(text[cursor:start], chunk_size):
            add(cursor + chunk.start, chunk.text)
        skipped.append(len(chunks))
        add(start, text[start:end])
        cursor = end
    for chunk in split_text(text[cursor:], chunk_size):
        add(cursor + chunk.start, chunk.text)
    return chunks, skipped


def skipped_reason(chunk: Chunk, limit: int) -> str:
    """Why a long sentence's chunk was not decomposed (its failed-chunk record)."""
    return (
        f"skipped: a sentence of {len(chunk.text):,} characters, above max_sentence_chars="
        f"{limit:,}; split it into sentences or raise --max-sentence-chars to check it"
    )


def long_sentence_note(chunk: Chunk, limit: int) -> str:
    """The report's note on one set-aside sentence: where, how long, how it starts, why."""
    start, end = chunk.start, chunk.end
    preview = " ".join(chunk.text[:_PREVIEW].split())
    return (
        f"not checked: the sentence at characters {start:,}-{end:,} ({end - start:,} "
        f'characters, "{preview}…") is longer than max_sentence_chars={limit:,}; split it '
        "into sentences or raise --max-sentence-chars to check it"
    )
