"""Passages in another language than English: not read by the offline verifier.

The offline readers (negation cues, value rules, the entailment judge) read English only.
A French or German denial read as English states the claim it denies: "Le Golden Gate
Bridge n'est pas à Seattle" writes no English negation, so its words "Golden Gate Bridge
… Seattle" read as the claim. A passage the language detector is sure is not English
(``core.text.language.foreign_language``) therefore supports and contradicts nothing: it
has no sentences to align, and the verdict's rationale says which passages were not read,
as the offline engine already refuses text to check in another language.
"""

from __future__ import annotations

from collections.abc import Sequence

from triqua.core.text.language import foreign_language
from triqua.nlp.passages import Piece, split
from triqua.schema import Evidence

__all__ = ["foreign_passages", "read_pieces", "unread_note"]


def read_pieces(text: str) -> tuple[Piece, ...]:
    """The sentences of a passage the verifier reads: none for a passage not in English."""
    return () if foreign_language(text) else split(text)


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
