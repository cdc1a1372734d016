"""Progress of a running check, from the graph's custom stream events.

The graph emits ``chunk_decomposed``, ``facts_found``, ``fact_verified`` (one per fact, from
the per-batch subgraph) and ``scored``. :class:`ProgressTracker` folds them into counts and a
running score; :func:`astream_check` yields them with the final report; :func:`run_with_progress`
draws a rich progress bar on stderr when that is a terminal and the text is long, and stays
silent otherwise, so piped output is never mixed with progress.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from typing import Any

from langchain_core.language_models import BaseChatModel
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from triqua.api import make_context, make_request
from triqua.context import Context
from triqua.execution.runner import astream, run_config
from triqua.rendering.terminal import fmt_score
from triqua.runtime.request import CheckRequest
from triqua.schema import Document, Report

__all__ = ["ProgressTracker", "astream_check", "run_with_progress", "wants_progress"]

#: Texts with more chunks than this get a progress bar.
MIN_CHUNKS = 3


@dataclass
class ProgressTracker:
    """Counts and a running score folded from a check's stream events."""

    chunks_total: int = 0
    chunks_done: int = 0
    facts_total: int | None = None
    facts_done: int = 0
    units: int = 0
    supported_units: int = 0
    by_status: Counter[str] = field(default_factory=Counter)
    score: float | None = None
    finished: bool = False

    def update(self, event: dict[str, Any]) -> None:
        """Fold one custom stream event into the counts."""
        name = event.get("event")
        if name == "chunk_decomposed":
            self.chunks_done += 1
        elif name == "facts_found":
            self.facts_total = int(event.get("facts", 0))
        elif name == "fact_verified":
            self.facts_done += 1
            self.by_status[str(event.get("status"))] += 1
            self.units += int(event.get("units", 0))
            self.supported_units += int(event.get("supported_units", 0))
        elif name == "scored":
            self.score = event.get("score")
            self.finished = True

    @property
    def score_so_far(self) -> float | None:
        """Supported units over checked units so far (before dedup); ``None`` before any."""
        return self.supported_units / self.units if self.units else None

    def describe(self) -> str:
        """One line: the running score (the final one once scored) and counts per status."""
        score = self.score if self.finished else self.score_so_far
        label = "TriQuaScore" if self.finished else "score so far"
        counts = ", ".join(f"{n} {status}" for status, n in sorted(self.by_status.items()))
        return f"{label} {fmt_score(score)}" + (f" · {counts}" if counts else "")


async def astream_check(
    text: str,
    *,
    question: str | None = None,
    documents: Sequence[Document | str | dict[str, Any]] | None = None,
    context: Context | None = None,
    model: str | BaseChatModel | None = None,
    spec_overrides: dict[str, Any] | None = None,
    **settings: Any,
) -> AsyncIterator[dict[str, Any] | Report]:
    """Check ``text``, yielding each custom stream event (a dict) and then the ``Report``.

    Arguments are those of :func:`triqua.acheck`. Events come from the main graph and from
    every fact's verification subgraph (``subgraphs=True``).
    """
    ctx = make_context(context, model=model, **settings)
    request = make_request(
        text, ctx, question=question, documents=documents, spec_overrides=spec_overrides
    )
    state = request.graph_input(uuid.uuid4().hex)
    async for item in astream(state, context=ctx, config=run_config(ctx, request=request)):
        yield item


CONTEXT_FIELDS = frozenset(f.name for f in dataclass_fields(Context))
#: ``check`` arguments that go into its request (:func:`triqua.api.make_request`).
REQUEST_FIELDS = ("question", "documents", "spec_overrides", "case_id", "facts")


def wants_progress(request: CheckRequest, console: Console, *, quiet: bool) -> bool:
    """True when a bar helps: not quiet, the console is a terminal and the text is long."""
    if quiet or not console.is_terminal:
        return False
    return len(request.chunks) >= MIN_CHUNKS


def run_with_progress(
    text: str | None,
    *,
    quiet: bool = False,
    console: Console | None = None,
    context: Context | None = None,
    model: str | BaseChatModel | None = None,
    **check_kwargs: Any,
) -> Report:
    """Check ``text`` like :func:`triqua.check`, with a progress bar on stderr when useful.

    The check goes through the API: its request is made once (:func:`triqua.api.make_request`)
    and run (:func:`triqua.api.run_request`); the bar is fed by the run's progress events.

    Args:
        text: The text to check (None when resuming a run).
        quiet: Never draw a bar.
        console: Where the bar goes (default: stderr); no bar unless it is a terminal.
        context: Base settings; taken as they are (made by ``make_context``) when no
            ``model`` or setting is given besides.
        model: Chat model (name or instance) for every role.
        **check_kwargs: Any other argument of :func:`triqua.check` (``question``,
            ``documents``, ``run_id``, ``store``, ``durable``, ``resume``, ``Context`` fields).
    """
    from triqua.api import check, run_request

    out = console or Console(stderr=True)
    if text is None:  # resuming: the run's saved settings apply, overridden by these
        return check(text, context=context, model=model, **check_kwargs)
    check_kwargs.pop("resume", None)
    fields = {k: check_kwargs.pop(k) for k in list(check_kwargs) if k in CONTEXT_FIELDS}
    given = {k: check_kwargs.pop(k) for k in REQUEST_FIELDS if k in check_kwargs}
    # The run's one Context: the caller's, else built here; and its one request.
    if context is None or model is not None or fields:
        context = make_context(context, model=model, **fields)
    request = make_request(text, context, **given)
    if not wants_progress(request, out, quiet=quiet):
        return run_request(request, **check_kwargs)
    chunks_total = 0 if request.facts is not None else len(request.chunks) - len(request.long)
    tracker = ProgressTracker(chunks_total=chunks_total)
    columns = (
        TextColumn("{task.description:<10}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[status]}"),
    )
    with Progress(*columns, console=out, transient=False) as bar:
        chunks = bar.add_task("decompose", total=tracker.chunks_total, status="")
        facts = bar.add_task("verify", total=None, status="")

        def on_event(event: dict[str, Any]) -> None:
            tracker.update(event)
            bar.update(chunks, completed=tracker.chunks_done)
            bar.update(
                facts,
                total=tracker.facts_total,
                completed=tracker.facts_done,
                status=tracker.describe(),
            )

        return run_request(request, on_event=on_event, **check_kwargs)
