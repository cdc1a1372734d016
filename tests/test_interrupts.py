"""Ctrl-C ends any wait: a check blocked on a silent Chroma server stops at once with exit 130."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

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
