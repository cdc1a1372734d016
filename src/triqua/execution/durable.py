"""Durable runs: what a run's checkpoints carry, how a failed run is settled, how one resumes.

A durable run's checkpoint metadata holds its settings and its store, so a resume can reuse
them. A run that fails before ``prepare`` is not resumable: its checkpoints go and the store
records why. Both the durable and the plain path save a finished report through
:func:`save_report`.
"""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from typing import Any

from langchain_core.runnables import RunnableConfig

from triqua.context import Context
from triqua.execution.runner import EventHandler, arun, run_config
from triqua.runtime.caches.journal import journaled
from triqua.runtime.persistence.checkpoints import forget_run
from triqua.runtime.request import CheckRequest
from triqua.runtime.resources import RunLedger
from triqua.schema import Report
from triqua.store import FAILED_AT_START, RunStore

#: Checkpoint metadata keys: a durable run's settings and store, so a resume can reuse them.
SETTINGS_KEY = "triqua_settings"
STORE_KEY = "triqua_store"


def settings_of(context: Context) -> dict[str, Any]:
    """A context as plain JSON-ready settings (saved with a run)."""
    return asdict(context)


def durable_config(
    context: Context,
    run_id: str,
    runs: RunStore | None,
    ledger: RunLedger | None = None,
    request: CheckRequest | None = None,
) -> RunnableConfig:
    """The run's config with its settings and store in the checkpoint metadata."""
    metadata = {SETTINGS_KEY: json.dumps(settings_of(context), default=str)}
    if runs is not None:
        metadata[STORE_KEY] = runs.location
    return run_config(context, run_id, ledger=ledger, metadata=metadata, request=request)


def kept_cache(context: Context, saved: dict[str, Any]) -> Context:
    """A resumed run's settings, keeping the call cache when the run was started with it.

    The answers its finished calls got are in that cache (with it off, in the run's journal),
    so ``--no-cache`` given on resume does not make the run ask them again.
    """
    if context.cache or not saved.get("cache", True):
        return context
    return replace(context, cache=True, cache_path=saved.get("cache_path"))


def save_report(runs: RunStore | None, report: Report) -> None:
    """Add the finished run's report to the store, once."""
    if runs is not None and runs.latest_revision(report.run_id) is None:
        runs.append_report(report)


async def settle_failure(
    graph: Any, saver: Any, run_id: str, runs: RunStore | None, exc: BaseException
) -> None:
    """After a durable run raised: one that never got past ``prepare`` is not resumable.

    Its checkpoints are deleted and the store records it ``failed_at_start``, so that
    ``runs`` does not list it as unfinished and ``--resume`` says why instead of failing again.
    An interruption (Ctrl-C, cancellation) leaves it resumable.
    """
    if not isinstance(exc, Exception):
        return
    snapshot = await graph.aget_state({"configurable": {"thread_id": run_id}})
    if "spec" in (snapshot.values or {}):
        return  # prepared: the steps done so far are worth resuming
    await forget_run(saver, run_id)
    if runs is not None:
        runs.mark_failed(run_id, str(exc) or type(exc).__name__, status=FAILED_AT_START)


def refuse_failed(runs: RunStore | None, run_id: str) -> None:
    """Refuse to resume a run the store records as failed, in one line."""
    failed = runs.outcome(run_id) if runs is not None else None
    if failed is not None:
        status, error = failed
        raise ValueError(
            f"run {run_id[:12]} {status.replace('_', ' ')} ({error}) and cannot be resumed: "
            "check the text again"
        )


async def invoke_durable(
    graph: Any,
    state: dict[str, Any] | None,
    context: Context,
    run_id: str,
    runs: RunStore | None,
    on_event: EventHandler | None = None,
    ledger: RunLedger | None = None,
    *,
    request: CheckRequest | None = None,
) -> Report:
    """Run (``state``) or continue (``None``) the graph, checkpointing every step at once.

    The saved settings are the run's own; the graph works through the call cache or, with
    it off, the run's journal, so a resume repeats no finished model call or search. A
    fresh run carries its ``request``.
    """
    config = durable_config(context, run_id, runs, ledger, request)
    working = journaled(context, run_id, resumed=state is None)
    return await arun(
        state, context=working, graph=graph, config=config, on_event=on_event, durability="sync"
    )


def resumed_ledger(run_id: str, context: Context, values: dict[str, Any]) -> RunLedger:
    """The ledger of a resumed run, from its checkpointed state: its documents and spending.

    The search budget is charged with the searches the run already made, the call limit
    with its model calls; its supplied documents are held so its retriever can be rebuilt.
    The settings are compared here, once, with those the run started with: a refusal is
    raised as it is (:class:`SettingsChangedError`), before any step runs.

    Raises:
        ValueError: when the run's documents or retriever cannot be used now.
        SettingsChangedError: when ``context`` would change the run's verdicts.
    """
    from triqua.core.text.inputs import coerce_documents
    from triqua.runtime.resources import build_resources
    from triqua.runtime.resources.spec import refuse_other_settings, settings_digest
    from triqua.schema import FactualitySpec

    ledger = RunLedger.for_context(context)
    try:
        documents = coerce_documents(values.get("documents"))
        ledger.hold(documents)
        resources = build_resources(context, documents, ledger)  # fails now when unusable
    except ValueError as exc:
        raise ValueError(f"cannot resume run {run_id}: {exc}") from exc
    spec = FactualitySpec.model_validate(values["spec"])
    refuse_other_settings(settings_digest(spec), context, resources, run_id, spec.hash)
    ledger.charge(values)
    return ledger
