"""``triqua demo``: check a shipped example against a small demo corpus, offline.

The demo corpus is the evidence, supplied as documents (``-e``'s path: BM25, then the MiniLM
reranker), so the demo needs triqua's core install alone (``make demo``), no Chroma, and
writes no store. ``DEMO_COLLECTION`` is the name the README's Chroma examples ingest the
same corpus under (``triqua ingest``, the ``chroma`` extra).
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from triqua.cli._common import fail

DEMO_COLLECTION = "triqua-demo"


def demo_files() -> tuple[list[Path], str]:
    """The demo corpus files and the example text shipped with triqua."""
    folder = Path(str(resources.files("triqua").joinpath("demo")))
    corpus = sorted(folder.glob("*.md"))
    example = (folder / "example.txt").read_text(encoding="utf-8")
    return corpus, example


def demo(
    model: Annotated[
        str | None, typer.Option("--model", "-m", help="Chat model 'provider:model'.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON report.")] = False,
) -> None:
    """Check the shipped example text against the demo corpus (supplied documents)."""
    from triqua.api import check
    from triqua.rendering.terminal import print_report
    from triqua.tools.documents import load_documents

    corpus, example = demo_files()
    err = Console(stderr=True)
    try:
        report = check(example, model=model, documents=load_documents(corpus))
    except (ValueError, OSError) as exc:
        raise fail(str(exc)) from exc
    if as_json:
        sys.stdout.write(report.model_dump_json(indent=2) + "\n")
        return
    console = Console()
    console.print("[bold]Checked text[/bold]")
    console.print(example.strip(), highlight=False)
    console.print()
    for note in report.notes:
        err.print(f"[dim]{note}[/dim]", highlight=False)
    print_report(report.model_copy(update={"notes": []}), console)


def register(app: typer.Typer) -> None:
    """Add ``demo`` to the command."""
    app.command()(demo)
