"""``triqua ingest`` and ``triqua collections``: build and list Chroma collections."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Annotated

import typer

from triqua.cli._common import fail
from triqua.core.report.exit_codes import ExitCode
from triqua.support.wording import counted

if TYPE_CHECKING:
    from triqua.tools.ingest import FileOutcome, IngestSummary

Store = Annotated[Path | None, typer.Option("--chroma-path", help="Embedded store directory.")]
Url = Annotated[str | None, typer.Option("--chroma-url", help="Chroma server, http://host:port.")]
ServerTimeout = Annotated[
    float | None,
    typer.Option(
        "--timeout",
        min=0,
        envvar="TRIQUA_SEARCH_TIMEOUT",
        help="Seconds a Chroma server may take per request (default: TRIQUA_SEARCH_TIMEOUT or 20).",
    ),
]


def chroma_ingest() -> ModuleType:
    """``triqua.tools.ingest``, or a one-line error when the chroma extra is not installed."""
    import importlib

    from triqua.tools import RetrieverError

    try:
        return importlib.import_module("triqua.tools.ingest")
    except RetrieverError as exc:
        raise fail(str(exc)) from exc


def ingest(
    paths: Annotated[
        list[Path],
        typer.Argument(
            metavar="PATH",
            help="Files or folders: .txt .md .html .jsonl (walks never follow links out of a "
            "folder and skip special files).",
        ),
    ],
    collection: Annotated[
        str,
        typer.Option(
            "--collection",
            "-c",
            help="Collection name: 3 to 512 letters, digits, '.', '_' or '-', starting and "
            "ending with a letter or digit.",
        ),
    ],
    field: Annotated[str, typer.Option(help="JSONL field holding the text.")] = "text",
    chunk_size: Annotated[int, typer.Option(help="Characters per chunk.")] = 600,
    chroma_path: Store = None,
    chroma_url: Url = None,
    timeout: ServerTimeout = None,
) -> None:
    """Add files to a Chroma collection (unchanged files are skipped, changed ones replaced).

    A file that fails does not stop the others. Exit codes: 0 every file ingested (or
    unchanged), 1 some failed (named on stderr), 2 a usage error (a bad collection name, no
    such path), 3 every file failed, 130 interrupted (what was written stays; run it again
    to go on).
    """
    from triqua.tools import RetrieverError

    ingest_paths = chroma_ingest().ingest_paths

    def show(outcome: FileOutcome, done: int, total: int) -> None:
        typer.echo(f"[{done}/{total}] {outcome.status:9} {outcome.path}", err=True)

    try:
        summary = ingest_paths(
            paths,
            collection,
            field=field,
            chunk_size=chunk_size,
            path=chroma_path,
            url=chroma_url,
            progress=show,
            timeout=timeout or None,
        )
    except (RetrieverError, ValueError) as exc:
        raise fail(str(exc)) from exc
    except KeyboardInterrupt:
        message = "interrupted: the files written so far stay; run it again to go on"
        raise fail(message, ExitCode.INTERRUPTED) from None
    for problem in summary.problems:
        typer.echo(f"warning: {problem}", err=True)
    typer.echo(str(summary))
    _exit_for_failures(summary)


#: Failed files named in the closing error line; the rest are counted.
_NAMED_FAILURES = 5


def _exit_for_failures(summary: IngestSummary) -> None:
    """Exit 1 when some files failed, 3 when all did, naming them in one ``error:`` line."""
    failed = [f.path for f in summary.files if f.status == "failed"]
    if not failed:
        return
    names = ", ".join(failed[:_NAMED_FAILURES])
    if len(failed) > _NAMED_FAILURES:
        names += f" and {len(failed) - _NAMED_FAILURES} more"
    whole = len(failed) == len(summary.files)
    code = ExitCode.FAILED_RUN if whole else ExitCode.GATE_FAILED
    raise fail(
        f"{len(failed)} of {counted(len(summary.files), 'file')} not ingested: {names}", code
    )


def collections(
    ctx: typer.Context,
    chroma_path: Store = None,
    chroma_url: Url = None,
    timeout: ServerTimeout = None,
) -> None:
    """List the Chroma collections with their chunk counts."""
    if ctx.invoked_subcommand is not None:
        return
    from triqua.tools import RetrieverError

    list_collections = chroma_ingest().list_collections
    try:
        found = list_collections(path=chroma_path, url=chroma_url, timeout=timeout or None)
    except RetrieverError as exc:
        raise fail(str(exc)) from exc
    for name, count in found:
        typer.echo(f"{name}\t{count}")


def delete(
    name: Annotated[str, typer.Argument(metavar="NAME", help="Collection to delete.")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Delete without asking.")] = False,
    chroma_path: Store = None,
    chroma_url: Url = None,
    timeout: ServerTimeout = None,
) -> None:
    """Delete a Chroma collection and its chunks (the files it was built from stay)."""
    import sys

    from triqua.tools import RetrieverError

    delete_collection = chroma_ingest().delete_collection
    if not yes:
        if sys.stdin is None or not sys.stdin.isatty():
            raise fail("deleting a collection cannot be undone: pass --yes to delete it")
        typer.confirm(f"delete collection {name!r} for good?", abort=True, err=True)
    try:
        count = delete_collection(name, path=chroma_path, url=chroma_url, timeout=timeout or None)
    except (RetrieverError, ValueError) as exc:
        raise fail(str(exc)) from exc
    typer.echo(f"deleted collection {name} ({counted(count, 'chunk')})", err=True)


def register(app: typer.Typer) -> None:
    """Add the commands to the ``triqua`` app (``collections`` with ``delete``)."""
    app.command()(ingest)
    group = typer.Typer(add_completion=False)
    group.callback(invoke_without_command=True)(collections)
    group.command()(delete)
    app.add_typer(group, name="collections")
