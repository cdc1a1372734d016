"""``triqua eval``: evaluation harness (FActScore bios, claim verification, diagnostics, compare).

Every evaluation writes a stamped results folder (see :mod:`triqua.evals.results`) and, before
it starts, prints an estimate of its model calls and searches, asking first when the run
would spend more than ``--confirm-above`` of either.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from triqua.cli._common import ChunkSizeOption, ModelOption, fail
from triqua.evals.defaults import DEFAULT_CONTAINMENT_THRESHOLD

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


def _settings(model: str | None, chunk_size: int | None, no_cache: bool) -> dict[str, Any]:
    settings: dict[str, Any] = {}
    if model:
        settings["model"] = model
    if chunk_size is not None:
        settings["chunk_size"] = chunk_size
    if no_cache:
        settings["cache"] = False
    return settings


class _BadLines(list[str]):
    """Collects a data file's bad lines and warns about each on stderr as it is skipped."""

    def append(self, message: str) -> None:
        """Keep and print one ``file:line: why`` message."""
        super().append(message)
        typer.echo(f"warning: {message} (line skipped)", err=True)


def _guard(estimate: Any, threshold: int, yes: bool) -> None:
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


def _finish(output: Any, out: Path) -> None:
    from triqua.evals.results import write_run

    folder = write_run(output.run, out, output.markdown, output.files)
    from rich.markdown import Markdown

    Console().print(Markdown(output.markdown.split("\n![")[0]))
    typer.echo(f"results: {folder}", err=True)


def _workers(workers: int | None, offline: bool) -> int:
    return workers if workers is not None else (2 if offline else 4)


def _progress(total: int, label: str) -> Any:
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


@eval_app.command("factscore-bio")
def factscore_bio(
    bios: Annotated[
        str, typer.Option(help="ChatGPT, InstructGPT, PerplexityAI, or a labelled JSONL path.")
    ] = DEFAULT_BIOS,
    collection: Annotated[str | None, typer.Option(help="Chroma collection to search.")] = None,
    retriever: Annotated[
        str | None,
        typer.Option(help="tavily, chroma, chroma+tavily, or closed_book (the default)."),
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
        records = load_bios(path, _BadLines())
        stamps.insert(0, stamp(path, rows=len(records)))
        chosen = sample(records, limit, seed)
        setup = prepare_eval(
            documents=source.example_documents(),
            **source.settings,
            **_settings(model, chunk_size, no_cache),
        )
    except (ValueError, OSError) as exc:
        raise fail(str(exc)) from exc
    eligible = [b for b in chosen if b.annotated and b.gold_score is not None]
    _guard(
        estimate_cost(
            [b.text for b in eligible], setup.context, retriever=str(source.settings["retriever"])
        ),
        confirm_above,
        yes,
    )
    outcomes = check_bios(
        chosen,
        source,
        setup,
        workers=_workers(workers, setup.offline),
        progress=_progress(len(chosen), "bios"),
    )
    options = {
        "bios": Path(path).name,
        "source": source.kind,
        "limit": limit,
        "seed": seed,
        "chunk_size": setup.context.chunk_size,
        "f1_k": f1_k,
    }
    _finish(
        factscore_output(
            outcomes, setup=setup, source=source, data=stamps, options=options, k=f1_k
        ),
        out,
    )


@eval_app.command("claims")
def claims(
    file: Annotated[
        Path | None, typer.Argument(help="Claims JSONL (default: Factcheck-Bench subtask 3).")
    ] = None,
    claim_field: Annotated[str, typer.Option(help="Field holding the claim.")] = "claim",
    evidence_field: Annotated[str, typer.Option(help="Field holding the evidence.")] = "evidence",
    label_field: Annotated[str, typer.Option(help="Field holding the gold label.")] = "stance",
    label_map: Annotated[
        str | None,
        typer.Option(
            help="gold=target pairs, comma-separated; target: supported, contradicted, "
            "insufficient_evidence, partial (reported apart) or skip. Default: "
            "completely-support=supported, refute=contradicted, "
            "irrelevant=insufficient_evidence, partially-support=partial."
        ),
    ] = None,
    model: ModelOption = None,
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
    """Verify claims against their given evidence: triqua vs the direct baseline."""
    from triqua.evals.claims import (
        CLAIMS_FILE,
        DEFAULT_LABEL_MAP,
        load_claims,
        parse_label_map,
        verify_claims,
    )
    from triqua.evals.data import data_file, sample, stamp
    from triqua.evals.guard import estimate_cost
    from triqua.evals.report import claims_output
    from triqua.evals.setup import prepare_eval
    from triqua.schema import Document

    try:
        path = file if file is not None else data_file(data_dir, CLAIMS_FILE)
        mapping = parse_label_map(label_map) if label_map else None
        rows, skipped = load_claims(
            path,
            claim_field=claim_field,
            evidence_field=evidence_field,
            label_field=label_field,
            label_map=mapping,
            problems=_BadLines(),
        )
        data = [stamp(path, rows=len(rows) + skipped)]
        chosen = sample(rows, limit, seed)
        if not chosen:
            raise ValueError(f"{path}: no rows to evaluate")
        setup = prepare_eval(
            documents=[Document(text=chosen[0].evidence)],
            retriever="supplied",
            **_settings(model, chunk_size, no_cache),
        )
    except (ValueError, OSError) as exc:
        raise fail(str(exc)) from exc
    _guard(
        estimate_cost(
            [r.claim for r in chosen], setup.context, retriever="supplied", extra_calls_per_text=1
        ),
        confirm_above,
        yes,
    )
    outcomes, usage = verify_claims(
        chosen,
        setup,
        workers=_workers(workers, setup.offline),
        progress=_progress(len(chosen), "claims"),
    )
    options = {
        "file": path.name,
        "label_map": mapping or DEFAULT_LABEL_MAP,
        "skipped": skipped,
        "limit": limit,
        "seed": seed,
        "chunk_size": setup.context.chunk_size,
        "fields": [claim_field, evidence_field, label_field],
    }
    _finish(claims_output(outcomes, setup=setup, usage=usage, data=data, options=options), out)


@eval_app.command("diagnostics")
def diagnostics(
    bios: Annotated[
        str, typer.Option(help="ChatGPT, InstructGPT, PerplexityAI, or a labelled JSONL path.")
    ] = DEFAULT_BIOS,
    model: ModelOption = None,
    judge: Annotated[
        list[str] | None,
        typer.Option(
            "--judge",
            metavar="MODEL[@TEMP]",
            help="Chat model judging decomposition quality, 'provider:model' or "
            "'provider:model@TEMPERATURE'; give two for Cohen's κ (two models, or one at two "
            "temperatures). Default: the offline rule judges.",
        ),
    ] = None,
    containment_threshold: Annotated[
        float,
        typer.Option(
            min=0.0,
            max=1.0,
            help="Offline entailment: share of each element's content words the source "
            "sentence must contain.",
        ),
    ] = DEFAULT_CONTAINMENT_THRESHOLD,
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
    """Decomposition diagnostics over the bios, with each fact's quality judged.

    Facts per sentence, qualifiers and dedup, and every fact judged for entailment by its
    sentence, decontextualisation and qualifier use (TriQua §4.2).
    """
    from triqua.evals.data import resolve_data_file, sample, stamp
    from triqua.evals.decomposition_quality import judge_facts, rule_judge
    from triqua.evals.diagnostics import DecomposedText, decompose_texts_with_modes
    from triqua.evals.factscore import BIO_FOLDER, load_bios
    from triqua.evals.guard import FACTS_PER_SENTENCE, count_sentences, estimate_cost
    from triqua.evals.report import diagnostics_output
    from triqua.evals.setup import prepare_eval

    if judge and len(judge) > 2:
        raise fail("name at most two --judge models")
    try:
        path = resolve_data_file(bios, data_dir, BIO_FOLDER)
        records = load_bios(path, _BadLines())
        chosen = [b for b in sample(records, limit, seed) if b.annotated and b.text.strip()]
        setup = prepare_eval(retriever="closed_book", **_settings(model, chunk_size, no_cache))
        judges = (
            _llm_judges(judge, setup.context)
            if judge
            else {"rules": rule_judge(containment_threshold)}
        )
    except (ValueError, OSError) as exc:
        raise fail(str(exc)) from exc
    texts = [b.text for b in chosen]
    judge_calls = 0
    if judge:
        mean_sentences = sum(count_sentences(t) for t in texts) / max(1, len(texts))
        judge_calls = round(len(judge) * FACTS_PER_SENTENCE * mean_sentences)
    _guard(
        estimate_cost(
            texts,
            setup.context,
            retriever="closed_book",
            verify=False,
            extra_calls_per_text=judge_calls,
        ),
        confirm_above,
        yes,
    )
    run_workers = _workers(workers, setup.offline)
    facts, modes, usage, errors = decompose_texts_with_modes(
        [(b.text, b.question) for b in chosen], setup, workers=run_workers
    )
    items = [DecomposedText(tuple(f), len(b.sentences)) for b, f in zip(chosen, facts, strict=True)]
    quality = judge_facts(
        list(zip(texts, facts, modes, strict=True)),
        judges,
        workers=run_workers if judge else 1,
    )
    options = {
        "bios": path.name,
        "limit": limit,
        "seed": seed,
        "chunk_size": setup.context.chunk_size,
        "judges": list(judges),
        "containment_threshold": None if judge else containment_threshold,
    }
    note = (
        "Two chat-model judges; κ is Cohen's κ between them per criterion."
        if len(judges) == 2
        else "One chat-model judge (give a second --judge for Cohen's κ)."
        if judge
        else "Offline rule judges: pronoun, relative-time and comparative rules for "
        "decontextualisation, label rules for qualifier use, and entailment as token "
        f"containment (every element's content words ≥ {containment_threshold:.2f} in the "
        "source sentence; names may come from the text before it)."
    )
    output = diagnostics_output(
        items,
        setup=setup,
        usage=usage,
        errors=errors,
        data=[stamp(path, rows=len(records))],
        options=options,
        quality=quality,
        quality_note=note,
    )
    _finish(output, out)


def _llm_judges(specs: list[str], context: Any) -> dict[str, Any]:
    """Build the chat-model judges named by ``--judge`` ('spec' or 'spec@temperature').

    Raises:
        ValueError: when a model cannot be built or a temperature is not a number.
    """
    from triqua.engines.factory import chat_model
    from triqua.evals.decomposition_llm import LLMDiagnosisJudge

    judges: dict[str, Any] = {}
    for spec in specs:
        name, at, temp = spec.rpartition("@")
        if not at:
            name, temperature = spec, context.temperature
        else:
            try:
                temperature = float(temp)
            except ValueError as exc:
                raise ValueError(f"--judge {spec!r}: {temp!r} is not a temperature") from exc
        model = chat_model(
            name,
            base_url=context.base_url,
            temperature=temperature,
            timeout=context.model_timeout,
        )
        label = f"{name}@{temperature:g}"
        if label in judges:
            label += f"#{len(judges) + 1}"
        judge = LLMDiagnosisJudge(
            model,
            name=label,
            max_retries=context.max_output_retries,
            retry_wait=context.retry_wait,
            timeout=context.model_timeout,
        )
        judges[label] = judge.judge
    return judges


@eval_app.command("compare")
def compare(
    a: Annotated[Path, typer.Argument(help="First results folder (or its result.json).")],
    b: Annotated[Path, typer.Argument(help="Second results folder (or its result.json).")],
) -> None:
    """Print the headline metrics of two runs and their difference (B - A)."""
    from triqua.evals.results import compare_runs, load_run

    try:
        first, second = load_run(a), load_run(b)
    except ValueError as exc:
        raise fail(str(exc)) from exc
    comparison = compare_runs(first, second)
    for warning in comparison.warnings:
        typer.echo(f"warning: {warning}", err=True)
    from rich.table import Table

    table = Table(title=f"{first.eval}: {a.name} → {b.name}")
    for column in ("metric", "A", "B", "B - A"):
        table.add_column(column, justify="left" if column == "metric" else "right")

    def cell(value: float | int | None) -> str:
        if value is None:
            return "-"
        return f"{value:.4f}" if isinstance(value, float) else str(value)

    for name, x, y, delta in comparison.rows:
        shown = "-" if delta is None else f"{delta:+.4f}".rstrip("0").rstrip(".")
        table.add_row(name, cell(x), cell(y), shown)
    Console(width=120).print(table)


def register(app: typer.Typer) -> None:
    """Add the ``eval`` command group."""
    app.add_typer(eval_app, name="eval")
