"""``triqua report``: render a saved JSON report as an HTML page, or print it with its costs."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TextIO

import typer

from triqua.cli._common import check_report_files, fail, is_stdout
from triqua.core.report.exit_codes import ExitCode
from triqua.support.wording import counted

if TYPE_CHECKING:  # loaded by the command itself, so that ``triqua --help`` stays fast
    from pydantic import ValidationError

    from triqua.core.budget.costs import CostSummary, Prices
    from triqua.schema import Report

#: Largest JSON report read (bytes): a ``.json`` file, or one line of a JSONL file.
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


@dataclass
class _Reading:
    """What reading a report file found: reports yielded and the numbers of bad lines."""

    path: Path
    reports: int = 0
    bad_lines: list[int] = field(default_factory=list)

    def problem(self, message: str) -> None:
        """A bad JSONL line: warned about at once, its number kept for the closing line."""
        typer.echo(f"warning: {message}", err=True)
        number = message.removeprefix(f"{self.path}:").split(":", 1)[0]
        if number.isdigit():
            self.bad_lines.append(int(number))

    def finish(self) -> None:
        """Fail when nothing was read (exit 2) or some lines were bad (exit 1, naming them)."""
        if not self.reports:
            raise fail(f"{self.path}: no readable report")
        if self.bad_lines:
            shown = ", ".join(map(str, self.bad_lines[:_NAMED_LINES]))
            more = len(self.bad_lines) - _NAMED_LINES
            shown += f" and {more} more" if more > 0 else ""
            lines = counted(len(self.bad_lines), "line")
            raise fail(
                f"{self.path}: {lines} not read (line {shown}); the "
                f"{counted(self.reports, 'report')} read are shown",
                ExitCode.GATE_FAILED,
            )


#: Bad line numbers named in the closing error line; the rest are counted.
_NAMED_LINES = 10


def _reports(path: Path, reading: _Reading) -> Iterator[Report]:
    """The report of a JSON file, or each good report of a JSONL file, one at a time.

    A JSON file is read up to :data:`MAX_REPORT_BYTES`; JSON lines (a batch output, whatever
    its name) are streamed, each line up to that bound, so one report at a time is held.
    """
    from pydantic import ValidationError

    from triqua.schema import Report

    if path.suffix.lower() in (".jsonl", ".ndjson"):
        yield from _jsonl_reports(path, reading)
        return
    try:
        with path.open("rb") as handle:  # bounded even when the size lies (a pipe, /dev/zero)
            data = handle.read(MAX_REPORT_BYTES + 1)
    except OSError as exc:
        raise fail(f"{path}: {exc.strerror or exc}") from exc
    if len(data) > MAX_REPORT_BYTES:
        if not _starts_with_a_json_line(data):
            raise fail(
                f"{path}: larger than {MAX_REPORT_BYTES:,} bytes, too large for one report "
                "(a batch output is read line by line whatever its size)"
            )
        del data
        yield from _jsonl_reports(path, reading)
        return
    try:
        report = Report.model_validate_json(data)
    except ValidationError as exc:  # pydantic's parser bounds nesting depth itself
        if _several_values(exc):  # batch output under another name (e.g. '> out.json')
            del data
            yield from _jsonl_reports(path, reading)
            return
        raise fail(f"{path}: {_invalid(exc)}") from exc
    missing = [key for key in _REPORT_KEYS if key not in report.model_fields_set]
    if missing:  # valid JSON, but not a report
        raise fail(f"{path}: not a triqua report (no {', '.join(missing)})")
    reading.reports += 1
    yield report


def _starts_with_a_json_line(data: bytes) -> bool:
    """True when ``data``'s first line is a whole JSON object: the file is JSON lines."""
    from triqua.support.jsonl import loads

    first, newline, _ = data.partition(b"\n")
    try:
        return bool(newline) and isinstance(loads(first), dict)
    except (ValueError, UnicodeDecodeError):
        return False


def _several_values(exc: ValidationError) -> bool:
    """True when the JSON parser stopped at a second value: the file is JSON lines."""
    first = exc.errors()[0]
    return first["type"] == "json_invalid" and "trailing characters" in first["msg"]


def _jsonl_reports(path: Path, reading: _Reading) -> Iterator[Report]:
    """Each good report of a JSONL file; bad lines are warned about with their number."""
    from triqua.support.jsonl import read_jsonl

    lines = read_jsonl(path, reading.problem, parse=_report_line, max_line_bytes=MAX_REPORT_BYTES)
    try:
        for _, report in lines:
            reading.reports += 1
            yield report
    except ValueError as exc:  # the file cannot be opened
        raise fail(str(exc)) from exc


def _cost_line(summary: CostSummary) -> str:
    estimated = " (estimated)" if summary.tokens_estimated else ""
    money = "" if summary.cost is None else f" · cost {summary.cost:.4f} {summary.currency}"
    return (
        f"model calls {summary.model_calls} · searches {summary.search_calls}"
        f" · tokens in {summary.input_tokens:,} / out {summary.output_tokens:,}{estimated}{money}"
    )


def _write_markdown(reports: Iterator[Report], md: Path) -> None:
    """Write each report's Markdown to ``md`` (``-``: stdout) as it is read; made at the first."""
    from triqua.rendering.markdown import render_markdown

    handle: TextIO | None = None
    piped = is_stdout(md)
    try:
        for loaded in reports:
            if handle is None:
                handle = sys.stdout if piped else md.open("w", encoding="utf-8")
            else:
                handle.write("\n")
            handle.write(render_markdown(loaded))
    except OSError as exc:
        raise fail(f"{md}: {exc.strerror or exc}") from exc
    finally:
        if handle is not None and not piped:
            handle.close()
    if handle is not None and not piped:
        typer.echo(f"wrote {md}", err=True)


def report(
    path: Annotated[
        Path,
        typer.Argument(
            metavar="REPORT",
            help="A JSON report saved by 'triqua check --json', or the JSONL of 'triqua batch'.",
        ),
    ],
    html: Annotated[
        Path | None,
        typer.Option(
            "--html", metavar="FILE", help="Write a self-contained HTML page here ('-': stdout)."
        ),
    ] = None,
    md: Annotated[
        Path | None,
        typer.Option("--md", metavar="FILE", help="Write a Markdown report here ('-': stdout)."),
    ] = None,
    prices: Annotated[
        Path | None,
        typer.Option(help="Prices file (JSON or TOML); default: the file in TRIQUA_PRICES."),
    ] = None,
) -> None:
    """Render a saved report as HTML (--html) or Markdown (--md), or print it with its costs.

    --md writes every report of a batch file, one after another. '-' in place of a file
    writes to stdout (one of --html and --md). A batch file is read line
    by line, one report held at a time; a bad line is warned about with its number and the
    others are still shown, then the command exits 1 naming the bad lines (2 when no line
    is a report).
    """
    from rich.console import Console

    from triqua.core.budget.costs import cost_summary, load_prices, prices_from_env

    check_report_files(html, md)
    reading = _Reading(path)
    reports: Iterator[Report] = _reports(path, reading)
    single: list[Report] = []
    if html is not None:  # one report: read one more to be sure there is no second
        single = list(itertools.islice(reports, 2))
        if len(single) > 1:
            raise fail(f"{path}: holds more than one report; --html renders one")
        reports = iter(single)
    if md is not None:
        _write_markdown(reports, md)
        if html is None:
            reading.finish()
            return
        reports = iter(single)
    try:
        price_list: Prices | None = load_prices(prices) if prices else prices_from_env()
    except ValueError as exc:
        raise fail(str(exc)) from exc
    if html is not None:
        from triqua.rendering.html import render_html, write_html

        for loaded in reports:
            if is_stdout(html):
                sys.stdout.write(render_html(loaded, prices=price_list))
                continue
            try:
                write_html(loaded, html, prices=price_list)
            except OSError as exc:
                raise fail(f"{html}: {exc.strerror or exc}") from exc
            typer.echo(f"wrote {html}", err=True)
        reading.finish()
        return
    from triqua.rendering.terminal import print_report

    console = Console()
    for loaded in reports:
        print_report(loaded, console)
        console.print(_cost_line(cost_summary(loaded, price_list)), style="dim")
    reading.finish()


def register(app: typer.Typer) -> None:
    """Add ``report`` to the command."""
    app.command()(report)
