"""Shared basics of the domain types: content hash, clock, verdict status, mode, span."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field


def sha256_text(text: str) -> str:
    """Return the hex SHA-256 of ``text`` encoded as UTF-8 (the content hash used everywhere)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def utc_now() -> datetime:
    """Return the current time, timezone-aware in UTC."""
    return datetime.now(UTC)


class Status(StrEnum):
    """Verdict of a fact or of one fact unit.

    ``insufficient_evidence`` is not "false": it stays distinct from ``contradicted``.
    ``not_checkable`` marks content with nothing to check (and is left out of scores).
    """

    SUPPORTED = "supported"
    CONTRADICTED = "contradicted"
    INSUFFICIENT = "insufficient_evidence"
    NOT_CHECKABLE = "not_checkable"


class Mode(StrEnum):
    """Where the evidence of a run may come from (the evidence contract's modes)."""

    CLOSED_BOOK = "closed_book"
    SUPPLIED_CONTEXT = "supplied_context"
    BOUNDED_SEARCH = "bounded_search"


class Span(BaseModel):
    """Half-open character range ``[start, end)`` in a text."""

    model_config = ConfigDict(frozen=True)

    start: int = Field(ge=0)
    end: int = Field(ge=0)
