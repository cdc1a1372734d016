"""Split: chunk the text with LangChain's recursive splitter, keeping character offsets."""

from __future__ import annotations

from typing import Any

from langchain_text_splitters import RecursiveCharacterTextSplitter
from langgraph.runtime import Runtime

from triqua.context import Context
from triqua.nodes.common import context_of
from triqua.state import Chunk, State

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


def split(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Chunk the input text."""
    context = context_of(runtime)
    return {"chunks": split_text(state["text"], context.chunk_size)}
