"""``triqua runs delete RUN…``: remove stored runs whole (every revision, their checkpoints)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from triqua.cli._common import fail
from triqua.cli._store import StoreUrlOption, store_location


def delete(
    run_ids: Annotated[
        list[str], typer.Argument(metavar="RUN", help="Run ids or unique prefixes.")
    ],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Delete without asking.")] = False,
    store: Annotated[
        Path | None, typer.Option("--store", help="Run store file (default: user data).")
    ] = None,
    store_url: StoreUrlOption = None,
) -> None:
    """Delete stored runs whole: input, facts, every revision and their checkpoints."""
    from triqua.runtime.persistence.checkpoints import default_checkpoint_path
    from triqua.runtime.persistence.run_delete import delete_runs
    from triqua.store import RunStore

    try:
        opened = RunStore(store_location(store, store_url))
        full = [opened.resolve(run_id) for run_id in run_ids]
    except KeyError as exc:
        raise fail(str(exc.args[0]) if exc.args else str(exc)) from exc
    except OSError as exc:
        raise fail(f"cannot open the run store: {exc}") from exc
    if not yes:
        if sys.stdin is None or not sys.stdin.isatty():
            raise fail("deleting runs cannot be undone: pass --yes to delete without asking")
        typer.confirm(f"delete {len(set(full))} run(s) for good?", abort=True, err=True)
    try:
        deleted = delete_runs(opened, full, checkpoints=default_checkpoint_path())
    except (KeyError, OSError) as exc:
        raise fail(str(exc)) from exc
    for run_id in deleted:
        typer.echo(f"deleted run {run_id}", err=True)
