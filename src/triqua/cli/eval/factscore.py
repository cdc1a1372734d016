"""``triqua eval factscore-bio``: triqua's scores against human FActScore on labelled bios."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer

from triqua.cli._common import ChunkSizeOption, CollectionOption, ModelOption, fail
from triqua.cli.eval._shared import (
    CONFIRM_ABOVE,
    DEFAULT_BIOS,
    BadLines,
    Bios,
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

Retriever = Annotated[
    str | None,
    typer.Option(help="tavily, serper, brave, chroma, chroma+<web>, or closed_book (the default)."),
]
EvidenceDir = Annotated[
    Path | None, typer.Option(help="Evidence files per topic: DIR/<topic>.txt or .md.")
]
EvidenceAnswers = Annotated[
    str | None,
    typer.Option(help="Proxy evidence: another model's labelled answers (name or path)."),
]
F1K = Annotated[
    float | None,
    typer.Option(
        "--f1-k",
        min=1,
        help="K of F1@K: supported facts a full answer needs "
        "(default: the median number of checked facts per bio).",
    ),
]
CoverageModel = Annotated[
    str | None,
    typer.Option(
        help="Chat model judging whether each bio addresses its question (requested-content "
        "coverage), 'provider:model'. Default: --model; offline runs without it say that "
        "coverage needs a model.",
    ),
]


@eval_app.command("factscore-bio")
def factscore_bio(
    bios: Bios = DEFAULT_BIOS,
    collection: CollectionOption = None,
    retriever: Retriever = None,
    evidence_dir: EvidenceDir = None,
    evidence_answers: EvidenceAnswers = None,
    f1_k: F1K = None,
    model: ModelOption = None,
    coverage_model: CoverageModel = None,
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
    from triqua.evals.data import resolve_data_file, sample, stamp
    from triqua.evals.factscore import BIO_FOLDER, check_bios, load_bios
    from triqua.evals.report import factscore_output
    from triqua.evals.setup import prepare_eval

    _refuse_two_sources(retriever or collection, evidence_dir, evidence_answers)
    try:
        path = resolve_data_file(bios, data_dir, BIO_FOLDER)
        source, stamps = _knowledge_source(
            collection, retriever, evidence_dir, evidence_answers, data_dir
        )
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
    _confirm_cost(chosen, source, setup, coverage is not None, confirm_above, yes)
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


def _refuse_two_sources(*sources: str | Path | None) -> None:
    """Stop when more than one knowledge source is named: which one to use is unclear."""
    if len([x for x in sources if x]) > 1:
        raise fail(
            "name one knowledge source: --collection/--retriever, --evidence-dir "
            "or --evidence-answers"
        )


def _knowledge_source(
    collection: str | None,
    retriever: str | None,
    evidence_dir: Path | None,
    evidence_answers: str | None,
    data_dir: Path | None,
) -> tuple[Any, list[Any]]:
    """Where the bios' evidence comes from, and the data stamps of its files (if any).

    Evidence files, another model's answers, a search (``--retriever``/``--collection``)
    or, by default, none: closed book.

    Raises:
        ValueError: when a named source cannot be read.
    """
    from triqua.evals.data import resolve_data_file, stamp, stamp_folder
    from triqua.evals.factscore import BIO_FOLDER, KnowledgeSource

    if evidence_dir is not None:
        return KnowledgeSource.evidence_dir(evidence_dir), [stamp_folder(evidence_dir)]
    if evidence_answers is not None:
        answers = resolve_data_file(evidence_answers, data_dir, BIO_FOLDER)
        return KnowledgeSource.evidence_answers(answers), [stamp(answers)]
    if retriever != "closed_book" and (retriever or collection):
        return KnowledgeSource.search(retriever or "chroma", collection), []
    return KnowledgeSource.closed_book(), []


def _confirm_cost(
    chosen: list[Any], source: Any, setup: Any, coverage: bool, confirm_above: int, yes: bool
) -> None:
    """Ask before a costly run: the eligible bios' checks, and one coverage call per bio.

    Coverage is judged by a chat model even when the check is offline.
    """
    from triqua.evals.guard import estimate_cost

    eligible = [b for b in chosen if b.annotated and b.gold_score is not None]
    estimate = estimate_cost(
        [b.text for b in eligible], setup.context, retriever=str(source.settings["retriever"])
    )
    if coverage:
        estimate = replace(
            estimate, model_calls=estimate.model_calls + len(eligible), offline=False
        )
    guard(estimate, confirm_above, yes)


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
