"""Ctrl-C ends any wait: a check blocked on a silent Chroma server stops at once with exit 130."""

from __future__ import annotations

import _thread
import asyncio
import contextvars
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from triqua.support.interrupts import run_interruptible

from .conftest import PARIS

ROOT = Path(__file__).resolve().parents[1]


class SilentServer:
    """Accepts TCP connections and never answers (a hung Chroma); counts the connections."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.held: list[socket.socket] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def _accept(self) -> None:
        while not self.stop.is_set():
            try:
                self.held.append(self.sock.accept()[0])
            except OSError:
                continue

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        for conn in self.held:
            conn.close()
        self.sock.close()


@pytest.fixture
def silent() -> Iterator[SilentServer]:
    server = SilentServer()
    yield server
    server.close()


def _default_sigint() -> None:
    """In the child, before exec: SIGINT back to its default, so Python raises on it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt(
    args: list[str], silent: SilentServer, env: dict[str, str]
) -> tuple[int, float, list[str]]:
    """Start ``triqua ARGS``, Ctrl-C it once it waits on the silent server: code, delay, stderr."""
    child = subprocess.Popen(
        [sys.executable, "-m", "triqua", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # As from a terminal: Ctrl-C is not ignored, whatever this test process inherited
        # (a suite started in the background, or a library that ignores SIGINT in-process).
        preexec_fn=_default_sigint,
    )
    try:
        deadline = time.monotonic() + 60
        while not silent.held:  # the command now waits on the server
            assert child.poll() is None, child.communicate()
            assert time.monotonic() < deadline, "the command never reached the server"
            time.sleep(0.05)
        time.sleep(0.5)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return child.returncode, took, err.decode().strip().splitlines()


@pytest.mark.slow
def test_ctrl_c_ends_a_check_waiting_on_a_silent_chroma_server(silent: SilentServer) -> None:
    code, took, lines = interrupt(
        [
            *("check", "Paris is the capital of France.", "--no-store"),
            *("--retriever", "chroma", "--collection", "docs", "--chroma-url", silent.url),
            *("--search-timeout", "120"),  # the wait would outlast the test without Ctrl-C
        ],
        silent,
        os.environ.copy(),
    )
    assert code == 130
    assert took < 5, f"Ctrl-C took {took:.1f} s to end the check"
    assert len(lines) == 1 and lines[0].startswith("error: interrupted"), lines


@pytest.mark.slow
def test_ctrl_c_ends_a_batch_waiting_on_a_silent_chroma_server(
    silent: SilentServer, tmp_path: Path
) -> None:
    lines_in = tmp_path / "lines.jsonl"
    lines_in.write_text('{"id": "a", "text": "Paris is the capital of France."}\n')
    env = os.environ.copy() | {
        "TRIQUA_RETRIEVER": "chroma",
        "TRIQUA_COLLECTION": "docs",
        "TRIQUA_CHROMA_URL": silent.url,
        "TRIQUA_SEARCH_TIMEOUT": "120",
    }
    args = ["batch", str(lines_in), "-o", str(tmp_path / "out.jsonl"), "--no-store"]
    code, took, _ = interrupt(args, silent, env)
    assert code == 130
    assert took < 5, f"Ctrl-C took {took:.1f} s to end the batch"


# --- a synchronous check called where an event loop already runs ---------------------------

TRACE: contextvars.ContextVar[str] = contextvars.ContextVar("trace", default="none")


def test_a_blocking_run_works_where_an_event_loop_runs() -> None:
    """Jupyter and ``async def`` callers of ``triqua.check`` already run a loop in their thread."""

    async def answer() -> tuple[str, str]:
        await asyncio.sleep(0)
        return TRACE.get(), threading.current_thread().name

    async def failing() -> None:
        raise ValueError("text is empty: nothing to check")

    async def caller() -> tuple[str, str]:
        TRACE.set("caller's")
        with pytest.raises(ValueError, match="text is empty"):
            run_interruptible(failing(), workers=1)
        return run_interruptible(answer(), workers=1)

    assert asyncio.run(caller()) == ("caller's", "triqua-check")
    assert run_interruptible(answer(), workers=1) == ("none", "MainThread")  # no loop: here


def test_ctrl_c_cancels_a_blocking_run_made_where_an_event_loop_runs() -> None:
    cancelled = threading.Event()

    async def forever() -> None:
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    async def caller() -> None:
        threading.Timer(0.3, _thread.interrupt_main).start()  # Ctrl-C while it waits
        run_interruptible(forever(), workers=1)

    # A loop run as a notebook kernel runs it: Ctrl-C raises KeyboardInterrupt in the cell
    # (asyncio.run instead turns the first Ctrl-C into a cancel, seen when the call returns).
    loop = asyncio.new_event_loop()
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            loop.run_until_complete(caller())
    finally:
        loop.close()
    assert cancelled.wait(5) and time.monotonic() - started < 5


def test_check_from_async_code_returns_its_report(scripted: Any) -> None:
    import triqua

    async def caller() -> triqua.Report:
        return triqua.check(PARIS, documents=[PARIS], model=scripted(), store=False)

    report = asyncio.run(caller())
    assert [r.verdict.status.value for r in report.records] == ["supported"]
