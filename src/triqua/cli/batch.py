"""``triqua batch``: check every response of a JSONL file, resumably, with a summary table."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from triqua.cli._common import fail


def batch(
    input_path: Annotated[
        Path, typer.Argument(metavar="FILE.jsonl", help="One {id, text, question?, evidence?}.")
    ],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Write reports here (JSONL); default stdout."),
    ] = None,
    concurrency: Annotated[int, typer.Option(help="Checks running at once.")] = 4,
    resume: Annotated[
        bool, typer.Option(help="Skip ids already in --output (--no-resume starts afresh).")
    ] = True,
    model: Annotated[
        str | None,
        typer.Option("--model", "-m", help="Chat model 'provider:model' for every role."),
    ] = None,
    retriever: Annotated[
        str | None, typer.Option(help="auto, supplied, closed_book, chroma, tavily, chroma+tavily.")
    ] = None,
    collection: Annotated[str | None, typer.Option(help="Chroma collection to search.")] = None,
    chroma_url: Annotated[
        str | None, typer.Option(help="Chroma server URL (default: embedded).")
    ] = None,
    chunk_size: Annotated[
        int | None, typer.Option(help="Characters per chunk (0: no chunking).")
    ] = None,
    max_searches: Annotated[int | None, typer.Option(help="Searches allowed per check.")] = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", help="No problems or summary on stderr.")
    ] = False,
) -> None:
    """Check each line of FILE.jsonl and write one JSON report per line (with its id).

    Exits with 1 when some lines could not be checked (they are listed on stderr).
    """
    from triqua.batch import run_batch

    settings: dict[str, Any] = {
        name: value
        for name, value in {
            "retriever": retriever,
            "collection": collection,
            "chroma_url": chroma_url,
            "chunk_size": chunk_size,
            "max_searches": max_searches,
        }.items()
        if value is not None
    }
    try:
        summary = run_batch(
            input_path,
            output,
            concurrency=concurrency,
            resume=resume,
            quiet=quiet,
            model=model,
            **settings,
        )
    except (ValueError, OSError) as exc:
        raise fail(str(exc) or type(exc).__name__) from exc
    if summary.problems:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add ``batch`` to the command."""
    app.command()(batch)
