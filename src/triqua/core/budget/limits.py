"""Run limits that stop work part-way: model calls per run, and the notes a stopped run carries.

A limit that is reached never loses a fact: what was not done is recorded (a fact left
unverified ends ``insufficient_evidence`` with the reason), and the report gets one note per
limit, starting with :data:`LIMIT_NOTE_PREFIX`, saying which limit and what it skipped.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

__all__ = [
    "LIMIT_NOTE_PREFIX",
    "MODEL_CALL_LIMIT",
    "CallLimit",
    "is_limit_note",
    "limit_notes",
]

LIMIT_NOTE_PREFIX = "limit reached: "
#: The reason recorded on a fact (or a re-verification round) the call limit stopped.
MODEL_CALL_LIMIT = "model call limit reached"


class CallLimit:
    """Thread-safe count of a run's model calls, bounded by ``max_calls``.

    A call is reserved before it is made, so concurrent nodes never overshoot, and settled
    after: kept when a model was called, given back when the answer came from the cache.
    A reservation that finds the limit taken while other calls are still in flight waits
    for them to settle, so a cache hit never makes another call's refusal. What the limit
    stopped is counted for the run's note.
    """

    def __init__(self, max_calls: int) -> None:
        """Allow ``max_calls`` model calls (0 allows none)."""
        if max_calls < 0:
            raise ValueError(f"max_calls must be >= 0, got {max_calls}")
        self.max_calls = max_calls
        self._used = 0
        self._in_flight = 0
        self.skipped_chunks = 0
        self.skipped_facts = 0
        self.stopped_rounds = 0
        self._lock = threading.Lock()
        self._settled = threading.Condition(self._lock)

    def reserve(self) -> bool:
        """Count one call and return True, or return False when the limit is reached.

        Every True must be followed by :meth:`settle`.
        """
        with self._settled:
            while self._used >= self.max_calls and self._in_flight:
                self._settled.wait()
            if self._used >= self.max_calls:
                return False
            self._used += 1
            self._in_flight += 1
            return True

    def settle(self, called: bool) -> None:
        """Finish a reserved call: keep it when a model was called, else give it back."""
        with self._settled:
            self._in_flight -= 1
            if not called:
                self._used -= 1
            self._settled.notify_all()

    def charge(self, calls: int) -> None:
        """Count calls already made (a resumed run's earlier calls)."""
        with self._lock:
            self._used += calls

    def skip(self, what: str) -> None:
        """Count a chunk, fact or round the limit stopped (``what``: chunk, fact, round)."""
        with self._lock:
            if what == "chunk":
                self.skipped_chunks += 1
            elif what == "fact":
                self.skipped_facts += 1
            else:
                self.stopped_rounds += 1

    @property
    def used(self) -> int:
        """Calls counted so far."""
        with self._lock:
            return self._used

    @property
    def exhausted(self) -> bool:
        """True when no call is left."""
        return self.used >= self.max_calls

    def note(self) -> str | None:
        """The run's note when the limit stopped anything, else None."""
        with self._lock:
            parts = [
                f"{n} {label}"
                for n, label in (
                    (self.skipped_chunks, "chunks not decomposed"),
                    (self.skipped_facts, "facts not verified (recorded insufficient_evidence)"),
                    (self.stopped_rounds, "re-verification rounds not run"),
                )
                if n
            ]
        if not parts:
            return None
        return f"{LIMIT_NOTE_PREFIX}max_calls={self.max_calls} ({MODEL_CALL_LIMIT}): " + ", ".join(
            parts
        )


def is_limit_note(note: str) -> bool:
    """True for a note saying that a run limit was reached."""
    return note.startswith(LIMIT_NOTE_PREFIX)


def limit_notes(notes: Iterable[str]) -> list[str]:
    """The notes that say a run limit was reached."""
    return [n for n in notes if is_limit_note(n)]
