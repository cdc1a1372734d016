"""Housekeeping from the CLI: `runs delete RUN…` and `collections delete NAME`."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.conftest_chroma import ChromaStore, chroma_server, chroma_store  # noqa: F401
from triqua.cli import app
from triqua.engines.factory import register_model
from triqua.runtime.persistence.checkpoints import default_checkpoint_path

from .conftest import CURIE, PARIS

runner = CliRunner()


def checkpoint_rows(run_id: str) -> int:
    path = default_checkpoint_path()
    if not path.exists():
        return 0
    with sqlite3.connect(path) as conn:
        return int(
            conn.execute(
                "SELECT COUNT(*) FROM checkpoints WHERE thread_id = ?", (run_id,)
            ).fetchone()[0]
        )


def leave_checkpoint(run_id: str) -> None:
    from langgraph.checkpoint.base import empty_checkpoint
    from langgraph.checkpoint.sqlite import SqliteSaver

    path = default_checkpoint_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path, check_same_thread=False) as conn:
        saver = SqliteSaver(conn)
        saver.setup()
        config = {"configurable": {"thread_id": run_id, "checkpoint_ns": ""}}
        saver.put(config, empty_checkpoint(), {}, {})  # type: ignore[arg-type]
    assert checkpoint_rows(run_id) == 1


@pytest.fixture
def two_runs(scripted: Any, tmp_path: Path) -> tuple[Path, str, str]:
    store = tmp_path / "runs.sqlite"
    name = register_model("housekeeping", scripted())
    ids = []
    for text in (PARIS, CURIE):
        done = runner.invoke(app, ["check", text, "-m", name, "--store", str(store), "--json"])
        assert done.exit_code == 0, done.output
        ids.append(json.loads(done.stdout)["run_id"])
    return store, ids[0], ids[1]


def listed(store: Path) -> list[str]:
    result = runner.invoke(app, ["runs", "--store", str(store), "--json"])
    assert result.exit_code == 0, result.output
    return [run["run_id"] for run in json.loads(result.stdout)]


@pytest.mark.slow
def test_runs_delete_removes_a_run_whole(two_runs: tuple[Path, str, str]) -> None:
    store, first, second = two_runs
    regraded = runner.invoke(app, ["regrade", first[:10], "--store", str(store), "--json"])
    assert regraded.exit_code == 0, regraded.output  # two revisions to delete
    leave_checkpoint(first)  # as an interrupted run of it would
    leave_checkpoint(second)
    result = runner.invoke(app, ["runs", "delete", first[:10], "--yes", "--store", str(store)])
    assert result.exit_code == 0, result.output
    assert result.stderr.strip() == f"deleted run {first}"
    assert listed(store) == [second]
    gone = runner.invoke(app, ["show", first, "--store", str(store)])
    assert gone.exit_code == 2 and "no run" in gone.stderr
    assert checkpoint_rows(first) == 0
    assert checkpoint_rows(second) == 1
    with sqlite3.connect(store) as conn:
        for table in ("runs", "records", "verdicts", "evidence", "reports"):
            left = conn.execute(f"SELECT COUNT(*) FROM {table} WHERE run_id = ?", (first,))
            assert left.fetchone()[0] == 0, table
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("DELETE FROM reports WHERE run_id = ?", (second,))  # still guarded
    kept = runner.invoke(app, ["show", second, "--store", str(store), "--json"])
    assert kept.exit_code == 0 and json.loads(kept.stdout)["run_id"] == second


def test_runs_delete_asks_and_refuses_unknown_runs(two_runs: tuple[Path, str, str]) -> None:
    store, first, second = two_runs
    unasked = runner.invoke(app, ["runs", "delete", first, "--store", str(store)])
    assert unasked.exit_code == 2
    assert "pass --yes" in unasked.stderr
    unknown = runner.invoke(app, ["runs", "delete", first, "nope", "-y", "--store", str(store)])
    assert unknown.exit_code == 2
    assert "no run 'nope'" in unknown.stderr
    assert sorted(listed(store)) == sorted([first, second])  # nothing was deleted


def test_runs_without_a_subcommand_still_lists(two_runs: tuple[Path, str, str]) -> None:
    store, first, _ = two_runs
    result = runner.invoke(app, ["runs", "--store", str(store)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert first[:8] in result.stdout


@pytest.mark.slow
def test_collections_delete(tmp_path: Path, chroma_store: ChromaStore) -> None:  # noqa: F811
    chroma, name = chroma_store.cli_args, chroma_store.collection
    doc = tmp_path / "paris.txt"
    doc.write_text("Paris is the capital of France.\n", encoding="utf-8")
    made = runner.invoke(app, ["ingest", str(doc), "-c", name, *chroma])
    assert made.exit_code == 0, made.output
    assert f"{name}\t1" in runner.invoke(app, ["collections", *chroma]).stdout
    unasked = runner.invoke(app, ["collections", "delete", name, *chroma])
    assert unasked.exit_code == 2 and "pass --yes" in unasked.stderr
    deleted = runner.invoke(app, ["collections", "delete", name, "--yes", *chroma])
    assert deleted.exit_code == 0, deleted.output
    assert deleted.stderr.strip() == f"deleted collection {name} (1 chunk)"
    assert name not in runner.invoke(app, ["collections", *chroma]).stdout
    again = runner.invoke(app, ["collections", "delete", name, "-y", *chroma])
    assert again.exit_code == 2
    assert f"no collection {name!r}" in again.stderr
