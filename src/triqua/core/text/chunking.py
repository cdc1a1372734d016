"""Chunking: split the text into non-overlapping chunks that keep their character offsets.

Also the records of what a chunk's decomposition left unchecked: a failed (or skipped)
chunk, and the sentences of a decomposed chunk that yielded no fact.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from langchain_text_splitters import RecursiveCharacterTextSplitter

from triqua.schema import Chunk, ChunkCause, ChunkFailure, Span, UndecomposedSentence

#: Paragraph → line → sentence → clause → word, never overlapping.
SEPARATORS = ["\n\n", "\n", ". ", "? ", "! ", "; ", ", ", " ", ""]


#: A Markdown heading line ("## Early life"): a chunk of its own, context for what follows.
HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+\S[^\n]*$", re.M)
#: A fenced Markdown code block (``` or ~~~ up to the same fence, or the text's end): a
#: chunk of its own, never checked; a "# comment" inside it is no heading.
CODE_BLOCK = re.compile(r"^ {0,3}(`{3,}|~{3,})[^\n]*\n.*?(?:^ {0,3}\1[ \t]*$|\Z)", re.M | re.S)
#: A plain-text title line ("Biography", "Early Life and Career:"): it opens a paragraph, has
#: at most six words and no end punctuation, is written in title case (or is one or two
#: words), and the next line (or the one after a blank line) starts a sentence or a table.
#: Read as a heading, so "Biography" never becomes part of the subject of "Marie Curie was
#: born …" on the line below it.
_TITLE_BODY = r"[^\W\d_a-z][^\n.!?;,]{0,60}?:?"
TITLE_LINE = re.compile(
    r"(?:\A|(?<=\n\n))[ \t]*" + _TITLE_BODY + r"[ \t]*(?=\n(?:[ \t]*\n)?[ \t]*[\"“'(|]?[A-Z0-9|])"
)
_TITLE_SMALL_WORDS = frozenset(
    {"a", "an", "and", "as", "at", "by", "de", "for", "in", "of", "on", "or", "the", "to"}
    | {"van", "von", "with", "&"}
)


def is_title_line(line: str) -> bool:
    """Whether one ``line`` reads as a title rather than a statement (see :data:`TITLE_LINE`)."""
    stripped = line.strip()
    words = stripped.rstrip(":").split()
    if not re.fullmatch(_TITLE_BODY, stripped) or not 1 <= len(words) <= 6:
        return False
    return len(words) <= 2 or all(
        w[:1].isupper() or w[:1].isdigit() or w.lower() in _TITLE_SMALL_WORDS for w in words
    )


def is_heading(text: str) -> bool:
    """Whether a chunk's ``text`` is a heading: a Markdown heading line or a title line."""
    stripped = text.strip()
    return bool(HEADING.fullmatch(stripped)) or is_title_line(stripped)


def title_lines(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each plain-text title line of ``text`` (see :data:`TITLE_LINE`)."""
    spans = []
    for match in TITLE_LINE.finditer(text):
        body = match.group()
        if is_title_line(body):
            start = match.start() + len(body) - len(body.lstrip())
            spans.append((start, match.start() + len(body.rstrip())))
    return spans


def split_text(text: str, chunk_size: int) -> list[Chunk]:
    """Non-overlapping chunks of ``text`` (one chunk when ``chunk_size`` is 0).

    Each Markdown heading line is a chunk of its own, so a heading never runs into the
    sentence after it ("## Early life She was born …"): it is the PREVIOUS context of the
    chunk that follows, and check-worthiness sets it aside (``core.text.checkworthy``). A plain
    title line ("Biography" above "Marie Curie was born …") is treated the same way. A
    fenced code block is a chunk of its own too, set aside whole.
    """
    if chunk_size <= 0:
        return _split_piece(text, 0)
    pieces: list[tuple[int, str, bool]] = []  # (offset, text, a piece of its own)
    cursor = 0
    for start, end in _own_chunks(text):
        body = text[start:end]
        pieces.append((cursor, text[cursor:start], False))
        pieces.append((start + len(body) - len(body.lstrip()), body.strip(), True))
        cursor = end
    pieces.append((cursor, text[cursor:], False))
    chunks: list[Chunk] = []
    for offset, piece, is_heading in pieces:
        found = (
            [(0, piece)]
            if is_heading
            else [(c.start, c.text) for c in _split_piece(piece, chunk_size)]
        )
        for start, body in found:
            at = offset + start
            chunks.append(Chunk(index=len(chunks), text=body, start=at, end=at + len(body)))
    return chunks


def _own_chunks(text: str) -> list[tuple[int, int]]:
    """Spans that are chunks of their own, in order: code blocks, and headings outside them."""
    code = [(m.start(), m.end()) for m in CODE_BLOCK.finditer(text)]
    headings = [(m.start(), m.end()) for m in HEADING.finditer(text)] + title_lines(text)
    return sorted(code + [h for h in headings if not any(a <= h[0] < b for a, b in code)])


def previous_text(texts: Sequence[str | None], index: int) -> str | None:
    """The PREVIOUS context of chunk ``index`` among consecutive chunk ``texts``.

    The chunk before it; when that is a heading, the text before the heading too (up to the
    last chunk that is not one), so "She …" after "## Work" still finds who "She" is. A
    heading is never a barrier to coreference: past one, the outline above it (each
    enclosing heading of a higher level, "# Marie Curie" above "## Work") and the document's
    lead (its first paragraph, where a subject is usually named) are context too, in text
    order, so a section whose text before says only "She …" still finds her. A code block
    is passed over. None for the first chunk.
    """
    if index <= 0:
        return None
    kept: list[int] = []
    level = 0  # the level of the last heading crossed (0: none)
    for i in range(index - 1, -1, -1):
        text = texts[i]
        if text is None:
            break
        if CODE_BLOCK.fullmatch(text.strip()):
            continue  # a code block names no one: the text before it does
        kept.append(i)
        if not is_heading(text):
            break
        level = heading_level(text)
    if level and kept:
        kept += _outline(texts, min(kept), level)
    return "\n\n".join(str(texts[i]) for i in sorted(set(kept))) or None


def heading_level(text: str) -> int:
    """A heading's level: its count of ``#``; 2 for a plain title line ("Early Life")."""
    stripped = text.strip()
    return len(stripped) - len(stripped.lstrip("#")) if stripped.startswith("#") else 2


def _outline(texts: Sequence[str | None], before: int, level: int) -> list[int]:
    """Indexes of the enclosing headings above chunk ``before`` and of the document's lead."""
    found: list[int] = []
    lead: int | None = None
    for i in range(before - 1, -1, -1):
        text = texts[i]
        if text is None:
            break
        if CODE_BLOCK.fullmatch(text.strip()):
            continue
        if not is_heading(text):
            lead = i  # the earliest paragraph seen so far
        elif heading_level(text) < level:
            found.append(i)
            level = heading_level(text)
    else:  # reached the text's start: its first paragraph is the lead
        if lead is not None:
            found.append(lead)
    return found


def _split_piece(text: str, chunk_size: int) -> list[Chunk]:
    """Chunks of one stretch of text with offsets into it (see :func:`split_text`)."""
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
