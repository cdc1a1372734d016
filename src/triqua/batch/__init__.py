"""Batch checks: many responses from a JSONL file, bounded concurrency, resumable output.

Input: one JSON object per line with ``id``, ``text``, optional ``question`` and optional
``evidence`` (a list whose items are a text string or ``{"path": FILE}``; relative paths
resolve against the input file's folder, and a path may only point inside that folder, the
current folder or a folder of ``allow_paths``). Output: one JSON report per line, ``{"id": …,
**report}``, flushed as each check finishes (so in completion order). On a rerun, ids
already in the output file are skipped, so an interrupted batch resumes where it stopped.
A malformed line or a check that raised is reported with its line number and left out of
the output (a rerun retries it); nothing else is lost. Every report line carries its
``outcome``: ``complete``, ``partial`` (some chunks or facts failed, or a limit such as
``max_facts`` stopped the check before the end of the text; listed on stderr) or
``failed`` (errors left nothing checked; listed on stderr). A rerun checks failed lines
again: their report lines are taken out of the output and the fresh ones written instead.
One output file is written by one batch at a time (a lock file beside it, ``.NAME.lock``);
a second batch on it stops at once with a clear error.

The package splits by concept: ``items`` (the input), ``writing`` (a line's evidence read,
its report written), ``summary`` (what the batch did), the run itself (:func:`run_batch`),
and ``ray_batch`` (the lines checked on a Ray cluster, ``ray=``).
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from filelock import FileLock
from filelock import Timeout as LockTimeout
from langchain_core.language_models import BaseChatModel
from rich.console import Console

from triqua.api import arun_request, make_context, make_request
from triqua.batch.items import (
    BatchItem,
    completed_ids,
    finished_lines,
    read_items,
)
from triqua.batch.progress import batch_progress
from triqua.batch.summary import BatchSummary, LineResult
from triqua.batch.writing import BatchJob, Reporters, failure_text
from triqua.context import Context
from triqua.support.interrupts import run_interruptible
from triqua.support.wording import printable_text
from triqua.tools.evidence_files import check_readable_file

__all__ = ["BatchItem", "BatchSummary", "completed_ids", "read_items", "run_batch"]


async def _run(items: Iterator[BatchItem], job: BatchJob) -> None:
    """Check items with ``job.concurrency`` workers pulling from one iterator, writing as done."""

    async def worker() -> None:
        for item in items:  # workers share the iterator; next() never awaits
            try:
                request = make_request(
                    item.text,
                    job.context,  # the batch's one Context, made once
                    question=item.question,
                    documents=job.documents(item),
                    case_id=str(item.id),
                )
                report = await arun_request(request, store=job.store)
            except Exception as exc:  # a failed check is reported; the batch goes on
                job.problem(item, failure_text(exc))
                continue
            job.write(report, item)

    await asyncio.gather(*(worker() for _ in range(job.concurrency)))


def _nothing() -> None:
    """Count nothing: no batch is running."""


@contextmanager
def _only_writer(output: Path) -> Iterator[None]:
    """Hold the output file's lock for the batch; another batch on it is refused at once.

    Raises:
        ValueError: when another batch holds it.
    """
    lock = FileLock(output.with_name(f".{output.name}.lock"), timeout=0)
    try:
        with lock:
            yield
    except LockTimeout:
        raise ValueError(
            f"{output}: another batch is writing this output file; wait for it to end or "
            "choose another --output"
        ) from None


@dataclass
class _Batch:
    """One batch as it runs: where it reads and reports, its settings, what it counts.

    Attributes:
        source: The JSONL input.
        ctx: The settings of every check (one Context, made once).
        concurrency: Checks running at once (or Ray workers).
        store: Where each line's run is saved (see :func:`run_batch`).
        ray: The Ray cluster to check on (None: here).
        quiet: No progress bar or summary table.
        out: Where problems, warnings and the summary go.
        summary: What the batch did, filled as it runs.
        line_done: The progress bar's counter while the batch runs.
    """

    source: Path
    ctx: Context
    concurrency: int
    store: bool | str | Path | None
    ray: str | None
    quiet: bool
    out: Console
    summary: BatchSummary = field(default_factory=BatchSummary)
    line_done: Callable[[], None] = _nothing

    def notice(self, message: str) -> None:
        """Say ``message``, even when quiet: nothing is lost silently."""
        shown = printable_text(message)  # a line's id, text or path is data
        self.out.print(shown, markup=False, highlight=False, soft_wrap=True)

    def problem(self, message: str) -> None:
        """Report one line of the input that was not checked (it counts as done)."""
        self.summary.problems.append(message)
        self.notice(message)
        self.line_done()

    def warn(self, message: str) -> None:
        """Report what went wrong while the batch kept going."""
        self.summary.warnings.append(message)
        shown = printable_text(f"warning: {message}")
        self.out.print(shown, markup=False, highlight=False, soft_wrap=True)

    def pending(self, done: dict[str, LineResult | None]) -> Iterator[BatchItem]:
        """The input's items still to check; those ``done`` are counted and skipped."""
        for item in read_items(self.source, self.problem):
            if str(item.id) in done:
                self.summary.reuse(done[str(item.id)])
                self.line_done()
                continue
            yield item

    def execute(self, sink: TextIO, done: dict[str, LineResult | None]) -> None:
        """Check the pending lines, here or on Ray, writing each report to ``sink``.

        A line is done (the bar counts it) when written, skipped or refused.
        """
        say = Reporters(self.problem, self.warn, self.notice, written=lambda: self.line_done())
        job = BatchJob(sink, self.ctx, self.concurrency, self.summary, self.source, say, self.store)
        with batch_progress(self.out, self.source, self.summary, quiet=self.quiet) as line_done:
            self.line_done = line_done
            if self.ray is None:
                # Ctrl-C ends the batch at once, even while a line waits on a silent service;
                # the pool is sized as ``asyncio.run``'s default executor.
                workers = min(32, (os.cpu_count() or 1) + 4)
                run_interruptible(_run(self.pending(done), job), workers=workers)
                return
            from triqua.batch.ray_batch import run_on_ray

            run_on_ray(self.pending(done), job, self.ray)


def run_batch(
    input_path: str | Path,
    output: str | Path | TextIO | None = None,
    *,
    concurrency: int = 4,
    resume: bool = True,
    console: Console | None = None,
    quiet: bool = False,
    context: Context | None = None,
    model: str | BaseChatModel | None = None,
    store: bool | str | Path | None = None,
    ray: str | None = None,
    **settings: Any,
) -> BatchSummary:
    """Check every response of a JSONL file and write one report per line.

    Args:
        input_path: JSONL input (``id``, ``text``, optional ``question`` and ``evidence``).
        output: Output file (appended to when resuming), an open text stream, or ``None``
            for stdout.
        concurrency: Checks running at once.
        resume: Skip ids whose report completed in the output file (failed ones are taken
            out and checked again); ``False`` starts the file afresh.
        console: Where problems and the summary table go (default: stderr).
        quiet: No summary table (problems are still reported, and the summary returned).
        context: Base settings of every check; ``settings`` override its fields.
        model: Chat model (name or instance) for every role; unset: the offline engine.
        store: Save each line's run in the run store (True: the default store; a path:
            that store; None or False: not saved). Each report line carries its
            ``run_id``, so ``triqua show RUN`` opens it.
        ray: Check the lines on Ray actors (``triqua[ray]``): ``"local"`` starts a cluster
            here, an address (``host:port``, ``auto``) joins one; ``concurrency`` is then
            the number of workers (one per CPU at most), each loading the engines once.
        **settings: ``Context`` fields, e.g. ``retriever="chroma"``.

    Raises:
        ValueError: on bad settings or an unreadable input file.
    """
    if concurrency < 1:
        raise ValueError(f"concurrency must be >= 1, got {concurrency}")
    source = Path(input_path)
    check_readable_file(source)  # missing, a folder, or a FIFO or device (never read)
    ctx = make_context(context, model=model, **settings)
    out = console or Console(stderr=True)
    batch = _Batch(source, ctx, concurrency, store, ray, quiet, out)
    began = time.perf_counter()
    if isinstance(output, str | Path):
        target = Path(output)
        with _only_writer(target):
            done = finished_lines(target) if resume else {}
            with target.open("a" if resume else "w", encoding="utf-8") as handle:
                batch.execute(handle, done)
    else:
        batch.execute(output if output is not None else sys.stdout, {})
    summary = batch.summary
    summary.seconds = time.perf_counter() - began
    if not quiet:
        out.print(summary.table())
    return summary
