"""``triqua batch --ray``: a batch's lines checked by a pool of Ray actors, written by one process.

The driver (the process running the batch) reads the input and each line's evidence files
(so a bad path names its line, and workers need no access to the input's folder) and starts
one actor per worker (:class:`LineChecker`, one CPU each). An actor builds the engines and
loads their models when it starts, then checks line after line, so a batch pays that start
once per worker. The driver streams the lines to whichever actor is free and writes the
reports in input order through the writer the local batch uses: same lines, notices,
summary and gates. A line counts as done only when its report is written, so ``--resume``
works as it does locally.

A worker that dies mid-line is restarted by Ray and the line checked again (:data:`RETRIES`
times); the driver names each line's run, so the retry goes on with the same run in the
store rather than leaving an unfinished one behind, and a line whose retries are spent has
its run marked ``failed`` with the reason. Only the driver writes the output, so every line
is written once. ``ray`` is an extra (``triqua[ray]``) imported only when ``--ray`` is used.
"""

from __future__ import annotations

import itertools
import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from triqua.batch.items import BatchItem
from triqua.batch.ray_cluster import LOCAL, import_ray, ray_cluster
from triqua.batch.writing import BatchJob, failure_text
from triqua.context import Context
from triqua.schema import Document, Report
from triqua.store import FAILED, RunStore, resolve_store

__all__ = ["LOCAL", "RETRIES", "LineChecker", "ray_cluster", "run_on_ray"]

#: Times Ray restarts a worker that died and checks its line again (system failures only).
RETRIES = 3
#: Lines checked ahead of the oldest one not yet written, per worker (results wait, in
#: order, at most this far behind).
_AHEAD_PER_WORKER = 4
#: Environment variables handed to every worker: triqua's settings and data folder.
_ENV_PREFIX = "TRIQUA_"


class LineChecker:
    """One worker of a batch on Ray: engines built at start, then one line after another."""

    def __init__(self, context: Context, store: str | bool, env: dict[str, str]) -> None:
        """Build ``context``'s engines and load their models (once for the whole batch).

        ``env`` is the driver's ``TRIQUA_*`` environment, set here rather than as a Ray
        runtime environment, so Ray may hand the actor a worker process it started ahead.
        """
        os.environ.update(env)
        from triqua.runtime.resources import warm_engines

        self._context = context
        self._store = store
        self._broken: str | None = None
        try:
            warm_engines(context)
        except Exception as exc:  # each line says why (a bad model name, a missing extra)
            self._broken = failure_text(exc)

    def check(self, item: BatchItem, documents: list[Document] | None, run_id: str) -> Report | str:
        """Check one line under ``run_id``: its report, or why it could not be checked."""
        from triqua.api import check

        if self._broken is not None:
            return self._broken
        try:
            return check(
                item.text,
                question=item.question,
                documents=documents,
                context=self._context,
                case_id=str(item.id),
                store=self._store,
                run_id=run_id,
            )
        except Exception as exc:  # the driver reports it with the line's number
            return failure_text(exc)


@dataclass
class _Line:
    """A line sent to a worker: its place in the output, its item and the run it is checked as."""

    seq: int
    item: BatchItem
    run_id: str


@dataclass
class _Pool:
    """The batch's actors, the lines in flight on them and the results waiting to be written."""

    ray: ModuleType
    job: BatchJob
    runs: RunStore | None
    make: Any  # starts one more actor (a replacement for one that died for good)
    idle: list[Any]
    in_flight: dict[Any, tuple[_Line, Any]] = field(default_factory=dict)
    done: dict[int, tuple[_Line, Report | str]] = field(default_factory=dict)
    sent: int = 0
    written: int = 0

    def run(self, items: Iterator[BatchItem]) -> None:
        """Stream ``items`` to the free actors and write every outcome in input order."""
        ahead = _AHEAD_PER_WORKER * len(self.idle)
        more = True
        while True:
            while more and self.idle and self.sent - self.written < ahead:
                more = self._send_next(items)
            if not self.in_flight:
                return
            self._collect_one()

    def _send_next(self, items: Iterator[BatchItem]) -> bool:
        """Send the next readable line to a free actor; False once the input is exhausted."""
        for item in items:
            try:
                documents = self.job.documents(item)
            except Exception as exc:  # the line's evidence: said now, with its line number
                self.job.problem(item, failure_text(exc))
                continue
            line = _Line(self.sent, item, uuid.uuid4().hex)
            actor = self.idle.pop()
            self.in_flight[actor.check.remote(item, documents, line.run_id)] = (line, actor)
            self.sent += 1
            return True
        return False

    def _collect_one(self) -> None:
        """Wait for one line to finish, then write every result that is next in order."""
        [ref], _ = self.ray.wait(list(self.in_flight), num_returns=1)
        line, actor = self.in_flight.pop(ref)
        outcome: Report | str
        try:
            outcome = self.ray.get(ref)
        except self.ray.exceptions.RayError as exc:  # retries spent: the line is left undone
            outcome = f"ray: {type(exc).__name__}: {str(exc).strip().splitlines()[0]}"
            if self.runs is not None:
                self.runs.mark_failed(line.run_id, outcome, status=FAILED)
            if isinstance(exc, self.ray.exceptions.RayActorError):
                actor = self.make()  # that worker is gone for good: start another
        self.idle.append(actor)
        self.done[line.seq] = (line, outcome)
        while self.written in self.done:
            written, result = self.done.pop(self.written)
            if isinstance(result, Report):
                self.job.write(result, written.item)
            else:
                self.job.problem(written.item, result)
            self.written += 1


def _workers(ray: ModuleType, wanted: int) -> int:
    """Workers for a batch: ``wanted``, at most one per CPU of the cluster."""
    cpus = int(ray.cluster_resources().get("CPU", 0))
    return max(1, min(wanted, cpus)) if cpus else wanted


def run_on_ray(items: Iterator[BatchItem], job: BatchJob, address: str) -> None:
    """Check ``items`` on ``job.concurrency`` Ray actors (one CPU each), writing in input order.

    The store is resolved here so every worker saves into the same one (on a cluster of
    several machines, a path every worker can reach, or a PostgreSQL URL).
    """
    import_ray()  # a missing extra is said even when no line is left to check
    first = next(items, None)
    if first is None:  # every line done already (or none readable): no cluster to join
        return
    runs = resolve_store(job.store)
    saved: str | bool = (runs.database_url or str(runs.path)) if runs is not None else False
    env = {name: value for name, value in os.environ.items() if name.startswith(_ENV_PREFIX)}
    with ray_cluster(address) as ray:
        checker = ray.remote(num_cpus=1, max_restarts=RETRIES, max_task_retries=RETRIES)(
            LineChecker
        )

        def make() -> Any:  # the settings go inline: a restarted actor still has them
            return checker.remote(job.context, saved, env)

        actors = [make() for _ in range(_workers(ray, job.concurrency))]
        pool = _Pool(ray, job, runs, make, list(actors))
        try:
            pool.run(itertools.chain([first], items))
        finally:
            for actor in [*pool.idle, *(a for _, a in pool.in_flight.values())]:
                ray.kill(actor)
