"""The Python API: ``check`` / ``acheck`` run the graph and return a ``Report``.

A run can be saved in the run store (``store=``) and made durable (``durable=True``): every
step is checkpointed in SQLite under the run id, so a run killed mid-way finishes later with
``check(resume=run_id)`` without repeating the model calls and searches already made.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import uuid
from collections.abc import AsyncIterator, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, suppress
from dataclasses import asdict, fields, replace
from enum import Enum
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from pydantic import BaseModel

from triqua.checkpoints import WHAT as CHECKPOINTS
from triqua.checkpoints import forget_run
from triqua.context import Context
from triqua.dbfiles import lock_timeout, prepare_database_path, sqlite_errors
from triqua.engines.factory import register_model
from triqua.resources import RunLedger
from triqua.runner import EventHandler, arun, graph_input, run_config
from triqua.schema import Document, Report
from triqua.store import FAILED, FAILED_AT_START, RunStore, resolve_store
from triqua.tools.paths import triqua_home

#: Checkpoint metadata keys: a durable run's settings and store, so a resume can reuse them.
SETTINGS_KEY = "triqua_settings"
STORE_KEY = "triqua_store"


def make_context(
    context: Context | None = None,
    *,
    model: str | BaseChatModel | None = None,
    **settings: Any,
) -> Context:
    """A ``Context`` from an optional base, a model (name or instance) and setting overrides."""
    base = context or Context()
    if settings:
        base = replace(base, **settings)
    if isinstance(model, BaseChatModel):
        base = replace(base, model=register_model(f"{type(model).__name__}-{id(model)}", model))
    elif model is not None:
        base = replace(base, model=model)
    base.validate()
    return base


def settings_of(context: Context) -> dict[str, Any]:
    """A context as plain JSON-ready settings (saved with a run)."""
    return asdict(context)


def context_from_settings(settings: dict[str, Any]) -> Context:
    """The context saved with a run (keys unknown to this version are dropped)."""
    known = {f.name for f in fields(Context)}
    return Context.from_mapping({k: v for k, v in settings.items() if k in known})


def cores() -> int:
    """CPU cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on every platform
        return max(1, os.cpu_count() or 1)


def effective_concurrency(context: Context) -> int:
    """``max_concurrency``, capped at the cores when the offline engine decomposes and judges.

    Offline work is CPU-bound (spaCy, ONNX): more facts at once than cores only contend for
    them. Model calls wait on the network, so a model-backed run keeps the setting.
    """
    return context.workers()


def default_checkpoint_path() -> Path:
    """``checkpoints.sqlite`` in triqua's data directory (``$TRIQUA_HOME``)."""
    return triqua_home() / "checkpoints.sqlite"


def _checkpoint_types() -> list[tuple[str, str]]:
    """Models and enums of triqua's loaded modules: the only types restored from checkpoints.

    Called after the graph is built, so every type its nodes can put in the state is loaded.
    """
    return [
        (value.__module__, value.__name__)
        for name, module in list(sys.modules.items())
        if module is not None and (name == "triqua" or name.startswith("triqua."))
        for value in list(vars(module).values())
        if isinstance(value, type)
        and value.__module__ == name
        and issubclass(value, BaseModel | Enum)
    ]


@asynccontextmanager
async def open_checkpointer(path: str | Path | None = None) -> AsyncIterator[Any]:
    """An ``AsyncSqliteSaver`` on ``path`` that restores only known types from checkpoints."""
    import aiosqlite
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    import triqua.graph.main  # noqa: F401 - loads every type the graph state can hold

    file = Path(path).expanduser() if path else default_checkpoint_path()
    prepare_database_path(file, CHECKPOINTS)
    serde = JsonPlusSerializer(allowed_msgpack_modules=_checkpoint_types())
    with sqlite_errors(file, CHECKPOINTS):  # a damaged or locked file: one line, no traceback
        async with aiosqlite.connect(file, timeout=lock_timeout()) as conn:
            saver = AsyncSqliteSaver(conn, serde=serde)
            await saver.setup()
            yield saver


def _durable_config(
    context: Context, run_id: str, runs: RunStore | None, ledger: RunLedger | None = None
) -> RunnableConfig:
    metadata = {SETTINGS_KEY: json.dumps(settings_of(context), default=str)}
    if runs is not None:
        metadata[STORE_KEY] = str(runs.path.resolve())
    return run_config(context, run_id, ledger=ledger, metadata=metadata)


def _save(runs: RunStore | None, report: Report) -> None:
    """Add the finished run's report to the store, once."""
    if runs is not None and runs.latest_revision(report.run_id) is None:
        runs.append_report(report)


async def _settle_failure(
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


def _refuse_failed(runs: RunStore | None, run_id: str) -> None:
    """Refuse to resume a run the store records as failed, in one line."""
    failed = runs.outcome(run_id) if runs is not None else None
    if failed is not None:
        status, error = failed
        raise ValueError(
            f"run {run_id[:12]} {status.replace('_', ' ')} ({error}) and cannot be resumed: "
            "check the text again"
        )


async def _invoke_durable(
    graph: Any,
    state: dict[str, Any] | None,
    context: Context,
    run_id: str,
    runs: RunStore | None,
    on_event: EventHandler | None = None,
    ledger: RunLedger | None = None,
) -> Report:
    config = _durable_config(context, run_id, runs, ledger)
    return await arun(
        state, context=context, graph=graph, config=config, on_event=on_event, durability="sync"
    )


def _resumed_ledger(run_id: str, context: Context, values: dict[str, Any]) -> RunLedger:
    """The ledger of a resumed run, from its checkpointed state: its documents and spending.

    The search budget is charged with the searches the run already made, the call limit
    with its model calls; its supplied documents are held so its retriever can be rebuilt.
    """
    from triqua.core.inputs import coerce_documents
    from triqua.resources import build_resources

    ledger = RunLedger.for_context(context)
    try:
        documents = coerce_documents(values.get("documents"))
        ledger.hold(documents)
        build_resources(context, documents, ledger)  # fails now when unusable
    except ValueError as exc:
        raise ValueError(f"cannot resume run {run_id}: {exc}") from exc
    ledger.charge(values)
    return ledger


async def _resume(
    run_id: str,
    *,
    context: Context | None,
    model: str | BaseChatModel | None,
    settings: dict[str, Any],
    store: bool | str | Path | RunStore | None,
    checkpoints: str | Path | None,
    on_event: EventHandler | None = None,
) -> Report:
    """Finish an interrupted durable run from its last checkpoint.

    With ``store`` None, the run is saved where it was started (when it was saved at all).
    """
    from triqua.core.inputs import coerce_documents
    from triqua.graph.main import compiled_graph

    runs = resolve_store(store)
    if runs is not None:
        with suppress(KeyError):  # the store may not know it; the checkpoints may
            run_id = runs.resolve(run_id)
        _refuse_failed(runs, run_id)
    async with open_checkpointer(checkpoints) as saver:
        graph = compiled_graph(checkpointer=saver)
        snapshot = await graph.aget_state({"configurable": {"thread_id": run_id}})
        if not snapshot.values:
            if runs is not None and runs.latest_revision(run_id) is not None:
                return runs.report(run_id)  # finished and saved: nothing left to do
            raise ValueError(f"no interrupted run {run_id!r} to resume")
        metadata: dict[str, Any] = dict(snapshot.metadata or {})
        if store is None and metadata.get(STORE_KEY):
            runs = RunStore(str(metadata[STORE_KEY]))
        saved = json.loads(str(metadata.get(SETTINGS_KEY) or "{}"))
        ctx = make_context(context or context_from_settings(saved), model=model, **settings)
        values = snapshot.values
        if runs is not None:
            runs.start_run(
                run_id,
                text=values["text"],
                question=values.get("question"),
                settings=settings_of(ctx),
                documents=coerce_documents(values.get("documents")),
            )
        if snapshot.next:
            ledger = _resumed_ledger(run_id, ctx, values) if "spec" in values else None
            report = await _invoke_durable(graph, None, ctx, run_id, runs, on_event, ledger)
        else:
            report = values["report"]
        _save(runs, report)
        await forget_run(saver, run_id)  # finished: its checkpoints are spent
    return report


async def acheck(
    text: str | None = None,
    *,
    question: str | None = None,
    documents: Sequence[Document | str | dict[str, Any]] | None = None,
    context: Context | None = None,
    model: str | BaseChatModel | None = None,
    spec_overrides: dict[str, Any] | None = None,
    run_id: str | None = None,
    store: bool | str | Path | RunStore | None = None,
    durable: bool = False,
    resume: str | None = None,
    checkpoints: str | Path | None = None,
    on_event: EventHandler | None = None,
    case_id: str | None = None,
    **settings: Any,
) -> Report:
    """Check ``text`` asynchronously and return its report.

    Args:
        text: The text to check (not needed with ``resume``).
        question: The question the text answers, used to resolve references.
        documents: Evidence documents (``Document``, text, or dicts) for supplied-context mode.
        context: Base settings; ``settings`` override individual fields.
        model: A 'provider:model' string or a chat model instance for every LLM role.
        spec_overrides: Fields of the ``FactualitySpec`` to set explicitly (e.g. authority).
        run_id: The run's id (default: a new random id).
        store: Where to save the run: a ``RunStore``, a path, True (the default store) or
            False. None (default) follows ``$TRIQUA_STORE`` and saves nothing when it is unset.
        durable: Checkpoint every step (SQLite) so that an interrupted run can be resumed.
        resume: Finish the interrupted durable run with this id; its saved settings and
            store apply, overridden by ``context``, ``model``, ``settings`` and ``store``.
        checkpoints: The checkpoint file (default: ``$TRIQUA_HOME/checkpoints.sqlite``).
        on_event: Called with each progress event (chunk decomposed, fact verified, …).
        case_id: The caller's id of this case (a batch line's id), kept in every record.
        **settings: ``Context`` fields, e.g. ``retriever="chroma"``, ``cache=False``.
    """
    from triqua.core.inputs import coerce_documents, validate_text
    from triqua.graph.main import compiled_graph
    from triqua.report_cache import cached_report, store_report

    if resume is not None:
        return await _resume(
            resume,
            context=context,
            model=model,
            settings=settings,
            store=store,
            checkpoints=checkpoints,
            on_event=on_event,
        )
    runs = resolve_store(store)
    if text is None:
        raise ValueError("text is required (or resume=RUN_ID to finish an interrupted run)")
    ctx = make_context(context, model=model, **settings)
    run_id = run_id or uuid.uuid4().hex
    state = graph_input(text, question, documents, spec_overrides, case_id)
    state["run_id"] = run_id
    if runs is not None:
        validate_text(text, ctx)
        runs.start_run(
            run_id,
            text=text,
            question=question,
            settings=settings_of(ctx),
            documents=coerce_documents(list(documents or [])),
        )
    # Before any graph work: an identical earlier check answers at the cost of one lookup.
    key = _report_key(ctx, text, question, documents, spec_overrides)
    hit = cached_report(ctx, key, run_id, case_id) if key else None
    if hit is not None:
        _save(runs, hit)
        return hit
    if not durable:
        try:
            report = await arun(state, context=ctx, on_event=on_event)
        except Exception as exc:  # not durable: it cannot be resumed, so do not list it so
            if runs is not None:
                runs.mark_failed(run_id, str(exc) or type(exc).__name__, status=FAILED)
            raise
        _save(runs, report)
    else:
        async with open_checkpointer(checkpoints) as saver:
            graph = compiled_graph(checkpointer=saver)
            if await saver.aget_tuple({"configurable": {"thread_id": run_id}}) is not None:
                raise ValueError(f"run {run_id} already has checkpoints: resume it instead")
            try:
                report = await _invoke_durable(graph, state, ctx, run_id, runs, on_event)
            except BaseException as exc:
                with suppress(Exception):  # bookkeeping must not hide the run's own error
                    await _settle_failure(graph, saver, run_id, runs, exc)
                raise
            _save(runs, report)
            await forget_run(saver, run_id)  # finished (stored or not): its checkpoints are spent
    if key:
        store_report(ctx, key, report)
    return report


def _report_key(
    context: Context,
    text: str,
    question: str | None,
    documents: Sequence[Document | str | dict[str, Any]] | None,
    spec_overrides: dict[str, Any] | None,
) -> str | None:
    """The report-cache key of a run, or None when it is not cached or its input is unusable."""
    from triqua.core.inputs import coerce_documents
    from triqua.report_cache import report_key

    try:
        coerced = coerce_documents(list(documents or []))
    except (ValueError, TypeError):  # the graph reports bad documents as it always does
        return None
    return report_key(context, text, question, coerced, spec_overrides)


def check(
    text: str | None = None,
    *,
    question: str | None = None,
    documents: Sequence[Document | str | dict[str, Any]] | None = None,
    context: Context | None = None,
    model: str | BaseChatModel | None = None,
    spec_overrides: dict[str, Any] | None = None,
    run_id: str | None = None,
    store: bool | str | Path | RunStore | None = None,
    durable: bool = False,
    resume: str | None = None,
    checkpoints: str | Path | None = None,
    on_event: EventHandler | None = None,
    case_id: str | None = None,
    **settings: Any,
) -> Report:
    """Check ``text`` and return its report (see :func:`acheck` for the arguments)."""
    # Under ``ainvoke`` the graph's synchronous nodes run in the event loop's default executor,
    # whose default size (CPUs + 4) would cap the fan-out below ``max_concurrency``.
    workers = settings.get("max_concurrency") or (context or Context()).max_concurrency
    with asyncio.Runner() as runner:
        runner.get_loop().set_default_executor(ThreadPoolExecutor(max_workers=max(1, workers)))
        boxed = runner.run(
            _boxed(
                acheck(
                    text,
                    question=question,
                    documents=documents,
                    context=context,
                    model=model,
                    spec_overrides=spec_overrides,
                    case_id=case_id,
                    run_id=run_id,
                    store=store,
                    durable=durable,
                    resume=resume,
                    checkpoints=checkpoints,
                    on_event=on_event,
                    **settings,
                )
            )
        )
        return boxed.value


class _Box:
    """A coroutine's result behind a constant ``repr``.

    Python 3.11's ``asyncio.Runner`` formats the finished task's repr, result included, twice
    per run (cpython#112559): for a report that is the whole report rendered as text, 5-6 %
    of a large check's CPU. The box makes that repr free.
    """

    __slots__ = ("value",)

    def __init__(self, value: Report) -> None:
        self.value = value

    def __repr__(self) -> str:
        return "<report>"


async def _boxed(coroutine: Coroutine[Any, Any, Report]) -> _Box:
    """Await ``coroutine`` and box its report (see :class:`_Box`)."""
    return _Box(await coroutine)
