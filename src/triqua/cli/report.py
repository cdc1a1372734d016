"""``triqua report``: render a saved JSON report as an HTML page, or print it with its costs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from triqua.cli._common import fail

if TYPE_CHECKING:  # loaded by the command itself, so that ``triqua --help`` stays fast
    from pydantic import ValidationError

    from triqua.core.budget.costs import CostSummary, Prices
    from triqua.schema import Report

#: Largest single JSON report read (bytes).
MAX_REPORT_BYTES = 256 * 1024 * 1024


def _invalid(exc: ValidationError) -> str:
    """A validation error as one line: where and what."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "top level"
    return f"not a triqua report ({where}: {first['msg']})"


def _report_line(obj: object) -> Report:
    """One line of a batch output file (``{"id": …, **report}``) as a report."""
    from pydantic import ValidationError

    from triqua.schema import Report

    if not isinstance(obj, dict):
        raise ValueError("not a triqua report (expected a JSON object)")
    _require_report_keys(obj)
    try:
        return Report.model_validate({k: v for k, v in obj.items() if k != "id"})
    except ValidationError as exc:
        raise ValueError(_invalid(exc)) from None


#: Keys every report has: an object without them is something else (a batch input line,
#: a settings file), not an empty report.
_REPORT_KEYS = ("run_id", "input_hash", "scores", "records", "spec")


def _require_report_keys(obj: dict[str, object]) -> None:
    """Refuse an object that lacks what every report has.

    Raises:
        ValueError: naming the missing keys.
    """
    missing = [key for key in _REPORT_KEYS if key not in obj]
    if missing:
        raise ValueError(f"not a triqua report (no {', '.join(missing)})")


def _load_reports(path: Path) -> list[Report]:
    """The report of a JSON file, or every good report of a JSONL file (``triqua batch``).

    Bad JSONL lines are warned about with their number; the others are still read.
    """
    from pydantic import ValidationError

    from triqua.schema import Report

    if path.suffix.lower() in (".jsonl", ".ndjson"):
        return _load_jsonl(path)
    try:
        if path.stat().st_size > MAX_REPORT_BYTES:
            raise fail(f"{path}: larger than {MAX_REPORT_BYTES:,} bytes, not a report")
        report = Report.model_validate_json(path.read_bytes())
        _require_report_keys(json.loads(path.read_bytes()))
        return [report]
    except OSError as exc:
        raise fail(f"{path}: {exc.strerror or exc}") from exc
    except ValidationError as exc:  # pydantic's parser bounds nesting depth itself
        if _several_values(exc):  # batch output under another name (e.g. '> out.json')
            return _load_jsonl(path)
        raise fail(f"{path}: {_invalid(exc)}") from exc
    except ValueError as exc:  # valid JSON, but not a report
        raise fail(f"{path}: {exc}") from exc


def _several_values(exc: ValidationError) -> bool:
    """True when the JSON parser stopped at a second value: the file is JSON lines."""
    first = exc.errors()[0]
    return first["type"] == "json_invalid" and "trailing characters" in first["msg"]


def _load_jsonl(path: Path) -> list[Report]:
    """Every good report of a JSONL file; bad lines are warned about with their number."""
    from triqua.support.jsonl import read_jsonl

    def warn(message: str) -> None:
        typer.echo(f"warning: {message}", err=True)

    try:
        reports = [r for _, r in read_jsonl(path, warn, parse=_report_line)]
    except ValueError as exc:
        raise fail(str(exc)) from exc
    if not reports:
        raise fail(f"{path}: no readable report")
    return reports


def _cost_line(summary: CostSummary) -> str:
    estimated = " (estimated)" if summary.tokens_estimated else ""
    money = "" if summary.cost is None else f" · cost {summary.cost:.4f} {summary.currency}"
    return (
        f"model calls {summary.model_calls} · searches {summary.search_calls}"
        f" · tokens in {summary.input_tokens:,} / out {summary.output_tokens:,}{estimated}{money}"
    )


def report(
    path: Annotated[
        Path,
        typer.Argument(
            help="A JSON report saved by 'triqua check --json', or the JSONL of 'triqua batch'."
        ),
    ],
    html: Annotated[
        Path | None, typer.Option("--html", help="Write a self-contained HTML page here.")
    ] = None,
    md: Annotated[
        Path | None, typer.Option("--md", metavar="FILE", help="Write a Markdown report here.")
    ] = None,
    prices: Annotated[
        Path | None,
        typer.Option(help="Prices file (JSON or TOML); default: the file in TRIQUA_PRICES."),
    ] = None,
) -> None:
    """Render a saved report as HTML (--html) or Markdown (--md), or print it with its costs.

    --md writes every report of a batch file, one after another.
    """
    from rich.console import Console

    from triqua.core.budget.costs import cost_summary, load_prices, prices_from_env

    reports = _load_reports(path)
    if md is not None:
        from triqua.rendering.markdown import render_markdown

        try:
            md.write_text("\n".join(render_markdown(r) for r in reports), encoding="utf-8")
        except OSError as exc:
            raise fail(f"{md}: {exc.strerror or exc}") from exc
        typer.echo(f"wrote {md}", err=True)
        if html is None:
            return
    try:
        price_list: Prices | None = load_prices(prices) if prices else prices_from_env()
    except ValueError as exc:
        raise fail(str(exc)) from exc
    if html is not None:
        from triqua.rendering.html import write_html

        if len(reports) > 1:
            raise fail(f"{path}: holds {len(reports)} reports; --html renders one")
        try:
            write_html(reports[0], html, prices=price_list)
        except OSError as exc:
            raise fail(f"{html}: {exc.strerror or exc}") from exc
        typer.echo(f"wrote {html}", err=True)
        return
    from triqua.rendering.terminal import print_report

    console = Console()
    for loaded in reports:
        print_report(loaded, console)
        console.print(_cost_line(cost_summary(loaded, price_list)), style="dim")


def register(app: typer.Typer) -> None:
    """Add ``report`` to the command."""
    app.command()(report)
