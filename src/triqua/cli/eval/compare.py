"""``triqua eval compare``: the headline metrics of two runs side by side."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from triqua.cli._common import fail
from triqua.cli.eval._shared import eval_app


@eval_app.command("compare")
def compare(
    a: Annotated[
        Path, typer.Argument(metavar="A", help="First results folder (or its result.json).")
    ],
    b: Annotated[
        Path, typer.Argument(metavar="B", help="Second results folder (or its result.json).")
    ],
) -> None:
    """Print the headline metrics of two runs and their difference (B - A)."""
    from triqua.evals.results import compare_runs, load_run

    try:
        first, second = load_run(a), load_run(b)
    except ValueError as exc:
        raise fail(str(exc)) from exc
    comparison = compare_runs(first, second)
    for warning in comparison.warnings:
        typer.echo(f"warning: {warning}", err=True)
    table = Table(title=f"{first.eval}: {a.name} → {b.name}")
    for column in ("metric", "A", "B", "B - A"):
        table.add_column(column, justify="left" if column == "metric" else "right")

    def cell(value: float | int | None) -> str:
        if value is None:
            return "-"
        return f"{value:.4f}" if isinstance(value, float) else str(value)

    for name, x, y, delta in comparison.rows:
        shown = "-" if delta is None else f"{delta:+.4f}".rstrip("0").rstrip(".")
        table.add_row(name, cell(x), cell(y), shown)
    Console(width=120).print(table)
