"""The batched verification call: its compact answer schema and its messages.

What is paid per call is kept small: the system prompt (``verify_batch.md``) is short,
stable and sent first, so providers' prompt caching serves it; the answer schema has
one-letter fields and no descriptions (the prompt says what each holds); evidence is an
:class:`~triqua.core.evidence_sheet.Sheet` of numbered sentences that the answer cites by
number, so no quote text is written back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal, get_args

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from triqua.core.evidence_sheet import Sheet
from triqua.core.verify_batches import BatchItem
from triqua.prompts import compact_schema, fence, load_text

__all__ = ["FactAnswer", "Verdicts", "batch_messages", "short_source"]

StatusName = Literal["supported", "contradicted", "insufficient_evidence", "not_checkable"]
STATUSES: frozenset[str] = frozenset(get_args(StatusName))


_COMPACT = ConfigDict(json_schema_extra=compact_schema)
_Confidence = Annotated[float | None, WithJsonSchema({"type": "number"})]


_UnitAnswers = Annotated[
    list[list[str | int]], WithJsonSchema({"type": "array", "items": {"type": "array"}})
]


class FactAnswer(BaseModel):
    """A fact's verdict: number, status, cited sentences, wrong words, units, confidence, why.

    ``u`` holds one ``[status, sentence number, …]`` per listed unit, in order: a list
    rather than objects keeps the schema sent with every call small.
    """

    model_config = _COMPACT
    f: int
    s: StatusName
    e: list[int] = Field(default_factory=list)
    w: list[str] = Field(default_factory=list)
    u: _UnitAnswers = Field(default_factory=list)
    c: _Confidence = Field(default=None, ge=0.0, le=1.0)
    r: str = ""

    def units(self) -> list[tuple[StatusName, list[int]] | None]:
        """Each listed unit's (status, cited sentence numbers); None where malformed."""
        out: list[tuple[StatusName, list[int]] | None] = []
        for entry in self.u:
            status = entry[0] if entry else None
            numbers = [n for n in entry[1:] if isinstance(n, int)]
            if status in STATUSES and len(numbers) == len(entry) - 1:
                out.append((status, numbers))  # type: ignore[arg-type]
            else:
                out.append(None)
        return out


class Verdicts(BaseModel):
    """One verdict per fact of the batch."""

    model_config = _COMPACT
    v: list[FactAnswer]


CLOSED_BOOK = (
    "Mode: closed book. No evidence is given: judge from your own knowledge, "
    "and answer insufficient_evidence when you are not sure."
)


def short_source(source: str) -> str:
    """A passage's source as shown: without the URL scheme and ``www.``."""
    for prefix in ("https://", "http://", "www."):
        source = source.removeprefix(prefix)
    return source


def _one_line(text: str) -> str:
    return " ".join(text.split())


def batch_messages(
    items: Sequence[BatchItem], sheet: Sheet, closed_book: bool
) -> list[BaseMessage]:
    """System prompt, then the facts (each with its units and passages) and the sheet.

    Facts are numbered ``F1`` … in ``items`` order; units ``u1`` … in the fact's order;
    passages are labelled ``A`` … and their sentences numbered across the sheet.
    """
    facts = []
    for number, (item, labels) in enumerate(zip(items, sheet.fact_labels, strict=True), 1):
        line = f"F{number} {_one_line(item.fact.to_string())}"
        if not closed_book:
            line += f" | passages {' '.join(labels) or 'none'}"
        facts.append(line)
        facts.extend(f" u{k} {_one_line(u.text)}" for k, u in enumerate(item.units or (), 1))
    parts = [fence("FACTS", "\n".join(facts))]
    if closed_book:
        parts.insert(0, CLOSED_BOOK)
    elif not sheet.passages:
        parts.append("No evidence was found.")
    else:
        lines = []
        for label, passage, shown in sheet.passages:
            source = short_source(passage.source or passage.document_id)
            lines.append(f"{label} {_one_line(source)}".rstrip())
            lines.extend(f"{line.number} {_one_line(line.text)}" for line in shown)
        parts.append(fence("EVIDENCE", "\n".join(lines)))
    return [SystemMessage(load_text("verify_batch.md")), HumanMessage("\n".join(parts))]
