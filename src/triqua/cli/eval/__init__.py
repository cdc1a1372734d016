"""``triqua eval``: evaluation harness (FActScore bios, claim verification, diagnostics, compare).

Every evaluation writes a stamped results folder (see :mod:`triqua.evals.results`) and, before
it starts, prints an estimate of its model calls and searches, asking first when the run
would spend more than ``--confirm-above`` of either.
"""

from __future__ import annotations

import typer

from triqua.cli.eval._shared import CONFIRM_ABOVE, DEFAULT_BIOS, eval_app

# Imported for their commands, in the order `triqua eval --help` lists them.
from triqua.cli.eval import factscore  # isort: skip
from triqua.cli.eval import claims  # isort: skip
from triqua.cli.eval import diagnostics  # isort: skip
from triqua.cli.eval import compare  # isort: skip

__all__ = [
    "CONFIRM_ABOVE",
    "DEFAULT_BIOS",
    "claims",
    "compare",
    "diagnostics",
    "eval_app",
    "factscore",
]


def register(app: typer.Typer) -> None:
    """Add the ``eval`` command group."""
    app.add_typer(eval_app, name="eval")
