"""Coalescing: requests of one group that arrive in parallel, answered by one call.

Batched verification keeps the per-fact verification subgraph (Studio's view, the two
routes, re-verification and one record per fact stay as they are) and coalesces instead:
each fact's verify node submits its request under its batch's key and waits; the request
that completes the group (or the first whose wait runs out) makes one call for every request
gathered so far and hands each its answer. A group is never waited on for longer than
``wait`` seconds, so a member that never comes (a resumed run, a failed retrieval, a full
worker pool) costs that wait, not the run. LangGraph has no cross-task batching, and a
``threading.Condition`` is all this needs, hence hand-written.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

__all__ = ["Coalescer"]

I = TypeVar("I")  # noqa: E741 - a request item
R = TypeVar("R")  # its answer


@dataclass
class _Slot(Generic[I, R]):
    """One call being gathered: who asked, until when, and (once made) its answers."""

    expected: int
    deadline: float
    items: dict[str, I] = field(default_factory=dict)
    closed: bool = False
    done: bool = False
    answers: dict[str, R] = field(default_factory=dict)
    error: BaseException | None = None


class Coalescer(Generic[I, R]):
    """Gathers requests by group key and answers each group with one call.

    Args:
        wait: Seconds a gathered group waits for its missing members before calling.
    """

    def __init__(self, wait: float = 2.0) -> None:
        self.wait = wait
        self._lock = threading.Condition()
        self._open: dict[Hashable, _Slot[I, R]] = {}
        self._seen: dict[Hashable, set[str]] = {}

    def submit(
        self,
        group: Hashable,
        expected: int,
        member: str,
        item: I,
        call: Callable[[Sequence[tuple[str, I]]], dict[str, R]],
    ) -> R:
        """``member``'s answer from one ``call`` over the requests gathered for ``group``.

        ``expected`` is the group's size; ``call`` gets ``(member, item)`` pairs and returns
        an answer per member. A member asking again (a retried node) is answered alone.

        Raises:
            Exception: what ``call`` raised, in every member of that call.
        """
        with self._lock:
            seen = self._seen.setdefault(group, set())
            if member in seen:
                slot: _Slot[I, R] = _Slot(expected=1, deadline=0.0, items={member: item})
                slot.closed = True
                return self._run(slot, call)[member]
            seen.add(member)
            slot = self._open.get(group) or _Slot(
                expected=max(1, expected - len(seen) + 1),
                deadline=time.monotonic() + self.wait,
            )
            self._open[group] = slot
            slot.items[member] = item
            lead = len(slot.items) >= slot.expected
            while not lead and not slot.closed:
                left = slot.deadline - time.monotonic()
                if left <= 0:
                    lead = True
                    break
                self._lock.wait(left)
            if lead:
                slot.closed = True
                if self._open.get(group) is slot:
                    del self._open[group]
        if lead:
            return self._run(slot, call)[member]
        with self._lock:
            while not slot.done:
                self._lock.wait()
        if slot.error is not None:
            raise slot.error
        return slot.answers[member]

    def _run(
        self, slot: _Slot[I, R], call: Callable[[Sequence[tuple[str, I]]], dict[str, R]]
    ) -> dict[str, R]:
        """Make the slot's call outside the lock, then wake its waiting members."""
        answers: dict[str, Any] = {}
        try:
            answers = call(list(slot.items.items()))
        except BaseException as exc:
            slot.error = exc
            raise
        finally:
            with self._lock:
                slot.answers = answers
                slot.done = True
                self._lock.notify_all()
        return answers
