"""Helpers shared by commands: one-line errors and reading input text."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from triqua.accounting import FAILED_RUN as FAILED_RUN  # re-exported for the commands
from triqua.context import DEFAULT_MAX_CALLS, DEFAULT_MAX_EVIDENCE_BYTES
from triqua.encoding import not_utf8


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print a one-line error to stderr and return the exit to raise."""
    first = message.strip().splitlines()[0] if message.strip() else "failed"
    typer.echo(f"error: {first}", err=True)
    return typer.Exit(code)


def read_input(text: str | None, file: Path | None) -> str:
    """The text to check: the argument, a file, or stdin ('-' or piped)."""
    if text is not None and file is not None:
        raise fail("give the text as an argument or with --file, not both")
    if file is not None:
        from triqua.tools.evidence_files import check_readable_file

        try:
            check_readable_file(file)  # a FIFO or device would block or never end
        except ValueError as exc:
            raise fail(str(exc)) from exc
        try:
            data = file.read_bytes()
        except OSError as exc:
            raise fail(f"{file}: {exc.strerror or exc}") from exc
        if b"\x00" in data[:8192]:
            raise fail(f"{file}: binary file, expected text")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise fail(not_utf8(str(file), exc)) from exc
    if text is None or text == "-":
        if sys.stdin is None or sys.stdin.isatty():
            raise fail("no text given: pass TEXT, --file FILE, or pipe text on stdin")
        try:
            return sys.stdin.read()
        except UnicodeDecodeError as exc:
            raise fail(not_utf8("stdin", exc)) from exc
    return text


# Options shared by the commands that run checks (``check`` and ``batch``).
ModelOption = Annotated[
    str | None, typer.Option("--model", "-m", help="Chat model 'provider:model' for every role.")
]
RetrieverOption = Annotated[
    str | None, typer.Option(help="auto, supplied, closed_book, chroma, tavily, chroma+tavily.")
]
CollectionOption = Annotated[str | None, typer.Option(help="Chroma collection to search.")]
ChromaUrlOption = Annotated[str | None, typer.Option(help="Chroma server URL (default: embedded).")]
ChunkSizeOption = Annotated[int | None, typer.Option(help="Characters per chunk (0: no chunking).")]
# Run limits (Context fields of the same names). Left unset, the Context default applies
# (or its TRIQUA_* variable); the help shows the built-in default.
MaxSearchesOption = Annotated[
    int | None,
    typer.Option(
        help="Searches per check, every searching retriever (Chroma and web) "
        "(default: TRIQUA_MAX_SEARCHES or 50)."
    ),
]
MaxFactsOption = Annotated[
    int | None,
    typer.Option(help="Facts verified per check; the rest are skipped, noted (default: 5000)."),
]
MaxInputCharsOption = Annotated[
    int | None, typer.Option(help="Largest text accepted, in characters (default: 2000000).")
]
MaxEvidenceBytesOption = Annotated[
    int | None,
    typer.Option(
        help="Most bytes of evidence read per check, checked while reading "
        f"(default: {DEFAULT_MAX_EVIDENCE_BYTES})."
    ),
]
MaxCallsOption = Annotated[
    int | None,
    typer.Option(
        help="Model calls per check; past it, facts end insufficient_evidence "
        f"('model call limit reached') (default: {DEFAULT_MAX_CALLS})."
    ),
]
AllowPathOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--allow-path",
        metavar="DIR",
        help="Folder that evidence paths inside data files may point into (repeatable).",
    ),
]


def given_settings(**values: Any) -> dict[str, Any]:
    """The ``Context`` settings the user actually gave (options left unset are dropped).

    Paths (``allow_paths``) become strings, as ``Context`` keeps them.
    """
    given = {name: value for name, value in values.items() if value is not None}
    if "allow_paths" in given:
        given["allow_paths"] = [str(p) for p in given["allow_paths"]]
    return given
