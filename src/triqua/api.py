"""The Python API: ``check`` / ``acheck`` run the graph and return a ``Report``.

A run can be saved in the run store (``store=``) and made durable (``durable=True``): every
step is checkpointed in SQLite under the run id, so a run killed mid-way finishes later with
``check(resume=run_id)`` without repeating the model calls and searches already made.
``acheck`` makes the run's ``Context`` and hands the text to the run built from it
(:class:`~triqua.execution.check_run.CheckRun`: store, durability, report cache).
"""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import Callable, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import fields, replace
from pathlib import Path
from typing import Any, ParamSpec

from langchain_core.language_models import BaseChatModel

from triqua.context import Context
from triqua.engines.factory import register_model
from triqua.execution.runner import EventHandler
from triqua.schema import Document, Report
from triqua.store import RunStore, resolve_store
from triqua.support.instances import name_for

P = ParamSpec("P")


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
        base = replace(base, model=register_model(name_for(model), model))
    elif model is not None:
        base = replace(base, model=model)
    base.validate()
    return base


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
    from triqua.execution.check_run import CheckInput, CheckRun, resume_run

    if resume is not None:
        return await resume_run(
            resume,
            runs=resolve_store(store),
            store_given=store is not None,
            context_for=lambda saved: make_context(
                context or context_from_settings(saved), model=model, **settings
            ),
            checkpoints=checkpoints,
            on_event=on_event,
        )
    runs = resolve_store(store)
    if text is None:
        raise ValueError("text is required (or resume=RUN_ID to finish an interrupted run)")
    run = CheckRun(
        make_context(context, model=model, **settings),
        runs=runs,
        durable=durable,
        checkpoints=checkpoints,
        on_event=on_event,
    )
    given = CheckInput(text, question, documents, spec_overrides, case_id)
    return await run.check(given, run_id)


def _setting(kwargs: dict[str, Any], name: str, base: Context) -> int:
    """The positive integer setting ``name``: the keyword given, else ``base``'s."""
    given = kwargs.get(name)
    return given if isinstance(given, int) and given > 0 else int(getattr(base, name))


def _blocking(
    coroutine_function: Callable[P, Coroutine[Any, Any, Report]], name: str, doc: str
) -> Callable[P, Report]:
    """``coroutine_function`` run to completion in a fresh event loop, as function ``name``.

    It takes the same arguments (one signature to keep, read by ``inspect.signature``).
    """

    @functools.wraps(coroutine_function)
    def run(*args: P.args, **kwargs: P.kwargs) -> Report:
        # Under ``ainvoke`` the graph's synchronous nodes run in the event loop's default
        # executor, whose default size (CPUs + 4) would cap the fan-out below
        # ``Context.workers()`` (max_concurrency tasks; a batch's members wait on their own
        # pool, ``nodes.members``).
        context = kwargs.get("context")
        base = context if isinstance(context, Context) else Context()
        workers = _setting(kwargs, "max_concurrency", base)
        with asyncio.Runner() as runner:
            executor = ThreadPoolExecutor(max_workers=max(1, workers))
            runner.get_loop().set_default_executor(executor)
            return runner.run(_boxed(coroutine_function(*args, **kwargs))).value

    run.__name__ = run.__qualname__ = name
    run.__doc__ = doc
    return run


check = _blocking(
    acheck, "check", "Check ``text`` and return its report (see :func:`acheck` for the arguments)."
)


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
