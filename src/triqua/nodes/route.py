"""Route: number the facts, cap their count and route each by its sentence's element graph."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Send

from triqua.context import Context
from triqua.core.routing import Thresholds, group_by_sentence, route_facts
from triqua.core.verify_batches import batches_of
from triqua.limits import LIMIT_NOTE_PREFIX
from triqua.nodes.common import context_of, emit
from triqua.resources import documents_digest, ledger_of
from triqua.schema import Document, Fact
from triqua.state import FactTask, State


def route(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Number the facts in text order, cap their count, and route each one."""
    context = context_of(runtime)
    facts = sorted(
        state.get("facts", []),
        key=lambda f: (f.chunk_index, f.span.start if f.span else 0),
    )
    update: dict[str, Any] = {}
    skipped = ledger_of(context, runtime).facts.skipped
    if len(facts) > context.max_facts or skipped:
        chunks = len(state.get("chunks", []))
        what = (
            f"{max(0, len(facts) - context.max_facts)} more facts found were not verified and "
            f"{skipped} of {chunks} chunks were not decomposed"
        )
        update["errors"] = [f"stopped at max_facts={context.max_facts}: {what}"]
        update["notes"] = [f"{LIMIT_NOTE_PREFIX}max_facts={context.max_facts}: {what}"]
        update["unverified_facts"] = facts[context.max_facts :]
        facts = facts[: context.max_facts]
    facts = [f.model_copy(update={"id": f"f{n}"}) for n, f in enumerate(facts, start=1)]
    chunk_text = {chunk.index: chunk.text for chunk in state.get("chunks", [])}
    sentence_of = {
        facts[i].id: [facts[j] for j in group] for group in group_by_sentence(facts) for i in group
    }
    # Coerced by prepare; the digest lets each fact's nodes find the run's retriever.
    digest = documents_digest([d for d in state.get("documents") or [] if isinstance(d, Document)])
    batch_of = _batches(facts, context)
    tasks = []
    for fact, (fact_route, features) in zip(
        facts, route_facts(facts, Thresholds.of(context)), strict=True
    ):
        task = FactTask(
            run_id=state["run_id"],
            fact=fact,
            route=fact_route,
            complexity=features,
            question=state.get("question"),
            spec_hash=state["spec"].hash,
        )
        if digest:
            task["documents_digest"] = digest
        if fact.id in batch_of:
            task["batch"], task["batch_size"] = batch_of[fact.id]
        if state.get("case_id"):
            task["case_id"] = state["case_id"]
        if fact.chunk_index - 1 in chunk_text:  # the context its decomposer was given
            task["previous_chunk"] = chunk_text[fact.chunk_index - 1]
        if fact_route == "complex":  # re-verification builds contextual claims from these
            task["sentence_facts"] = sentence_of[fact.id]
        tasks.append(task)
    emit("facts_found", facts=len(tasks), complex=sum(t["route"] == "complex" for t in tasks))
    update["tasks"] = tasks
    return update


def _batches(facts: list[Fact], context: Context) -> dict[str, tuple[str, int]]:
    """Each batched fact's batch (named by its first fact) and the batch's size.

    Batches hold one sentence's facts, at most ``verify_batch`` and at most the facts
    verified at once (a batch's members wait for each other); a batch of one is no batch.
    """
    size = min(context.verify_batch, context.workers())
    if size <= 1:
        return {}
    out = {}
    for batch in batches_of(facts, size):
        if len(batch) > 1:
            for index in batch:
                out[facts[index].id] = (facts[batch[0]].id, len(batch))
    return out


def fan_out_facts(state: State) -> list[Send] | str:
    """One verification subgraph per fact; straight to scoring when there is none."""
    tasks = state.get("tasks", [])
    if not tasks:
        return "score"
    return [Send("verify_fact", task) for task in tasks]
