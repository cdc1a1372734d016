"""The ``triqua`` command: check text from the shell and print a table or JSON."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from triqua.schema import report_json_schema

app = typer.Typer(
    name="triqua",
    help="Check the factuality of text: facts, evidence, verdicts and TriQuaScore.",
    no_args_is_help=True,
    add_completion=False,
)
err = Console(stderr=True)


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print a one-line error to stderr and return the exit to raise."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


def read_input(text: str | None, file: Path | None) -> str:
    """The text to check: the argument, a file, or stdin ('-' or piped)."""
    if text is not None and file is not None:
        raise fail("give the text as an argument or with --file, not both")
    if file is not None:
        try:
            data = file.read_bytes()
        except OSError as exc:
            raise fail(f"{file}: {exc.strerror or exc}") from exc
        if b"\x00" in data[:8192]:
            raise fail(f"{file}: binary file, expected text")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise fail(f"{file}: not valid UTF-8 (byte {exc.start})") from exc
    if text is None or text == "-":
        if sys.stdin is None or sys.stdin.isatty():
            raise fail("no text given: pass TEXT, --file FILE, or pipe text on stdin")
        try:
            return sys.stdin.read()
        except UnicodeDecodeError as exc:
            raise fail(f"stdin is not valid UTF-8 (byte {exc.start})") from exc
    return text


@app.command()
def check(
    text: Annotated[str | None, typer.Argument(help="Text to check ('-' for stdin).")] = None,
    file: Annotated[
        Path | None, typer.Option("--file", "-f", help="Read the text from a file.")
    ] = None,
    question: Annotated[
        str | None, typer.Option("--question", "-q", help="The question the text answers.")
    ] = None,
    evidence: Annotated[
        list[Path] | None, typer.Option("--evidence", "-e", help="Evidence file (repeatable).")
    ] = None,
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
    max_searches: Annotated[int | None, typer.Option(help="Searches allowed in this run.")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the machine-readable report.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="No notes on stderr.")] = False,
) -> None:
    """Check the facts in TEXT against evidence and print verdicts and TriQuaScore."""
    from triqua.api import check as run_check
    from triqua.tools.documents import load_documents

    body = read_input(text, file)
    settings: dict[str, Any] = {}
    for name, value in {
        "retriever": retriever,
        "collection": collection,
        "chroma_url": chroma_url,
        "chunk_size": chunk_size,
        "max_searches": max_searches,
    }.items():
        if value is not None:
            settings[name] = value
    try:
        documents = load_documents(evidence) if evidence else None
        report = run_check(body, question=question, documents=documents, model=model, **settings)
    except (ValueError, OSError) as exc:
        raise fail(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from exc
    if as_json:
        sys.stdout.write(report.model_dump_json(indent=2) + "\n")
        return
    if not quiet:
        for note in report.notes:
            err.print(f"[dim]{note}[/dim]", highlight=False)
        report = report.model_copy(update={"notes": []})
    from triqua.render import print_report

    print_report(report, Console())


@app.command()
def schema() -> None:
    """Print the JSON schema of the report."""
    sys.stdout.write(json.dumps(report_json_schema(), indent=2) + "\n")


def main() -> None:
    """Entry point for ``python -m triqua``."""
    app()


if __name__ == "__main__":
    main()
