"""The members of a verification batch: their working states and each step run per member.

A batch's nodes do their work fact by fact (a retrieval, a verdict, a re-verification round),
so each member keeps the per-fact semantics it had as a subgraph of its own: the node retry
policy applies to each member's step, and a member whose step still fails is recorded as
failed (no evidence, an insufficient verdict, a stopped loop) without touching the others.
Members whose steps wait on a model or a search service run at once, on a shared pool;
CPU-bound steps (the offline engine, a local index) run in turn, since threads would only
contend for the interpreter lock.
LangGraph schedules tasks, not parts of one, hence this small runner.
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

from langgraph.types import RetryPolicy

from triqua.context import Context
from triqua.core.verdicts.settling import settle
from triqua.runtime.resources import RunResources, calls_model, run_resources
from triqua.runtime.resources.spec import refuse_other_settings
from triqua.schema import Status, Verdict
from triqua.schema.redaction import error_text
from triqua.state import BatchState, FactState

__all__ = [
    "NODE_RETRY",
    "Step",
    "batch_resources",
    "member_states",
    "run_members",
    "step_failed",
    "waits_on_model",
    "waits_on_search",
]

#: Node-level retries for unexpected errors (engines already retry their own calls).
NODE_RETRY = RetryPolicy(max_attempts=2, initial_interval=0.2)

#: One member's step: its state, the run's settings and resources in; its state's update out.
Step = Callable[[FactState, Context, RunResources], dict[str, Any]]

#: Keys whose updates add to what a member has (as the subgraph's reducers did).
_ADDED = ("usage_log",)

_POOL: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    """The process's pool for members' waits: threads made once, not per node (~1 ms each)."""
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=64, thread_name_prefix="triqua-member")
    return _POOL


def batch_resources(state: BatchState, context: Context, runtime: Any) -> RunResources:
    """The run's resources, found from the batch's documents digest (all members share it).

    Every node of the batch starts here, since a paused batch resumes at whichever node is
    next; the settings are compared there (once per run: ``refuse_other_settings``), before
    any member's step runs.

    Raises:
        SettingsChangedError: when the settings differ from those the run started with (a paused
            run resumed without its context, or with another one): its verdicts would not
            be what its spec says. Nothing records it on the members: it ends the run.
    """
    members = state["members"]
    digest = members[0].get("documents_digest") if members else None
    resources = run_resources(context, runtime, digest=digest)
    started = members[0].get("settings_digest") if members else None
    if started:
        refuse_other_settings(
            started, context, resources, members[0]["run_id"], members[0]["spec_hash"]
        )
    return resources


def member_states(state: BatchState) -> list[FactState]:
    """The members' working states: from the batch's last step, or fresh from their tasks."""
    work = state.get("work")
    if work:
        return [cast(FactState, dict(member)) for member in work]
    return [cast(FactState, dict(task)) for task in state["members"]]


def step_failed(step: str, state: FactState, error: BaseException) -> dict[str, Any]:
    """A member's record of its step's failure once retries are spent: one fact never ends a run.

    A failed retrieval leaves the fact without evidence; a failed verification leaves it
    insufficient with the error on its verdict (and no re-verification); a failed
    re-verification round stops its loop with the error as the reason.
    """
    message = f"{step} failed: {error_text(error)}"
    if step == "retrieve":
        return {"evidence": [], "retrieval_errors": [message], "round": 0, "rounds": []}
    if step in ("verify", "verify_units"):
        failed = Verdict(status=Status.INSUFFICIENT, error=message)
        verdict = settle(state["fact"], failed, state.get("evidence", []))
        return {"verdict": verdict, "stop_reason": message}
    errors = [*state.get("retrieval_errors", []), message]
    return {"stop_reason": message, "retrieval_errors": errors}


def _attempt(
    name: str, step: Step, state: FactState, context: Context, resources: RunResources
) -> dict[str, Any]:
    """One member's step under the node retry policy; its failure recorded, never raised."""
    policy = NODE_RETRY
    interval = policy.initial_interval
    for attempt in range(1, policy.max_attempts + 1):
        try:
            return step(state, context, resources)
        except Exception as exc:  # every failure is recorded on its member
            retry_on = policy.retry_on
            retryable = retry_on(exc) if callable(retry_on) else isinstance(exc, tuple(retry_on))
            if attempt == policy.max_attempts or not retryable:
                return step_failed(name, state, exc)
            time.sleep(interval)
            interval = min(policy.max_interval, interval * policy.backoff_factor)
    raise AssertionError("unreachable")  # pragma: no cover


def merged(state: FactState, update: dict[str, Any]) -> FactState:
    """A member's state with a step's update applied (usage logs add up)."""
    out = cast(dict[str, Any], dict(state))
    for key, value in update.items():
        out[key] = [*out.get(key, []), *value] if key in _ADDED else value
    return cast(FactState, out)


def waits_on_model(resources: RunResources) -> bool:
    """True when judging a member waits on a chat model (so members are judged at once)."""
    return calls_model(resources.engines.judge)


def waits_on_search(resources: RunResources) -> bool:
    """True when a member's search waits on a service (web search, a Chroma server)."""
    return resources.retriever.uses_budget


def run_members(
    work: Sequence[FactState],
    context: Context,
    resources: RunResources,
    name: str,
    step: Step,
    chosen: Sequence[int] | None = None,
    *,
    at_once: bool,
) -> list[FactState]:
    """``work`` with ``step`` applied to the ``chosen`` members (all by default).

    ``at_once`` when the step waits (on a model, a search service): members then run side
    by side; CPU-bound steps run in turn, since threads would only contend for the GIL.
    """
    out = list(work)
    indices = list(range(len(out))) if chosen is None else list(chosen)
    if len(indices) > 1 and at_once:
        # Each member's step keeps the node's context (stream writer, tracing callbacks).
        futures = [
            _pool().submit(
                contextvars.copy_context().run, _attempt, name, step, out[i], context, resources
            )
            for i in indices
        ]
        updates = [future.result() for future in futures]
    else:
        updates = [_attempt(name, step, out[i], context, resources) for i in indices]
    for index, update in zip(indices, updates, strict=True):
        out[index] = merged(out[index], update)
    return out
