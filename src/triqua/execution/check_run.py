"""One check's run, built from its settings: its text goes in once, its stored report comes out.

A :class:`CheckRun` is the run's ``Context`` and its three parts: the store it is saved in
(or none), its durability (a checkpoint file, or none) and the whole-report cache. Its
:meth:`~CheckRun.check` takes the check's :class:`~triqua.runtime.request.CheckRequest`
(validated, converted and split once, by the API) and walks it straight through: start the
run in the store, answer from the report cache, else run the graph (plainly or durably)
with the request in its config, store the report and cache it. `resume_run` finishes an
interrupted durable run from its checkpoints, refusing once, before any step, settings
that would change its verdicts. ``api.check`` / ``acheck`` (and so batches and citation
checks) build one and hand it the request.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from triqua.context import Context
from triqua.execution.durable import (
    SETTINGS_KEY,
    STORE_KEY,
    invoke_durable,
    kept_cache,
    refuse_failed,
    resumed_ledger,
    save_report,
    settings_of,
    settle_failure,
)
from triqua.execution.runner import EventHandler, arun, run_config
from triqua.runtime.persistence.checkpoints import forget_run, open_checkpointer
from triqua.runtime.request import CheckRequest, build_request, refuse_language
from triqua.schema import Document, Fact, Report
from triqua.store import FAILED, RunStore

__all__ = ["CheckInput", "CheckRun", "refuse_language", "resume_run"]


@dataclass(frozen=True)
class CheckInput:
    """What one check is given, before it is made its request (:func:`build_request`)."""

    text: str
    question: str | None = None
    documents: Sequence[Document | str | dict[str, Any]] | None = None
    spec_overrides: dict[str, Any] | None = None
    #: The caller's id of this case (a batch line's id), kept in every record.
    case_id: str | None = None
    #: Facts to check as they are (``triqua verify``): the text is not decomposed.
    facts: Sequence[Fact] | None = None

    def request(self, context: Context) -> CheckRequest:
        """This input validated, converted and split under ``context``."""
        return build_request(
            self.text,
            context,
            question=self.question,
            documents=self.documents,
            spec_overrides=self.spec_overrides,
            case_id=self.case_id,
            facts=self.facts,
        )


@dataclass(frozen=True)
class CheckRun:
    """A run built from its settings: the context, the store, durability and the report cache.

    ``runs`` None saves nothing; ``durable`` checkpoints every step in ``checkpoints``
    (when None: a Postgres store's database, else the default file) so an interrupted run
    can be resumed; the report cache is on when the context's ``cache`` setting is.
    """

    context: Context
    runs: RunStore | None = None
    durable: bool = False
    checkpoints: str | Path | None = None
    on_event: EventHandler | None = None

    async def check(self, request: CheckRequest | CheckInput, run_id: str | None = None) -> Report:
        """Check ``request`` under ``run_id`` (default: a new id) and return its stored report.

        The request was validated, converted and split when it was built (a
        :class:`CheckInput` is made one here, under the run's context): the run starts from
        it, and the graph's nodes take its work as done.
        """
        from triqua.execution.report_cache import report_key, through_cache

        if isinstance(request, CheckInput):
            request = request.request(self.context)
        elif request.context != self.context:  # its chunks and checks were made under those
            raise ValueError("the request was made under other settings than this run's")
        run_id = run_id or uuid.uuid4().hex
        state = request.graph_input(run_id)
        if self.runs is not None:
            self.runs.start_run(
                run_id,
                text=request.text,
                question=request.question,
                settings=settings_of(self.context),
                documents=list(request.documents),
            )
        # Before any graph work: an identical earlier check answers at the cost of one lookup.
        run = self._run_durable if self.durable else self._run_plain
        key = report_key(
            self.context,
            request.text,
            request.question,
            list(request.documents),
            request.spec_overrides,
            list(request.facts) if request.facts is not None else None,
        )
        report, cached = await through_cache(
            self.context,
            key,
            run_id,
            request.case_id,
            lambda: run(state, run_id, request),
        )
        if cached:
            save_report(self.runs, report)
        return report

    async def _run_plain(
        self, state: dict[str, Any], run_id: str, request: CheckRequest | None = None
    ) -> Report:
        """Run the graph without checkpoints; a failed run is recorded as such (not resumable)."""
        config = run_config(self.context, request=request)
        try:
            report = await arun(state, context=self.context, config=config, on_event=self.on_event)
        except Exception as exc:  # not durable: it cannot be resumed, so do not list it so
            if self.runs is not None:
                self.runs.mark_failed(run_id, str(exc) or type(exc).__name__, status=FAILED)
            raise
        save_report(self.runs, report)
        return report

    async def _run_durable(
        self, state: dict[str, Any], run_id: str, request: CheckRequest | None = None
    ) -> Report:
        """Run the graph checkpointing every step; its checkpoints go once it is finished."""
        from triqua.graph.main import compiled_graph

        async with open_checkpointer(checkpoints_for(self.runs, self.checkpoints)) as saver:
            graph = compiled_graph(checkpointer=saver)
            if await saver.aget_tuple({"configurable": {"thread_id": run_id}}) is not None:
                raise ValueError(f"run {run_id} already has checkpoints: resume it instead")
            try:
                report = await invoke_durable(
                    graph, state, self.context, run_id, self.runs, self.on_event, request=request
                )
            except BaseException as exc:
                with suppress(Exception):  # bookkeeping must not hide the run's own error
                    await settle_failure(graph, saver, run_id, self.runs, exc)
                raise
            save_report(self.runs, report)
            await forget_run(saver, run_id)  # finished (stored or not): its checkpoints are spent
        return report


def checkpoints_for(runs: RunStore | None, checkpoints: str | Path | None) -> str | Path | None:
    """Where a durable run checkpoints: as given, else a Postgres store's database (or None)."""
    if checkpoints is not None:
        return checkpoints
    return runs.database_url if runs is not None else None


async def resume_run(
    run_id: str,
    *,
    runs: RunStore | None,
    store_given: bool,
    context_for: Callable[[dict[str, Any]], Context],
    checkpoints: str | Path | None = None,
    on_event: EventHandler | None = None,
) -> Report:
    """Finish an interrupted durable run from its last checkpoint.

    Args:
        run_id: The run's id (or a prefix the store resolves).
        runs: The store to save it in; without ``store_given`` the run is saved where it was
            started (when it was saved at all).
        store_given: Whether the caller named a store.
        context_for: The run's context from the settings saved with it.
        checkpoints: The checkpoint file (when None: a Postgres store's database, else the
            default file).
        on_event: Called with each progress event.
    """
    from triqua.core.text.inputs import coerce_documents
    from triqua.graph.main import compiled_graph

    if runs is not None:
        with suppress(KeyError):  # the store may not know it; the checkpoints may
            run_id = runs.resolve(run_id)
        refuse_failed(runs, run_id)
    async with open_checkpointer(checkpoints_for(runs, checkpoints)) as saver:
        graph = compiled_graph(checkpointer=saver)
        snapshot = await graph.aget_state({"configurable": {"thread_id": run_id}})
        if not snapshot.values:
            if runs is not None and runs.latest_revision(run_id) is not None:
                return runs.report(run_id)  # finished and saved: nothing left to do
            raise ValueError(f"no interrupted run {run_id!r} to resume")
        metadata: dict[str, Any] = dict(snapshot.metadata or {})
        if not store_given and metadata.get(STORE_KEY):
            runs = RunStore(str(metadata[STORE_KEY]))
        saved = json.loads(str(metadata.get(SETTINGS_KEY) or "{}"))
        ctx = kept_cache(context_for(saved), saved)
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
            ledger = resumed_ledger(run_id, ctx, values) if "spec" in values else None
            report = await invoke_durable(graph, None, ctx, run_id, runs, on_event, ledger)
        else:
            report = values["report"]
        save_report(runs, report)
        await forget_run(saver, run_id)  # finished: its checkpoints are spent
    return report
