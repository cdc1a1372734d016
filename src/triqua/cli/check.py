"""``triqua check``: check text from the shell and print a table or JSON; ``triqua schema``."""

from __future__ import annotations

import json
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from triqua.cli._common import (
    EvidenceOption,
    FileOption,
    HtmlOption,
    JsonOption,
    MdOption,
    ModelOption,
    NoCacheOption,
    NoStoreOption,
    QuestionOption,
    QuietOption,
    StoreOption,
    check_report_files,
    fail,
    is_stdout,
)
from triqua.cli._gates import (
    FailOnOption,
    FailUnderOption,
    Gates,
    SummaryOption,
    summary_line,
    verdict_counts,
)
from triqua.cli._input import input_limit, read_input
from triqua.cli._settings import given_settings, settings_flags
from triqua.cli._store import StoreUrlOption, store_location

if TYPE_CHECKING:
    from triqua.citations import CitationReport
    from triqua.context import Context
    from triqua.schema import Document, Report


ResumeOption = Annotated[
    str | None, typer.Option("--resume", metavar="RUN", help="Finish an interrupted run.")
]
BatchOption = Annotated[
    Path | None,
    typer.Option("--batch", help="JSONL of {id, text, question?, evidence?}: check each."),
]
OutputOption = Annotated[
    Path | None,
    typer.Option("--output", "-o", help="With --batch: reports file (default or '-': stdout)."),
]
ConcurrencyOption = Annotated[int, typer.Option(help="With --batch: responses checked at once.")]
CitationsOption = Annotated[
    bool,
    typer.Option(
        "--citations", help="The text cites sources ([1] … with a source list): judge them."
    ),
]


def check(
    text: Annotated[
        str | None, typer.Argument(metavar="TEXT", help="Text to check ('-' for stdin).")
    ] = None,
    file: FileOption = None,
    question: QuestionOption = None,
    evidence: EvidenceOption = None,
    model: ModelOption = None,
    flags: dict[str, Any] | None = None,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
    resume: ResumeOption = None,
    no_cache: NoCacheOption = False,
    store: StoreOption = None,
    store_url: StoreUrlOption = None,
    no_store: NoStoreOption = False,
    html: HtmlOption = None,
    md: MdOption = None,
    batch: BatchOption = None,
    output: OutputOption = None,
    concurrency: ConcurrencyOption = 4,
    citations: CitationsOption = False,
    fail_under: FailUnderOption = None,
    fail_on: FailOnOption = None,
    one_line: SummaryOption = False,
) -> None:
    """Check the facts in TEXT against evidence and print verdicts and TriQuaScore.

    Exit codes: 0 done, 1 a --fail-under or --fail-on gate failed, 2 a usage or input
    error, 3 errors left nothing checked, 130 interrupted.
    """
    from triqua.cli._progress import run_with_progress
    from triqua.tools.base import RetrieverError

    given_text = text is not None or file is not None
    _refuse_conflicts(given_text, resume, bool(evidence), question, batch, one_line, as_json)
    gates = Gates.of(fail_under, fail_on)
    settings = given_settings(
        **(flags or {}),
        cache=False if no_cache else None,
    )
    check_report_files(html, md, as_json=as_json, summary=one_line)  # before the run's work
    if batch is not None:
        from triqua.cli.batch import run_batch_file

        run_batch_file(
            batch,
            output,
            gates,
            concurrency=concurrency,
            quiet=quiet,
            model=model,
            settings=settings,
            store=False if no_store else (store_location(store, store_url) or True),
        )
        return
    body = None if resume else _read_text(text, file, input_limit(settings))
    run_id = resume or uuid.uuid4().hex
    cited: CitationReport | None = None
    where = False if no_store else (store_location(store, store_url) or True)
    try:
        run: dict[str, Any] = {"run_id": run_id, "store": where}
        if resume:  # the run's saved settings apply, overridden by these
            report = run_with_progress(
                None, quiet=quiet, durable=True, resume=resume, model=model, **run, **settings
            )
        else:
            assert body is not None  # read above: not resuming
            run["question"] = question
            base_dir = (file.parent if file is not None else Path.cwd()) if citations else None
            report, cited = _check_text(body, evidence, quiet, base_dir, model, settings, run)
    except (ValueError, OSError, RetrieverError) as exc:
        raise fail(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from exc
    except KeyboardInterrupt:
        raise fail(f"interrupted: finish it with triqua check --resume {run_id}", 130) from None
    if body is not None and not quiet and not citations:  # before every other line of output
        _hint_evidence(settings, report, has_evidence=bool(evidence))
    outputs = ReportOutputs(gates, as_json=as_json, quiet=quiet, html=html, md=md, summary=one_line)
    show_report(report, outputs, cited)


def _refuse_conflicts(
    given_text: bool,
    resume: str | None,
    given_evidence: bool,
    question: str | None,
    batch: Path | None,
    one_line: bool,
    as_json: bool,
) -> None:
    """Stop, with a usage error, on options that ask for two things at once.

    Raises:
        typer.Exit: 2 naming the two options.
    """
    if resume and given_text:
        raise fail("give TEXT or --resume RUN, not both")
    if resume and (given_evidence or question is not None):
        raise fail("a resumed run keeps its own evidence and question: drop -e/--question")
    if batch is not None and (given_text or resume):
        raise fail("give --batch FILE or a text, not both")
    if one_line and as_json:
        raise fail("give --json or --summary, not both")


def _read_text(text: str | None, file: Path | None, max_chars: int) -> str:
    """The text to check (:func:`read_input`); a ``-f`` file of JSON records is refused.

    Raises:
        typer.Exit: 2 with the hint to check the records with ``--batch``.
    """
    from triqua.cli._hints import json_records_problem

    body = read_input(text, file, max_chars)
    problem = None if file is None or str(file) == "-" else json_records_problem(file, body)
    if problem is not None:
        raise fail(problem)
    return body


def _check_text(
    body: str,
    evidence: list[Path] | None,
    quiet: bool,
    base_dir: Path | None,
    model: str | None,
    settings: dict[str, Any],
    run: dict[str, Any],
) -> tuple[Report, CitationReport | None]:
    """Check a new text: its evidence read, then checked, or its citations judged.

    Args:
        body: The text.
        evidence: The ``-e`` paths (None: none given).
        quiet: No progress and no warnings on stderr.
        base_dir: The folder cited sources are read from; None: the text's citations are
            not judged.
        model: The chat model named (None: the settings' or the offline engine).
        settings: The settings given on the command line.
        run: The run's id, store and question; its documents are filled in here.

    Returns:
        The report, and the citation report when citations were judged.
    """
    from triqua.api import make_context
    from triqua.cli._progress import run_with_progress

    # The run's one Context, built once: the evidence is read within its limits.
    ctx = make_context(model=model, **settings)
    run["documents"] = read_evidence(evidence, ctx, quiet) if evidence else None
    if base_dir is not None:
        from triqua.citations import check_cited

        return check_cited(body, base_dir=base_dir, context=ctx, **run)
    return run_with_progress(body, quiet=quiet, durable=True, context=ctx, **run), None


def _hint_evidence(settings: dict[str, Any], report: Report, *, has_evidence: bool) -> None:
    """Say on stderr how to give evidence when the check had none to read."""
    from triqua.cli._hints import no_evidence_hint

    hint = no_evidence_hint(settings, report.spec.mode, has_evidence=has_evidence)
    if hint:
        typer.echo(hint, err=True)


@dataclass(frozen=True)
class ReportOutputs:
    """Where a check's report goes: the terminal (table, JSON or one line), files, gates."""

    gates: Gates
    as_json: bool = False
    quiet: bool = False
    html: Path | None = None
    md: Path | None = None
    summary: bool = False


def show_report(
    report: Report, outputs: ReportOutputs, cited: CitationReport | None = None
) -> None:
    """Write the report's files, print it and its notes, and exit as its gates say.

    Shared by ``check`` and ``verify``, so a check of given facts reports as a check does.

    Raises:
        typer.Exit: 3 when errors left nothing checked, 1 when a gate failed, 2 when a
            report file cannot be written.
    """
    from triqua.core.budget.limits import is_limit_note, limit_notes

    html, md, quiet, gates = outputs.html, outputs.md, outputs.quiet, outputs.gates
    if html is not None:
        from triqua.core.budget.costs import prices_from_env
        from triqua.rendering.html import render_html, write_html

        try:
            if is_stdout(html):
                sys.stdout.write(render_html(report, prices=prices_from_env(), citations=cited))
            else:
                write_html(report, html, prices=prices_from_env(), citations=cited)
        except OSError as exc:
            raise fail(
                f"{html}: {exc.strerror or exc} (the run is stored: {report.run_id})"
            ) from exc
    if md is not None:
        from triqua.rendering.markdown import render_markdown, write_markdown

        try:
            if is_stdout(md):
                sys.stdout.write(render_markdown(report, citations=cited))
            else:
                write_markdown(report, md, citations=cited)
        except OSError as exc:
            raise fail(f"{md}: {exc.strerror or exc}") from exc
    if not quiet:  # a limit the run reached is said on the terminal in every output mode
        for note in limit_notes(report.notes):
            typer.echo(f"warning: {note}", err=True)
    if outputs.as_json:
        payload = report.model_dump(mode="json")
        if cited is not None:
            payload["citations"] = cited.model_dump(mode="json")
        sys.stdout.write(json.dumps(payload, indent=2) + "\n")
    elif not quiet:
        for note in report.notes:
            if not is_limit_note(note):
                typer.echo(note, err=True)
    if outputs.as_json or is_stdout(html) or is_stdout(md):  # stdout holds the report
        _exit_if_failed(report)
        gates.enforce(report.score, verdict_counts(report))
        return
    # Notes never go to stdout: stderr has them, or --quiet drops them. A reached limit
    # stays in the summary when quiet (it is said on the terminal in every output mode).
    kept = limit_notes(report.notes) if quiet else []
    report = report.model_copy(update={"notes": kept})
    from triqua.rendering.terminal import print_report

    if outputs.summary:
        typer.echo(summary_line(report, cited))
    else:
        print_report(report, Console())
    if cited is not None and not outputs.summary:
        from triqua.rendering.citations import citations_table

        Console().print(citations_table(report, cited))
        typer.echo(f"citations: {cited.summary()}")
    _exit_if_failed(report)
    gates.enforce(report.score, verdict_counts(report))


def _exit_if_failed(report: Report) -> None:
    """Exit with ``FAILED_RUN`` and one line on stderr when errors left nothing checked."""
    if report.outcome == "failed":
        from triqua.core.report.accounting import FAILED_RUN, failure_line

        raise fail(failure_line(report), FAILED_RUN)


def read_evidence(paths: list[Path], context: Context, quiet: bool) -> list[Document]:
    """The ``-e`` files, folders and pipes as documents (:func:`triqua.api.load_evidence`).

    Skipped JSONL lines and files are warnings on stderr unless ``quiet``.
    """
    from triqua.api import load_evidence

    skipped: list[str] = []
    documents = load_evidence(paths, context, problems=skipped)
    if not quiet:
        for message in skipped:
            typer.echo(f"warning: {message}", err=True)
    return documents


def schema() -> None:
    """Print the JSON schema of the report."""
    from triqua.schema import report_json_schema

    sys.stdout.write(json.dumps(report_json_schema(), indent=2) + "\n")


def register(app: typer.Typer) -> None:
    """Add ``check`` and ``schema`` to the command."""
    app.command()(settings_flags(check))
    app.command()(schema)
