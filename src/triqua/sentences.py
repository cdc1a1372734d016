"""Sentences of a chunk that no fact came from, for engines that do not say so themselves.

A chat model returns facts with their source sentence; a sentence none of them was located in
yielded no fact, and so was not checked. Sentences are found with spaCy's rule-based
sentencizer on a blank English pipeline (no model to load: under a second, once per process),
which knows abbreviations such as "Dr." that a regular expression would split on.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from triqua.nlp.pipeline import blank_sentencizer
from triqua.schema import Chunk, Span

__all__ = ["is_list_marker", "sentence_spans", "unmatched_sentences"]

#: A list item's marker alone ("1.", "b)", "iv.", "-"), which a sentencizer may cut off as a
#: sentence of its own: it states nothing, so it is never a sentence left unchecked.
_LIST_MARKER = re.compile(r"\s*(?:[-*•+]|\(?(?:\d{1,3}|[A-Za-z]|[ivxlcIVXLC]{1,6})[.)])\s*")


def is_list_marker(text: str) -> bool:
    """Whether ``text`` is only a list item's marker ("1.", "(b)", "iv.", "-")."""
    return _LIST_MARKER.fullmatch(text) is not None


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence of ``text``, trimmed of surrounding whitespace."""
    return list(_sentence_spans(text))


# A chunk is split three times (prompt, check-worthiness, coverage), and the verifier's
# readers split each evidence window again for every unit: 256 texts were too few to keep a
# 40 KB run's windows.
@lru_cache(maxsize=4096)
def _sentence_spans(text: str) -> tuple[tuple[int, int], ...]:
    ends = _sentence_ends()
    if ends is not None and ends.search(text) is None:
        # No character the sentencizer, the abbreviation rules or the line rules end a
        # sentence at: the text is one sentence (most names and phrases a reader splits).
        start, end = len(text) - len(text.lstrip()), len(text.rstrip())
        return ((start, end),) if end > start else ()
    spans = []
    for sentence in blank_sentencizer()(text).sents:
        start, end = sentence.start_char, sentence.end_char
        body = text[start:end]
        start += len(body) - len(body.lstrip())
        end -= len(body) - len(body.rstrip())
        if end > start:
            spans.append((start, end))
    return tuple(spans)


def unmatched_sentences(chunk: Chunk, fact_spans: Sequence[Span | None]) -> list[Span]:
    """Sentences of ``chunk`` (as spans in the full text) that overlap no fact's span.

    Sentences without a letter or digit (rules, bullets, stray punctuation) and list markers
    cut off as sentences ("1.") hold nothing to check and are not listed.
    """
    located = [(s.start, s.end) for s in fact_spans if s is not None]
    unmatched = []
    for start, end in sentence_spans(chunk.text):
        start, end = chunk.start + start, chunk.start + end
        body = chunk.text[start - chunk.start : end - chunk.start]
        if not any(ch.isalnum() for ch in body) or is_list_marker(body):
            continue
        if not any(s < end and start < e for s, e in located):
            unmatched.append(Span(start=start, end=end))
    return unmatched


@lru_cache(maxsize=1)
def _sentence_ends() -> re.Pattern[str] | None:
    """Any character a sentence may end at: the sentencizer's marks and a line break.

    The sentencizer ends a sentence only after a token that is one of its marks; the
    abbreviation rules only after a period; the line rules only at a line break. None when
    a mark is longer than a character (every text is then split by the pipeline).
    """
    from triqua.nlp import pipeline  # the pipeline's own marks, whoever splits the texts

    sentencizer: Any = pipeline.blank_sentencizer().get_pipe("sentencizer")
    marks: set[str] = sentencizer.punct_chars
    if any(len(mark) != 1 for mark in marks):
        return None
    return re.compile("[" + re.escape("".join(sorted(marks))) + "\n]")
