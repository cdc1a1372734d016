"""What of a passage is read as evidence: its statements, in English.

The offline verifier aligns a fact with these sentences (the grounding rule asks the same
readers of a cited window: ``stating``). Only sentences that state something are evidence.
Left unread are:

- a passage the language detector is sure is not English
  (``core.text.language.foreign_language``): the offline readers (negation cues, value
  rules, the entailment judge) read English only, and "Le Golden Gate Bridge n'est pas à
  Seattle" writes no English negation, so its words read as the claim it denies. It has no
  sentences to align, and the verdict's rationale names it, as the offline engine already
  refuses text to check in another language;
- headings (``nlp.line_ends.heading_lines``: a Markdown heading, a label line, a one-line
  paragraph heading more text), which name a topic and state nothing;
- lines recording a verdict (``core.reading.mood.verdict_records``: ``{"verdict":
  "supported"}``), however the sentencizer cuts them;
- questions and directives (``core.reading.mood.states_nothing``), sentence by sentence;
- a statement the sentence after it disowns ("… "The Eiffel Tower is in Rome." That is
  wrong; …") or a tag closing it does ("… — a common mistake.": ``core.reading.disowned``);
- code: a Markdown code span or fenced block (``core.reading.code_spans``), blanked out
  with its offsets kept, so no sentence is read from a program's text or a sample;
- a sentence that only repeats, by a pronoun, the hearsay the one before reports ("Some
  tourists say the Colosseum is in Paris. It is in Paris.": ``core.reading.hearsay``);
- a news dateline opening a line ("FRANKFURT — The European Central Bank raised …"):
  the place the report was filed from is no part of the sentence's statement, and its
  parse would take it for the subject.

A passage is read as the sentences it states (``core.reading.restated``, shared with the
grounding rule): a label line or table row about the page's subject ("Born: 14 March 1879,
Ulm" under "Albert Einstein"), an object pronoun as the name it stands for ("She married
him in 1895." after "… met Pierre Curie."), a part's count ("28 medals, 23 of them gold").
Each keeps the offsets of the words it reads, so a verdict quotes the passage as written.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from triqua.core.reading.code_spans import blank_code
from triqua.core.reading.datelines import dateline_end
from triqua.core.reading.disowned import disowned_spans
from triqua.core.reading.hearsay import echoed_spans
from triqua.core.reading.mood import states_nothing, verdict_records
from triqua.core.reading.restated import restate
from triqua.core.text.language import foreign_language
from triqua.nlp.passages import Piece, split
from triqua.schema import Evidence

__all__ = [
    "foreign_passages",
    "read_pieces",
    "states_something",
    "unread_note",
    "unread_pieces",
]


@functools.lru_cache(maxsize=4096)  # every fact of a run reads its passages again
def read_pieces(text: str) -> tuple[Piece, ...]:
    """The sentences of a passage the verifier reads: none for a passage not in English.

    Each is read as it states its fact (``core.reading.restated``: a label line or a table
    row as a sentence about the page's subject, an object pronoun as its name, a part's
    count), at the offsets of the words it reads.
    """
    if foreign_language(text):
        return ()
    text = blank_code(text)  # code states nothing (``core.reading.code_spans``); offsets kept
    read = restate(text)
    if not read.edits:
        return tuple(_without_dateline(text, piece) for piece in split(text))
    pieces = []
    for piece in split(read.text):
        edit = read.edit_at(piece.start, piece.end)
        start, end = read.to_written(piece.start, piece.end)
        if edit is None and text[start:end] == piece.text:
            pieces.append(_without_dateline(text, Piece(piece.text, start, end, piece.heading)))
        else:
            alone = edit is not None and edit.alone
            pieces.append(Piece(piece.text, start, end, piece.heading, alone=alone))
    return tuple(pieces)


def _without_dateline(text: str, piece: Piece) -> Piece:
    """The piece without the dateline opening its line, if it has one."""
    cut = dateline_end(piece.text)
    if not cut or (piece.start > 0 and text[piece.start - 1] != "\n"):
        return piece
    return Piece(piece.text[cut:], piece.start + cut, piece.end, piece.heading)


@functools.lru_cache(maxsize=20_000)
def states_something(text: str) -> bool:
    """Whether a sentence may be read as evidence at all (cached: every fact asks it).

    Text addressed to a verifier (injected instructions, fake verdicts) is never evidence;
    questions assert nothing, so they are never evidence either (``core.reading.mood``).
    """
    return not states_nothing(text)


@functools.lru_cache(maxsize=4096)  # every fact of a run reads its passages again
def unread_pieces(text: str) -> frozenset[int]:
    """Indices of the :func:`read_pieces` of passage ``text`` that state nothing.

    Headings, verdict records and statements the sentence after them disowns; remembered
    by passage, as the pieces themselves are.
    """
    records = [*verdict_records(text), *disowned_spans(text), *echoed_spans(text)]
    return frozenset(
        i
        for i, piece in enumerate(read_pieces(text))
        if piece.heading or any(a < piece.end and piece.start < b for a, b in records)
    )


def foreign_passages(evidence: Sequence[Evidence]) -> list[tuple[str, str]]:
    """(evidence id, language code) of each passage that is not read for its language."""
    found = []
    for ev in evidence:
        code = foreign_language(ev.text)
        if code:
            found.append((ev.id, code))
    return found


def unread_note(unread: Sequence[tuple[str, str]]) -> str:
    """The rationale's line naming the passages not read, and why."""
    named = ", ".join(f"[{ident}] ({code})" for ident, code in unread)
    return (
        f"Not read: evidence {named} is not in English, and the offline verifier reads "
        "English only (it neither supports nor contradicts)."
    )
