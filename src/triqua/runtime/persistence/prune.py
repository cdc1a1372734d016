"""``triqua runs prune``: remove what unfinished and failed runs left behind.

A finished run is never touched: its input, records, verdicts, evidence and reports stay in
the append-only store. What goes:

- checkpoints of finished runs (spent: left by an older triqua or a crash while saving);
- unfinished runs (interrupted, resumable): their checkpoints and their input row;
- failed runs (failed at start, or not durable): their input row and outcome.

A run in progress is unfinished too, so unfinished runs are pruned only once their last
checkpoint is older than ``older_than`` days (default 1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from triqua.runtime.persistence.checkpoints import (
    DEFAULT_UNFINISHED_DAYS,
    compact,
    delete_threads,
    thread_ages,
)
from triqua.store import FAILED, FAILED_AT_START, RunStore

__all__ = ["DEFAULT_UNFINISHED_DAYS", "Prunable", "PruneResult", "plan_prune", "prune"]

UNFINISHED = "unfinished"
SPENT = "finished (spent checkpoints)"


@dataclass(frozen=True)
class Prunable:
    """One run (or checkpoint thread) that a prune removes."""

    run_id: str
    status: str
    last_active: datetime | None
    in_store: bool
    has_checkpoints: bool


@dataclass
class PruneResult:
    """What a prune removed (or, on a dry run, would remove)."""

    runs: list[Prunable] = field(default_factory=list)
    dry_run: bool = False
    checkpoint_rows: int = 0
    bytes_before: int = 0
    bytes_after: int = 0

    def counts(self) -> dict[str, int]:
        """Runs per status."""
        found: dict[str, int] = {}
        for run in self.runs:
            found[run.status] = found.get(run.status, 0) + 1
        return found


def _parse(stamp: str) -> datetime | None:
    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _latest(*stamps: datetime | None) -> datetime | None:
    known = [s for s in stamps if s is not None]
    return max(known) if known else None


def plan_prune(
    store: RunStore,
    checkpoints: Path | str,
    *,
    older_than: float | None = None,
    unfinished: bool = True,
    failed_at_start: bool = True,
    failed: bool = True,
    now: datetime | None = None,
) -> list[Prunable]:
    """The runs a prune would remove, oldest first.

    Args:
        store: The run store.
        checkpoints: The checkpoint file, or the PostgreSQL URL of the checkpoints.
        older_than: Only runs last active more than this many days ago (default: 1 day for
            unfinished runs, any age for failed ones).
        unfinished: Include interrupted runs (and checkpoints of runs the store lacks).
        failed_at_start: Include runs that failed before their first step.
        failed: Include runs that failed without checkpoints (not durable).
        now: The current time (for tests).
    """
    now = now or datetime.now(UTC)
    threads = thread_ages(checkpoints)
    finished = {r.run_id for r in store.runs() if r.revisions}
    wanted = {
        UNFINISHED: unfinished,
        FAILED_AT_START: failed_at_start,
        FAILED: failed,
    }

    def old_enough(status: str, when: datetime | None) -> bool:
        days = older_than
        if days is None:
            days = DEFAULT_UNFINISHED_DAYS if status == UNFINISHED else 0.0
        return days <= 0 or (when is not None and now - when > timedelta(days=days))

    plan = [
        Prunable(run_id, SPENT, when, True, True)
        for run_id, when in threads.items()
        if run_id in finished
    ]
    stored = set()
    for run in store.unreported():
        stored.add(run.run_id)
        when = _latest(_parse(run.created_at), threads.get(run.run_id))
        if wanted.get(run.status) and old_enough(run.status, when):
            plan.append(Prunable(run.run_id, run.status, when, True, run.run_id in threads))
    if unfinished:
        for run_id, when in threads.items():
            if run_id not in finished and run_id not in stored and old_enough(UNFINISHED, when):
                plan.append(Prunable(run_id, UNFINISHED, when, False, True))
    far_past = datetime.min.replace(tzinfo=UTC)
    return sorted(plan, key=lambda p: (p.last_active or far_past, p.run_id))


def prune(
    store: RunStore,
    checkpoints: Path | str,
    *,
    older_than: float | None = None,
    unfinished: bool = True,
    failed_at_start: bool = True,
    failed: bool = True,
    dry_run: bool = False,
    now: datetime | None = None,
) -> PruneResult:
    """Remove the runs :func:`plan_prune` selects, then compact the checkpoint file.

    Args:
        store: The run store.
        checkpoints: The checkpoint file, or the PostgreSQL URL of the checkpoints.
        older_than: As for :func:`plan_prune`.
        unfinished: As for :func:`plan_prune`.
        failed_at_start: As for :func:`plan_prune`.
        failed: As for :func:`plan_prune`.
        dry_run: Only say what would be removed.
        now: The current time (for tests).
    """
    plan = plan_prune(
        store,
        checkpoints,
        older_than=older_than,
        unfinished=unfinished,
        failed_at_start=failed_at_start,
        failed=failed,
        now=now,
    )
    result = PruneResult(runs=plan, dry_run=dry_run)
    if dry_run:
        return result
    store.remove_unreported([p.run_id for p in plan if p.in_store and p.status != SPENT])
    result.checkpoint_rows = delete_threads(
        checkpoints, [p.run_id for p in plan if p.has_checkpoints]
    )
    result.bytes_before, result.bytes_after = compact(checkpoints)
    return result
