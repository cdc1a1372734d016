"""``--store-url postgresql://…``: runs, show, regrade, prune and --resume against Postgres."""

from __future__ import annotations

import json
import uuid
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from triqua.cli import app
from triqua.engines.factory import register_model
from triqua.runtime.persistence.checkpoints import default_checkpoint_path, thread_ages
from triqua.store import RunStore, default_store_path

from .conftest_postgres import pg_server, pg_url  # noqa: F401  (fixtures)
from .durable_child import BLOCKED
from .test_durable import judged_facts, kill_when_blocked
from .test_store import DOCS, TEXT
from .test_store_postgres import psql

runner = CliRunner()


@pytest.fixture
def db(pg_url: str) -> str:  # noqa: F811
    """An empty database of its own for each test."""
    return pg_url


@pytest.fixture
def evidence(tmp_path: Path) -> Path:
    path = tmp_path / "evidence.md"
    path.write_text("\n\n".join(DOCS), encoding="utf-8")
    return path


def invoke(*args: str, env: dict[str, str] | None = None) -> Any:
    result = runner.invoke(app, list(args), env=env)
    assert result.exit_code == 0, result.output
    return result


@pytest.mark.slow
def test_check_runs_show_regrade_against_postgres(scripted: Any, db: str, evidence: Path) -> None:
    model = register_model("pg-cli", scripted())
    checked = invoke("check", TEXT, "-e", str(evidence), "-m", model, "--json", "--store-url", db)
    report = json.loads(checked.stdout)
    assert not default_store_path().exists()  # nothing went to the SQLite file
    assert thread_ages(default_checkpoint_path()) == {}
    (row,) = json.loads(invoke("runs", "--json", "--store-url", db).stdout)
    assert row["run_id"] == report["run_id"] and row["revisions"] == 1
    shown = invoke("show", report["run_id"][:8], "--json", "--store-url", db)
    assert json.loads(shown.stdout) == report
    invoke("regrade", report["run_id"][:8], "-m", model, "--json", "--store-url", db)
    # TRIQUA_STORE_URL stands for the flag.
    listed = invoke("runs", "--json", env={"TRIQUA_STORE_URL": db})
    assert json.loads(listed.stdout)[0]["revisions"] == 2
    latest = invoke("show", report["run_id"], "--json", env={"TRIQUA_STORE_URL": db})
    assert all(len(r["history"]) == 1 for r in json.loads(latest.stdout)["records"])
    assert json.loads(latest.stdout)["records"] != report["records"]
    # The stored run is append-only in psql too.
    refused = psql(db, f"UPDATE reports SET score = 1 WHERE run_id = '{report['run_id']}'")
    assert refused.returncode != 0 and "append-only" in refused.stderr


@pytest.mark.slow
def test_runs_prune_and_delete_against_postgres(scripted: Any, db: str, evidence: Path) -> None:
    model = register_model("pg-prune", scripted())
    kept = json.loads(
        invoke("check", TEXT, "-e", str(evidence), "-m", model, "--json", "--store-url", db).stdout
    )
    store = RunStore(db)
    store.start_run("failedrun", text="x", question=None, settings={})
    store.mark_failed("failedrun", "boom")
    dry = invoke("runs", "prune", "--dry-run", "--store-url", db)
    assert "failedrun"[:8] in dry.output and store.runs()[0].run_id == "failedrun"
    invoke("runs", "prune", "--store-url", db)
    assert [r.run_id for r in store.runs()] == [kept["run_id"]]
    invoke("runs", "delete", kept["run_id"][:8], "--yes", "--store-url", db)
    assert store.runs() == []
    # Deleting put the append-only triggers back.
    store.start_run("again", text="x", question=None, settings={})
    refused = psql(db, "UPDATE runs SET text = 'y'")
    assert refused.returncode != 0 and "append-only" in refused.stderr


def test_store_flags_are_checked() -> None:
    both = runner.invoke(app, ["runs", "--store", "x.sqlite", "--store-url", "postgresql://h/d"])
    assert both.exit_code == 2 and "not both" in both.stderr
    other = runner.invoke(app, ["runs", "--store-url", "mysql://h/d"])
    assert other.exit_code == 2 and "postgresql://" in other.stderr


def checkpointed_facts(url: str, run_id: str) -> int:
    """Facts whose verification Postgres checkpoints hold (top-level writes to 'records')."""
    import psycopg

    with psycopg.connect(url) as conn:
        try:
            row = conn.execute(
                "SELECT COUNT(DISTINCT task_id) FROM checkpoint_writes WHERE thread_id = %s "
                "AND checkpoint_ns = '' AND channel = 'records'",
                (run_id,),
            ).fetchone()
        except psycopg.errors.UndefinedTable:  # the saver has not set up its tables yet
            return 0
    return int(row[0]) if row else 0


@pytest.mark.slow
@pytest.mark.usefixtures("per_fact_verification")
def test_a_killed_run_resumes_from_postgres_in_another_process(
    scripted: Any, db: str, tmp_path: Path
) -> None:
    run_id = uuid.uuid4().hex
    finished = partial(checkpointed_facts, db, run_id)
    child = kill_when_blocked(run_id, tmp_path / "blocked", finished, db)
    assert child.returncode == -9
    assert not default_checkpoint_path().exists()  # the checkpoints went to Postgres
    (row,) = RunStore(db).runs()
    assert row.run_id == run_id and row.status == "unfinished"
    assert thread_ages(db).keys() == {run_id}

    model = scripted()
    name = register_model("pg-resume", model)
    resumed = invoke("check", "--resume", run_id[:8], "-m", name, "--json", "--store-url", db)
    report = json.loads(resumed.stdout)
    # Only the fact pending when the process died is judged again.
    (judged,) = judged_facts(model)
    assert BLOCKED in judged and report["run_id"] == run_id
    assert RunStore(db).report(run_id).model_dump(mode="json") == report
    assert thread_ages(db) == {}  # finished: its checkpoints are spent


@pytest.mark.slow
def test_a_batch_saves_every_line_in_postgres(scripted: Any, db: str, tmp_path: Path) -> None:
    model = register_model("pg-batch", scripted())
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    lines = [{"id": f"q{i}", "text": TEXT, "evidence": DOCS} for i in range(3)]
    source.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    invoke("batch", str(source), "-o", str(out), "-m", model, "--quiet", "--store-url", db)
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    stored = {r.run_id for r in RunStore(db).runs() if r.revisions == 1}
    assert len(written) == 3 and {r["run_id"] for r in written} == stored
