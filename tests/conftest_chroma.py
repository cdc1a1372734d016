"""Shared Chroma fixtures: a real Chroma server on a free loopback port, and a store per test.

Import the fixtures explicitly (``from tests.conftest_chroma import chroma_store``). The server
is started once per test session even when several modules import the fixture; it is never
skipped: a server that does not start fails the tests that need it, with its log.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .services import free_port

_STARTUP_SECONDS = 60.0
_server: dict[str, Any] = {}


def _heartbeat(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/api/v2/heartbeat", timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def _start_server(root: Path) -> tuple[subprocess.Popen[bytes], str, Path]:
    chroma = shutil.which("chroma", path=str(Path(sys.executable).parent))
    if chroma is None:
        pytest.fail("the `chroma` command is missing next to the Python interpreter")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log_path = root / "chroma-server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                chroma,
                "run",
                "--path",
                str(root / "data"),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + _STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        if _heartbeat(url):
            return process, url, log_path
        time.sleep(0.2)
    process.kill()
    process.wait(timeout=10)
    tail = log_path.read_text(errors="replace")[-2000:]
    pytest.fail(f"Chroma server did not answer its heartbeat at {url}:\n{tail}")


def _stop_server() -> None:
    process = _server.pop("process", None)
    _server.clear()
    if process is None:
        return
    process.send_signal(signal.SIGCONT)  # a test that paused it may have failed mid-way
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@pytest.fixture(scope="session")
def chroma_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """URL of a Chroma server started for this session (one process, however many importers)."""
    if "url" not in _server:
        process, url, _ = _start_server(tmp_path_factory.mktemp("chroma-server"))
        _server.update(process=process, url=url)
        request.session.config.add_cleanup(_stop_server)
    yield str(_server["url"])


def _wait_until_stopped(pid: int) -> None:
    """Return once every thread of ``pid`` is stopped (a signal is delivered asynchronously)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        tasks = Path(f"/proc/{pid}/task").iterdir()
        states = {(task / "stat").read_text().rsplit(")", 1)[1].split()[0] for task in tasks}
        if states <= {"T", "t"}:
            return
        time.sleep(0.01)
    pytest.fail(f"the Chroma server (pid {pid}) did not stop on SIGSTOP")


@contextmanager
def paused_chroma_server() -> Iterator[None]:
    """The session's server stopped (SIGSTOP) for a block: it accepts connections, answers none.

    That is a hung Chroma server as a client sees it; the server is continued on leaving the
    block, whatever happened in it, and answers the queued requests then.
    """
    process = _server.get("process")
    assert process is not None, "paused_chroma_server needs the chroma_server fixture"
    os.kill(process.pid, signal.SIGSTOP)
    try:
        _wait_until_stopped(process.pid)
        yield
    finally:
        os.kill(process.pid, signal.SIGCONT)


@dataclass(frozen=True)
class ChromaStore:
    """Where a test's collection lives: an embedded directory or a server URL."""

    mode: str
    collection: str
    path: Path | None = None
    url: str | None = None

    @property
    def options(self) -> dict[str, Any]:
        """Keyword arguments naming the store, as ``ingest_paths``/``ChromaRetriever`` take."""
        return {"path": self.path, "url": self.url}

    @property
    def cli_args(self) -> list[str]:
        """The CLI options naming the store (``--chroma-path`` or ``--chroma-url``)."""
        if self.url:
            return ["--chroma-url", self.url]
        return ["--chroma-path", str(self.path)]

    @property
    def env(self) -> dict[str, str]:
        """The environment naming the store (``TRIQUA_CHROMA_PATH`` or ``TRIQUA_CHROMA_URL``)."""
        if self.url:
            return {"TRIQUA_CHROMA_URL": self.url}
        return {"TRIQUA_CHROMA_PATH": str(self.path)}


@pytest.fixture(params=["embedded", pytest.param("server", marks=pytest.mark.slow)])
def chroma_store(request: pytest.FixtureRequest, tmp_path: Path) -> ChromaStore:
    """A fresh collection name in an embedded store, then the same on the shared server."""
    collection = f"test-{uuid.uuid4().hex[:12]}"
    if request.param == "server":
        url = request.getfixturevalue("chroma_server")
        return ChromaStore("server", collection, url=url)
    return ChromaStore("embedded", collection, path=tmp_path / "chroma")
