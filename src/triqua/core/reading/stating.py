"""Whether a cited window states anything: one answer for both engines.

The offline verifier leaves unread the sentences that state nothing
(``passage_reading``); a rule that checks a cited window (the LLM
path's grounding) asks :func:`unstated_window` of the same readers: a passage not in
English (``core.text.language.foreign_language``), a heading
(``nlp.line_ends.heading_lines``), a verdict record, a question or a directive
(``core.reading.mood``), a statement the sentence after it disowns or a tag closing it
does ("… — a common mistake.": ``core.reading.disowned``), a sentence that only repeats the
hearsay before it (``core.reading.hearsay``). A window touching any of them
states nothing that could support.
"""

from __future__ import annotations

from triqua.core.reading.disowned import disowned_spans, disowning_tag
from triqua.core.reading.hearsay import echoed_spans
from triqua.core.reading.mood import is_directive, is_question, verdict_records
from triqua.core.text.language import foreign_language
from triqua.nlp.line_ends import heading_lines
from triqua.sentences import sentence_spans

__all__ = ["unstated_window"]


def unstated_window(passage: str, start: int, end: int) -> str | None:
    """Why ``passage[start:end]`` states nothing (a short reason), or None when it may state.

    Each sentence the window overlaps is read: a heading, a line recording a verdict, a
    question, a directive or a statement the next sentence disowns makes the window one
    that states nothing, as does a passage the
    language detector is sure is not English.
    """
    code = foreign_language(passage)
    if code:
        return f"the passage is in another language ({code}) than English"
    headings = heading_lines(passage)
    records = verdict_records(passage)
    disowned = disowned_spans(passage)
    echoed = echoed_spans(passage)
    for a, b in sentence_spans(passage) or [(0, len(passage))]:
        if not (a < end and start < b):
            continue
        sentence = passage[a:b]
        if any(h <= a and b <= k for h, k in headings):
            return "the window quotes a heading, which states nothing"
        if any(h < b and a < k for h, k in records):
            return "the window quotes a verdict record"
        tag = disowning_tag(sentence)
        if tag:
            return f"the cited text disowns it as '{tag}'"
        if any(h < b and a < k for h, k in disowned):
            return "the window quotes a statement the sentence after it calls false"
        if any(h < b and a < k for h, k in echoed):
            return "the window only repeats the hearsay the sentence before reports"
        if is_question(sentence):
            return "the window quotes a question"
        if is_directive(sentence):
            return "the window quotes an instruction to the reader"
    return None
