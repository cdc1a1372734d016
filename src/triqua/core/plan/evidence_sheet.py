"""The evidence sheet of a batched verification call: numbered sentences, cited by number.

A batch's passages are pooled and de-duplicated (by id, then content), and only each
fact's best sentences are shown, each once, numbered across the sheet. The judge cites
sentences by number; the code, not the model, then takes the cited sentences' exact text
from the passage as the verdict's quote, so a quote is verbatim by construction and the
completion carries no quoted text. A fact may rest only on passages retrieved for it: a
cited number that is not on the sheet, or whose sentence comes from another fact's passage
only, grounds nothing (the grounding rule then records the fact as insufficient evidence).

Which sentences are shown, and why, is :mod:`triqua.core.plan.sheet_sentences`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from triqua.core.plan.sheet_sentences import Place, Similarity, choose_sentences, split_sentences
from triqua.schema import Evidence, Fact

__all__ = [
    "Line",
    "Sheet",
    "Similarity",
    "build_sheet",
    "cite",
    "cited_sentences",
    "passage_label",
]


@dataclass(frozen=True)
class Line:
    """One numbered sentence of the sheet and every place its exact text stands.

    Attributes:
        number: Its number on the sheet (from 1).
        text: The sentence, verbatim.
        places: (evidence id, start, end) of each passage of the batch holding it there.
    """

    number: int
    text: str
    places: tuple[tuple[str, int, int], ...]


@dataclass
class Sheet:
    """What a batched call shows: passages by label, their numbered lines, each fact's labels."""

    passages: list[tuple[str, Evidence, list[Line]]] = field(default_factory=list)
    lines: dict[int, Line] = field(default_factory=dict)
    fact_labels: list[list[str]] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)


def passage_label(index: int) -> str:
    """A short passage label: A to Z, then AA, AB and so on."""
    label = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        label = chr(ord("A") + rest) + label
    return label


def _pool(
    facts: Sequence[tuple[Fact, Sequence[Evidence]]], sheet: Sheet
) -> tuple[list[Evidence], dict[str, str]]:
    """The batch's passages de-duplicated (by id, then content), and each id's label.

    Every passage's text is kept in ``sheet.texts``, by its id.
    """
    shown: list[Evidence] = []
    label_of: dict[str, str] = {}  # evidence id -> label of the passage shown for it
    by_content: dict[str, str] = {}
    for _, evidence in facts:
        for passage in evidence:
            sheet.texts[passage.id] = passage.text
            if passage.id in label_of:
                continue
            digest = passage.content_hash or passage.text
            if digest in by_content:
                label_of[passage.id] = by_content[digest]
                continue
            label = passage_label(len(shown))
            shown.append(passage)
            label_of[passage.id] = by_content[digest] = label
    return shown, label_of


def _number(
    sheet: Sheet,
    shown: Sequence[Evidence],
    spans: dict[str, list[tuple[int, int]]],
    label_of: dict[str, str],
    chosen: set[Place],
) -> None:
    """Number the chosen sentences in passage order and list the passages showing one.

    A sentence shown before keeps its number (and gains the new places). Only passages with
    a sentence shown are listed, labelled in that order: a header with nothing under it
    would cost tokens and show nothing.
    """
    seen: dict[str, Line] = {}
    aliases: dict[str, list[str]] = {}
    for pid, label in label_of.items():
        aliases.setdefault(label, []).append(pid)
    listed: list[tuple[Evidence, list[Line]]] = []
    for n, passage in enumerate(shown):
        lines: list[Line] = []
        for k, (s, e) in enumerate(spans[passage.id]):
            if (n, k) not in chosen:
                continue
            text = passage.text[s:e]
            places = tuple((pid, s, e) for pid in aliases[passage_label(n)])
            if text in seen:  # the same sentence in another passage: one number, more places
                old = seen[text]
                line = Line(old.number, text, (*old.places, *places))
                sheet.lines[old.number] = seen[text] = line
                continue
            line = Line(len(seen) + 1, text, places)
            seen[text] = sheet.lines[line.number] = line
            lines.append(line)
        if lines:
            listed.append((passage, lines))
    # Lines updated with more places after being listed: list the final ones.
    sheet.passages = [
        (passage_label(i), passage, [sheet.lines[line.number] for line in lines])
        for i, (passage, lines) in enumerate(listed)
    ]


def _fact_labels(sheet: Sheet, facts: Sequence[tuple[Fact, Sequence[Evidence]]]) -> list[list[str]]:
    """Each fact's passages showing a sentence of its own, in its retrieval order."""
    label_of_line = {line.number: label for label, _, lines in sheet.passages for line in lines}
    labels_of_id: dict[str, list[str]] = {}
    for line in sheet.lines.values():
        for pid, _, _ in line.places:
            labels_of_id.setdefault(pid, []).append(label_of_line[line.number])
    out = []
    for _, evidence in facts:
        labels = (label for e in evidence for label in labels_of_id.get(e.id, []))
        out.append(list(dict.fromkeys(labels)))
    return out


def build_sheet(
    facts: Sequence[tuple[Fact, Sequence[Evidence]]], *, similarity: Similarity | None = None
) -> Sheet:
    """The sheet for ``facts``, each with its own passages: their best sentences, each once.

    Args:
        facts: Each fact with the passages retrieved for it, best-ranked first.
        similarity: Cosine of a fact's text with candidate sentences, ranking the lexically
            closest (None: by word overlap alone).

    Returns:
        The passages shown, their numbered lines and each fact's passage labels.
    """
    sheet = Sheet()
    shown, label_of = _pool(facts, sheet)
    spans = {p.id: split_sentences(p.text) for p in shown}
    index_of = {label_of[p.id]: n for n, p in enumerate(shown)}
    # Each fact's own passages, in its retrieval order: its best-ranked passage first.
    own = [
        (fact, list(dict.fromkeys(index_of[label_of[e.id]] for e in evidence)))
        for fact, evidence in facts
    ]
    chosen = choose_sentences(own, shown, spans, similarity)
    _number(sheet, shown, spans, label_of, chosen)
    sheet.fact_labels = _fact_labels(sheet, facts)
    return sheet


def cite(
    sheet: Sheet, own_ids: Sequence[str], numbers: Sequence[int]
) -> tuple[list[str], str | None]:
    """The evidence ids and verbatim quote of a citation of sheet lines ``numbers``.

    Lines standing in the fact's own passages (``own_ids``) ground it: the first one's
    passage comes first, and the quote is that line's exact text, extended over the cited
    lines right next to it in that passage (the sentence naming the subject, before it).
    A number not on the sheet is returned as the id ``s<number>``, and a line of another
    fact's passage as that passage's id: the grounding rule then finds no evidence of the
    fact cited.
    """
    own = set(own_ids)
    ids: list[str] = []
    first: tuple[str, int, int] | None = None
    foreign: list[str] = []
    for number in dict.fromkeys(numbers):
        line = sheet.lines.get(number)
        places = [p for p in line.places if p[0] in own] if line else []
        if not places:
            other = line.places[0][0] if line else f"s{number}"
            foreign.extend([other] if other not in foreign else [])
            continue
        ids.extend(p[0] for p in places if p[0] not in ids)
        if first is None:
            first = places[0]
    if first is None:
        return foreign, None
    pid, start, end = first
    text = sheet.texts[pid]
    cited = {
        (p[1], p[2])
        for n in numbers
        if n in sheet.lines
        for p in sheet.lines[n].places
        if p[0] == pid and (p[1], p[2]) != (start, end)
    }
    while nxt := next((s for s in cited if s[0] >= end and not text[end : s[0]].strip()), None):
        end = nxt[1]
        cited.discard(nxt)
    while prev := next(
        (s for s in cited if s[1] <= start and not text[s[1] : start].strip()), None
    ):
        start = prev[0]
        cited.discard(prev)
    ids.remove(pid)
    return [pid, *ids, *foreign], text[start:end]


def cited_sentences(
    sheet: Sheet, own_ids: Sequence[str], numbers: Sequence[int]
) -> list[tuple[str, str, str]]:
    """Each cited line standing in the fact's own passages: (evidence id, text, text before).

    The text before is the passage up to the line, where a name the line refers back to
    ("She …") stands.
    """
    own = set(own_ids)
    out = []
    for number in dict.fromkeys(numbers):
        line = sheet.lines.get(number)
        place = next((p for p in line.places if p[0] in own), None) if line else None
        if place is not None:
            pid, start, end = place
            out.append((pid, sheet.texts[pid][start:end], sheet.texts[pid][:start]))
    return out
