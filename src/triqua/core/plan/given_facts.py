"""Facts given to a check instead of decomposed: read, numbered, placed in their text.

``triqua extract`` writes one :class:`~triqua.schema.Fact` per JSONL line; a person or a
program edits them; ``triqua verify`` (``triqua.verify_facts``) checks them as they are. The
rules here keep edited facts honest: a line that is not a fact is an error naming its line,
ids stay unique (a missing one gets the next free ``fN``), a span outside the text is
dropped (the fact is still checked, without its place in the text), and each fact belongs
to the chunk its span starts in, so chunk context follows the run's own chunking.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from triqua.schema import Chunk, Fact, Span
from triqua.support.jsonl import read_jsonl

__all__ = [
    "PlacedFacts",
    "fact_from",
    "given_note",
    "in_chunks",
    "numbered",
    "place_facts",
    "read_facts",
]

_ID = re.compile(r"f(\d+)")


def fact_from(value: Any) -> Fact:
    """One fact from a JSON object (or a ``Fact``): subject, relation and object are required.

    Raises:
        ValueError: one line saying what is missing or wrong.
    """
    if isinstance(value, Fact):
        return value
    if not isinstance(value, dict):
        raise ValueError(f"expected a fact object, got {type(value).__name__}")
    try:
        fact = Fact.model_validate(value)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error["loc"]) or "fact"
        raise ValueError(f"not a fact: {where}: {error['msg']}") from None
    for name in ("subject", "relation", "object"):
        if not getattr(fact, name).strip():
            raise ValueError(f"not a fact: {name} is empty")
    return fact


def read_facts(source: str | Path | bytes, where: str) -> list[Fact]:
    """The facts of a JSONL file (path or bytes), one per line, numbered by :func:`numbered`.

    Raises:
        ValueError: ``"<where>:<line>: <reason>"`` for the first line that is not a fact,
            or when the file holds no fact.
    """
    problems: list[str] = []
    lines = list(read_jsonl(source, problems.append, parse=fact_from, where=where))
    if problems:
        raise ValueError(problems[0])
    if not lines:
        raise ValueError(f"{where}: no facts (one JSON fact per line, as triqua extract writes)")
    return numbered([fact for _, fact in lines], [f"{where}:{number}" for number, _ in lines])


def numbered(facts: Sequence[Fact], places: Sequence[str] | None = None) -> list[Fact]:
    """``facts`` with unique ids: given ids kept, a missing one gets the next free ``fN``.

    Raises:
        ValueError: for an id given twice, naming the second one's place (``places[i]``,
            default ``fact <i+1>``).
    """
    seen: set[str] = set()
    for i, fact in enumerate(facts):
        if fact.id and fact.id in seen:
            place = places[i] if places else f"fact {i + 1}"
            raise ValueError(f"{place}: id {fact.id!r} is given twice")
        seen.add(fact.id)
    taken = [int(m.group(1)) for m in map(_ID.fullmatch, seen) if m]
    next_number = max(taken, default=0) + 1
    out = []
    for fact in facts:
        if not fact.id:
            fact = fact.model_copy(update={"id": f"f{next_number}"})
            next_number += 1
        out.append(fact)
    return out


@dataclass
class PlacedFacts:
    """The text a check of given facts runs on, the facts placed in it, and what was changed."""

    text: str
    facts: list[Fact]
    warnings: list[str] = field(default_factory=list)


def place_facts(facts: Sequence[Fact], text: str | None = None) -> PlacedFacts:
    """Facts placed in ``text``; without a text, in the text their source sentences make.

    With a text, a span that reaches outside it is dropped (warned): the fact is checked
    without its place. Without one, the facts' distinct source texts, in order, joined by
    blank lines, become the text, and each fact's span is its source text there (facts
    without a source text stand for themselves, as ``subject relation object``).
    """
    if text is not None:
        placed: list[Fact] = []
        warnings: list[str] = []
        for fact in facts:
            span = fact.span
            if span is not None and (span.end > len(text) or span.start > span.end):
                warnings.append(
                    f"fact {fact.id}: span {span.start}-{span.end} lies outside the text "
                    f"({len(text)} characters); checked without its place in the text"
                )
                fact = fact.model_copy(update={"span": None})
            placed.append(fact)
        return PlacedFacts(text, placed, warnings)
    sources = list(dict.fromkeys(_sentence(f) for f in facts))
    starts: dict[str, int] = {}
    at = 0
    for source in sources:
        starts[source] = at
        at += len(source) + 2
    joined = "\n\n".join(sources)
    placed = []
    for fact in facts:
        source = _sentence(fact)
        span = Span(start=starts[source], end=starts[source] + len(source))
        update = {"span": span, "chunk_index": 0, "source_text": source}
        placed.append(fact.model_copy(update=update))
    return PlacedFacts(joined, placed)


def _sentence(fact: Fact) -> str:
    """The sentence a fact stands on when no text is given: its source text, else itself."""
    return fact.source_text.strip() or f"{fact.query()}."


def in_chunks(facts: Iterable[Fact], chunks: Sequence[Chunk]) -> list[Fact]:
    """Each fact with the index of the chunk its span starts in (its own when it has none)."""
    out = []
    for fact in facts:
        index = fact.chunk_index if any(c.index == fact.chunk_index for c in chunks) else 0
        if fact.span is not None:
            index = next((c.index for c in chunks if c.start <= fact.span.start < c.end), index)
        out.append(fact.model_copy(update={"chunk_index": index}))
    return out


def given_note(count: int) -> str:
    """The report's note that its facts were given, so a stored run says how it was made."""
    facts = (
        "1 fact given and checked as it is"
        if count == 1
        else f"{count} facts given and checked as they are"
    )
    return f"{facts} (triqua verify): the text was not decomposed"
