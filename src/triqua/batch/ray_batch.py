"""``triqua batch --ray``: a batch's lines checked as Ray tasks, written by one process.

The driver (the process running the batch) reads the input and each line's evidence files
(so a bad path names its line, and workers need no access to the input's folder), sends
each line to a Ray task, and writes the reports as they come back through the writer the
local batch uses: same lines, notices, summary and gates. A line counts as done only when
its report is written, so ``--resume`` works as it does locally. Ray reuses a worker
process from task to task, so triqua's cached factories build the engines (the offline
engine's models) once per worker, not per line. A worker that dies mid-line is retried by
Ray (:data:`RETRIES`) and the line is still written once, since only the driver writes.
``ray`` is an extra (``triqua[ray]``) imported only here, when ``--ray`` is used.
"""

from __future__ import annotations

import itertools
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from triqua.batch.items import BatchItem
from triqua.batch.writing import BatchJob, failure_text
from triqua.context import Context
from triqua.schema import Document, Report
from triqua.store import resolve_store

__all__ = ["LOCAL", "RETRIES", "ray_cluster", "run_on_ray"]

#: The ``--ray`` value that starts a Ray cluster on this machine for the batch.
LOCAL = "local"
#: Times Ray runs a line again when its worker process dies (system failures only).
RETRIES = 3
#: Environment variables handed to every worker: triqua's settings and data folder.
_ENV_PREFIX = "TRIQUA_"


def _import_ray() -> ModuleType:
    """The ``ray`` module, or a one-line ``ValueError`` naming the extra that installs it."""
    try:
        import ray
    except ImportError:
        raise ValueError(
            "--ray needs Ray, which is not installed: pip install 'triqua[ray]'"
        ) from None
    return ray


@contextmanager
def ray_cluster(address: str) -> Iterator[ModuleType]:
    """Ray connected for a block: ``local`` starts a cluster here, an address joins one.

    A Ray already initialised in this process (a host program's, a test session's) is used
    as it is and left running; a cluster this call joined or started is left on exit.

    Raises:
        ValueError: when Ray is not installed or the cluster cannot be joined.
    """
    ray = _import_ray()
    if ray.is_initialized():
        yield ray
        return
    options: dict[str, Any] = {
        "include_dashboard": False,
        "log_to_driver": False,  # workers' own logs stay in Ray's session folder
        "logging_level": logging.WARNING,
    }
    if address != LOCAL:
        options["address"] = address
    try:
        ray.init(**options)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise ValueError(f"ray: cannot join the cluster at {address} ({exc})") from None
    try:
        yield ray
    finally:
        ray.shutdown()


def check_line(
    context: Context, store: str | bool, item: BatchItem, documents: list[Document] | None
) -> Report | str:
    """Check one line (in a Ray worker): its report, or why it could not be checked."""
    from triqua.api import check

    try:
        return check(
            item.text,
            question=item.question,
            documents=documents,
            context=context,
            case_id=str(item.id),
            store=store,
        )
    except Exception as exc:  # the driver reports it with the line's number
        return failure_text(exc)


def run_on_ray(items: Iterator[BatchItem], job: BatchJob, address: str) -> None:
    """Check ``items`` as Ray tasks, ``job.concurrency`` at most in flight, writing each as done.

    Each task takes one CPU of the cluster; the store is resolved here so every worker saves
    into the same one (on a cluster of several machines, a path every worker can reach).
    """
    _import_ray()  # a missing extra is said even when no line is left to check
    first = next(items, None)
    if first is None:  # every line done already (or none readable): no cluster to join
        return
    runs = resolve_store(job.store)
    saved: str | bool = (runs.database_url or str(runs.path)) if runs is not None else False
    env = {name: value for name, value in os.environ.items() if name.startswith(_ENV_PREFIX)}
    with ray_cluster(address) as ray:
        task = ray.remote(num_cpus=1, max_retries=RETRIES, runtime_env={"env_vars": env})(
            check_line
        )
        shared = ray.put(job.context)
        pending: dict[Any, BatchItem] = {}

        def finish_one() -> None:
            [ref], _ = ray.wait(list(pending), num_returns=1)
            item = pending.pop(ref)
            try:
                outcome = ray.get(ref)
            except ray.exceptions.RayError as exc:  # retries spent: the line is left undone
                outcome = f"ray: {type(exc).__name__}: {str(exc).splitlines()[0]}"
            if isinstance(outcome, Report):
                job.write(outcome, item)
            else:
                job.problem(item, outcome)

        for item in itertools.chain([first], items):
            try:
                documents = job.documents(item)
            except Exception as exc:
                job.problem(item, failure_text(exc))
                continue
            pending[task.remote(shared, saved, item, documents)] = item
            if len(pending) >= job.concurrency:
                finish_one()
        while pending:
            finish_one()
