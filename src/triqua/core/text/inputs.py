"""Inputs: validate the text to check and the supplied documents before any work is done."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from triqua.context import Context
from triqua.core.text.intake import evidence_text, normalise_text
from triqua.schema import Document


def evidence_limit_error(limit: int, total: int, path: Path | str) -> ValueError:
    """The error of evidence over ``max_evidence_bytes``: which limit, and how to lift it."""
    return ValueError(
        f"evidence is larger than max_evidence_bytes={limit:,} (reached {total:,} bytes at "
        f"{path}); give less evidence or raise --max-evidence-bytes"
    )


def _as_read(document: Document) -> Document:
    """The document with its text and title as the readers see them (``core.text.intake``)."""
    text = evidence_text(document.text)
    title = normalise_text(document.title) if document.title else document.title
    if text == document.text and title == document.title:
        return document
    return document.model_copy(update={"text": text, "title": title})


def coerce_documents(raw: Any) -> list[Document]:
    """Accept documents as ``Document``, plain strings or dicts; reject anything else clearly.

    One document given alone (a string, a ``Document`` or a dict) is a list of one: a
    string is one document, never a list of its characters. Their text is read as every
    reader will see it: format characters removed, compatibility forms folded, struck-out
    text left out (:func:`triqua.core.text.intake.evidence_text`).

    Raises:
        ValueError: for an item of another type, or when every document is blank.
    """
    if isinstance(raw, str | Document | dict):
        raw = [raw]
    documents = []
    for index, item in enumerate(raw or []):
        if isinstance(item, Document):
            document = item
        elif isinstance(item, str):
            document = Document(text=item, source=f"document {index + 1}")
        elif isinstance(item, dict):
            document = Document.model_validate(item)
        else:
            raise ValueError(f"document {index + 1}: expected text or a Document, got {type(item)}")
        documents.append(_as_read(document))
    if documents and not any(d.text.strip() for d in documents):
        raise ValueError("the supplied documents are empty: there is no evidence to check against")
    return documents


def validate_text(text: Any, context: Context) -> str:
    """The text to check, or a clear ``ValueError`` when it is missing, empty or too large."""
    if text is None:  # a graph input without the key (Studio, a parent graph, the SDK)
        raise ValueError("text is missing: the input has no 'text' to check")
    if not isinstance(text, str):
        raise ValueError(f"text must be a string, got {type(text).__name__}")
    if not text.strip():
        raise ValueError("text is empty: nothing to check")
    if len(text) > context.max_input_chars:
        raise ValueError(
            f"text has {len(text):,} characters, above the limit of {context.max_input_chars:,} "
            "(max_input_chars)"
        )
    return text


def check_evidence_size(documents: list[Document], context: Context) -> None:
    """Refuse supplied documents over ``max_evidence_bytes`` before they are indexed.

    Raises:
        ValueError: naming the limit and the size reached.
    """
    total = 0
    for index, document in enumerate(documents, start=1):
        total += len(document.text.encode("utf-8"))
        if total > context.max_evidence_bytes:
            where = document.source or f"document {index}"
            raise evidence_limit_error(context.max_evidence_bytes, total, where)
