"""``triqua batch``: check every response of a JSONL file, resumably, with a summary table."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from triqua.cli._common import (
    ModelOption,
    NoCacheOption,
    check_concurrency,
    fail,
    is_stdout,
)
from triqua.cli._gates import FailOnOption, FailUnderOption, Gates
from triqua.cli._settings import given_settings, settings_flags
from triqua.cli._store import StoreUrlOption, store_location
from triqua.core.report.exit_codes import ExitCode
from triqua.support.wording import printable_text


def batch(
    input_path: Annotated[
        Path, typer.Argument(metavar="FILE.jsonl", help="One {id, text, question?, evidence?}.")
    ],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Write reports here (JSONL); default or '-': stdout."),
    ] = None,
    concurrency: Annotated[int, typer.Option(help="Checks running at once.")] = 4,
    resume: Annotated[
        bool,
        typer.Option(
            help="Skip ids whose report completed in --output; failed ones are checked "
            "again (--no-resume starts afresh)."
        ),
    ] = True,
    model: ModelOption = None,
    no_cache: NoCacheOption = False,
    flags: dict[str, Any] | None = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", help="No progress bar or summary on stderr.")
    ] = False,
    fail_under: FailUnderOption = None,
    fail_on: FailOnOption = None,
    store: Annotated[
        Path | None, typer.Option("--store", help="Run store file (default: user data).")
    ] = None,
    store_url: StoreUrlOption = None,
    no_store: Annotated[
        bool, typer.Option("--no-store", help="Do not save the lines' runs.")
    ] = False,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="ADDRESS",
            help="Check the lines on Ray workers (triqua[ray]): 'local' (or --ray alone) "
            "starts a cluster here (one CPU per core), host:port or 'auto' joins one (one "
            "line and exit 2 when nothing answers); --concurrency workers, one CPU each.",
        ),
    ] = None,
) -> None:
    """Check each line of FILE.jsonl and write one JSON report per line (with its id).

    Evidence paths in FILE.jsonl resolve against its folder and may point only inside it,
    the current folder or an --allow-path folder. Lines already finished in --output keep
    their reports and count toward the gates. Exit codes: 0 every line checked and every
    gate passed, 1 some lines could not be checked or their check failed (each is listed on
    stderr) or a gate failed (--fail-under: the mean TriQuaScore; --fail-on: any fact of any
    line; every failed gate is said), 2 a usage or input error, 3 errors left nothing
    checked in any line, 130 interrupted.
    """
    gates = Gates.of(fail_under, fail_on)
    settings = given_settings(**(flags or {}), cache=False if no_cache else None)
    run_batch_file(
        input_path,
        output,
        gates,
        concurrency=concurrency,
        resume=resume,
        quiet=quiet,
        model=model,
        settings=settings,
        store=False if no_store else (store_location(store, store_url) or True),
        ray=ray,
    )


def run_batch_file(
    input_path: Path,
    output: Path | None,
    gates: Gates,
    *,
    concurrency: int,
    quiet: bool,
    model: str | None,
    settings: dict[str, Any],
    resume: bool = True,
    store: bool | str | Path = True,
    ray: str | None = None,
) -> None:
    """Run a batch and exit as ``triqua batch`` does (shared by ``check --batch``).

    Raises:
        typer.Exit: with the batch's exit code, a gate's, or 2 for unreadable input.
    """
    from triqua.batch import run_batch

    check_concurrency(concurrency)
    output = None if is_stdout(output) else output
    try:
        summary = run_batch(
            input_path,
            output,
            concurrency=concurrency,
            resume=resume,
            quiet=quiet,
            model=model,
            store=store,
            ray=ray,
            **settings,
        )
    except BrokenPipeError:
        raise  # the reader of stdout closed it (``| head``): the CLI ends quietly
    except (ValueError, OSError) as exc:
        raise fail(str(exc) or type(exc).__name__) from exc
    except KeyboardInterrupt:
        raise fail(
            "interrupted: run the same command again to go on (finished lines are kept)",
            ExitCode.INTERRUPTED,
        ) from None
    # Every gate is judged and said, whatever else went wrong (the lines' problems are on
    # stderr already); the exit code is the worst of the two.
    said = summary.failed_line()
    if said:
        typer.echo(f"error: {printable_text(said)}", err=True)
    gated = gates.exit_code(summary.mean_score, summary.by_status, summary.ids_by_status)
    code = max(summary.exit_code, gated)
    if code:
        raise typer.Exit(code)


#: ``--ray``'s value when it is given alone: a cluster started on this machine.
LOCAL_RAY = "local"


def bare_ray(args: list[str]) -> list[str]:
    """``args`` with ``local`` after a ``--ray`` given no address (``--ray`` alone).

    An address is ``local``, ``auto`` or has a port (``host:port``, ``ray://host:port``);
    anything else after ``--ray`` (another option, the input file, nothing) is not one.
    """
    out: list[str] = []
    for i, arg in enumerate(args):
        out.append(arg)
        if arg != "--ray":
            continue
        following = args[i + 1] if i + 1 < len(args) else None
        if following is None or not (following in ("local", "auto") or ":" in following):
            out.append(LOCAL_RAY)
    return out


def register(app: typer.Typer) -> None:
    """Add ``batch`` to the command."""
    app.command()(settings_flags(batch))
