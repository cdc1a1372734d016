"""The batched verification call: its compact answer schema and its messages.

What is paid per call is kept small: the system prompt (``verify_batch.md``) is short,
stable and sent first, so providers' prompt caching serves it; the answer schema has
one row per fact and no field names or descriptions (the prompt says what each position
holds); evidence is an
:class:`~triqua.core.plan.evidence_sheet.Sheet` of numbered sentences that the answer cites by
number, so no quote text is written back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal, get_args

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, model_validator

from triqua.core.plan.evidence_sheet import Sheet
from triqua.core.plan.verify_batches import BatchItem
from triqua.prompts import as_of_line, compact_schema, fence, load_text

__all__ = ["FactAnswer", "Verdicts", "batch_messages", "short_source"]

StatusName = Literal["supported", "contradicted", "insufficient_evidence", "not_checkable"]
STATUSES: frozenset[str] = frozenset(get_args(StatusName))


_COMPACT = ConfigDict(json_schema_extra=compact_schema)


class FactAnswer(BaseModel):
    """A fact's verdict: number, status, cited sentences, confidence, wrong words, why, units.

    The model answers it as a row, ``[f, s, e, c, w, r, u]`` with empty trailing items left
    off (:meth:`from_row`); the object form (these field names) is still read. ``u`` holds
    ``[unit number, status, sentence number, …]`` for the units whose verdict differs from
    the fact's; the object form's ``[status, sentence number, …]`` per listed unit, in
    order, is read too.
    """

    model_config = _COMPACT
    f: int
    s: StatusName
    e: list[int] = Field(default_factory=list)
    w: list[str] = Field(default_factory=list)
    u: list[list[str | int]] = Field(default_factory=list)
    c: float | None = Field(default=None, ge=0.0, le=1.0)
    r: str = ""

    @model_validator(mode="before")
    @classmethod
    def from_row(cls, data: Any) -> Any:
        """A row ``[f, s, e, c, w, r, u]`` (trailing items optional) as the object form.

        A lone wrong word may come as a string, and a lone sentence number as a number.

        Raises:
            ValueError: when the row has no fact number and status.
        """
        if not isinstance(data, list | tuple):
            return data
        if len(data) < 2:
            raise ValueError(f"a verdict row starts with the fact number and status: {data}")
        names = ("f", "s", "e", "c", "w", "r", "u")
        out = {name: value for name, value in zip(names, data, strict=False) if value is not None}
        if isinstance(out.get("e"), int):
            out["e"] = [out["e"]]
        if isinstance(out.get("w"), str):
            out["w"] = [out["w"]] if out["w"] else []
        return out

    def units(self, count: int) -> list[tuple[StatusName, list[int]] | None]:
        """Each of ``count`` listed units' (status, cited sentence numbers).

        None where the answer gives none, or a malformed one: the unit then follows the
        fact's verdict.
        """
        out: list[tuple[StatusName, list[int]] | None] = [None] * count
        for position, entry in enumerate(self.u):
            if entry and isinstance(entry[0], int) and not isinstance(entry[0], bool):
                index, entry = entry[0] - 1, entry[1:]  # [unit number, status, numbers…]
            else:
                index = position  # the object form: one entry per listed unit, in order
            status = entry[0] if entry else None
            numbers = [n for n in entry[1:] if isinstance(n, int)]
            if 0 <= index < count and status in STATUSES and len(numbers) == len(entry) - 1:
                out[index] = (status, numbers)  # type: ignore[assignment]
        return out


class Verdicts(BaseModel):
    """One verdict per fact of the batch."""

    model_config = _COMPACT
    # Rows, not objects: no field name is written per fact, and the schema sent with every
    # call says only "arrays" (the system prompt says what each position holds).
    v: Annotated[list[FactAnswer], WithJsonSchema({"type": "array", "items": {"type": "array"}})]


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
    items: Sequence[BatchItem], sheet: Sheet, closed_book: bool, as_of: str | None = None
) -> list[BaseMessage]:
    """System prompt, then the facts (each with its units and passages) and the sheet.

    ``as_of`` (the run's date) is said after the facts: a fact about the present holds only
    if the evidence shows it held then.

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
    if as_of:
        parts.append(as_of_line(as_of))
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
