"""A wall-clock bound on one blocking call: an answer or ``CallTimeoutError`` in time.

Provider clients take their own timeouts where they can, but a fake or custom chat model, a
registered retriever or a client that ignores its timeout can block for ever. The call runs in
a daemon worker thread and its result is awaited with a timeout; a stuck call is abandoned
(threads cannot be killed in Python) and, being a daemon, cannot keep the process alive.
Workers are reused: starting a thread per call cost ~5 % of a check's CPU and, on a loaded
machine, milliseconds of wall time per call (the start handshake waits for the scheduler).

Hand-written rather than ``concurrent.futures``: an executor's worker threads are joined at
interpreter exit, so one stuck call would hang the process's exit.
"""

from __future__ import annotations

import contextvars
import queue
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["CallTimeoutError", "call_with_deadline", "timeout_message"]

T = TypeVar("T")


class CallTimeoutError(TimeoutError):
    """A call did not finish within its deadline; the message says what and after how long."""

    def __init__(self, what: str, seconds: float) -> None:
        """Name the call (``what``) and its deadline in seconds."""
        super().__init__(timeout_message(what, seconds))
        self.what = what
        self.seconds = seconds


def timeout_message(what: str, seconds: float) -> str:
    """'<what> timed out after N s', the text every timeout is recorded with."""
    return f"{what} timed out after {seconds:g} s"


class _Outcome(Generic[T]):
    """The worker's result or exception, and an event set when either is there."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: T | None = None
        self.error: BaseException | None = None


#: How long an idle worker waits for another call before it ends.
IDLE_SECONDS = 30.0
#: An idle worker's thread name; a busy one adds the call it runs (a stuck one shows it).
WORKER_NAME = "triqua-deadline"

_Job = tuple[Callable[[], None], str]


class _Workers:
    """Daemon threads that run bounded calls, each reused until idle for ``IDLE_SECONDS``.

    ``_idle`` counts the workers waiting for a call that none has been promised to: a caller
    takes one (or starts a thread) before queueing its call, so every queued call has a
    worker coming for it, and a worker whose wait times out ends only if it was not promised.
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._idle = 0

    def run(self, job: Callable[[], None], what: str) -> None:
        """Run ``job`` in a worker thread (an idle one, else a new one); do not wait for it."""
        with self._lock:
            promised = self._idle > 0
            if promised:
                self._idle -= 1
        self._jobs.put((job, what))
        if not promised:
            threading.Thread(target=self._work, name=WORKER_NAME, daemon=True).start()

    def _work(self) -> None:
        me = threading.current_thread()
        while True:
            try:
                job, what = self._jobs.get(timeout=IDLE_SECONDS)
            except queue.Empty:
                with self._lock:
                    if self._idle:  # no call promised to this worker: it ends
                        self._idle -= 1
                        return
                continue  # a call was promised to it: it is on its way
            me.name = f"{WORKER_NAME}:{what}"
            job()  # never raises: the job hands its outcome to its caller
            me.name = WORKER_NAME
            with self._lock:
                self._idle += 1


_WORKERS = _Workers()


def call_with_deadline(fn: Callable[[], T], seconds: float | None, what: str) -> T:
    """Return ``fn()``, or raise :class:`CallTimeoutError` once ``seconds`` have passed.

    ``seconds`` of None or 0 means no deadline: ``fn`` runs in the calling thread. The worker
    runs in a copy of the caller's context variables, so callbacks and tracing still see the
    run they belong to. An exception raised by ``fn`` in time is raised here unchanged.

    Args:
        fn: The blocking call.
        seconds: The deadline; None or 0 for none.
        what: What the call is, for the timeout message (e.g. "verify model call").
    """
    if not seconds:
        return fn()
    if seconds < 0:
        raise ValueError(f"deadline must be >= 0 seconds, got {seconds}")
    outcome: _Outcome[T] = _Outcome()
    context = contextvars.copy_context()

    def work() -> None:
        try:
            outcome.value = context.run(fn)
        except BaseException as exc:  # handed to the caller, whatever it is
            outcome.error = exc
        finally:
            outcome.done.set()

    _WORKERS.run(work, what)
    if not outcome.done.wait(seconds):
        raise CallTimeoutError(what, seconds)
    if outcome.error is not None:
        raise outcome.error
    return outcome.value  # type: ignore[return-value]
