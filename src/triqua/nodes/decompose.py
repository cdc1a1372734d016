"""Decompose: one call per batch of chunks (``Send`` fan-out), the chunk before as context."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langgraph.errors import GraphBubbleUp
from langgraph.runtime import Runtime
from langgraph.types import Send

from triqua.context import Context
from triqua.core.plan.founded import found_in_text
from triqua.core.text.checkworthy import screen
from triqua.core.text.chunk_batches import chunk_of, merged_chunk, pack, split_facts, split_spans
from triqua.core.text.chunking import chunk_failure, previous_text, undecomposed_sentences
from triqua.core.text.long_sentences import LONG_SENTENCE
from triqua.engines.base import DecomposeResult, Judge
from triqua.nodes.common import context_of, emit
from triqua.runtime.resources import RunResources, limited_call, run_resources
from triqua.runtime.resources.retrievers import mode_of, retriever_kind
from triqua.schema import Chunk, Fact, Mode, NotCheckworthySentence, UndecomposedSentence
from triqua.state import ChunkTask, RoleUsage, State
from triqua.support.wording import plural


def fan_out_chunks(state: State) -> list[Send] | str:
    """One decomposition task per batch of chunks; the chunk before it travels as context.

    Consecutive chunks are packed up to the spec's ``decompose_batch_chars`` (0: one chunk a
    task), so the prompt is paid once per batch rather than once per chunk. A run of given
    facts goes straight to routing.
    """
    chunks = state.get("chunks", [])
    if not chunks or state.get("given_facts") is not None:  # given facts are not decomposed
        return "route"
    # A sentence over max_sentence_chars is a chunk of its own that split recorded skipped:
    # neither decomposed nor shown as the context of the chunk after it.
    long = {c.chunk_index for c in state.get("failed_chunks", []) if c.cause == LONG_SENTENCE}
    texts = [None if c.index in long else c.text for c in chunks]
    limit = state["spec"].claim_policy.decompose_batch_chars
    runs: list[list[Chunk]] = [[]]  # the chunks between long sentences: never one batch
    for chunk in chunks:
        if chunk.index in long:
            runs.append([])
        else:
            runs[-1].append(chunk)
    batches = [batch for run in runs for batch in pack(run, limit)]
    if not batches:
        return "route"
    # A text of several chunks is decomposed in TriQua's chunk mode however many share a
    # call: each chunk is shown with the one before it.
    chunked = len(chunks) > 1
    tasks = []
    for members in batches:
        first = members[0].index
        task = ChunkTask(
            run_id=state["run_id"],
            chunk=members[0] if len(members) == 1 else merged_chunk(members, state["text"]),
            previous_chunk=previous_text(texts, first),
            question=state.get("question"),
            chunked=chunked,
        )
        if len(members) > 1:
            task["members"] = members
        tasks.append(Send("decompose", task))
    return tasks


#: A chunk's decomposition: its result (None when refused), sentences left, sentences set aside.
Outcome = tuple[DecomposeResult | None, list[UndecomposedSentence], list[NotCheckworthySentence]]


def _with_evidence(context: Context, resources: RunResources) -> bool:
    """Whether the run's facts are judged against evidence (not closed book).

    A decomposition node's resources know no documents; the run's ledger holds them.
    """
    held = bool(resources.ledger.documents)
    return mode_of(retriever_kind(context, held)) is not Mode.CLOSED_BOOK


def _call(
    resources: RunResources,
    context: Context,
    task: ChunkTask,
    chunk: Chunk,
    previous_chunk: str | None,
    parts: Sequence[Chunk] = (),
) -> Outcome:
    """One decomposition call within the run's limits; None when the call limit refused it.

    An engine that raises fails the chunk on the record (its error in the result), as does
    a not-decomposed span outside the chunk. The answer is screened for check-worthiness
    (``core.text.checkworthy``): facts of sentences not worth checking are dropped unless the
    run keeps them, so the other facts keep their spans exactly; facts their text does not
    state are dropped as unfounded (``core.plan.founded``) and recorded.
    """
    engines = resources.engines
    try:
        result = limited_call(
            resources,
            engines.decomposer,
            lambda: engines.decomposer.decompose(
                chunk,
                previous_chunk=previous_chunk,
                question=task["question"],
                chunked=task["chunked"],
                parts=parts,
            ),
            lambda r: r.usage,
        )
        undecomposed: list[UndecomposedSentence] = []
        excluded: list[NotCheckworthySentence] = []
        if result is not None and not result.error:
            screened = screen(
                chunk,
                result.facts,
                result.undecomposed,
                context.keep_uncheckworthy,
                titles=task["question"] is None,  # a one-word answer is no title
            )
            founded, unfounded = found_in_text(
                chunk, screened.facts, previous_chunk=previous_chunk, question=task["question"]
            )
            result = result.model_copy(
                update={
                    "facts": founded,
                    "undecomposed": screened.undecomposed,
                    "unfounded": unfounded,
                }
            )
            undecomposed = undecomposed_sentences(screened.undecomposed, chunk)
            excluded = screened.excluded
    except GraphBubbleUp:  # interrupts and other graph control flow pass through
        raise
    except Exception as exc:  # an engine bug fails this chunk, on the record, not the run
        result = DecomposeResult(
            error=f"decompose failed for chunk {chunk.index}: {type(exc).__name__}: {exc}"
        )
        undecomposed, excluded = [], []
    if result is not None and not result.error and _with_evidence(context, resources):
        _announce(engines.judge, result.facts, chunk)
    return result, undecomposed, excluded


def _announce(judge: Judge, facts: Sequence[Fact], chunk: Chunk) -> None:
    """Tell the judge which facts it will verify, so it may prepare while the run goes on.

    A hint only: it changes no verdict, so a judge that fails to prepare fails neither the
    chunk nor the run (the failure is streamed; the facts are judged all the same).
    """
    try:
        judge.expect(facts)
    except Exception as exc:  # the verification that follows meets any real problem
        emit("judge_expect_failed", chunk=chunk.index, error=f"{type(exc).__name__}: {exc}")


def _record(
    resources: RunResources,
    context: Context,
    chunk: Chunk,
    result: DecomposeResult | None,
    undecomposed: list[UndecomposedSentence],
    excluded: list[NotCheckworthySentence],
) -> dict[str, Any]:
    """The state update for one chunk's outcome: facts, usage, failure or sentences left."""
    if result is None:  # the run's model calls ran out: counted, and score reports the stop
        resources.calls.skip("chunk")
        emit("chunk_skipped", chunk=chunk.index, reason="max_calls")
        reason = f"skipped: the run had made max_calls={context.max_calls} model calls"
        return {"failed_chunks": [chunk_failure(chunk, reason, "max_calls")]}
    resources.facts.add(len(result.facts))
    emit("chunk_decomposed", chunk=chunk.index, facts=len(result.facts), error=result.error)
    update: dict[str, Any] = {
        "facts": result.facts,
        "usage_log": [RoleUsage(role="decompose", usage=result.usage)],
    }
    if result.error:
        update["errors"] = [result.error]
        update["failed_chunks"] = [chunk_failure(chunk, result.error)]
    else:
        update["undecomposed"] = undecomposed
        update["not_checkworthy"] = excluded
        if result.unfounded:
            update["unfounded_facts"] = result.unfounded
            emit("facts_unfounded", chunk=chunk.index, facts=len(result.unfounded))
    return update


def _merge(updates: list[dict[str, Any]]) -> dict[str, Any]:
    """Chunk updates as one (every key is a list that the state's reducers concatenate)."""
    merged: dict[str, Any] = {}
    for update in updates:
        for key, values in update.items():
            merged.setdefault(key, []).extend(values)
    return merged


def _max_facts_reached(resources: RunResources, context: Context, chunk: Chunk) -> dict[str, Any]:
    """The record of a chunk skipped because the run had found ``max_facts`` facts."""
    emit("chunk_skipped", chunk=chunk.index, reason="max_facts")
    found = f"max_facts={context.max_facts} {plural(context.max_facts, 'fact')}"
    reason = f"skipped: the run had found {found}"
    return {"failed_chunks": [chunk_failure(chunk, reason, "max_facts")]}


def _per_chunk(
    resources: RunResources, context: Context, task: ChunkTask, members: list[Chunk]
) -> list[dict[str, Any]]:
    """The batch's chunks decomposed one call each, as without batching."""
    updates = []
    for i, chunk in enumerate(members):
        if resources.facts.skip_if_reached(context.max_facts):
            updates.append(_max_facts_reached(resources, context, chunk))
            continue
        texts = [task["previous_chunk"], *(m.text for m in members)]
        previous = previous_text(texts, i + 1)
        result, undecomposed, excluded = _call(resources, context, task, chunk, previous)
        updates.append(_record(resources, context, chunk, result, undecomposed, excluded))
    return updates


def decompose(task: ChunkTask, runtime: Runtime[Context]) -> dict[str, Any]:
    """Decompose a chunk, or a batch of chunks in one call, into facts; failures are recorded.

    A chunk that fails (the engine reports an error or raises) or is skipped at
    ``max_facts`` or ``max_calls`` becomes a :class:`ChunkFailure`, so no part of the text
    goes unaccounted. A batch whose call fails (after the engine's retries) is split back
    into one call per chunk, so one bad chunk costs only its own facts. Of a batch's answer,
    the chunks after the one that reached ``max_facts`` are recorded skipped, as they would
    have been one call each.
    """
    context = context_of(runtime)
    resources = run_resources(context, runtime)
    chunk = task["chunk"]
    members = task.get("members") or [chunk]
    if resources.facts.skip_if_reached(context.max_facts):  # counted; route reports the stop
        skipped = [_max_facts_reached(resources, context, members[0])]
        for member in members[1:]:
            resources.facts.skip_if_reached(context.max_facts)  # counts each chunk skipped
            skipped.append(_max_facts_reached(resources, context, member))
        return _merge(skipped)
    parts = members if len(members) > 1 else ()
    result, undecomposed, excluded = _call(
        resources, context, task, chunk, task["previous_chunk"], parts
    )
    if len(members) == 1:
        return _record(resources, context, chunk, result, undecomposed, excluded)
    if result is None:
        return _merge([_record(resources, context, m, None, [], []) for m in members])
    if result.error:  # the batch failed: its cost is kept, and each chunk gets its own call
        emit("chunk_batch_split", chunks=[m.index for m in members], error=result.error)
        spent = {"usage_log": [RoleUsage(role="decompose", usage=result.usage)]}
        return _merge([spent, *_per_chunk(resources, context, task, members)])
    facts = split_facts(result.facts, members)
    sentences = split_spans([s.span for s in undecomposed], members)
    set_aside: dict[int, list[NotCheckworthySentence]] = {m.index: [] for m in members}
    for sentence in excluded:  # a sentence belongs to the chunk its start is in
        owner = chunk_of(sentence.span, members).index
        set_aside[owner].append(sentence.model_copy(update={"chunk_index": owner}))
    updates: list[dict[str, Any]] = [
        {
            "usage_log": [RoleUsage(role="decompose", usage=result.usage)],
            "unfounded_facts": result.unfounded,
        }
    ]
    for i, member in enumerate(members):
        if i and resources.facts.skip_if_reached(context.max_facts):
            updates.append(_max_facts_reached(resources, context, member))
            continue
        part = DecomposeResult(facts=facts[i])  # the call's cost is counted once, above
        left = undecomposed_sentences(sentences[i], member)
        updates.append(_record(resources, context, member, part, left, set_aside[member.index]))
    return _merge(updates)
