"""``triqua batch``: check every response of a JSONL file, resumably, with a summary table."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from triqua.cli._common import (
    AllowDomainOption,
    AllowPathOption,
    AsOfOption,
    BlockDomainOption,
    CandidatesOption,
    CasePopulationOption,
    ChromaUrlOption,
    ChunkSizeOption,
    CitationWeightsOption,
    CollectionOption,
    CostFalseContradictedOption,
    CostFalseSupportedOption,
    DecisionOption,
    DeltaOption,
    KeepUncheckworthyOption,
    MaxCallsOption,
    MaxEvidenceBytesOption,
    MaxFactsOption,
    MaxInputCharsOption,
    MaxSearchesOption,
    ModelOption,
    ModelTimeoutOption,
    RerankModelOption,
    RerankOption,
    RetrieverOption,
    RoutingOption,
    SearchTimeoutOption,
    TemperatureOption,
    TopKOption,
    VerifyBatchOption,
    check_concurrency,
    fail,
    given_settings,
)
from triqua.cli._gates import FailOnOption, FailUnderOption, Gates


def batch(
    input_path: Annotated[
        Path, typer.Argument(metavar="FILE.jsonl", help="One {id, text, question?, evidence?}.")
    ],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Write reports here (JSONL); default stdout."),
    ] = None,
    concurrency: Annotated[int, typer.Option(help="Checks running at once.")] = 4,
    resume: Annotated[
        bool, typer.Option(help="Skip ids already in --output (--no-resume starts afresh).")
    ] = True,
    model: ModelOption = None,
    retriever: RetrieverOption = None,
    collection: CollectionOption = None,
    chroma_url: ChromaUrlOption = None,
    chunk_size: ChunkSizeOption = None,
    verify_batch: VerifyBatchOption = None,
    max_searches: MaxSearchesOption = None,
    max_facts: MaxFactsOption = None,
    max_input_chars: MaxInputCharsOption = None,
    max_evidence_bytes: MaxEvidenceBytesOption = None,
    max_calls: MaxCallsOption = None,
    model_timeout: ModelTimeoutOption = None,
    search_timeout: SearchTimeoutOption = None,
    allow_path: AllowPathOption = None,
    delta: DeltaOption = None,
    routing: RoutingOption = None,
    top_k: TopKOption = None,
    candidates: CandidatesOption = None,
    rerank: RerankOption = None,
    rerank_model: RerankModelOption = None,
    keep_uncheckworthy: KeepUncheckworthyOption = None,
    as_of: AsOfOption = None,
    allow_domain: AllowDomainOption = None,
    block_domain: BlockDomainOption = None,
    temperature: TemperatureOption = None,
    decision: DecisionOption = None,
    case_population: CasePopulationOption = None,
    cost_false_supported: CostFalseSupportedOption = None,
    cost_false_contradicted: CostFalseContradictedOption = None,
    citation_weights: CitationWeightsOption = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", help="No problems or summary on stderr.")
    ] = False,
    fail_under: FailUnderOption = None,
    fail_on: FailOnOption = None,
) -> None:
    """Check each line of FILE.jsonl and write one JSON report per line (with its id).

    Evidence paths in FILE.jsonl resolve against its folder and may point only inside it,
    the current folder or an --allow-path folder. Exits with 1 when some lines could not be
    checked (they are listed on stderr) or a gate failed (--fail-under: the mean
    TriQuaScore; --fail-on: any fact of any line), and with 3 when every check ran but
    errors left nothing checked in any of them.
    """
    gates = Gates.of(fail_under, fail_on)
    settings = given_settings(
        retriever=retriever,
        collection=collection,
        chroma_url=chroma_url,
        chunk_size=chunk_size,
        verify_batch=verify_batch,
        max_searches=max_searches,
        max_facts=max_facts,
        max_input_chars=max_input_chars,
        max_evidence_bytes=max_evidence_bytes,
        max_calls=max_calls,
        model_timeout=model_timeout,
        search_timeout=search_timeout,
        allow_paths=allow_path,
        delta=delta,
        routing=routing,
        max_results=top_k,
        candidates=candidates,
        rerank=rerank,
        rerank_model=rerank_model,
        keep_uncheckworthy=keep_uncheckworthy,
        as_of=as_of,
        include_domains=allow_domain,
        exclude_domains=block_domain,
        temperature=temperature,
        decision=decision,
        case_population=case_population,
        cost_false_supported=cost_false_supported,
        cost_false_contradicted=cost_false_contradicted,
        citation_weights=citation_weights,
    )
    run_batch_file(
        input_path,
        output,
        gates,
        concurrency=concurrency,
        resume=resume,
        quiet=quiet,
        model=model,
        settings=settings,
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
) -> None:
    """Run a batch and exit as ``triqua batch`` does (shared by ``check --batch``).

    Raises:
        typer.Exit: with the batch's exit code, a gate's, or 2 for unreadable input.
    """
    from triqua.batch import run_batch

    check_concurrency(concurrency)
    try:
        summary = run_batch(
            input_path,
            output,
            concurrency=concurrency,
            resume=resume,
            quiet=quiet,
            model=model,
            **settings,
        )
    except (ValueError, OSError) as exc:
        raise fail(str(exc) or type(exc).__name__) from exc
    if summary.exit_code:
        raise typer.Exit(summary.exit_code)
    gates.enforce(summary.mean_score, summary.by_status)  # over the whole batch


def register(app: typer.Typer) -> None:
    """Add ``batch`` to the command."""
    app.command()(batch)
