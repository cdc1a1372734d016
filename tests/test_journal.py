"""A durable run without the cache keeps a journal of its calls: a resume repeats none.

A verification batch is checkpointed only once it is finished; the calls it made before a
``kill -9`` are reused on resume from the call cache, or, with ``--no-cache``, from the run's
own journal.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

import triqua
from triqua.engines.factory import register_model
from triqua.runtime.caches.journal import journal_path
from triqua.testing import ScriptedChatModel, fenced

from .conftest import make_responder
from .durable_child import BLOCKED, DOCS, TEXT
from .journal_child import MODEL_NAME, SETTINGS, malformed_batches

ROOT = Path(__file__).resolve().parents[1]


def journal_rows(run_id: str) -> int:
    """Answers the run's journal holds (0 when it has none)."""
    path = journal_path(run_id)
    if not path.exists():
        return 0
    with sqlite3.connect(path, timeout=5) as conn:
        try:
            return int(
                conn.execute("SELECT COUNT(*) FROM cache WHERE kind = 'verify'").fetchone()[0]
            )
        except sqlite3.OperationalError:
            return 0


def kill_mid_batch(run_id: str, folder: Path, *options: str) -> None:
    """Run ``tests.journal_child`` and ``kill -9`` it once two of its batch's calls are done."""
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.journal_child", run_id, str(folder), *options],
        cwd=ROOT,
        env=os.environ.copy(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 120
        while not ((folder / "blocked").exists() and len(list(folder.glob("done-*"))) >= 2):
            if child.poll() is not None:
                output = child.stdout.read().decode() if child.stdout else ""
                pytest.fail(f"child exited early ({child.returncode}): {output[-2000:]}")
            if time.monotonic() > deadline:
                pytest.fail("child never reached the blocked fact with the others judged")
            time.sleep(0.1)
        # The answers are in hand; give them a moment to be written wherever they are kept.
        if options:
            time.sleep(1)
        settle = time.monotonic() + 5
        while journal_rows(run_id) < 2 and not options and time.monotonic() < settle:
            time.sleep(0.1)
        child.kill()  # SIGKILL: no clean-up of any kind
        child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == -9


def judged(model: ScriptedChatModel) -> list[str]:
    return [fenced(prompt, "FACT") for tool, prompt in model.calls if tool == "Judgement"]


def model() -> ScriptedChatModel:
    return ScriptedChatModel(responder=malformed_batches(make_responder()), split_batches=False)


@pytest.mark.slow
def test_a_resume_without_the_cache_repeats_no_finished_call(tmp_path: Path) -> None:
    run_id = uuid.uuid4().hex
    kill_mid_batch(run_id, tmp_path)

    resumed = model()
    report = triqua.check(resume=run_id, model=resumed, cache=False)

    # The batch was unfinished, so its checkpoint holds none of it; of its three calls
    # only the one the process died in is made again (and the failed batched call).
    (again,) = judged(resumed)
    assert BLOCKED in again
    assert [tool for tool, _ in resumed.calls] == ["Verdicts", "Judgement"]
    fresh = triqua.check(TEXT, documents=DOCS, model=model(), **SETTINGS)
    assert [r.claim_id for r in report.records] == ["f1", "f2", "f3"]
    assert [r.verdict.status for r in report.records] == [r.verdict.status for r in fresh.records]
    assert not journal_path(run_id).exists()  # spent with the run's checkpoints


def test_a_durable_run_without_the_cache_still_asks_afresh() -> None:
    first, second = model(), model()
    triqua.check(TEXT, documents=DOCS, model=first, durable=True, **SETTINGS)
    report = triqua.check(TEXT, documents=DOCS, model=second, durable=True, **SETTINGS)
    # --no-cache: the second run reuses nothing of the first; its journal is gone.
    assert len(judged(second)) == len(judged(first)) == 3
    assert not journal_path(report.run_id).exists()


@pytest.mark.slow
def test_a_run_started_with_the_cache_keeps_it_on_resume(tmp_path: Path) -> None:
    run_id = uuid.uuid4().hex
    kill_mid_batch(run_id, tmp_path, "cached")

    resumed = model()
    register_model(MODEL_NAME, resumed)
    report = triqua.check(resume=run_id, cache=False)  # --no-cache given on resume

    # Its finished calls are in the call cache it was started with: they are not repeated.
    (again,) = judged(resumed)
    assert BLOCKED in again
    assert [r.claim_id for r in report.records] == ["f1", "f2", "f3"]
