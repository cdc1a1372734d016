"""The ``triqua`` command. Each module of this package adds its commands with ``register(app)``.

Commands are discovered from the package so that each feature keeps its command beside it.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from typing import Annotated

import typer

from triqua.cli._help import FlagsWithoutTypes

#: Exit status of a command ended by Ctrl-C (128 + SIGINT).
INTERRUPTED = 130

app = typer.Typer(
    cls=FlagsWithoutTypes,
    name="triqua",
    help="Check the factuality of text: facts, evidence, verdicts and TriQuaScore.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)


def _print_version(value: bool) -> None:
    if value:
        from triqua.cli._version import version_lines

        typer.echo("\n".join(version_lines()))
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="Print the package, engine revisions and spec version, and exit.",
        ),
    ] = False,
) -> None:
    """Check the factuality of text: facts, evidence, verdicts and TriQuaScore."""


def _register_commands() -> None:
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module.name.startswith("_"):
            continue
        loaded = importlib.import_module(f"{__name__}.{module.name}")
        register = getattr(loaded, "register", None)
        if register is not None:
            register(app)


_register_commands()


def main() -> None:
    """Entry point of the ``triqua`` script and ``python -m triqua``.

    An interrupted command (exit 130, its one line printed) ends at once, without waiting
    for calls still blocked on a silent service (:mod:`triqua.support.interrupts`).
    """
    from triqua.cli.batch import bare_ray

    try:
        app(args=bare_ray(sys.argv[1:]))
    except SystemExit as exc:
        if exc.code == INTERRUPTED:
            from triqua.support.interrupts import exit_now

            exit_now(INTERRUPTED)
        raise
