"""``triqua serve``: the local check page (``triqua.web.server``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from triqua.cli._common import ModelOption, fail
from triqua.cli._settings import given_settings, settings_flags

#: ``--max-checks``: checks run at once.
MaxChecks = Annotated[
    int,
    typer.Option(
        "--max-checks",
        min=1,
        envvar="TRIQUA_SERVE_MAX_CHECKS",
        help="Checks run at once; one more is answered 503 with Retry-After "
        "(default: TRIQUA_SERVE_MAX_CHECKS or 2).",
    ),
]
#: ``--max-connections``: connections served at once.
MaxConnections = Annotated[
    int,
    typer.Option(
        "--max-connections",
        min=1,
        envvar="TRIQUA_SERVE_MAX_CONNECTIONS",
        help="Connections served at once, at least --max-checks; one more is answered 503 "
        "with Retry-After (default: TRIQUA_SERVE_MAX_CONNECTIONS or 16).",
    ),
]


def serve(
    host: Annotated[
        str, typer.Option(help="Address to bind; keep the loopback default unless you mean it.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on (0: any free one).")] = 8765,
    model: ModelOption = None,
    flags: dict[str, Any] | None = None,
    store: Annotated[
        Path | None, typer.Option("--store", help="Run store file (default: user data).")
    ] = None,
    no_store: Annotated[bool, typer.Option("--no-store", help="Do not save the runs.")] = False,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host",
            metavar="HOST",
            help="Another host name requests may use (repeatable); loopback names and "
            "--host are always allowed.",
        ),
    ] = None,
    max_checks: MaxChecks = 2,
    max_connections: MaxConnections = 16,
) -> None:
    """Open a local page to paste text (and evidence) into; progress and verdicts stream in.

    Every check runs with this command's settings (engine, retriever, limits) and is stored
    like a CLI run. The page lists each fact on one line, with the same report as --html
    folded underneath. Stop with Ctrl-C.

    Only the page itself can start a check (a token made at start, its own origin, POST);
    requests naming any other host are refused, so other web sites cannot drive or read it.
    At most --max-checks checks run at once; the page asks the next to try again later.
    At most --max-connections connections are served at once, and a request must arrive
    within 30 s, so slow or stalled clients cannot hold the server. Exit codes: 0 stopped
    with Ctrl-C, 2 a usage error or an address it cannot listen on.
    """
    import triqua
    from triqua.web.guard import is_loopback
    from triqua.web.server import CheckServer

    if max_connections < max_checks:
        raise fail(
            f"--max-connections ({max_connections}) must be at least --max-checks ({max_checks})"
        )
    settings: dict[str, Any] = given_settings(**(flags or {}))
    if model is not None:
        settings["model"] = model
    settings["store"] = False if no_store else (str(store) if store else True)
    try:
        server = CheckServer(
            (host, port),
            triqua.check,
            settings,
            allowed_hosts=allow_host or (),
            max_checks=max_checks,
            max_connections=max_connections,
        )
    except OSError as exc:
        raise fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    if not is_loopback(host):
        typer.echo(
            f"warning: listening on {host}, not loopback: anyone who can reach this machine "
            "can open the page and run checks with your settings, keys and collections",
            err=True,
        )
    typer.echo(f"triqua serve: open {server.url} (Ctrl-C to stop)", err=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        typer.echo("stopped", err=True)
    finally:
        server.server_close()


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the command."""
    app.command()(settings_flags(serve))
