"""Prepare: validate the input, resolve engines and retriever, freeze the FactualitySpec.

The spec itself is built by ``core.spec.build_spec`` from what was resolved here.
"""

from __future__ import annotations

import uuid
from typing import Any

from langgraph.runtime import Runtime

from triqua.context import Context
from triqua.core.spec import build_spec
from triqua.engines.offline.engine import OFFLINE_NOTE
from triqua.nodes.common import context_of
from triqua.resources import build_resources, ledger_of
from triqua.schema import Document
from triqua.state import State
from triqua.tools.documents import evidence_limit_error


def coerce_documents(raw: list[Any] | None) -> list[Document]:
    """Accept documents as ``Document``, plain strings or dicts; reject anything else clearly.

    Raises:
        ValueError: for an item of another type, or when every document is blank.
    """
    documents = []
    for index, item in enumerate(raw or []):
        if isinstance(item, Document):
            documents.append(item)
        elif isinstance(item, str):
            documents.append(Document(text=item, source=f"document {index + 1}"))
        elif isinstance(item, dict):
            documents.append(Document.model_validate(item))
        else:
            raise ValueError(f"document {index + 1}: expected text or a Document, got {type(item)}")
    if documents and not any(d.text.strip() for d in documents):
        raise ValueError("the supplied documents are empty: there is no evidence to check against")
    return documents


def validate_text(text: Any, context: Context) -> str:
    """The text to check, or a clear ``ValueError`` when it is missing, empty or too large."""
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


def prepare(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Validate input and settings, set up the run's resources and freeze its spec."""
    context = context_of(runtime)
    context.validate()
    validate_text(state.get("text"), context)
    documents = coerce_documents(state.get("documents"))
    check_evidence_size(documents, context)
    run_id = state.get("run_id") or uuid.uuid4().hex
    ledger = ledger_of(context, runtime)
    ledger.hold(documents)
    resources = build_resources(context, documents, ledger)
    spec = build_spec(context, resources, state.get("spec_overrides"))
    notes = [OFFLINE_NOTE] if resources.engines.offline else []
    engine = resources.engines.name
    return {
        "run_id": run_id,
        "spec": spec,
        "engine": engine,
        "documents": documents,
        "notes": notes,
    }
