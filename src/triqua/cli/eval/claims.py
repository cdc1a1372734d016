"""``triqua eval claims``: verify claims against given evidence, triqua vs the direct baseline."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from triqua.cli._common import ChunkSizeOption, ModelOption, fail
from triqua.cli.eval._shared import (
    CONFIRM_ABOVE,
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

ClaimsFile = Annotated[
    Path | None,
    typer.Argument(metavar="FILE", help="Claims JSONL (default: Factcheck-Bench subtask 3)."),
]
LabelMap = Annotated[
    str | None,
    typer.Option(
        help="gold=target pairs, comma-separated; target: supported, contradicted, "
        "insufficient_evidence, partial (reported apart) or skip. Default: "
        "completely-support=supported, refute=contradicted, "
        "irrelevant=insufficient_evidence, partially-support=partial."
    ),
]


@eval_app.command("claims")
def claims(
    file: ClaimsFile = None,
    claim_field: Annotated[str, typer.Option(help="Field holding the claim.")] = "claim",
    evidence_field: Annotated[str, typer.Option(help="Field holding the evidence.")] = "evidence",
    label_field: Annotated[str, typer.Option(help="Field holding the gold label.")] = "stance",
    label_map: LabelMap = None,
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
    from triqua.evals.claims import verify_claims
    from triqua.evals.claims_data import (
        CLAIMS_FILE,
        DEFAULT_LABEL_MAP,
        load_claims,
        parse_label_map,
    )
    from triqua.evals.data import data_file, sample, stamp
    from triqua.evals.guard import estimate_cost
    from triqua.evals.report_claims import claims_output
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
            problems=BadLines(),
        )
        data = [stamp(path, rows=len(rows) + skipped)]
        chosen = sample(rows, limit, seed)
        if not chosen:
            raise ValueError(f"{path}: no rows to evaluate")
        setup = prepare_eval(
            documents=[Document(text=chosen[0].evidence)],
            retriever="supplied",
            **settings_of(model, chunk_size, no_cache),
        )
    except (ValueError, OSError) as exc:
        raise fail(str(exc)) from exc
    guard(
        estimate_cost(
            [r.claim for r in chosen], setup.context, retriever="supplied", extra_calls_per_text=1
        ),
        confirm_above,
        yes,
    )
    outcomes, usage = verify_claims(
        chosen,
        setup,
        workers=workers_for(workers, setup.offline),
        progress=progress_printer(len(chosen), "claims"),
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
    finish(claims_output(outcomes, setup=setup, usage=usage, data=data, options=options), out)
