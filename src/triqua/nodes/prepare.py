"""Prepare: validate the input, resolve engines and retriever, freeze the FactualitySpec.

Validation is ``core.text.inputs``; the spec is built by ``runtime.resources.spec.build_spec``
from what was resolved here. A run started through the API carries its
:class:`~triqua.runtime.request.CheckRequest`, already validated and with its documents
converted: prepare takes them from it instead of checking them again.
"""

from __future__ import annotations

import uuid
from typing import Any

from langgraph.runtime import Runtime

from triqua.context import Context
from triqua.core.text.inputs import check_evidence_size, coerce_documents, validate_text
from triqua.engines.factory import OFFLINE_NOTE
from triqua.nodes.common import context_of
from triqua.runtime.request import request_of
from triqua.runtime.resources import build_resources, ledger_of
from triqua.runtime.resources.spec import build_spec
from triqua.state import State


def prepare(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Validate input and settings, set up the run's resources and freeze its spec."""
    context = context_of(runtime)
    request = request_of(state)
    if request is not None:
        documents = list(request.documents)
    else:
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
