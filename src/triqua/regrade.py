"""Re-grade a stored run: judge its facts again and append the new verdicts as a revision.

The facts are not extracted again. Each fact is judged by the run's judge (or another one)
on the stored evidence, or on fresh evidence when asked to search again, and normalised
exactly as the verify node does (:func:`triqua.core.verdicts.settling.settle`). A complex fact's
element claims are judged again too, element by element, as the verify-elements node judges
them. The re-verify loop is not run again: reused evidence already holds what its rounds
found, and a fresh search asks the fact's query and the queries its rounds asked. Re-grading
never reads the cache: asking again is its purpose.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel

from triqua.api import context_from_settings, make_context
from triqua.context import Context
from triqua.core.budget.usage import total_usage, usage_by_role
from triqua.core.plan.element_claims import element_claims, element_groups
from triqua.core.plan.evidence import merge_evidence, search
from triqua.core.report.accounting import count_failures, report_coverage, report_extraction_recall
from triqua.core.report.sentence_verdicts import sentence_verdicts
from triqua.core.verdicts.scoring import score_facts
from triqua.core.verdicts.settling import settle
from triqua.engines.factory import Engines, resolve_engines
from triqua.runtime.resources import RunResources, build_resources
from triqua.runtime.resources.spec import grounding_rule, resolved_spec
from triqua.schema import (
    ClaimRecord,
    ElementClaim,
    Evidence,
    FactualitySpec,
    FailureCosts,
    Mode,
    Report,
    Revisions,
    RoleUsage,
    Usage,
    Verdict,
)
from triqua.store import RunStore, StoredRun
from triqua.support.wording import counted

__all__ = ["RegradeError", "regrade"]


class RegradeError(RuntimeError):
    """A fact could not be judged again (a provider error, a time-out); nothing was appended.

    A regrade is all or nothing: a revision whose failed facts lost their verdicts would
    replace the run's last good verdicts and score as what ``show`` reports.
    """


def _queries(record: ClaimRecord) -> list[str]:
    """The fact's own query, then the queries its re-verify rounds asked."""
    queries = [record.fact.query()]
    for round_ in record.rounds:
        queries.extend(q for q in round_.queries if q not in queries)
    return queries


def _regrade_elements(
    record: ClaimRecord,
    verdict: Verdict,
    evidence: list[Evidence],
    engines: Engines,
    mode: Mode,
    context: Context,
) -> tuple[list[ElementClaim], Usage, list[str]]:
    """A complex fact's element claims judged again, each element in its own call.

    Judged and settled as the verify-elements node does, beside the fact's new ``verdict``.
    Returns the claims, their cost and the judge's errors (a failed element judgement fails
    the regrade, as a failed fact judgement does). A simple fact has none.
    """
    if record.route != "complex":
        return [], Usage(), []
    claims: list[ElementClaim] = []
    spent, errors = Usage(), []
    for group in element_groups(record.fact):
        result = engines.judge.verify(
            group.fact, evidence, units=list(group.units), closed_book=mode is Mode.CLOSED_BOOK
        )
        spent = spent + result.usage
        if result.verdict.error:
            errors.append(result.verdict.error)
        judged = settle(
            group.fact,
            result.verdict,
            evidence,
            supported_threshold=context.supported_threshold(),
            reader=engines.judge.reader,
            grounding=context.grounding,
        )
        claims.extend(element_claims(group, judged, verdict))
    return claims, spent, errors


def _regrade_one(
    record: ClaimRecord,
    engines: Engines,
    resources: RunResources | None,
    mode: Mode,
    context: Context,
) -> tuple[ClaimRecord, list[RoleUsage], list[str]]:
    """Judge one stored fact again; returns the new record, its usage and search errors."""
    fact = record.fact
    evidence, rounds, errors = list(record.evidence), record.rounds, []
    search_usage = Usage()
    if resources is not None:
        evidence, rounds = [], []
        for query in _queries(record):
            found, error, usage = search(resources, query, context.max_results)
            search_usage = search_usage + usage
            evidence = merge_evidence(evidence, found)
            if error:
                errors.append(f"{fact.id}: {error}")
    units = fact.units() if record.route == "complex" else None
    judged = engines.judge.verify(fact, evidence, units=units, closed_book=mode is Mode.CLOSED_BOOK)
    verdict = settle(
        fact,
        judged.verdict,
        evidence,
        supported_threshold=context.supported_threshold(),
        reader=engines.judge.reader,
        grounding=context.grounding,
    )
    elements, element_usage, element_errors = _regrade_elements(
        record, verdict, evidence, engines, mode, context
    )
    if element_errors and not verdict.error:
        verdict = verdict.model_copy(update={"error": element_errors[0]})
    updated = record.model_copy(
        update={
            "evidence": evidence,
            "verdict": verdict,
            "elements": elements,
            "history": [*record.history, record.verdict],
            "rounds": rounds,
            "usage": judged.usage + element_usage + search_usage,
            "revisions": Revisions(
                extractor=record.revisions.extractor,
                retriever=resources.retriever.revision if resources else record.revisions.retriever,
                judge=verdict.judge or engines.judge.revision,
            ),
        }
    )
    log = [
        RoleUsage(role="verify", usage=judged.usage + element_usage),
        RoleUsage(role="search", usage=search_usage),
    ]
    return updated, log, errors


def _new_spec(
    old: FactualitySpec, context: Context, engines: Engines, resources: RunResources | None
) -> FactualitySpec:
    """The contract regrade applied, so its hash changes with anything that moved a verdict.

    The facts are the old run's (its claim policy and decomposer stay); the judge, its
    temperature and second opinion, the decision and failure costs, the as-of date and the
    grounding rule are this regrade's; re-verification is recorded off (regrade never
    re-verifies) and facts are judged one by one. After a fresh search the retrieval fields
    (mode, retriever, budget, source policy, corpus and its snapshot) are the search's.
    """
    data = old.model_dump(exclude={"hash"})
    if resources is not None:
        fresh = resolved_spec(context, resources).model_dump(exclude={"hash"})
        for name in ("mode", "authority", "retriever", "budget", "source_policy", "corpus"):
            data[name] = fresh[name]
        data["corpus_snapshot"] = fresh["corpus_snapshot"]
    models = {**old.models, "verify": engines.judge.revision}
    models.pop("second_opinion", None)
    models.pop("temperature", None)
    if not engines.offline:
        models["temperature"] = str(context.temperature)
    opinion = getattr(engines.judge, "second_opinion", None)
    if isinstance(opinion, str):
        models["second_opinion"] = opinion
    costs = context.failure_costs()
    data.update(
        models=models,
        as_of=context.as_of or None,
        decision=context.decision,
        case_population=context.case_population,
        failure_costs=FailureCosts(false_supported=costs[0], false_contradicted=costs[1])
        if costs
        else None,
        verdict_policy={**data["verdict_policy"], "reverify_rounds": 0, "verify_batch": 1},
        grounding=grounding_rule(context),
    )
    return FactualitySpec.model_validate(data)


def _engines_for(context: Context, stored: StoredRun, *, model_given: bool) -> Engines:
    """The run's engines; when the stored judge cannot be rebuilt, say how to pick another.

    The hint is left out when a model was given: it is that model that failed.
    """
    try:
        return resolve_engines(context)
    except ValueError as exc:
        if model_given:
            raise ValueError(f"cannot regrade run {stored.run_id}: {exc}") from exc
        raise ValueError(
            f"cannot rebuild the judge of run {stored.run_id}: {exc}; "
            "choose a judge with model= (or --model)"
        ) from exc


def _refuse_failures(run_id: str, records: list[ClaimRecord], revision: int) -> None:
    """Raise ``RegradeError`` when some fact's new verdict carries an error.

    Raises:
        RegradeError: naming how many facts failed, the first error and the revision kept.
    """
    failed = [r for r in records if r.verdict.error]
    if not failed:
        return
    first = (failed[0].verdict.error or "").splitlines()[0]
    raise RegradeError(
        f"regrade of run {run_id} failed: {len(failed)} of {counted(len(records), 'fact')} "
        f"could not be judged again ({failed[0].claim_id}: {first}); nothing was appended, the "
        f"run keeps revision {revision}"
    )


def _revision_report(
    stored: StoredRun,
    previous: Report,
    spec: FactualitySpec,
    engine: str,
    results: list[tuple[ClaimRecord, list[RoleUsage], list[str]]],
    note: str,
) -> Report:
    """The new revision's report: the facts judged again, scored, the rest as it was.

    Chunks, failures of decomposition and what was not checked stay the previous
    revision's; coverage and extraction recall are measured again only where the previous
    report measured them (older reports keep them unknown rather than guessed).

    Args:
        stored: The stored run (its text, input hash, question).
        previous: Its latest report.
        spec: The new revision's spec.
        engine: The name of the engines that judged again.
        results: Each fact's new record, usage log and search errors.
        note: What the revision is, for the report's notes.
    """
    records = [r.model_copy(update={"spec_hash": spec.hash}) for r, _, _ in results]
    by_role = usage_by_role([entry for _, entries, _ in results for entry in entries])
    report = Report(
        run_id=stored.run_id,
        input_hash=stored.input_hash,
        question=stored.question,
        engine=engine,
        spec=spec,
        scores=score_facts([(r.fact, r.verdict) for r in records]),
        records=records,
        sentences=sentence_verdicts(records),
        usage=total_usage(by_role.values()),
        usage_by_role=by_role,
        reverify_trigger_rate=sum(1 for r in records if r.rejudged) / len(records)
        if records
        else None,
        chunks=previous.chunks,
        failed_chunks=previous.failed_chunks,
        undecomposed=previous.undecomposed,
        unverified_facts=previous.unverified_facts,
        not_checkworthy=previous.not_checkworthy,
        errors=[error for _, _, errors in results for error in errors],
        notes=[note],
    )
    report.failures = count_failures(report.records, report.failed_chunks)
    if previous.coverage is not None:
        report.coverage = report_coverage(stored.text, report)
    if previous.extraction_recall is not None:
        report.extraction_recall = report_extraction_recall(stored.text, report)
    return report


def regrade(
    run_id: str,
    *,
    model: str | BaseChatModel | None = None,
    retriever: str | None = None,
    search_again: bool = False,
    documents: list[Any] | None = None,
    store: RunStore | str | Path | None = None,
    context: Context | None = None,
    **settings: Any,
) -> Report:
    """Judge a stored run's facts again and append the verdicts as its next revision.

    Args:
        run_id: The run (or a unique prefix of its id).
        model: The judge: a 'provider:model' string or a chat model instance; default: the
            run's own model.
        retriever: Search with this retriever instead of the run's (implies ``search_again``).
        search_again: Search for fresh evidence instead of reusing the stored evidence.
        documents: Documents for a fresh search with supplied context (default: the run's).
        store: The run store (default: the user's).
        context: Base settings (default: the run's stored settings).
        **settings: ``Context`` fields to override.

    Returns:
        The new revision's report; its records carry the earlier verdicts as ``history``.

    Raises:
        RegradeError: when a fact could not be judged again; no revision is appended.
    """
    runs = store if isinstance(store, RunStore) else RunStore(store)
    stored = runs.run(run_id)
    previous = runs.report(stored.run_id)
    base = context or context_from_settings(stored.settings)
    if retriever is not None:
        settings["retriever"] = retriever
        search_again = True
    ctx = replace(make_context(base, model=model, **settings), cache=False)
    engines = _engines_for(ctx, stored, model_given=model is not None)
    resources = None
    mode = previous.spec.mode
    if search_again:
        from triqua.core.text.inputs import coerce_documents

        docs = coerce_documents(documents) if documents is not None else stored.documents
        resources = build_resources(ctx, docs)
        resources = replace(resources, engines=engines)
        mode = resources.mode
    with ThreadPoolExecutor(max_workers=ctx.workers()) as pool:
        results = list(
            pool.map(lambda r: _regrade_one(r, engines, resources, mode, ctx), previous.records)
        )
    latest = runs.latest_revision(stored.run_id) or 0
    _refuse_failures(stored.run_id, [r for r, _, _ in results], latest)
    spec = _new_spec(previous.spec, ctx, engines, resources)
    how = "on freshly searched evidence." if search_again else "on its stored evidence."
    note = f"Re-graded run {stored.run_id} (previous revision {latest}) {how}"
    report = _revision_report(stored, previous, spec, engines.name, results, note)
    revision = runs.append_report(report)
    return runs.report(stored.run_id, revision)
