"""``triqua runs`` (and ``runs prune``), ``show`` and ``regrade``: stored runs, graded again."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from triqua.cli._common import fail
from triqua.cli._store import StoreUrlOption, store_location
from triqua.support.dbfiles import StoreError

if TYPE_CHECKING:  # loaded by the commands themselves, so that ``triqua --help`` stays fast
    from triqua.schema import Report
    from triqua.store import RunStore, RunSummary

StoreOption = Annotated[
    Path | None, typer.Option("--store", help="Run store file (default: user data).")
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]


def _open(store: Path | None, store_url: str | None = None) -> RunStore:
    from triqua.store import RunStore

    location = store_location(store, store_url)
    try:
        return RunStore(location)
    except (StoreError, OSError) as exc:
        raise fail(str(exc)) from exc


def _state(run: RunSummary) -> str:
    """The score of a finished run, else what became of it."""
    from triqua.rendering.terminal import fmt_score

    return fmt_score(run.score) if run.revisions else run.status.replace("_", " ")


def _message(exc: Exception) -> str:
    """An exception's message without the quotes ``KeyError`` adds."""
    return str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)


def runs(
    ctx: typer.Context,
    limit: Annotated[int, typer.Option("--limit", "-n", help="Newest runs to list.")] = 20,
    store: StoreOption = None,
    store_url: StoreUrlOption = None,
    as_json: JsonOption = False,
) -> None:
    """List stored runs, newest first: id, time, score (or unfinished / failed at start)."""
    if ctx.invoked_subcommand is not None:
        return

    try:
        found = _open(store, store_url).runs(limit=limit)
    except StoreError as exc:
        raise fail(str(exc)) from exc
    if as_json:
        payload = "[" + ",".join(r.model_dump_json() for r in found) + "]"
        sys.stdout.write(payload + "\n")
        return
    if not found:
        typer.echo("no runs stored yet", err=True)
        return
    # Fits 80 columns: short ids and times, modes in a word; the text takes what is left.
    table = Table(expand=True, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    table.add_column("run", no_wrap=True)
    table.add_column("time", no_wrap=True)
    table.add_column("score", overflow="fold", max_width=15)
    table.add_column("facts", no_wrap=True, justify="right")
    table.add_column("mode", no_wrap=True)
    table.add_column("engine", overflow="fold", max_width=16)
    table.add_column("rev", no_wrap=True, justify="right")
    table.add_column("text", no_wrap=True, overflow="ellipsis", ratio=1, min_width=12)
    for run in found:
        table.add_row(
            run.run_id[:8],
            run.created_at[5:16].replace("T", " "),
            _state(run),
            str(run.facts),
            _MODES.get(run.mode, run.mode),
            run.engine,
            # The latest revision's number, as ``show --history`` and ``regrade`` count them.
            str(run.revisions - 1) if run.revisions else "-",
            run.text,
        )
    from triqua.rendering.terminal import printable

    Console().print(printable(table))


#: Each evidence mode in a word, for the runs table.
_MODES = {"closed_book": "closed", "supplied_context": "supplied", "bounded_search": "search"}


def history_table(report: Report) -> Table:
    """One row per verdict revision of each fact: when, which judge, what it said."""
    from triqua.rendering.terminal import STYLE

    table = Table(show_lines=True, expand=True)
    for column in ("#", "fact", "rev", "verdict", "judge", "wrong component", "time"):
        table.add_column(column, no_wrap=column in ("#", "rev", "time"))
    for record in report.records:
        for verdict in [*record.history, record.verdict]:
            table.add_row(
                record.claim_id,
                record.claim_text,
                str(verdict.revision),
                Text(verdict.status.value, style=STYLE[verdict.status]),
                verdict.judge,
                ", ".join(verdict.wrong_components),
                verdict.created_at.strftime("%Y-%m-%d %H:%M:%S"),
            )
    return table


def show(
    run_id: Annotated[str, typer.Argument(metavar="RUN", help="Run id or a unique prefix.")],
    revision: Annotated[
        int | None, typer.Option("--revision", "-r", help="Show this revision (default: latest).")
    ] = None,
    history: Annotated[
        bool, typer.Option("--history", help="Every verdict revision of every fact.")
    ] = False,
    text: Annotated[
        bool, typer.Option("--text", help="Print the checked text with each fact marked.")
    ] = False,
    store: StoreOption = None,
    store_url: StoreUrlOption = None,
    as_json: JsonOption = False,
) -> None:
    """Print a stored run's report (or, with --history, each fact's verdict revisions).

    Exit codes: 0 shown, 2 no such run or revision, or a store that cannot be read.
    """
    from triqua.rendering.terminal import print_report, printable, spec_table

    try:
        opened = _open(store, store_url)
        report = opened.report(run_id, revision)
        checked = opened.run(report.run_id).text if text else ""
    except (KeyError, StoreError) as exc:
        raise fail(_message(exc)) from exc
    if as_json:
        sys.stdout.write(report.model_dump_json(indent=2) + "\n")
        return
    console = Console()
    if history:
        console.print(printable(history_table(report)))
        return
    if text:
        from triqua.rendering.text_marks import marked_text

        console.print(printable(marked_text(checked, report.records)))
        console.print()
    print_report(report, console)
    console.print(printable(spec_table(report.spec)))


def regrade(
    run_id: Annotated[str, typer.Argument(metavar="RUN", help="Run id or a unique prefix.")],
    model: Annotated[
        str | None, typer.Option("--model", "-m", help="Judge 'provider:model' (default: run's).")
    ] = None,
    retriever: Annotated[
        str | None, typer.Option(help="Search with this retriever (implies --search-again).")
    ] = None,
    search_again: Annotated[
        bool, typer.Option("--search-again", help="Search fresh evidence, not the stored.")
    ] = False,
    collection: Annotated[
        str | None,
        typer.Option(help="Chroma collection to search (default: TRIQUA_COLLECTION, the run's)."),
    ] = None,
    chroma_url: Annotated[
        str | None, typer.Option(help="Chroma server URL (default: TRIQUA_CHROMA_URL, the run's).")
    ] = None,
    chroma_path: Annotated[
        str | None,
        typer.Option(help="Embedded Chroma store (default: TRIQUA_CHROMA_PATH, the run's)."),
    ] = None,
    store: StoreOption = None,
    store_url: StoreUrlOption = None,
    as_json: JsonOption = False,
) -> None:
    """Judge a stored run's facts again; the new verdicts are appended as a new revision.

    All or nothing: when a fact cannot be judged again (a provider error), nothing is
    appended; the run keeps its last revision. Exit codes: 0 the new revision was appended,
    2 a usage or input error (no such run, a judge that cannot be built, a missing
    collection), 3 a fact could not be judged again, 130 interrupted (nothing appended).
    """
    import os

    opened = _open(store, store_url)  # a damaged store fails here, before the engines are loaded
    from triqua.core.report.exit_codes import ExitCode
    from triqua.regrade import RegradeError
    from triqua.regrade import regrade as run_regrade
    from triqua.rendering.terminal import print_report
    from triqua.tools import RetrieverError

    # Settings given now (flag, else environment) override the run's stored ones.
    given: dict[str, Any] = {
        "collection": collection or os.environ.get("TRIQUA_COLLECTION"),
        "chroma_url": chroma_url or os.environ.get("TRIQUA_CHROMA_URL"),
        "chroma_path": chroma_path or os.environ.get("TRIQUA_CHROMA_PATH"),
    }
    try:
        report = run_regrade(
            run_id,
            model=model,
            retriever=retriever,
            search_again=search_again,
            store=opened,
            **{k: v for k, v in given.items() if v},
        )
    except RegradeError as exc:
        raise fail(str(exc), ExitCode.FAILED_RUN) from exc
    except (KeyError, ValueError, OSError, RetrieverError) as exc:
        raise fail(_message(exc).splitlines()[0]) from exc
    except KeyboardInterrupt:
        raise fail("interrupted: nothing was appended", ExitCode.INTERRUPTED) from None
    if as_json:
        sys.stdout.write(report.model_dump_json(indent=2) + "\n")
        return
    typer.echo(f"run {report.run_id}: revision {opened.latest_revision(report.run_id)}", err=True)
    print_report(report, Console())


def register(app: typer.Typer) -> None:
    """Add ``runs`` (a group: listing, ``prune``, ``delete``, ``verify``), ``show``, ``regrade``."""
    from triqua.cli._prune import prune
    from triqua.cli._runs_delete import delete
    from triqua.cli._runs_verify import verify

    group = typer.Typer(add_completion=False)
    group.callback(invoke_without_command=True)(runs)
    group.command()(prune)
    group.command()(delete)
    group.command()(verify)
    app.add_typer(group, name="runs")
    app.command()(show)
    app.command()(regrade)
