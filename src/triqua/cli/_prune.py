"""``triqua runs prune``: remove the leftovers of unfinished and failed runs."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from triqua.cli._common import fail
from triqua.cli._store import StoreUrlOption, store_location
from triqua.runtime.persistence.checkpoints import DEFAULT_UNFINISHED_DAYS
from triqua.support.dbfiles import StoreError
from triqua.support.wording import counted

if TYPE_CHECKING:  # loaded when the command runs, so that ``triqua --help`` stays fast
    from triqua.runtime.persistence.prune import PruneResult


def _megabytes(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB"


def _age(when: datetime | None, now: datetime) -> str:
    if when is None:
        return "?"
    days = (now - when).total_seconds() / 86400
    return f"{days:.1f} d" if days >= 1 else f"{days * 24:.1f} h"


def _print(result: PruneResult, console: Console) -> None:
    from triqua.runtime.persistence.prune import SPENT

    now = datetime.now(UTC)
    if result.runs:
        table = Table()
        for column in ("run", "status", "last active", "removes"):
            table.add_column(column, no_wrap=True)
        for run in result.runs:
            parts = (["store row"] if run.in_store and run.status != SPENT else []) + (
                ["checkpoints"] if run.has_checkpoints else []
            )
            table.add_row(run.run_id[:12], run.status, _age(run.last_active, now), ", ".join(parts))
        console.print(table)
    counts = ", ".join(f"{n} {status}" for status, n in sorted(result.counts().items()))
    verb = "would prune" if result.dry_run else "pruned"
    line = f"{verb} {counted(len(result.runs), 'run')}" + (f" ({counts})" if counts else "")
    if not result.dry_run:
        line += (
            f"; checkpoints {_megabytes(result.bytes_before)} -> {_megabytes(result.bytes_after)}"
        )
    typer.echo(line, err=True)


def prune(
    older_than: Annotated[
        float | None,
        typer.Option(
            "--older-than",
            metavar="DAYS",
            help="Only runs last active more than DAYS ago (default: "
            f"{DEFAULT_UNFINISHED_DAYS:g} for unfinished runs, any age for failed ones).",
        ),
    ] = None,
    unfinished: Annotated[
        bool, typer.Option("--unfinished", help="Interrupted runs: checkpoints and input.")
    ] = False,
    failed_at_start: Annotated[
        bool, typer.Option("--failed-at-start", help="Runs that failed before their first step.")
    ] = False,
    failed: Annotated[
        bool, typer.Option("--failed", help="Runs that failed and were not durable.")
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only list what would be removed.")
    ] = False,
    store: Annotated[
        Path | None, typer.Option("--store", help="Run store file (default: user data).")
    ] = None,
    checkpoints: Annotated[
        Path | None,
        typer.Option("--checkpoints", help="Checkpoint file (default: user data)."),
    ] = None,
    store_url: StoreUrlOption = None,
) -> None:
    """Remove unfinished and failed runs and spent checkpoints; finished runs stay.

    With none of --unfinished, --failed-at-start, --failed: all three.
    """
    from triqua.runtime.persistence.checkpoints import default_checkpoint_path
    from triqua.runtime.persistence.prune import prune as run_prune
    from triqua.store import RunStore

    if older_than is not None and older_than < 0:
        raise fail(f"--older-than must be 0 or more days, got {older_than:g}")
    every = not (unfinished or failed_at_start or failed)
    location = store_location(store, store_url)
    try:
        opened = RunStore(location)
        result = run_prune(
            opened,
            Path(checkpoints).expanduser()
            if checkpoints
            else opened.database_url or default_checkpoint_path(),
            older_than=older_than,
            unfinished=every or unfinished,
            failed_at_start=every or failed_at_start,
            failed=every or failed,
            dry_run=dry_run,
        )
    except (StoreError, OSError) as exc:
        raise fail(str(exc)) from exc
    _print(result, Console(stderr=True))
