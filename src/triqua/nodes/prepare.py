"""Prepare: validate the input, resolve engines and retriever, freeze the FactualitySpec.

Validation is ``core.text.inputs``; the spec is built by ``runtime.resources.spec.build_spec``
from what was resolved here. A run started through the API carries its
:class:`~triqua.runtime.request.CheckRequest`, already validated and with its documents
converted: prepare takes them from it instead of checking them again.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Overwrite

from triqua.context import Context
from triqua.core.text.inputs import check_evidence_size, coerce_documents, validate_text
from triqua.engines.factory import OFFLINE_NOTE
from triqua.nodes.common import context_of
from triqua.runtime.request import request_of
from triqua.runtime.resources import build_resources, ledger_of
from triqua.runtime.resources.spec import build_spec
from triqua.schema import Report
from triqua.state import State, run_keys


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
    run_id = state.get("run_id")
    if not run_id or run_id == _finished_run(state):
        run_id = uuid.uuid4().hex
    ledger = ledger_of(context, runtime)
    ledger.hold(documents)
    resources = build_resources(context, documents, ledger)
    spec = build_spec(context, resources, state.get("spec_overrides"))
    notes = [OFFLINE_NOTE] if resources.engines.offline else []
    engine = resources.engines.name
    update: dict[str, Any] = {
        "run_id": run_id,
        "spec": spec,
        "engine": engine,
        "documents": documents,
        "notes": notes,
    }
    return {**update, **_cleared(state, update)}


def _finished_run(state: State) -> str | None:
    """The run id of the check that last finished on this thread, if one did."""
    report = state.get("report")
    if isinstance(report, Report):
        return report.run_id
    return report.get("run_id") if isinstance(report, dict) else None


def _cleared(state: State, update: dict[str, Any]) -> dict[str, Any]:
    """Writes that start over what an earlier check on this thread left in the state.

    A thread (a checkpointer's, Studio's, a LangGraph server's) keeps its state between
    invocations, so a new check on it would otherwise add its facts, records and notes to
    the last check's. Prepare is every check's first step: what the state holds of the
    keys a check works out is the earlier check's, and is replaced by this check's.
    """
    held: Mapping[str, object] = state
    cleared: dict[str, Any] = {}
    for key, adds in run_keys().items():
        value = held.get(key)
        if not value:
            continue
        if adds:
            cleared[key] = Overwrite(update.get(key, []))
        elif key not in update and isinstance(value, list):
            cleared[key] = []  # a list a later step writes only sometimes
    return cleared
