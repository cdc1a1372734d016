"""``triqua report``: render a saved JSON report as an HTML page, or print it with its costs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError
from rich.console import Console

from triqua.cli._common import fail
from triqua.costs import CostSummary, Prices, cost_summary, load_prices, prices_from_env
from triqua.schema import Report


def _load_report(path: Path) -> Report:
    try:
        return Report.model_validate_json(path.read_bytes())
    except OSError as exc:
        raise fail(f"{path}: {exc.strerror or exc}") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "top level"
        raise fail(f"{path}: not a triqua report ({where}: {first['msg']})") from exc


def _cost_line(summary: CostSummary) -> str:
    estimated = " (estimated)" if summary.tokens_estimated else ""
    money = "" if summary.cost is None else f" · cost {summary.cost:.4f} {summary.currency}"
    return (
        f"model calls {summary.model_calls} · searches {summary.search_calls}"
        f" · tokens in {summary.input_tokens:,} / out {summary.output_tokens:,}{estimated}{money}"
    )


def report(
    path: Annotated[Path, typer.Argument(help="A JSON report saved by 'triqua check --json'.")],
    html: Annotated[
        Path | None, typer.Option("--html", help="Write a self-contained HTML page here.")
    ] = None,
    prices: Annotated[
        Path | None,
        typer.Option(help="Prices file (JSON or TOML); default: the file in TRIQUA_PRICES."),
    ] = None,
) -> None:
    """Render a saved report as HTML (--html), or print its facts, scores and costs."""
    loaded = _load_report(path)
    try:
        price_list: Prices | None = load_prices(prices) if prices else prices_from_env()
    except ValueError as exc:
        raise fail(str(exc)) from exc
    if html is not None:
        from triqua.report_html import write_html

        try:
            write_html(loaded, html, prices=price_list)
        except OSError as exc:
            raise fail(f"{html}: {exc.strerror or exc}") from exc
        typer.echo(f"wrote {html}", err=True)
        return
    from triqua.render import print_report

    console = Console()
    print_report(loaded, console)
    console.print(_cost_line(cost_summary(loaded, price_list)), style="dim")


def register(app: typer.Typer) -> None:
    """Add ``report`` to the command."""
    app.command()(report)
