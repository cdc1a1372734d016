"""`triqua batch --ray ADDRESS`: a head started apart is joined as is; no head fails fast.

Each batch runs as its own ``triqua`` process (the test session's Ray cluster would
otherwise serve it), with no ``RAY_*`` variable in its environment.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from triqua.cli.batch import bare_ray

from .conftest import CURIE, PARIS
from .services import free_port

pytestmark = pytest.mark.slow

ROWS = [
    {"id": "paris", "text": PARIS, "evidence": [PARIS]},
    {"id": "curie", "text": CURIE, "evidence": ["Marie Curie won the Nobel Prize in 1911."]},
    {"id": 3, "text": f"{PARIS} {CURIE}", "evidence": [PARIS]},
]
_HEAD_SECONDS = 120


def _environment() -> dict[str, str]:
    """This environment without Ray's variables: the batch must need none of them."""
    return {name: value for name, value in os.environ.items() if not name.startswith("RAY_")}


def _batch(*args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "triqua", "batch", *args]
    return subprocess.run(
        command, capture_output=True, text=True, timeout=timeout, env=_environment()
    )


def _input(folder: Path) -> Path:
    source = folder / "in.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in ROWS), encoding="utf-8")
    return source


def _verdicts(path: Path) -> list[tuple[Any, ...]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [
        (row["id"], row["scores"], [r["verdict"]["status"] for r in row["records"]]) for row in rows
    ]


def test_an_address_where_nothing_answers_fails_in_one_line(tmp_path: Path) -> None:
    address = f"127.0.0.1:{free_port()}"
    started = time.monotonic()
    done = _batch(
        str(_input(tmp_path)), "-o", str(tmp_path / "out.jsonl"), "--ray", address, timeout=60
    )
    seconds = time.monotonic() - started
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"error: ray: nothing answers at {address}"), lines
    assert seconds <= 30
    assert (tmp_path / "out.jsonl").read_text() == ""  # nothing checked


@pytest.fixture
def loopback_head() -> Iterator[str]:
    """A Ray head started apart, on the loopback interface only: its ``host:port``."""
    ray = shutil.which("ray", path=str(Path(sys.executable).parent))
    assert ray, "the ray command is missing (pip install 'triqua[ray]')"
    folder = Path(tempfile.mkdtemp(prefix="tq-ray-", dir="/tmp"))  # short: Ray's sockets
    port = free_port()
    log = (folder / "head.log").open("w")
    head = subprocess.Popen(
        [
            ray,
            "start",
            "--head",
            "--node-ip-address=127.0.0.1",
            f"--port={port}",
            "--num-cpus=2",
            "--include-dashboard=false",
            f"--temp-dir={folder / 't'}",
            "--block",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=_environment(),
        start_new_session=True,  # its own group: stopped with every process it started
    )
    try:
        deadline = time.monotonic() + _HEAD_SECONDS
        while "--block" not in (folder / "head.log").read_text(errors="replace"):
            if head.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"ray start failed:\n{(folder / 'head.log').read_text()[-3000:]}")
            time.sleep(0.5)
        yield f"127.0.0.1:{port}"
    finally:
        os.killpg(head.pid, signal.SIGTERM)  # ray start stops the cluster's processes
        with contextlib.suppress(subprocess.TimeoutExpired):
            head.wait(timeout=60)
        with contextlib.suppress(ProcessLookupError):  # any process of the group left over
            os.killpg(head.pid, signal.SIGKILL)
        head.wait(timeout=30)
        log.close()
        shutil.rmtree(folder, ignore_errors=True)


def test_a_loopback_head_started_apart_is_joined_by_address(
    loopback_head: str, tmp_path: Path
) -> None:
    source = _input(tmp_path)
    local = _batch(str(source), "-o", str(tmp_path / "local.jsonl"), "--no-store", timeout=240)
    assert local.returncode == 0, local.stderr
    joined = _batch(
        str(source),
        "-o",
        str(tmp_path / "ray.jsonl"),
        "--no-store",
        "--concurrency",
        "2",
        "--ray",
        loopback_head,
        timeout=240,
    )
    assert joined.returncode == 0, joined.stderr
    by_id = sorted(_verdicts(tmp_path / "local.jsonl"), key=lambda row: str(row[0]))
    assert sorted(_verdicts(tmp_path / "ray.jsonl"), key=lambda row: str(row[0])) == by_id
    assert [row[0] for row in _verdicts(tmp_path / "ray.jsonl")] == ["paris", "curie", 3]


@pytest.mark.parametrize(
    ("given", "read"),
    [
        (["in.jsonl", "--ray"], ["in.jsonl", "--ray", "local"]),
        (["--ray", "in.jsonl"], ["--ray", "local", "in.jsonl"]),
        (["in.jsonl", "--ray", "-o", "x"], ["in.jsonl", "--ray", "local", "-o", "x"]),
        (["in.jsonl", "--ray", "10.0.0.5:6379"], ["in.jsonl", "--ray", "10.0.0.5:6379"]),
        (["in.jsonl", "--ray", "auto"], ["in.jsonl", "--ray", "auto"]),
        (["in.jsonl", "--ray", "local"], ["in.jsonl", "--ray", "local"]),
    ],
)
def test_ray_alone_means_a_local_cluster(given: list[str], read: list[str]) -> None:
    assert bare_ray(["batch", *given]) == ["batch", *read]


def test_ray_alone_starts_a_cluster_here(tmp_path: Path) -> None:
    source = _input(tmp_path)
    out = tmp_path / "out.jsonl"
    done = _batch(str(source), "--ray", "-o", str(out), "--no-store", timeout=240)
    assert done.returncode == 0, done.stderr
    assert [row[0] for row in _verdicts(out)] == ["paris", "curie", 3]
