"""``triqua extract``: a text's facts as JSONL, one TriQua fact per line, to edit and verify.

The text is decomposed by the engines and settings ``check`` uses (the same flags), so the
facts written are those a check would verify; ``triqua verify`` checks them, edited or not.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from triqua.cli._common import (
    FileOption,
    ModelOption,
    QuestionOption,
    QuietOption,
    check_output_file,
    fail,
    is_stdout,
)
from triqua.cli._input import input_limit, read_input
from triqua.cli._settings import given_settings, settings_flags

if TYPE_CHECKING:
    from triqua.execution.extraction import Extraction


def extract(
    text: Annotated[
        str | None, typer.Argument(metavar="TEXT", help="Text to decompose ('-' for stdin).")
    ] = None,
    file: FileOption = None,
    question: QuestionOption = None,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Facts file to write (JSONL; default or '-': stdout)."),
    ] = None,
    model: ModelOption = None,
    flags: dict[str, Any] | None = None,
    quiet: QuietOption = False,
) -> None:
    """Decompose TEXT into TriQua facts and write them as JSONL, one fact per line.

    Each line holds a fact's id, subject, relation, object, qualifiers, span, chunk index
    and source text; edit the file and check it with triqua verify. Facts dropped as
    unfounded or not check-worthy are not written (counted on stderr). Exit codes: 0 done,
    2 a usage or input error, 3 errors left no fact.
    """
    from triqua.api import extract_facts, make_context

    settings = given_settings(**(flags or {}))
    output = None if is_stdout(output) else output
    if output is not None:
        check_output_file(output, "--output")
    body = read_input(text, file, input_limit(settings))
    try:
        context = make_context(model=model, **settings)
        found = extract_facts(body, question=question, context=context)
    except (ValueError, OSError) as exc:
        raise fail(str(exc) or type(exc).__name__) from exc
    lines = "".join(
        json.dumps(f.model_dump(mode="json"), ensure_ascii=False) + "\n" for f in found.facts
    )
    if output is None:
        sys.stdout.write(lines)
    else:
        try:
            output.write_text(lines, encoding="utf-8")
        except OSError as exc:
            raise fail(f"{output}: {exc.strerror or exc}") from exc
    for failure in found.failed_chunks:
        typer.echo(
            f"warning: chunk {failure.chunk_index} not decomposed: {failure.error}", err=True
        )
    if not quiet:
        for note in found.notes:
            typer.echo(note, err=True)
        typer.echo(extraction_line(found, output), err=True)
    if not found.facts and found.errors:
        raise fail(found.errors[0], 3)


def extraction_line(found: Extraction, output: Path | None) -> str:
    """One line: how many facts were written where, and how many were left out and why."""
    where = f" to {output}" if output is not None else ""
    line = f"extracted {_count(len(found.facts), 'fact')}{where}"
    left = []
    if found.unfounded:
        left.append(f"{_count(len(found.unfounded), 'unfounded fact')}")
    if found.not_checkworthy:
        facts = sum(s.facts for s in found.not_checkworthy)
        sentences = _count(len(found.not_checkworthy), "sentence")
        left.append(f"{_count(facts, 'fact')} of {sentences} not check-worthy")
    if found.unverified:
        left.append(f"{_count(len(found.unverified), 'fact')} past --max-facts")
    return line + (f"; not written: {', '.join(left)}" if left else "")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def register(app: typer.Typer) -> None:
    """Add ``extract`` to the command."""
    app.command()(settings_flags(extract))
