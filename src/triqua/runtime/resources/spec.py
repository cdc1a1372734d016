"""The run's FactualitySpec, frozen from what the run actually resolved.

Mode and retriever come from the built resources (the retriever that will search and the
mode its documents imply), every policy from the settings that the nodes read. Overrides may
describe the run (its authority, the name of a corpus snapshot when none is known) or restate
what was resolved; an override that contradicts it is an error, so a spec never says
``closed_book`` while supplied documents are searched.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any

from triqua.context import Context, GroundingMode
from triqua.engines.revisions import ELEMENT_GRAPH_REVISION
from triqua.models.entailment import RULES_ONLY
from triqua.runtime.resources import RunResources, calls_model
from triqua.schema import (
    CitationPolicy,
    ClaimPolicy,
    CorpusSnapshot,
    Document,
    FactualitySpec,
    FailureCosts,
    RetrieverBudget,
    SourcePolicy,
    VerdictPolicy,
    sha256_text,
)
from triqua.schema.retriever_kinds import kind_of

AUTHORITY = {
    "supplied_context": "the supplied documents",
    "bounded_search": "the searched sources",
    "closed_book": "the judge's own knowledge",
}

#: Spec fields that describe rather than govern the run: any override is taken.
DESCRIPTIVE = frozenset({"authority", "decision", "case_population"})
#: What a run's settings decide in its spec: all but what describes its evidence.
_NOT_SETTINGS = {"hash", "version", "corpus", "corpus_snapshot", *DESCRIPTIVE}


class SettingsChangedError(ValueError):
    """A paused run resumed with other settings than it started with, so refused.

    Its verdicts would not be what its spec says. The refusal ends the resumed run: the
    verification subgraph's error handlers raise it again rather than record it as a
    failure of the batch's facts.
    """


def settings_digest(spec: FactualitySpec) -> str:
    """A digest of what the run's settings decide in ``spec`` (engines, retriever, policies).

    A run paused and resumed must be resumed with the settings it started with: its
    verification compares this digest of the spec it started with against the spec its
    current settings resolve (:func:`resolved_spec`).
    """
    data = spec.model_dump(mode="json", exclude=_NOT_SETTINGS)
    return sha256_text(json.dumps(data, sort_keys=True, separators=(",", ":")))


def refuse_other_settings(
    started: str, context: Context, resources: RunResources, run_id: str, spec_hash: str
) -> None:
    """Refuse a paused run resumed with other settings than it started with; once per run.

    ``started`` is the :func:`settings_digest` of the spec the run started with. A resume
    through triqua compares it before any step runs (``execution.durable``); a graph
    resumed directly (Studio, a LangGraph server) compares it at the first step of a
    batch. Either way the run's ledger records the agreement, so later steps do not
    resolve the spec again.

    Raises:
        SettingsChangedError: its verdicts would not be what its spec says.
    """
    if resources.ledger.settings_checked == started:
        return
    if settings_digest(resolved_spec(context, resources)) != started:
        raise SettingsChangedError(
            f"run {run_id} was started with other settings than it is resumed "
            f"with (spec {spec_hash[:12]}): resume it with the context it "
            "started with (model, retriever, routing, budgets and policies)"
        )
    resources.ledger.settings_checked = started


def corpus_snapshot(
    kind: str, context: Context, documents: Sequence[Document] = ()
) -> CorpusSnapshot:
    """What the run's evidence is at the time of the run (see :class:`CorpusSnapshot`)."""
    if kind == "supplied":
        hashes = {d.id: sha256_text(d.text) for d in documents}
        return CorpusSnapshot(
            kind=kind,
            count=len(hashes),
            content_hash=sha256_text("\n".join(sorted(hashes.values()))),
            documents=hashes,
        )
    fields: dict[str, Any] = {"kind": kind}
    notes = []
    what = kind_of(kind)
    if what.web:
        fields["as_of"] = (
            date.fromisoformat(context.as_of) if context.as_of else datetime.now(UTC).date()
        )
    if what.chroma:
        fields["collection"] = context.collection
        if context.collection is None:
            notes.append("no collection named")
        else:
            from triqua.tools.base import RetrieverUnavailable
            from triqua.tools.chroma import ChromaRetriever

            chroma = ChromaRetriever(
                context.collection,
                path=context.chroma_path,
                url=context.chroma_url,
                timeout=context.search_timeout or None,
            )
            try:
                fields["count"], fields["content_hash"] = chroma.snapshot()
            except RetrieverUnavailable as exc:
                notes.append(str(exc))
    elif what.registered:
        notes.append("a registered retriever: its corpus is not known to triqua")
    if notes:
        fields["note"] = "; ".join(notes)
    return CorpusSnapshot(**fields)


def resolved_spec(context: Context, resources: RunResources) -> FactualitySpec:
    """The spec as the run's resources and settings make it (documents: the ledger's)."""
    engines = resources.engines
    models = {
        "decompose": engines.decomposer.revision,
        "verify": engines.judge.revision,
        "refine": engines.refiner.revision,
        "routing": context.routing,
    }
    if context.elements == "parse":  # routing read each sentence's graph from its parse
        models["elements"] = ELEMENT_GRAPH_REVISION
    if not engines.offline:  # chat models sample at this temperature
        models["temperature"] = str(context.temperature)
    judge: object = engines.judge
    while judge is not None:  # an LLM judge's second opinion (engines/second_opinion.py)
        if isinstance(getattr(judge, "second_opinion", None), str):
            models["second_opinion"] = judge.second_opinion  # type: ignore[attr-defined]
            break
        judge = getattr(judge, "inner", None)
    costs = context.failure_costs()
    return FactualitySpec(
        mode=resources.mode,
        authority=AUTHORITY[resources.mode.value],
        as_of=date.fromisoformat(context.as_of) if context.as_of else None,
        corpus=context.collection,
        retriever=resources.retriever.revision,
        budget=RetrieverBudget(
            max_searches=context.max_searches,
            max_results=context.max_results,
            candidates=resources.key.candidates,
            rerank=resources.reranker,
        ),
        source_policy=SourcePolicy(
            allowed_domains=context.include_domains, blocked_domains=context.exclude_domains
        ),
        claim_policy=ClaimPolicy(
            chunk_size=context.chunk_size,
            decompose_batch_chars=context.decompose_batch_chars
            if calls_model(engines.decomposer)
            else 0,
            keep_uncheckworthy=context.keep_uncheckworthy,
        ),
        verdict_policy=VerdictPolicy(
            reverify_rounds=0 if context.routing == "never_reverify" else context.reverify_rounds,
            delta=context.delta,
            max_qualifiers=context.max_qualifiers,
            elements=context.elements,
            mention_links=context.mention_links,
            verify_batch=context.verify_batch if engines.judge.batched else 1,
        ),
        models=models,
        decision=context.decision,
        failure_costs=FailureCosts(false_supported=costs[0], false_contradicted=costs[1])
        if costs
        else None,
        case_population=context.case_population,
        corpus_snapshot=corpus_snapshot(resources.key.kind, context, resources.ledger.documents),
        citations=CitationPolicy(
            complete_weight=context.citation_complete_weight,
            partial_weight=context.citation_partial_weight,
        ),
        grounding=grounding_rule(context),
    )


def grounding_rule(context: Context) -> GroundingMode:
    """The grounding rule a run with ``context`` applies: strict when it has no judge."""
    return "strict" if context.verifier.strip() == RULES_ONLY else context.grounding


def build_spec(
    context: Context, resources: RunResources, overrides: dict[str, Any] | None
) -> FactualitySpec:
    """Freeze the run's evidence contract; ``overrides`` may describe it, never contradict it.

    Raises:
        ValueError: for an unknown field, or an override that contradicts what the run
            resolved (naming the field, both values and the setting that governs it).
    """
    spec = resolved_spec(context, resources)
    if not overrides:
        return spec
    data = spec.model_dump(exclude={"hash"})
    unknown = sorted(set(overrides) - set(data))
    unknown += sorted(
        f"{name}.{key}"
        for name, value in overrides.items()
        if isinstance(value, dict) and isinstance(data.get(name), dict) and name != "models"
        for key in set(value) - set(data[name])
    )
    if unknown:
        raise ValueError(f"unknown spec field(s): {', '.join(unknown)}")
    wanted = FactualitySpec.model_validate({**data, **overrides})
    for name in sorted(overrides):
        if name in DESCRIPTIVE or (name == "corpus" and spec.corpus is None):
            continue
        have, want = getattr(spec, name), getattr(wanted, name)
        if have != want:
            raise ValueError(
                f"spec_overrides[{name!r}] = {_show(want)} contradicts the run, which resolved "
                f"{_show(have)}; change the run's settings (retriever, documents, routing, "
                "budgets, policies) instead of the spec"
            )
    return wanted


def _show(value: Any) -> str:
    dump = getattr(value, "model_dump", None)
    return repr(dump(mode="json") if dump else getattr(value, "value", value))
