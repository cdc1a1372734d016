"""Durable runs: checkpoints per run id, resumed after a real ``kill -9``."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import triqua
from triqua.cli import app
from triqua.runtime.persistence.checkpoints import default_checkpoint_path, thread_ages
from triqua.store import RunStore
from triqua.testing import fenced

from .durable_child import BLOCKED, DOCS, SETTINGS, TEXT

# About per-fact verification calls (counted, faulted or stalled one by one).
pytestmark = pytest.mark.usefixtures("per_fact_verification")

ROOT = Path(__file__).resolve().parents[1]


def finished_facts(run_id: str) -> int:
    """Facts whose verification the checkpoint holds (writes to 'records' at the top level)."""
    path = default_checkpoint_path()
    if not path.exists():
        return 0
    with sqlite3.connect(path, timeout=5) as conn:
        try:
            row = conn.execute(
                "SELECT COUNT(DISTINCT task_id) FROM writes WHERE thread_id = ? "
                "AND checkpoint_ns = '' AND channel = 'records'",
                (run_id,),
            ).fetchone()
        except sqlite3.OperationalError:  # tables not created yet
            return 0
    return int(row[0])


def judged_facts(model: Any) -> list[str]:
    return [fenced(prompt, "FACT") for tool, prompt in model.calls if tool == "Judgement"]


def kill_when_blocked(
    run_id: str, marker: Path, finished: Callable[[], int], *store: str
) -> subprocess.Popen[bytes]:
    """Run ``tests.durable_child`` and ``kill -9`` it once two facts are checkpointed.

    ``finished`` counts the checkpointed facts; ``store`` is the child's optional STORE.
    """
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.durable_child", run_id, str(marker), *store],
        cwd=ROOT,
        env=os.environ.copy(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 120
        while not (marker.exists() and finished() >= 2):
            if child.poll() is not None:
                output = child.stdout.read().decode() if child.stdout else ""
                pytest.fail(f"child exited early ({child.returncode}): {output[-2000:]}")
            if time.monotonic() > deadline:
                pytest.fail("child never reached the blocked fact with the others finished")
            time.sleep(0.1)
        child.kill()  # SIGKILL: no clean-up of any kind
        child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return child


@pytest.mark.slow
def test_killed_run_resumes_without_repeating_finished_calls(scripted: Any, tmp_path: Path) -> None:
    run_id = uuid.uuid4().hex
    child = kill_when_blocked(run_id, tmp_path / "blocked", lambda: finished_facts(run_id))
    assert child.returncode == -9
    assert checkpoint_namespaces(run_id) == {""}  # finished facts are saved whole
    stored = RunStore()
    assert stored.runs()[0].run_id == run_id
    assert stored.runs()[0].revisions == 0  # started, never finished

    model = scripted()
    report = triqua.check(resume=run_id, model=model)

    # Only the fact that was pending when the process died is judged again; the
    # decomposition and the two finished verifications are not repeated.
    assert [tool for tool, _ in model.calls] == ["Judgement"]
    (judged,) = judged_facts(model)
    assert BLOCKED in judged
    assert report.run_id == run_id
    assert [r.claim_id for r in report.records] == ["f1", "f2", "f3"]
    fresh = triqua.check(TEXT, documents=DOCS, model=scripted(), **SETTINGS)
    assert [r.verdict.status for r in report.records] == [r.verdict.status for r in fresh.records]
    assert report.scores == fresh.scores
    # The finished report is in the store and the spent checkpoints are gone.
    assert stored.report(run_id).scores == report.scores
    assert finished_facts(run_id) == 0


def test_uninterrupted_durable_run_is_stored_and_checkpoints_cleared(scripted: Any) -> None:
    report = triqua.check(TEXT, documents=DOCS, model=scripted(), durable=True, store=True)
    assert RunStore().report(report.run_id).scores == report.scores
    assert finished_facts(report.run_id) == 0
    # Resuming a finished, stored run gives its report back without any model call.
    model = scripted()
    again = triqua.check(resume=report.run_id[:8], model=model, store=True)
    assert again.scores == report.scores and model.calls == []


def test_finished_run_without_store_leaves_no_checkpoints(scripted: Any) -> None:
    report = triqua.check(TEXT, documents=DOCS, model=scripted(), durable=True)
    assert not RunStore().runs()
    assert thread_ages(default_checkpoint_path()) == {}
    with pytest.raises(ValueError, match="no interrupted run"):
        triqua.check(resume=report.run_id, model=scripted())


def interrupted_run(scripted: Any, run_id: str) -> None:
    """A durable run stopped after its first fact, its checkpoints kept for a resume."""

    def stop(event: dict[str, Any]) -> None:
        if event.get("event") == "fact_verified":
            raise RuntimeError("stopped after one fact")

    with pytest.raises(RuntimeError, match="stopped after one fact"):
        triqua.check(
            TEXT, documents=DOCS, model=scripted(), durable=True, run_id=run_id, on_event=stop
        )


def test_resume_of_unknown_run_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="no interrupted run 'nope'"):
        triqua.check(resume="nope")


def test_a_durable_run_id_cannot_be_reused(scripted: Any) -> None:
    interrupted_run(scripted, "reused")
    assert "reused" in thread_ages(default_checkpoint_path())
    with pytest.raises(ValueError, match="already has checkpoints"):
        triqua.check(TEXT, documents=DOCS, model=scripted(), durable=True, run_id="reused")


def test_text_is_required_without_resume() -> None:
    with pytest.raises(ValueError, match="text is required"):
        triqua.check()


def test_cli_resume_errors_are_one_line() -> None:
    runner = CliRunner()
    unknown = runner.invoke(app, ["check", "--resume", "nope"])
    assert unknown.exit_code != 0
    assert unknown.stderr.strip() == "error: no interrupted run 'nope' to resume"
    both = runner.invoke(app, ["check", "some text", "--resume", "nope"])
    assert both.exit_code != 0 and "not both" in both.stderr
    # New evidence would be silently ignored: the resumed run keeps its own.
    evidence = runner.invoke(app, ["check", "--resume", "nope", "-e", "notes.md"])
    assert evidence.exit_code == 2
    assert evidence.stderr.strip() == (
        "error: a resumed run keeps its own evidence and question: drop -e/--question"
    )


def checkpoint_namespaces(run_id: str) -> set[str]:
    """The graph namespaces a run's checkpoints were written under ('' is the main graph)."""
    with sqlite3.connect(default_checkpoint_path()) as conn:
        rows = conn.execute(
            "SELECT DISTINCT checkpoint_ns FROM checkpoints WHERE thread_id = ?", (run_id,)
        )
        return {str(ns) for (ns,) in rows}


def test_a_durable_run_checkpoints_no_step_inside_a_fact(scripted: Any) -> None:
    """Only the main graph's steps are checkpointed (a fact is saved whole, as its writes)."""
    interrupted_run(scripted, "per-fact")
    assert checkpoint_namespaces("per-fact") == {""}
    report = triqua.check(resume="per-fact", model=scripted())
    fresh = triqua.check(TEXT, documents=DOCS, model=scripted(), **SETTINGS)
    assert [r.claim_id for r in report.records] == ["f1", "f2", "f3"]
    assert [r.verdict.status for r in report.records] == [r.verdict.status for r in fresh.records]
