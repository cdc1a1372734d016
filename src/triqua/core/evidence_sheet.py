"""The evidence sheet of a batched verification call: numbered sentences, cited by number.

A batch's passages are pooled and de-duplicated (by id, then content), and only each
fact's best sentences are shown, each once, numbered across the sheet. The judge cites
sentences by number; the code, not the model, then takes the cited sentences' exact text
from the passage as the verdict's quote, so a quote is verbatim by construction and the
completion carries no quoted text. A fact may rest only on passages retrieved for it: a
cited number that is not on the sheet, or whose sentence comes from another fact's passage
only, grounds nothing (the grounding rule then records the fact as insufficient evidence).

Sentence choice is lexical (idf-weighted word overlap with the fact, the idf taken over the
batch's candidate sentences so that words every sentence shares, like the subject's name,
weigh little); hand-written because it needs nothing beyond word sets.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from triqua.schema import Evidence, Fact

__all__ = ["Line", "Sheet", "build_sheet", "cite", "cited_sentences", "passage_label"]

#: Sentences shown per fact, chosen by overlap with the whole fact.
SENTENCES_PER_FACT = 2
#: Further sentences shown per qualifier of a fact, chosen by overlap with that qualifier.
SENTENCES_PER_QUALIFIER = 1

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'“(])")
_WORD = re.compile(r"\w+")


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


def _words(text: str) -> set[str]:
    return {w.casefold() for w in _WORD.findall(text) if len(w) > 2 or w.isdigit()}


def _sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of ``text``, verbatim and stripped."""
    out = []
    cursor = 0
    for part in _SENTENCE_END.split(text):
        at = text.find(part, cursor)
        cursor = at + len(part)
        stripped = part.strip()
        if stripped:
            start = at + part.find(stripped)
            out.append((start, start + len(stripped)))
    return out


def _best(
    candidates: Sequence[tuple[int, int]],
    words: Sequence[set[str]],
    wanted: set[str],
    idf: dict[str, float],
    keep: int,
) -> list[tuple[int, int]]:
    """The ``keep`` candidates sharing the most idf weight with ``wanted`` (ties: earlier)."""
    scored = [
        (sum(idf.get(w, 0.0) for w in wanted & words[i]), -rank, cand)
        for rank, (i, cand) in enumerate(enumerate(candidates))
    ]
    scored.sort(key=lambda s: (-s[0], -s[1]))
    return [cand for score, _, cand in scored[:keep] if score > 0] or [c for *_, c in scored[:1]]


def _wanted(fact: Fact) -> list[tuple[set[str], int]]:
    """Word sets a fact's sentences are chosen by, each with how many sentences it picks."""
    out = [(_words(fact.to_string()), SENTENCES_PER_FACT)]
    for q in fact.qualifiers:
        words = _words(f"{fact.relation} {fact.object} {q.label} {q.value}")
        out.append((words, SENTENCES_PER_QUALIFIER))
    return out


def build_sheet(facts: Sequence[tuple[Fact, Sequence[Evidence]]]) -> Sheet:
    """The sheet for ``facts``, each with its own passages: their best sentences, each once."""
    sheet = Sheet()
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
    spans = {p.id: _sentences(p.text) for p in shown}
    index_of = {label_of[p.id]: n for n, p in enumerate(shown)}
    # Candidate sentences of the batch and the idf of their words.
    all_words = {
        (n, k): _words(p.text[s:e])
        for n, p in enumerate(shown)
        for k, (s, e) in enumerate(spans[p.id])
    }
    df = Counter(w for ws in all_words.values() for w in ws)
    idf = {w: math.log(1 + len(all_words) / c) for w, c in df.items()}
    chosen: set[tuple[int, int]] = set()
    for fact, evidence in facts:
        # In the fact's own retrieval order: its best-ranked passage first.
        own = list(dict.fromkeys(index_of[label_of[e.id]] for e in evidence))
        candidates = [(n, k) for n in own for k in range(len(spans[shown[n].id]))]
        words = [all_words[c] for c in candidates]
        for wanted, keep in _wanted(fact):
            chosen.update(_best(candidates, words, wanted, idf, keep) if candidates else [])
    # Number the chosen sentences in passage order; a sentence shown before keeps its number.
    # Only passages with a sentence shown are listed, labelled in that order: a header with
    # nothing under it would cost tokens and show nothing.
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
    # Each fact lists the passages showing a sentence of its own passages, in the fact's
    # retrieval order (its best-ranked passage first).
    label_of_line = {line.number: label for label, _, lines in sheet.passages for line in lines}
    labels_of_id: dict[str, list[str]] = {}
    for line in sheet.lines.values():
        for pid, _, _ in line.places:
            labels_of_id.setdefault(pid, []).append(label_of_line[line.number])
    for _, evidence in facts:
        labels = (label for e in evidence for label in labels_of_id.get(e.id, []))
        sheet.fact_labels.append(list(dict.fromkeys(labels)))
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
