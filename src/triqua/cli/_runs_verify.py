"""``triqua runs verify``: recompute the run store's hash chain and name the first row changed."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from triqua.cli._common import fail
from triqua.cli._store import StoreUrlOption, store_location
from triqua.support.dbfiles import StoreError
from triqua.support.wording import counted, plural

#: Exit status when a row differs from what triqua wrote.
TAMPERED = 1


def verify(
    store: Annotated[
        Path | None, typer.Option("--store", help="Run store file (default: user data).")
    ] = None,
    store_url: StoreUrlOption = None,
) -> None:
    """Check that no stored row was changed, added or deleted behind the store's back.

    Every row triqua writes is entered in a hash chain; this recomputes it. Exit codes: 0
    intact, 1 a row differs (the first one is named), 2 the store cannot be read.
    """
    from triqua.store import RunStore

    try:
        opened = RunStore(store_location(store, store_url))
        found = opened.verify_integrity()
    except (StoreError, OSError) as exc:
        raise fail(str(exc)) from exc
    if not found.ok:
        first, more = found.problems[0], len(found.problems) - 1
        also = f"; {counted(more, 'more row')} {plural(more, 'differs', 'differ')}" if more else ""
        raise fail(f"run store {opened.path}: {first.describe()}{also}", TAMPERED)
    typer.echo(
        f"run store {opened.path}: {counted(found.rows, 'row')} as written "
        f"(hash chain of {counted(found.entries, 'entry', 'entries')}, head {found.head[:16]})"
    )
