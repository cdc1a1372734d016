"""``triqua eval factscore-bio``: triqua's scores against human FActScore on labelled bios."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer

from triqua.cli._common import ChunkSizeOption, ModelOption, fail
from triqua.cli.eval._shared import (
    CONFIRM_ABOVE,
    DEFAULT_BIOS,
    BadLines,
    ConfirmAbove,
    DataDir,
    Limit,
    NoCache,
    Out,
    Seed,
    Workers,
    Yes,
    eval_app,
    finish,
    guard,
    progress_printer,
    settings_of,
    workers_for,
)


@eval_app.command("factscore-bio")
def factscore_bio(
    bios: Annotated[
        str, typer.Option(help="ChatGPT, InstructGPT, PerplexityAI, or a labelled JSONL path.")
    ] = DEFAULT_BIOS,
    collection: Annotated[str | None, typer.Option(help="Chroma collection to search.")] = None,
    retriever: Annotated[
        str | None,
        typer.Option(
            help="tavily, serper, brave, chroma, chroma+<web>, or closed_book (the default)."
        ),
    ] = None,
    evidence_dir: Annotated[
        Path | None, typer.Option(help="Evidence files per topic: DIR/<topic>.txt or .md.")
    ] = None,
    evidence_answers: Annotated[
        str | None,
        typer.Option(help="Proxy evidence: another model's labelled answers (name or path)."),
    ] = None,
    f1_k: Annotated[
        float | None,
        typer.Option(
            "--f1-k",
            min=1,
            help="K of F1@K: supported facts a full answer needs "
            "(default: the median number of checked facts per bio).",
        ),
    ] = None,
    model: ModelOption = None,
    coverage_model: Annotated[
        str | None,
        typer.Option(
            help="Chat model judging whether each bio addresses its question (requested-content "
            "coverage), 'provider:model'. Default: --model; offline runs without it say that "
            "coverage needs a model.",
        ),
    ] = None,
    chunk_size: ChunkSizeOption = None,
    data_dir: DataDir = None,
    limit: Limit = None,
    seed: Seed = 0,
    workers: Workers = None,
    out: Out = Path("results"),
    yes: Yes = False,
    confirm_above: ConfirmAbove = CONFIRM_ABOVE,
    no_cache: NoCache = False,
) -> None:
    """Correlate triqua's scores with human FActScore on labelled biographies.

    Without --collection, --retriever, --evidence-dir or --evidence-answers the check is
    closed book.
    """
    from triqua.evals.data import resolve_data_file, sample, stamp, stamp_folder
    from triqua.evals.factscore import BIO_FOLDER, KnowledgeSource, check_bios, load_bios
    from triqua.evals.guard import estimate_cost
    from triqua.evals.report import factscore_output
    from triqua.evals.setup import prepare_eval

    given = [x for x in (retriever or collection, evidence_dir, evidence_answers) if x]
    if len(given) > 1:
        raise fail(
            "name one knowledge source: --collection/--retriever, --evidence-dir "
            "or --evidence-answers"
        )
    try:
        path = resolve_data_file(bios, data_dir, BIO_FOLDER)
        stamps = []
        if evidence_dir is not None:
            source = KnowledgeSource.evidence_dir(evidence_dir)
            stamps.append(stamp_folder(evidence_dir))
        elif evidence_answers is not None:
            answers = resolve_data_file(evidence_answers, data_dir, BIO_FOLDER)
            source = KnowledgeSource.evidence_answers(answers)
            stamps.append(stamp(answers))
        elif retriever == "closed_book":
            source = KnowledgeSource.closed_book()
        elif retriever or collection:
            source = KnowledgeSource.search(retriever or "chroma", collection)
        else:
            source = KnowledgeSource.closed_book()
        records = load_bios(path, BadLines())
        stamps.insert(0, stamp(path, rows=len(records)))
        chosen = sample(records, limit, seed)
        setup = prepare_eval(
            documents=source.example_documents(),
            **source.settings,
            **settings_of(model, chunk_size, no_cache),
        )
        coverage = _coverage_judge(coverage_model, setup)
    except (ValueError, OSError) as exc:
        raise fail(str(exc)) from exc
    eligible = [b for b in chosen if b.annotated and b.gold_score is not None]
    estimate = estimate_cost(
        [b.text for b in eligible], setup.context, retriever=str(source.settings["retriever"])
    )
    if coverage is not None:  # one coverage call per bio, even when the check is offline
        estimate = replace(
            estimate, model_calls=estimate.model_calls + len(eligible), offline=False
        )
    guard(estimate, confirm_above, yes)
    outcomes = check_bios(
        chosen,
        source,
        setup,
        workers=workers_for(workers, setup.offline),
        progress=progress_printer(len(chosen), "bios"),
        coverage=coverage,
    )
    options = {
        "bios": Path(path).name,
        "source": source.kind,
        "limit": limit,
        "seed": seed,
        "chunk_size": setup.context.chunk_size,
        "f1_k": f1_k,
        "coverage_model": coverage.name if coverage else None,
    }
    finish(
        factscore_output(
            outcomes,
            setup=setup,
            source=source,
            data=stamps,
            options=options,
            k=f1_k,
            coverage=coverage is not None,
        ),
        out,
    )


def _coverage_judge(spec: str | None, setup: Any) -> Any:
    """The requested-content coverage judge: ``spec``, else the run's chat model, else None.

    Raises:
        ValueError: when the model cannot be built.
    """
    from triqua.engines.factory import coverage_judge

    context = setup.context
    name = spec or (None if setup.offline else context.model)
    if not name:
        return None
    return coverage_judge(context, name)
