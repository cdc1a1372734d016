"""Evidence documents cut into passages of whole sentences, with offsets into the document.

Shared by supplied-document retrieval and corpus ingestion. LangChain's recursive splitter
breaks at paragraph ends first, then line ends, then sentence ends, and only then between
words; a passage never starts or ends inside a sentence it shows only part of.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from langchain_text_splitters import RecursiveCharacterTextSplitter

__all__ = ["Passage", "split_passages"]


@dataclass(frozen=True)
class Passage:
    """A passage of a document: ``text == document[start:end]``."""

    start: int
    end: int
    text: str


#: Where a passage may end, best first: a paragraph, a line, a sentence (after its final
#: punctuation and any closing quote or bracket), then a word, then anywhere.
_SEPARATORS = [
    r"\n\s*\n",
    r"\n",
    r"(?:(?<=[.!?…])|(?<=[.!?…][\"'”’)\]]))\s+",
    r"\s+",
    "",
]
#: Where a sentence ends inside a passage: final punctuation before a space, or a line break.
_SENTENCE_END = re.compile(r"[.!?…][\"'”’)\]]*\s+|\n")
#: The text before a passage ends a sentence: final punctuation or a line break, then spaces.
_ENDED = re.compile(r"(?:[.!?…][\"'”’)\]]*|\n)\s*$")
_LOOK_BACK = 64  # characters before a passage's start read for the sentence end


def _whole_sentences(text: str, start: int, end: int) -> tuple[int, int] | None:
    """``(start, end)`` narrowed to the whole sentences it holds, or None when it holds none.

    A passage cut inside a sentence (one longer than a passage, with no sentence end to
    break at) starts or ends with a piece of it: "that the bridge is in Seattle." cut from
    "It is false that the bridge is in Seattle." states what the sentence denies. Those
    pieces are left out, so no reader can take one for a sentence.
    """
    if start > 0 and not _ENDED.search(text, max(0, start - _LOOK_BACK), start):
        found = _SENTENCE_END.search(text, start, end)
        if found is None:
            return None
        start = found.end()
    ends_inside = end < len(text) and not text.startswith(("\n", " \n"), end)
    if ends_inside and not _ENDED.search(text, max(start, end - _LOOK_BACK), end):
        ends = list(_SENTENCE_END.finditer(text, start, end))
        if not ends:
            return None
        end = ends[-1].start() + len(ends[-1].group().rstrip())
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if end > start else None


def split_passages(text: str, chunk_size: int, chunk_overlap: int = 0) -> list[Passage]:
    """Split text into passages of whole sentences, keeping offsets into ``text``.

    LangChain's recursive splitter breaks at paragraph ends first, then line ends, then
    sentence ends, and only then between words (a sentence longer than ``chunk_size``);
    the piece of a sentence such a cut leaves at a passage's start or end is left out
    (:func:`_whole_sentences`), and a passage holding no whole sentence is dropped.
    """
    splitter = RecursiveCharacterTextSplitter(
        chunk_size=chunk_size,
        chunk_overlap=chunk_overlap,
        add_start_index=True,
        separators=_SEPARATORS,
        is_separator_regex=True,
        keep_separator="end",
    )
    passages: list[Passage] = []
    cursor = 0
    for chunk in splitter.create_documents([text]):
        content = chunk.page_content
        start = int(chunk.metadata.get("start_index", -1))
        if start < 0 or text[start : start + len(content)] != content:
            # The splitter finds offsets by search; re-search from our own cursor if it missed.
            start = text.find(content, cursor)
            if start < 0:
                start = text.find(content)
        cursor = start + 1
        whole = _whole_sentences(text, start, start + len(content))
        if whole is not None:
            passages.append(Passage(whole[0], whole[1], text[whole[0] : whole[1]]))
    return passages
