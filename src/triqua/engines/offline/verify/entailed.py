"""The evidence windows the learned judge reads: one to three sentences within a paragraph.

A window is built around an aligned sentence (its anchor): the sentence alone, or with the
sentence before or after it, never across a blank line; last, an anchor joined to its
subject's earlier name (``engines.offline.joins``). ``reading`` asks the judge about them;
the evidence sheet of batched LLM verification shows the same windows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from triqua.core.reading.analysis import analyse, coverage
from triqua.core.reading.fact_parts import FactParts, sentence_relation_hit
from triqua.engines.offline.joins import joins, paragraph_between
from triqua.engines.offline.verify.findings import Finding, Sentence
from triqua.schema import Status

__all__ = ["Joined", "Window", "joined_windows", "windows", "writes_subject_or_relation"]


@dataclass(frozen=True)
class Window:
    """Consecutive evidence sentences (or an anchor after its subject's name), read as one."""

    first: Sentence
    last: Sentence
    anchor: Sentence  # the aligned sentence the window was built around
    text: str

    @property
    def size(self) -> int:
        """Sentences the window spans in its passage."""
        return self.last.index - self.first.index + 1

    def as_sentence(self) -> Sentence:
        """The window as one sentence of its passage, for the value gates."""
        return Sentence(
            self.last.evidence_id,
            self.last.passage,
            self.last.index,
            analyse(self.text),
            self.first.start,
            self.last.end,
            cosine=self.anchor.cosine,
            score=self.anchor.score,
            subject=self.anchor.subject,
            passage_text=self.first.passage_text,
        )

    def finding(self, status: Status, reason: str) -> Finding:
        """A finding quoting this window (the judge's: no span of wrong words)."""
        first = self.first if self.first is not self.last else None
        return Finding(status, self.last, None, reason, self.anchor.score, window_start=first)


@dataclass(frozen=True)
class Joined(Window):
    """An anchor read after its subject's earlier name; its finding quotes the anchor alone."""

    def finding(self, status: Status, reason: str) -> Finding:
        """A finding quoting the anchor alone (the judge's: no span of wrong words)."""
        return Finding(status, self.anchor, None, reason, self.anchor.score)


def joined_windows(
    anchors: Sequence[Sentence],
    by_place: Mapping[tuple[int, int], Sentence],
    passages: Sequence[str],
    subject: str,
    values: str,
) -> list[Joined]:
    """Each anchor read after its subject's earlier name (``joins``), between left out."""
    return [
        Joined(
            first,
            anchor,
            anchor,
            " ".join(_as_read(passages[s.passage], s, s, by_place) for s in (first, anchor)),
        )
        for first, anchor in joins(anchors, by_place, passages, subject, values)
    ]


def windows(
    anchors: Sequence[Sentence],
    by_place: Mapping[tuple[int, int], Sentence],
    passages: Sequence[str],
    *,
    wide: bool = True,
) -> list[Window]:
    """Windows around each anchor: itself, and (``wide``) with the sentence before or after.

    A new paragraph neither continues the anchor's statement nor names what it refers to,
    and a reading of its own (a label line) joins no neighbour.
    """
    out: dict[tuple[int, int, int], Window] = {}
    for anchor in anchors:
        spans: list[tuple[Sentence | None, Sentence | None]] = [(anchor, anchor)]
        if wide:
            before = by_place.get((anchor.passage, anchor.index - 1))
            after = by_place.get((anchor.passage, anchor.index + 1))
            spans += [(before, anchor), (anchor, after)]
        for first, last in spans:
            if first is None or last is None:
                continue
            if first is not last and (
                first.alone
                or last.alone
                or first.end > last.start
                or paragraph_between(passages[anchor.passage], first, last)
            ):
                continue
            key = (anchor.passage, first.index, last.index)
            if key not in out:
                text = _as_read(passages[anchor.passage], first, last, by_place)
                out[key] = Window(first, last, anchor, text)
    return list(out.values())


def _as_read(
    passage: str, first: Sentence, last: Sentence, by_place: Mapping[tuple[int, int], Sentence]
) -> str:
    """The window's text as its sentences read.

    A restated sentence ("She married Pierre Curie" for "She married him") stands in place
    of its words as written.
    """
    text = passage[first.start : last.end]
    for index in range(last.index, first.index - 1, -1):
        sentence = by_place.get((first.passage, index))
        if sentence is None or sentence.start < first.start or sentence.end > last.end:
            continue
        written = passage[sentence.start : sentence.end]
        if sentence.info.text != written:
            at, end = sentence.start - first.start, sentence.end - first.start
            text = text[:at] + sentence.info.text + text[end:]
    return text


def writes_subject_or_relation(parts: FactParts, window: Window) -> bool:
    """True when the window names or refers to the subject, or writes a relation word."""
    info = analyse(window.text)
    if not parts.relation_words or sentence_relation_hit(parts, info) is not None:
        return True
    named = window.first.subject > 0 or window.last.subject > 0
    return named or coverage(parts.subject, info) >= 1.0
