"""``--store-url``: the run store (and a durable run's checkpoints) in PostgreSQL."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from triqua.cli._common import fail

#: The environment variable ``--store-url`` falls back to (``triqua.store.STORE_URL_ENV``).
STORE_URL_ENV = "TRIQUA_STORE_URL"

StoreUrlOption = Annotated[
    str | None,
    typer.Option(
        "--store-url",
        envvar=STORE_URL_ENV,
        metavar="URL",
        show_envvar=True,
        help="Keep runs and checkpoints in PostgreSQL (postgresql://…; triqua[postgres]).",
    ),
]


def store_location(store: Path | None, store_url: str | None) -> Path | str | None:
    """The store the flags name: ``--store FILE``, else ``--store-url URL``; None: default.

    A ``--store`` typed on the command line wins over ``$TRIQUA_STORE_URL``.

    Raises:
        typer.Exit: both flags typed, or a URL that is not ``postgresql://``.
    """
    if not store_url:
        return store
    if store is not None:
        if store_url == os.environ.get(STORE_URL_ENV):
            return store
        raise fail("give --store FILE or --store-url URL, not both")
    if not store_url.startswith(("postgresql://", "postgres://")):
        raise fail(f"--store-url takes a postgresql:// URL, not {store_url.split('://')[0]!r}")
    return store_url
