"""Checkpoint hygiene and ``triqua runs prune``: what finished, unfinished and failed runs keep."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.base.id import uuid6
from typer.testing import CliRunner

import triqua
from triqua.cli import app
from triqua.runtime.persistence.checkpoints import (
    checkpoint_time,
    database_bytes,
    default_checkpoint_path,
    thread_ages,
)
from triqua.runtime.persistence.prune import plan_prune, prune
from triqua.store import RunStore
from triqua.tools.base import RetrieverUnavailable

from .conftest import CURIE, FRANCE

runner = CliRunner()
DOCS = ["Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie."]
TEXT = f"{FRANCE} {CURIE}"


def threads() -> set[str]:
    return set(thread_ages(default_checkpoint_path()))


def finished(scripted: Any, **kwargs: Any) -> triqua.Report:
    return triqua.check(TEXT, documents=DOCS, model=scripted(), durable=True, **kwargs)


def interrupted(scripted: Any, run_id: str, **kwargs: Any) -> None:
    """A durable run stopped after its first fact: resumable, its checkpoints kept."""

    def stop(event: dict[str, Any]) -> None:
        if event.get("event") == "fact_verified":
            raise RuntimeError("stopped after one fact")

    with pytest.raises(RuntimeError, match="stopped after one fact"):
        finished(scripted, run_id=run_id, on_event=stop, **kwargs)


def failed_at_start(run_id: str) -> None:
    with pytest.raises(RetrieverUnavailable, match="tavily"):
        triqua.check(TEXT, durable=True, store=True, run_id=run_id, retriever="tavily")


def statuses() -> dict[str, str]:
    return {r.run_id: r.status for r in RunStore().runs()}


@pytest.mark.slow
def test_finished_runs_delete_their_checkpoints_stored_or_not(scripted: Any) -> None:
    stored = finished(scripted, store=True)
    finished(scripted, store=False)
    result = runner.invoke(app, ["check", CURIE, "--no-store"])
    assert result.exit_code == 0, result.output
    assert threads() == set()
    assert [r.run_id for r in RunStore().runs()] == [stored.run_id]
    # Deleting a thread leaves free pages; the file is compacted and its WAL truncated.
    path = default_checkpoint_path()
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0
    # Compacted once 1 MiB is free: whatever the tests before it wrote, the file stays small.
    assert database_bytes(path) < 1_048_576


def test_a_run_that_fails_before_its_first_step_is_not_resumable(scripted: Any) -> None:
    failed_at_start("early")
    assert statuses() == {"early": "failed_at_start"}
    assert threads() == set()  # nothing to resume: its checkpoints are gone
    listed = runner.invoke(app, ["runs"], env={"COLUMNS": "200"})
    assert "failed at start" in listed.stdout and "unfinished" not in listed.stdout
    shown = runner.invoke(app, ["show", "early"])
    assert shown.exit_code == 2
    assert "failed at start" in shown.stderr and "cannot be resumed" in shown.stderr
    assert "resume it" not in shown.stderr
    with pytest.raises(ValueError, match=r"failed at start .*cannot be resumed"):
        triqua.check(resume="early", store=True)


def test_an_interrupted_run_stays_unfinished_and_resumable(scripted: Any) -> None:
    interrupted(scripted, "later", store=True)
    assert statuses() == {"later": "unfinished"} and threads() == {"later"}
    shown = runner.invoke(app, ["show", "later"])
    assert "unfinished: resume it with triqua check --resume later" in shown.stderr
    report = triqua.check(resume="later", model=scripted())
    assert statuses() == {"later": "finished"} and threads() == set()
    assert RunStore().report("later") == report


def test_a_failed_run_that_was_not_durable_is_recorded_failed(scripted: Any) -> None:
    with pytest.raises(RetrieverUnavailable, match="tavily"):
        triqua.check(TEXT, store=True, run_id="plain", retriever="tavily")
    assert statuses() == {"plain": "failed"}


@pytest.fixture
def mixed(scripted: Any) -> dict[str, Any]:
    """A store with a finished run, an unfinished one, one failed at start, and a thread
    left by an interrupted --no-store run."""
    done = finished(scripted, store=True)
    interrupted(scripted, "unfinished-run", store=True)
    interrupted(scripted, "no-store-run", store=False)
    failed_at_start("failed-run")
    return {"done": done, "report": RunStore().report(done.run_id)}


def test_prune_dry_run_removes_nothing(mixed: dict[str, Any]) -> None:
    before_runs, before_threads = statuses(), threads()
    result = runner.invoke(app, ["runs", "prune", "--dry-run", "--older-than", "0"])
    assert result.exit_code == 0, result.output
    assert "would prune 3 runs" in result.stderr
    for run_id in ("unfinished-r", "no-store-ru", "failed-run"):
        assert run_id in result.stderr
    assert statuses() == before_runs and threads() == before_threads


def test_prune_keeps_young_unfinished_runs_by_default(mixed: dict[str, Any]) -> None:
    result = runner.invoke(app, ["runs", "prune"])
    assert result.exit_code == 0, result.output
    assert "pruned 1 run (1 failed_at_start)" in result.stderr
    assert set(statuses()) == {mixed["done"].run_id, "unfinished-run"}
    assert threads() == {"unfinished-run", "no-store-run"}
    # Two days on, they are old enough to go.
    later = datetime.now(UTC) + timedelta(days=2)
    planned = plan_prune(RunStore(), default_checkpoint_path(), now=later)
    assert {p.run_id for p in planned} == {"unfinished-run", "no-store-run"}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("flag", "gone"),
    [
        ("--unfinished", {"unfinished-run", "no-store-run"}),
        ("--failed-at-start", {"failed-run"}),
    ],
)
def test_prune_selects_by_kind(mixed: dict[str, Any], flag: str, gone: set[str]) -> None:
    everything = set(statuses()) | threads()
    result = runner.invoke(app, ["runs", "prune", flag, "--older-than", "0"])
    assert result.exit_code == 0, result.output
    assert set(statuses()) | threads() == everything - gone


def test_prune_never_touches_a_finished_run(mixed: dict[str, Any]) -> None:
    result = runner.invoke(app, ["runs", "prune", "--older-than", "0"])
    assert result.exit_code == 0, result.output
    assert "pruned 3 runs" in result.stderr and "checkpoints" in result.stderr
    assert statuses() == {mixed["done"].run_id: "finished"}
    assert threads() == set()
    assert RunStore().report(mixed["done"].run_id) == mixed["report"]
    listed = json.loads(runner.invoke(app, ["runs", "--json"]).stdout)
    assert [r["run_id"] for r in listed] == [mixed["done"].run_id]


def test_spent_checkpoints_of_a_finished_run_are_pruned(scripted: Any) -> None:
    interrupted(scripted, "spent", store=True)
    other = finished(scripted, store=False)
    RunStore().append_report(other.model_copy(update={"run_id": "spent"}))
    result = prune(RunStore(), default_checkpoint_path(), older_than=30)
    assert [(p.run_id, p.status) for p in result.runs] == [
        ("spent", "finished (spent checkpoints)")
    ]
    assert threads() == set() and statuses() == {"spent": "finished"}
    assert result.checkpoint_rows > 0 and result.bytes_after <= result.bytes_before


def test_negative_older_than_is_one_line() -> None:
    result = runner.invoke(app, ["runs", "prune", "--older-than", "-1"])
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: --older-than must be 0 or more days, got -1"


def test_checkpoint_ids_tell_their_time() -> None:
    when = checkpoint_time(str(uuid6()))
    assert when is not None and abs(when - datetime.now(UTC)) < timedelta(seconds=5)
    assert checkpoint_time("not-a-uuid") is None
    assert checkpoint_time("12345678-1234-4234-8234-123456789abc") is None  # uuid4
