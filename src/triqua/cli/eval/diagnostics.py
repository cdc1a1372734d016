"""``triqua eval diagnostics``: decomposition statistics and each fact's judged quality."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from triqua.cli._common import ChunkSizeOption, ModelOption, fail
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
    settings_of,
    workers_for,
)
from triqua.evals.defaults import DEFAULT_CONTAINMENT_THRESHOLD

JudgeModels = Annotated[
    list[str] | None,
    typer.Option(
        "--judge",
        metavar="MODEL[@TEMP]",
        help="Chat model judging decomposition quality, 'provider:model' or "
        "'provider:model@TEMPERATURE'; give two for Cohen's κ (two models, or one at two "
        "temperatures). Default: the offline rule judges.",
    ),
]
ContainmentThreshold = Annotated[
    float,
    typer.Option(
        min=0.0,
        max=1.0,
        help="Offline entailment: share of each element's content words the source "
        "sentence must contain.",
    ),
]


@eval_app.command("diagnostics")
def diagnostics(
    bios: Bios = DEFAULT_BIOS,
    model: ModelOption = None,
    judge: JudgeModels = None,
    containment_threshold: ContainmentThreshold = DEFAULT_CONTAINMENT_THRESHOLD,
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
    from triqua.evals.diagnostics import DecomposedText, decompose_texts_with_modes, route_texts
    from triqua.evals.factscore import BIO_FOLDER, load_bios
    from triqua.evals.report import diagnostics_output
    from triqua.evals.setup import prepare_eval

    if judge and len(judge) > 2:
        raise fail("name at most two --judge models")
    try:
        path = resolve_data_file(bios, data_dir, BIO_FOLDER)
        records = load_bios(path, BadLines())
        chosen = [b for b in sample(records, limit, seed) if b.annotated and b.text.strip()]
        setup = prepare_eval(retriever="closed_book", **settings_of(model, chunk_size, no_cache))
        judges = (
            _llm_judges(judge, setup.context)
            if judge
            else {"rules": rule_judge(containment_threshold)}
        )
    except (ValueError, OSError) as exc:
        raise fail(str(exc)) from exc
    texts = [b.text for b in chosen]
    _confirm_cost(texts, setup.context, judge, confirm_above, yes)
    run_workers = workers_for(workers, setup.offline)
    facts, modes, usage, errors = decompose_texts_with_modes(
        [(b.text, b.question) for b in chosen], setup, workers=run_workers
    )
    items = [DecomposedText(tuple(f), len(b.sentences)) for b, f in zip(chosen, facts, strict=True)]
    quality = judge_facts(
        list(zip(texts, facts, modes, strict=True)),
        judges,
        workers=run_workers if judge else 1,
        routes=route_texts(facts, setup),
    )
    options = {
        "bios": path.name,
        "limit": limit,
        "seed": seed,
        "chunk_size": setup.context.chunk_size,
        "judges": list(judges),
        "containment_threshold": None if judge else containment_threshold,
    }
    output = diagnostics_output(
        items,
        setup=setup,
        usage=usage,
        errors=errors,
        data=[stamp(path, rows=len(records))],
        options=options,
        quality=quality,
        quality_note=_quality_note(len(judges), bool(judge), containment_threshold),
    )
    finish(output, out)


def _confirm_cost(
    texts: list[str], context: Any, judge: list[str] | None, confirm_above: int, yes: bool
) -> None:
    """Ask before a costly run: the bios' decomposition and the quality judges' calls.

    A chat-model judge adds ``FACTS_PER_SENTENCE`` calls per sentence of a mean bio; the
    offline rules add none.
    """
    from triqua.evals.guard import FACTS_PER_SENTENCE, count_sentences, estimate_cost

    judge_calls = 0
    if judge:
        mean_sentences = sum(count_sentences(t) for t in texts) / max(1, len(texts))
        judge_calls = round(len(judge) * FACTS_PER_SENTENCE * mean_sentences)
    estimate = estimate_cost(
        texts, context, retriever="closed_book", verify=False, extra_calls_per_text=judge_calls
    )
    guard(estimate, confirm_above, yes)


def _quality_note(judges: int, by_model: bool, containment_threshold: float) -> str:
    """What the quality columns rest on: two or one chat-model judges, or the offline rules."""
    if judges == 2:
        return "Two chat-model judges; κ is Cohen's κ between them per criterion."
    if by_model:
        return "One chat-model judge (give a second --judge for Cohen's κ)."
    return (
        "Offline rule judges: pronoun, relative-time and comparative rules for "
        "decontextualisation, label rules for qualifier use, and entailment as token "
        f"containment (every element's content words ≥ {containment_threshold:.2f} in the "
        "source sentence; names may come from the text before it)."
    )


def _llm_judges(specs: list[str], context: Any) -> dict[str, Any]:
    """Build the chat-model judges named by ``--judge`` ('spec' or 'spec@temperature').

    Raises:
        ValueError: when a model cannot be built or a temperature is not a number.
    """
    from triqua.engines.factory import chat_model_for
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
        model = chat_model_for(context, name, temperature=temperature)
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
