"""``triqua store init``: a PostgreSQL run store owned by one role and used by another."""

from __future__ import annotations

import asyncio
from typing import Annotated

import typer

from triqua.cli._common import fail


def init(
    url: Annotated[
        str,
        typer.Option(
            "--url",
            metavar="URL",
            help="postgresql:// URL of a login that is OWNER or a member of it.",
        ),
    ],
    owner: Annotated[
        str, typer.Option("--owner", metavar="ROLE", help="Role that owns the tables.")
    ],
    run_as: Annotated[
        str | None,
        typer.Option(
            "--run-as",
            metavar="ROLE",
            help="Role triqua runs as: granted reading and appending only.",
        ),
    ] = None,
) -> None:
    """Create the run store and checkpoint tables as OWNER; grant --run-as what checks need.

    Only a table's owner may disable or drop its triggers, so a role that does not own the
    tables cannot rewrite the append-only store. --run-as gets SELECT and INSERT on the
    store, DELETE of runs without a report (runs prune) and the checkpoints of durable
    runs. `triqua runs delete` lifts the triggers, so it needs the owner's URL.
    """
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

    from triqua.runtime.persistence.pg_checkpoints import open_pg_checkpointer
    from triqua.store import StoreError
    from triqua.store.pg_roles import grant_run_as, init_store

    if not url.startswith(("postgresql://", "postgres://")):
        raise fail(f"--url takes a postgresql:// URL, not {url.split('://')[0]!r}")

    async def set_up(owned: str) -> None:
        async with open_pg_checkpointer(owned, JsonPlusSerializer()):
            pass  # the saver's tables created (or migrated) as the owner

    try:
        owned = init_store(url, owner)
        asyncio.run(set_up(owned))
        if run_as is not None:
            grant_run_as(owned, run_as, checkpoints=True)
    except (StoreError, ValueError) as exc:
        raise fail(str(exc)) from exc
    except Exception as exc:  # the server refused a statement (a role that does not exist)
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise fail(f"store init: {first}") from exc
    granted = f"; {run_as} may read and append" if run_as else ""
    typer.echo(f"run store ready, owned by {owner}{granted}", err=True)


def register(app: typer.Typer) -> None:
    """Add the ``store`` group (``init``)."""
    group = typer.Typer(add_completion=False, help="Set up a run store.")
    group.command()(init)
    app.add_typer(group, name="store")
