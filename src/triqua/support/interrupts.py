"""Ctrl-C ends any wait: an event loop that does not wait for its stuck threads on interrupt.

A check runs its synchronous graph nodes in a thread pool. A node blocked on a service that
never answers (a silent Chroma server, a hung provider) holds its thread until its own
deadline, and both ``asyncio.Runner.close`` and the interpreter's exit join every pool
thread: a Ctrl-C would only take effect once the deadline passed (20 s and more). On an
interrupt, :func:`run_interruptible` abandons the pool instead of joining it, and
:func:`exit_now` ends the process without joining threads that may still be blocked.
Nothing is lost by not waiting: durable runs checkpoint each finished step as it ends, and
the abandoned calls' answers would be discarded anyway.
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import sys
import threading
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from typing import Any, Generic, TypeVar

__all__ = ["exit_now", "run_interruptible"]

R = TypeVar("R")


def run_interruptible(coroutine: Coroutine[Any, Any, R], *, workers: int) -> R:
    """Run ``coroutine`` to completion in a fresh event loop with ``workers`` pool threads.

    Ctrl-C (SIGINT) cancels the coroutine as ``asyncio.run`` does and raises
    ``KeyboardInterrupt`` at once: the pool's threads are abandoned (their queued work
    cancelled), not waited for.
    """
    if _loop_running():
        return _in_own_thread(coroutine, workers)
    runner = asyncio.Runner()
    executor = ThreadPoolExecutor(max_workers=max(1, workers))
    interrupted = False
    try:
        runner.get_loop().set_default_executor(executor)
        return runner.run(_boxed(coroutine)).value
    except (KeyboardInterrupt, asyncio.CancelledError):
        interrupted = True
        raise
    finally:
        if interrupted:
            executor.shutdown(wait=False, cancel_futures=True)
            # The loop would otherwise join the abandoned pool when it closes.
            runner.get_loop().set_default_executor(ThreadPoolExecutor(max_workers=1))
        runner.close()


def _loop_running() -> bool:
    """Whether this thread already runs an event loop (Jupyter, an ``async def`` caller)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _in_own_thread(coroutine: Coroutine[Any, Any, R], workers: int) -> R:
    """``coroutine`` run to completion in a thread of its own, with its own event loop.

    A thread runs one event loop at a time: a synchronous call made where one already runs
    (a notebook cell, an ``async def`` that calls ``triqua.check``) blocks that loop until
    the check ends, as any blocking call does. Ctrl-C cancels the check in its thread.
    """
    started: dict[str, Any] = {}
    outcome: list[tuple[bool, Any]] = []

    async def watched() -> R:
        started["loop"], started["task"] = asyncio.get_running_loop(), asyncio.current_task()
        return await coroutine

    def target() -> None:
        try:
            outcome.append((True, run_interruptible(watched(), workers=workers)))
        except BaseException as exc:  # handed to the caller's thread, raised there
            outcome.append((False, exc))

    caller = contextvars.copy_context()  # as asyncio.Runner would: the caller's context vars
    thread = threading.Thread(target=caller.run, args=(target,), name="triqua-check", daemon=True)
    thread.start()
    try:
        while thread.is_alive():  # short waits: a signal's handler runs between them
            thread.join(0.1)
    except KeyboardInterrupt:
        if "task" in started:
            started["loop"].call_soon_threadsafe(started["task"].cancel)
        raise
    ok, value = outcome[0]
    if not ok:
        raise value
    result: R = value
    return result


def exit_now(code: int) -> None:
    """Flush the standard streams and end the process with ``code`` without joining threads.

    Used after an interruption has been reported: threads still blocked on a silent service
    would otherwise hold the interpreter's exit until their deadlines. Exits normally when
    no other non-daemon thread is alive.
    """
    for stream in (sys.stdout, sys.stderr):
        with suppress(OSError, ValueError):  # a closed or broken pipe: nothing more to say
            stream.flush()
    others = [t for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon]
    if others:
        os._exit(code)
    raise SystemExit(code)


class _Box(Generic[R]):
    """A coroutine's result behind a constant ``repr``.

    Python 3.11's ``asyncio.Runner`` formats the finished task's repr, result included, twice
    per run (cpython#112559): for a report that is the whole report rendered as text, 5-6 %
    of a large check's CPU. The box makes that repr free.
    """

    __slots__ = ("value",)

    def __init__(self, value: R) -> None:
        self.value = value

    def __repr__(self) -> str:
        return "<result>"


async def _boxed(coroutine: Coroutine[Any, Any, R]) -> _Box[R]:
    """Await ``coroutine`` and box its result (see :class:`_Box`)."""
    return _Box(await coroutine)
