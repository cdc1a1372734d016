"""The Python API: ``check`` / ``acheck`` run the graph and return a ``Report``.

A run can be saved in the run store (``store=``) and made durable (``durable=True``): every
step is checkpointed in SQLite under the run id, so a run killed mid-way finishes later with
``check(resume=run_id)`` without repeating the model calls and searches already made.

A check is built once, here: ``check`` / ``acheck`` make the run's ``Context``
(:func:`make_context`) and its request (:func:`make_request`: the text validated,
language-checked and split, the documents converted), then run the request
(:func:`run_request` / :func:`arun_request`, through
:class:`~triqua.execution.check_run.CheckRun`: store, durability, report cache). Nothing
after that validates, converts or splits again. The command line makes the same two calls.

Extraction and verification as separate steps: ``extract_facts`` decomposes a text as a
check would and returns its facts; ``verify_facts`` checks given (perhaps edited) facts as a
check verifies its own, with the same report.
"""

from __future__ import annotations

import warnings
from collections.abc import Coroutine, Sequence
from dataclasses import fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from langchain_core.language_models import BaseChatModel

from triqua.context import Context
from triqua.engines.factory import endpoint_of_now, register_model
from triqua.execution.runner import EventHandler
from triqua.runtime.request import CheckRequest, build_request
from triqua.schema import Document, Fact, Report
from triqua.store import RunStore, resolve_store
from triqua.support.instances import name_for
from triqua.support.interrupts import run_interruptible

if TYPE_CHECKING:
    from triqua.execution.extraction import Extraction

R = TypeVar("R")


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
    """The context saved with a run, with the endpoint configured now (see ``endpoint_of_now``).

    Keys unknown to this version are dropped.
    """
    known = {f.name for f in fields(Context)}
    return Context.from_mapping({k: v for k, v in endpoint_of_now(settings).items() if k in known})


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
    facts: Sequence[Fact | dict[str, Any]] | None = None,
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
        facts: Facts to check as they are instead of decomposing ``text`` (see
            :func:`averify_facts`).
        **settings: ``Context`` fields, e.g. ``retriever="chroma"``, ``cache=False``.
    """
    if resume is not None:
        from triqua.execution.check_run import resume_run

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
    request = make_request(
        text,
        make_context(context, model=model, **settings),
        question=question,
        documents=documents,
        spec_overrides=spec_overrides,
        case_id=case_id,
        facts=facts,
    )
    return await arun_request(
        request,
        run_id=run_id,
        store=store,
        durable=durable,
        checkpoints=checkpoints,
        on_event=on_event,
    )


def load_evidence(
    paths: Sequence[Path], context: Context, *, problems: list[str] | None = None
) -> list[Document]:
    """Evidence files, folders and shell pipes as documents, within ``max_evidence_bytes``.

    Skipped JSONL lines and files are added to ``problems``; see
    :func:`triqua.tools.documents.read_evidence_paths`.
    """
    from triqua.tools.documents import read_evidence_paths

    return read_evidence_paths(paths, max_bytes=context.max_evidence_bytes, problems=problems)


def make_request(
    text: str | None,
    context: Context,
    *,
    question: str | None = None,
    documents: Sequence[Document | str | dict[str, Any]] | None = None,
    spec_overrides: dict[str, Any] | None = None,
    case_id: str | None = None,
    facts: Sequence[Fact | dict[str, Any]] | None = None,
) -> CheckRequest:
    """One check's request: its text validated and split, its documents converted, once.

    ``context`` is the run's settings as :func:`make_context` returns them (validated); the
    other arguments are those of :func:`acheck`. Run it with :func:`run_request` /
    :func:`arun_request`; nothing after this redoes its work.

    Raises:
        ValueError: for a missing, empty, too long or unreadable text, unusable documents
            or given facts.
    """
    given_facts = None
    if facts is not None:
        text, given_facts = _placed(facts, text)
    if text is None:
        raise ValueError("text is required (or resume=RUN_ID to finish an interrupted run)")
    return build_request(
        text,
        context,
        question=question,
        documents=documents,
        spec_overrides=spec_overrides,
        case_id=case_id,
        facts=given_facts,
    )


async def arun_request(
    request: CheckRequest,
    *,
    run_id: str | None = None,
    store: bool | str | Path | RunStore | None = None,
    durable: bool = False,
    checkpoints: str | Path | None = None,
    on_event: EventHandler | None = None,
) -> Report:
    """Run a check's request (see :func:`make_request`) and return its report.

    The run's arguments are those of :func:`acheck`.
    """
    from triqua.execution.check_run import CheckRun

    run = CheckRun(
        request.context,
        runs=resolve_store(store),
        durable=durable,
        checkpoints=checkpoints,
        on_event=on_event,
    )
    return await run.check(request, run_id)


def run_request(
    request: CheckRequest,
    *,
    run_id: str | None = None,
    store: bool | str | Path | RunStore | None = None,
    durable: bool = False,
    checkpoints: str | Path | None = None,
    on_event: EventHandler | None = None,
) -> Report:
    """Run a check's request and return its report (see :func:`arun_request`)."""
    running = arun_request(
        request,
        run_id=run_id,
        store=store,
        durable=durable,
        checkpoints=checkpoints,
        on_event=on_event,
    )
    return _blocking(running, request.context.max_concurrency)


def _placed(facts: Sequence[Fact | dict[str, Any]], text: str | None) -> tuple[str, list[Fact]]:
    """Given facts validated, numbered and placed in ``text`` (or the text they make).

    A span outside the text is dropped with a ``UserWarning`` (the fact is still checked).

    Raises:
        ValueError: for an item that is not a fact, an id given twice, or no facts.
    """
    from triqua.core.plan.given_facts import fact_from, numbered, place_facts

    if not facts:
        raise ValueError("no facts to verify")
    checked = []
    for n, item in enumerate(facts, start=1):
        try:
            checked.append(fact_from(item))
        except ValueError as exc:
            raise ValueError(f"fact {n}: {exc}") from None
    placed = place_facts(numbered(checked), text)
    for warning in placed.warnings:
        warnings.warn(warning, UserWarning, stacklevel=2)
    return placed.text, placed.facts


async def averify_facts(
    facts: Sequence[Fact | dict[str, Any]], text: str | None = None, **kwargs: Any
) -> Report:
    """Check given facts (no decomposition) as a check verifies its own, and return the report.

    The facts are ``Fact`` objects or their JSON (as ``triqua extract`` writes them); given
    ids are kept, missing ones numbered. Retrieval, routing, verification, grounding and
    scoring are the check's. ``text`` is the text they were extracted from (their spans
    point into it; one outside it is dropped with a warning); without it the facts' source
    sentences make the text. ``kwargs`` are those of :func:`acheck` (``documents``,
    ``model``, ``store``, settings, …).
    """
    return await acheck(text, facts=facts, **kwargs)


async def aextract_facts(
    text: str,
    *,
    question: str | None = None,
    context: Context | None = None,
    model: str | BaseChatModel | None = None,
    **settings: Any,
) -> Extraction:
    """Decompose ``text`` as a check would and return its facts and what was dropped.

    The same engines and settings as :func:`acheck` (``model``, ``Context`` fields); the
    facts are numbered in text order, as a check numbers them. Nothing is stored.
    """
    from triqua.execution.extraction import aextract

    return await aextract(
        text, question=question, context=make_context(context, model=model, **settings)
    )


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
    facts: Sequence[Fact | dict[str, Any]] | None = None,
    **settings: Any,
) -> Report:
    """Check ``text`` and return its report (see :func:`acheck` for the arguments).

    The settings are built and the request made (:func:`make_request`) once, here; the
    run then works from them in a fresh event loop.
    """
    if resume is not None:
        base = context if isinstance(context, Context) else Context()
        resumed = acheck(
            resume=resume,
            context=context,
            model=model,
            store=store,
            checkpoints=checkpoints,
            on_event=on_event,
            **settings,
        )
        return _blocking(resumed, _setting(settings, "max_concurrency", base))
    request = make_request(
        text,
        make_context(context, model=model, **settings),
        question=question,
        documents=documents,
        spec_overrides=spec_overrides,
        case_id=case_id,
        facts=facts,
    )
    return run_request(
        request,
        run_id=run_id,
        store=store,
        durable=durable,
        checkpoints=checkpoints,
        on_event=on_event,
    )


def verify_facts(
    facts: Sequence[Fact | dict[str, Any]], text: str | None = None, **kwargs: Any
) -> Report:
    """Check given facts and return the report (see :func:`averify_facts`)."""
    return check(text, facts=facts, **kwargs)


def extract_facts(
    text: str,
    *,
    question: str | None = None,
    context: Context | None = None,
    model: str | BaseChatModel | None = None,
    **settings: Any,
) -> Extraction:
    """Decompose ``text`` into facts, as a check would (see :func:`aextract_facts`)."""
    from triqua.execution.extraction import aextract

    ctx = make_context(context, model=model, **settings)
    return _blocking(aextract(text, question=question, context=ctx), ctx.max_concurrency)


def _setting(kwargs: dict[str, Any], name: str, base: Context) -> int:
    """The positive integer setting ``name``: the keyword given, else ``base``'s."""
    given = kwargs.get(name)
    return given if isinstance(given, int) and given > 0 else int(getattr(base, name))


def _blocking(coroutine: Coroutine[Any, Any, R], workers: int) -> R:
    """``coroutine`` run to completion in a fresh event loop with ``workers`` threads.

    Under ``ainvoke`` the graph's synchronous nodes run in the event loop's default
    executor, whose default size (CPUs + 4) would cap the fan-out below
    ``Context.workers()`` (max_concurrency tasks; a batch's members wait on their own pool,
    ``nodes.members``). Ctrl-C ends the run at once, even while a node waits on a silent
    service.
    """
    return run_interruptible(coroutine, workers=workers)
