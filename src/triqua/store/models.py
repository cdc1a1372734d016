"""What the run store hands back: a run's summary line and its stored input."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from triqua.schema import Document

#: Outcome of a run that failed before its first step: it cannot be resumed.
FAILED_AT_START = "failed_at_start"
#: Outcome of a run that was not durable and failed: it cannot be resumed.
FAILED = "failed"
#: Key of a later revision's report row holding each fact's element claims, by fact id
#: (a re-grade judges them again; revision 0 keeps them with the fact's record).
RECORD_ELEMENTS = "record_elements"


class RunSummary(BaseModel):
    """One line of ``triqua runs``."""

    run_id: str
    created_at: str
    score: float | None = None
    facts: int = 0
    mode: str = ""
    engine: str = ""
    revisions: int = Field(default=0, description="Reports stored: 0 while unfinished.")
    status: str = Field(
        default="unfinished",
        description="finished, unfinished (resumable), failed_at_start or failed.",
    )
    error: str | None = Field(default=None, description="Why a failed run failed.")
    text: str = Field(default="", description="The start of the checked text.")


class StoredRun(BaseModel):
    """A run's input as stored: what is needed to look at it again or re-grade it."""

    run_id: str
    created_at: str
    input_hash: str
    text: str
    question: str | None = None
    settings: dict[str, Any] = Field(default_factory=dict)
    documents: list[Document] = Field(default_factory=list)
