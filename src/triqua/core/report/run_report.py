"""Run report: the ``Report`` of one check, assembled from its records, usage and notes."""

from __future__ import annotations

import re
from collections.abc import Sequence

from triqua.core.budget.usage import total_usage, usage_by_role
from triqua.core.report.accounting import count_failures, report_coverage, report_extraction_recall
from triqua.core.report.sentence_verdicts import sentence_verdicts
from triqua.core.verdicts.scoring import score_facts
from triqua.schema import (
    Chunk,
    ChunkFailure,
    ClaimRecord,
    Fact,
    FactualitySpec,
    NotCheckworthySentence,
    Report,
    RequestedCoverage,
    RoleUsage,
    Scores,
    UndecomposedSentence,
    UnfoundedFact,
    sha256_text,
)
from triqua.support.wording import counted

_FACT_NUMBER = re.compile(r"\d+")


def fact_order(claim_id: str) -> int:
    """The number in a fact id (``f12`` → 12), so records sort in text order."""
    match = _FACT_NUMBER.search(claim_id)
    return int(match.group()) if match else 0


def undefined_score_note(scores: Scores, failed: int, chunks: int) -> str | None:
    """Why the score is undefined (no checkable facts), or None when it is defined."""
    if scores.triqua_score is not None:
        return None
    if failed:
        return (
            "No checkable facts: the score is undefined (decomposition failed for "
            f"{failed} of {counted(chunks, 'chunk')})."
        )
    return "No checkable facts were found: the score is undefined."


def build_report(
    *,
    run_id: str,
    text: str,
    question: str | None,
    engine: str,
    spec: FactualitySpec,
    records: Sequence[ClaimRecord],
    usage_log: Sequence[RoleUsage],
    errors: Sequence[str],
    notes: Sequence[str],
    chunks: Sequence[Chunk],
    failed_chunks: Sequence[ChunkFailure],
    undecomposed: Sequence[UndecomposedSentence],
    unverified_facts: Sequence[Fact],
    not_checkworthy: Sequence[NotCheckworthySentence] = (),
    unfounded_facts: Sequence[UnfoundedFact] = (),
    requested_coverage: RequestedCoverage | None = None,
    language: str | None = None,
) -> Report:
    """Score the records (in text order) and assemble the run's report with its costs."""
    ordered = sorted(records, key=lambda r: fact_order(r.claim_id))
    scores = score_facts([(r.fact, r.verdict) for r in ordered])
    by_role = usage_by_role(usage_log)
    total = total_usage(by_role.values())
    triggered = sum(1 for r in ordered if r.rejudged)  # ElementCheck's trigger
    failed = sum(1 for c in failed_chunks if c.cause == "error")
    undefined = undefined_score_note(scores, failed, len(chunks))
    count = len(ordered)
    report = Report(
        run_id=run_id,
        input_hash=sha256_text(text),
        question=question,
        language=language,
        engine=engine,
        spec=spec,
        scores=scores,
        records=ordered,
        sentences=sentence_verdicts(ordered),
        usage=total,
        usage_by_role=by_role,
        reverify_trigger_rate=(triggered / count) if count else None,
        model_calls_per_fact=(total.model_calls / count) if count else None,
        search_calls_per_fact=(total.search_calls / count) if count else None,
        errors=list(errors),
        notes=[*notes, undefined] if undefined else list(notes),
        chunks=len(chunks),
        failed_chunks=sorted(failed_chunks, key=lambda c: c.chunk_index),
        undecomposed=sorted(undecomposed, key=lambda s: (s.span.start, s.span.end)),
        unverified_facts=list(unverified_facts),
        unfounded_facts=sorted(unfounded_facts, key=lambda u: u.chunk_index),
        not_checkworthy=sorted(not_checkworthy, key=lambda s: (s.span.start, s.span.end)),
        requested_coverage=requested_coverage,
    )
    report.failures = count_failures(report.records, report.failed_chunks)
    report.coverage = report_coverage(text, report)
    report.extraction_recall = report_extraction_recall(text, report)
    return report
