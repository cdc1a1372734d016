"""Chunking: split the text into non-overlapping chunks that keep their character offsets.

Also the records of what a chunk's decomposition left unchecked: a failed (or skipped)
chunk, and the sentences of a decomposed chunk that yielded no fact.
"""

from __future__ import annotations

from langchain_text_splitters import RecursiveCharacterTextSplitter

from triqua.schema import Chunk, ChunkCause, ChunkFailure, Span, UndecomposedSentence

#: Paragraph → line → sentence → clause → word, never overlapping.
SEPARATORS = ["\n\n", "\n", ". ", "? ", "! ", "; ", ", ", " ", ""]


def split_text(text: str, chunk_size: int) -> list[Chunk]:
    """Non-overlapping chunks of ``text`` (one chunk when ``chunk_size`` is 0)."""
    if chunk_size <= 0:
        stripped = text.strip()
        if not stripped:
            return []
        start = text.find(stripped)
        return [Chunk(index=0, text=stripped, start=start, end=start + len(stripped))]
    splitter = RecursiveCharacterTextSplitter(
        chunk_size=chunk_size,
        chunk_overlap=0,
        separators=SEPARATORS,
        keep_separator="end",
        add_start_index=True,
    )
    chunks: list[Chunk] = []
    for document in splitter.create_documents([text]):
        start = int(document.metadata["start_index"])
        if start < 0:  # the splitter could not place it; find it ourselves
            start = text.find(document.page_content)
        body = document.page_content
        if not body.strip():  # tiny chunk sizes can cut off bare whitespace: nothing to check
            continue
        chunks.append(Chunk(index=len(chunks), text=body, start=start, end=start + len(body)))
    return chunks


def undecomposed_sentences(spans: list[Span], chunk: Chunk) -> list[UndecomposedSentence]:
    """The engine's not-decomposed sentence spans (in the full text) with their text.

    Raises:
        ValueError: for a span outside the chunk (an engine bug worth a failed-chunk record).
    """
    sentences = []
    for span in spans:
        if not chunk.start <= span.start <= span.end <= chunk.end:
            raise ValueError(
                f"not-decomposed span {span.start}-{span.end} lies outside chunk "
                f"{chunk.index} ({chunk.start}-{chunk.end})"
            )
        text = chunk.text[span.start - chunk.start : span.end - chunk.start]
        if text.strip():
            sentences.append(UndecomposedSentence(chunk_index=chunk.index, span=span, text=text))
    return sentences


def chunk_failure(chunk: Chunk, error: str, cause: ChunkCause = "error") -> ChunkFailure:
    """The record of a chunk that was not decomposed, and why."""
    return ChunkFailure(
        chunk_index=chunk.index,
        span=Span(start=chunk.start, end=chunk.end),
        text=chunk.text,
        error=error,
        cause=cause,
    )
