"""One-line hints the CLI says before a run, so a surprising default is never silent."""

from __future__ import annotations

from typing import Any

from triqua.context import Context
from triqua.schema import Mode

NO_EVIDENCE_HINT = (
    "note: no evidence source given, so this is a closed-book check; give one with "
    "-e FILE_OR_FOLDER, --retriever chroma --collection NAME, or --retriever tavily"
)


def no_evidence_hint(settings: dict[str, Any], mode: Mode, *, has_evidence: bool) -> str | None:
    """The closed-book hint when a check ran without any evidence source, else None.

    'auto' with no documents means closed book (``resources.retriever_kind``); a retriever
    the user chose, even ``closed_book``, is their choice and gets no hint. It is said
    once the run is done, before its output, so that an error stays a single line.
    """
    if has_evidence or mode is not Mode.CLOSED_BOOK:
        return None
    retriever = settings.get("retriever") or Context().retriever
    return NO_EVIDENCE_HINT if retriever == "auto" else None
