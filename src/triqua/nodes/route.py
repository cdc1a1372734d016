"""Route: number the facts, cap their count and route each by its sentence's element graph."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Send

from triqua.context import Context
from triqua.core.plan.fact_limits import cap_facts, sentence_facts
from triqua.core.plan.routing import Thresholds, route_facts
from triqua.core.plan.verify_batches import batch_keys
from triqua.core.text.chunking import previous_text
from triqua.engines.elements import sentence_element_graphs
from triqua.nodes.common import context_of, emit
from triqua.runtime.resources import documents_digest, ledger_of
from triqua.runtime.resources.spec import settings_digest
from triqua.schema import Document, Fact
from triqua.state import BatchTask, FactTask, State


def route(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Number the facts in text order (given facts keep their ids), cap them, route each one."""
    context = context_of(runtime)
    skipped = ledger_of(context, runtime).facts.skipped
    capped = cap_facts(
        state.get("facts", []),
        context.max_facts,
        skipped,
        len(state.get("chunks", [])),
        renumber=state.get("given_facts") is None,
    )
    update: dict[str, Any] = {}
    if capped.error and capped.note:
        update["errors"] = [capped.error]
        update["notes"] = [capped.note]
        update["unverified_facts"] = capped.unverified
    facts = capped.facts
    texts = [chunk.text for chunk in state.get("chunks", [])]
    sentence_of = sentence_facts(facts)
    # Coerced by prepare; the digest lets each fact's nodes find the run's retriever.
    digest = documents_digest([d for d in state.get("documents") or [] if isinstance(d, Document)])
    routed = route_facts(facts, Thresholds.of(context), sentence_element_graphs)
    # Batched verification: whole sentences share a batch, packed in text order.
    batch_of = batch_keys(facts, context.verify_batch)
    spec_hash = state["spec"].hash  # computed on each access: once per run here
    settings = settings_digest(state["spec"])  # a resumed run must be resumed with them
    tasks = []
    for fact, (fact_route, features) in zip(facts, routed, strict=True):
        task = FactTask(
            run_id=state["run_id"],
            fact=fact,
            route=fact_route,
            complexity=features,
            question=state.get("question"),
            spec_hash=spec_hash,
        )
        task["settings_digest"] = settings
        if digest:
            task["documents_digest"] = digest
        if fact.id in batch_of:
            task["batch"], task["batch_size"] = batch_of[fact.id]
        if state.get("case_id"):
            task["case_id"] = state["case_id"]
        previous = previous_text(texts, fact.chunk_index)  # the context its decomposer had
        if previous is not None:
            task["previous_chunk"] = previous
        if fact_route == "complex":  # re-verification builds contextual claims from these
            task["sentence_facts"] = sentence_of[fact.id]
        tasks.append(task)
    emit("facts_found", facts=len(tasks), complex=sum(t["route"] == "complex" for t in tasks))
    update["tasks"] = tasks
    return update


def fan_out_facts(state: State) -> list[Send] | str:
    """One verification subgraph per batch; straight to scoring when there is no fact.

    The tasks (edited in Studio, perhaps) are grouped by their batch key, in text order;
    a fact without one (``verify_batch`` 1) is a batch of its own. A batch with a complex
    fact takes the complex path (its simple facts still get one whole-fact verdict each and
    no re-verification: routes stay per fact).
    """
    tasks = state.get("tasks", [])
    if not tasks:
        return "score"
    batches: dict[str, list[FactTask]] = {}
    for task in tasks:
        key = task.get("batch") or Fact.model_validate(task["fact"]).id
        batches.setdefault(key, []).append(task)
    return [
        Send(
            "verify_batch",
            BatchTask(
                run_id=members[0]["run_id"],
                batch=key,
                route="complex" if any(m["route"] == "complex" for m in members) else "simple",
                members=members,
            ),
        )
        for key, members in batches.items()
    ]
