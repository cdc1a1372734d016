"""What the tests that start local servers share.

A free loopback port, the rule for a service that cannot run here (skipped, saying why,
except under ``CI``, where its tests fail with the reason), and stopping a server started
in a process group of its own.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
from typing import NoReturn

import pytest


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def unavailable(reason: str, *, ci: str, hint: str) -> NoReturn:
    """Fail under CI, where the service must run (``ci`` says why); skip elsewhere."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason}; {ci}")
    pytest.skip(f"{reason}: {hint} (under CI this fails instead)")


def stop_group(process: subprocess.Popen[bytes], timeout: float = 20) -> None:
    """End a server started with ``start_new_session=True``: SIGTERM its group, then SIGKILL."""
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
