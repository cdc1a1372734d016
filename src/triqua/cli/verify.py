"""``triqua verify``: check given facts (as ``triqua extract`` writes them) against evidence.

No decomposition: the facts enter the check graph at ``split`` and go through the check's
retrieval, routing, verification, grounding and scoring; the report, its outputs, gates and
the stored run are those of ``triqua check``.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Annotated, Any

import typer

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
)
from triqua.cli._gates import FailOnOption, FailUnderOption, Gates, SummaryOption
from triqua.cli._input import input_limit, read_input
from triqua.cli._settings import given_settings, settings_flags
from triqua.cli.check import ReportOutputs, read_evidence, show_report

FactsArgument = Annotated[
    Path,
    typer.Argument(metavar="FACTS", help="Facts file: JSONL, one fact per line (triqua extract)."),
]
TextArgument = Annotated[
    str | None,
    typer.Argument(
        metavar="TEXT", help="The text the facts came from ('-' for stdin; default: none)."
    ),
]


def verify(
    facts: FactsArgument,
    text: TextArgument = None,
    file: FileOption = None,
    question: QuestionOption = None,
    evidence: EvidenceOption = None,
    model: ModelOption = None,
    flags: dict[str, Any] | None = None,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
    no_cache: NoCacheOption = False,
    store: StoreOption = None,
    no_store: NoStoreOption = False,
    html: HtmlOption = None,
    md: MdOption = None,
    fail_under: FailUnderOption = None,
    fail_on: FailOnOption = None,
    one_line: SummaryOption = False,
) -> None:
    """Check the facts in FACTS (no decomposition) against evidence, as triqua check does.

    TEXT (or --file) is the text the facts were extracted from: their spans point into it,
    and a span outside it is dropped with a warning. Without it, the facts' source sentences
    make the text. Exit codes: 0 done, 1 a --fail-under or --fail-on gate failed, 2 a usage
    or input error (a line that is not a fact names its line), 3 errors left nothing
    checked, 130 interrupted.
    """
    from triqua.api import make_context
    from triqua.cli._progress import run_with_progress
    from triqua.core.plan.given_facts import place_facts, read_facts
    from triqua.tools.base import RetrieverError
    from triqua.tools.evidence_files import check_readable_file

    if one_line and as_json:
        raise fail("give --json or --summary, not both")
    check_report_files(html, md, as_json=as_json, summary=one_line)
    gates = Gates.of(fail_under, fail_on)
    settings = given_settings(**(flags or {}), cache=False if no_cache else None)
    given = text is not None or file is not None
    body = read_input(text, file, input_limit(settings)) if given else None
    try:
        check_readable_file(facts)  # a FIFO or device would block or never end
        placed = place_facts(read_facts(facts, str(facts)), body)
    except ValueError as exc:
        raise fail(str(exc)) from exc
    for warning in placed.warnings:
        typer.echo(f"warning: {warning}", err=True)
    run_id = uuid.uuid4().hex
    try:
        ctx = make_context(model=model, **settings)
        documents = read_evidence(evidence, ctx, quiet) if evidence else None
        report = run_with_progress(
            placed.text,
            quiet=quiet,
            durable=True,
            context=ctx,
            facts=placed.facts,
            documents=documents,
            question=question,
            run_id=run_id,
            store=False if no_store else (store or True),
        )
    except (ValueError, OSError, RetrieverError) as exc:
        raise fail(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from exc
    except KeyboardInterrupt:
        raise fail(f"interrupted: finish it with triqua check --resume {run_id}", 130) from None
    if not quiet:
        from triqua.cli._hints import no_evidence_hint

        hint = no_evidence_hint(settings, report.spec.mode, has_evidence=bool(evidence))
        if hint:
            typer.echo(hint, err=True)
    outputs = ReportOutputs(gates, as_json=as_json, quiet=quiet, html=html, md=md, summary=one_line)
    show_report(report, outputs)


def register(app: typer.Typer) -> None:
    """Add ``verify`` to the command."""
    app.command()(settings_flags(verify))
