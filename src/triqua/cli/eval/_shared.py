"""What every ``triqua eval`` command shares: the command group, common options and helpers."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

eval_app = typer.Typer(
    name="eval",
    help="Evaluate triqua on labelled data and compare runs.",
    no_args_is_help=True,
)

#: Model calls (or searches) above which an evaluation asks before starting.
CONFIRM_ABOVE = 200
#: The FActScore biographies evaluated by default.
DEFAULT_BIOS = "ChatGPT"

DataDir = Annotated[
    Path | None,
    typer.Option(
        "--data-dir",
        envvar="TRIQUA_DATA",
        help="Data folder (default: <repository>/../shared/data).",
    ),
]
Limit = Annotated[int | None, typer.Option(help="Evaluate a random sample of N items.", min=1)]
Seed = Annotated[int, typer.Option(help="Seed of the sample.")]
Workers = Annotated[
    int | None, typer.Option(help="Items evaluated at once (default: 2 offline, 4 with a model).")
]
Out = Annotated[Path, typer.Option("--out", help="Folder that receives the results folder.")]
Yes = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask before a costly run.")]
ConfirmAbove = Annotated[
    int, typer.Option(help="Ask before runs estimated above this many model calls or searches.")
]
NoCache = Annotated[bool, typer.Option("--no-cache", help="Ask models and search again.")]
Bios = Annotated[
    str, typer.Option(help="ChatGPT, InstructGPT, PerplexityAI, or a labelled JSONL path.")
]


def settings_of(model: str | None, chunk_size: int | None, no_cache: bool) -> dict[str, Any]:
    settings: dict[str, Any] = {}
    if model:
        settings["model"] = model
    if chunk_size is not None:
        settings["chunk_size"] = chunk_size
    if no_cache:
        settings["cache"] = False
    return settings


class BadLines(list[str]):
    """Collects a data file's bad lines and warns about each on stderr as it is skipped."""

    def append(self, message: str) -> None:
        """Keep and print one ``file:line: why`` message."""
        super().append(message)
        typer.echo(f"warning: {message} (line skipped)", err=True)


def guard(estimate: Any, threshold: int, yes: bool) -> None:
    from triqua.evals.guard import confirm

    go = confirm(
        estimate,
        threshold=threshold,
        assume_yes=yes,
        ask=lambda question: typer.confirm(question, default=False),
        say=lambda line: typer.echo(line, err=True),
    )
    if not go:
        typer.echo("aborted: nothing was run", err=True)
        raise typer.Exit(1)


def finish(output: Any, out: Path) -> None:
    from triqua.evals.results import write_run

    folder = write_run(output.run, out, output.markdown, output.files)
    from rich.markdown import Markdown  # here: it loads markdown-it and pygments

    Console().print(Markdown(output.markdown.split("\n![")[0]))
    typer.echo(f"results: {folder}", err=True)


def workers_for(workers: int | None, offline: bool) -> int:
    return workers if workers is not None else (2 if offline else 4)


def progress_printer(total: int, label: str) -> Any:
    """A callback printing progress every tenth of the run (called from worker threads)."""
    done = [0]
    step = max(1, total // 10)
    lock = threading.Lock()

    def tick(_: Any) -> None:
        with lock:
            done[0] += 1
            if done[0] % step == 0 or done[0] == total:
                typer.echo(f"{label}: {done[0]}/{total}", err=True)

    return tick
