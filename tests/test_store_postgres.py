"""The run store in PostgreSQL: the same store as SQLite's, append-only there too (psql)."""

from __future__ import annotations

import re
import shutil
import subprocess
from typing import Any

import pytest

import triqua
from triqua.store import APPEND_ONLY_TABLES, RunStore, StoreError

from .conftest_postgres import pg_server, pg_url  # noqa: F401  (fixtures)
from .test_store import TEXT, checked


@pytest.fixture
def db(pg_url: str) -> str:  # noqa: F811
    """An empty database of its own for each test."""
    return pg_url


def psql(url: str, sql: str) -> subprocess.CompletedProcess[str]:
    """``sql`` typed into the psql client, stopping at the first error."""
    client = shutil.which("psql")
    assert client is not None, "the psql client is missing (apt-get install postgresql-client)"
    return subprocess.run(
        [client, url, "-v", "ON_ERROR_STOP=1", "-X", "-q", "-A", "-t", "-c", sql],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.slow
def test_a_run_and_its_regrades_round_trip(scripted: Any, db: str) -> None:
    store = RunStore(db)
    report = checked(scripted, store)
    assert store.report(report.run_id) == report
    assert store.run(report.run_id[:6]).text == TEXT
    again = triqua.regrade(report.run_id, model=scripted(), store=store)
    assert store.latest_revision(report.run_id) == 1
    assert store.report(report.run_id).model_dump() == again.model_dump()
    assert store.report(report.run_id, revision=0) == report
    (row,) = store.runs()
    assert row.revisions == 2 and row.facts == len(report.records)
    assert all(len(v) == 2 for v in store.history(report.run_id).values())
    # A second store on the same database sees the same runs (another worker, another host).
    assert [r.run_id for r in RunStore(db).runs()] == [report.run_id]


@pytest.mark.slow
def test_runs_without_a_report_are_pruned_and_nothing_else(scripted: Any, db: str) -> None:
    store = RunStore(db)
    report = checked(scripted, store)
    store.start_run("failed", text="x", question=None, settings={})
    store.mark_failed("failed", "boom")
    assert [r.status for r in store.unreported()] == ["failed_at_start"]
    with pytest.raises(ValueError, match="has a report"):
        store.remove_unreported([report.run_id])
    assert store.remove_unreported(["failed"]) == 1
    assert [r.run_id for r in store.runs()] == [report.run_id]


@pytest.mark.slow
@pytest.mark.parametrize("table", APPEND_ONLY_TABLES)
def test_psql_cannot_update_delete_upsert_or_truncate(scripted: Any, db: str, table: str) -> None:
    store = RunStore(db)
    report = checked(scripted, store)
    if table == "outcomes":  # a finished run has none: a failed run's outcome, then a report
        store.start_run("late", text="x", question=None, settings={})
        store.mark_failed("late", "boom")
        with store._write() as conn:  # a report appears for it: its outcome is now kept too
            conn.execute(
                "INSERT INTO reports SELECT 'late', revision, created_at, spec_hash, spec, "
                "engine, mode, score, facts, report FROM reports WHERE run_id = ?",
                (report.run_id,),
            )
    before = psql(db, f"SELECT * FROM {table} ORDER BY 1")
    assert before.returncode == 0 and before.stdout.strip(), before.stderr
    for sql in (
        f"UPDATE {table} SET run_id = run_id",
        f"DELETE FROM {table}",
        f"TRUNCATE {table} CASCADE",
        f"INSERT INTO {table} SELECT * FROM {table} ON CONFLICT DO NOTHING; "
        f"INSERT INTO {table} SELECT * FROM {table} ON CONFLICT ({_key(table)}) "
        "DO UPDATE SET run_id = EXCLUDED.run_id",
    ):
        refused = psql(db, sql)
        assert refused.returncode != 0, sql
        assert "append-only" in refused.stderr, refused.stderr
    assert psql(db, f"SELECT * FROM {table} ORDER BY 1").stdout == before.stdout


def _key(table: str) -> str:
    from triqua.store.tables import KEYS

    return ", ".join(KEYS[table])


@pytest.mark.slow
def test_the_api_refuses_rewrites_too(scripted: Any, db: str) -> None:
    store = RunStore(db)
    report = checked(scripted, store)
    import psycopg

    with store.connect() as conn, pytest.raises(psycopg.errors.IntegrityConstraintViolation):
        conn.execute("UPDATE reports SET score = 0 WHERE run_id = ?", (report.run_id,))
    with pytest.raises(psycopg.errors.UniqueViolation), store._write() as conn:
        store._insert_report(conn, report, 0)  # a second revision 0
    assert store.report(report.run_id) == report


def test_an_unreachable_server_is_one_line() -> None:
    with pytest.raises(StoreError, match=re.escape("run store postgresql://nobody@127.0.0.1:1/x")):
        RunStore("postgresql://nobody:secret@127.0.0.1:1/x")


def test_a_missing_extra_is_one_line_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio
    import sys

    from triqua.runtime.persistence.checkpoints import open_checkpointer

    monkeypatch.setitem(sys.modules, "psycopg", None)
    with pytest.raises(StoreError, match=re.escape("pip install 'triqua[postgres]'")):
        RunStore("postgresql://nobody@127.0.0.1:1/x")

    async def open_saver() -> None:
        async with open_checkpointer("postgresql://nobody@127.0.0.1:1/x"):
            pass

    with pytest.raises(StoreError, match=re.escape("pip install 'triqua[postgres]'")):
        asyncio.run(open_saver())


@pytest.mark.slow
def test_concurrent_writers_get_distinct_revisions(scripted: Any, db: str) -> None:
    from concurrent.futures import ThreadPoolExecutor

    report = checked(scripted, RunStore(db))
    # Each writer its own store and connections, as separate workers would have.
    with ThreadPoolExecutor(max_workers=4) as pool:
        revisions = list(pool.map(lambda _: RunStore(db).append_report(report), range(8)))
    assert sorted(revisions) == list(range(1, 9))
    assert RunStore(db).runs()[0].revisions == 9


@pytest.mark.slow
def test_the_hash_chain_names_a_verdict_forged_with_triggers_off(scripted: Any, db: str) -> None:
    from triqua.runtime.persistence.run_delete import delete_runs

    store = RunStore(db)
    report = checked(scripted, store)
    triqua.regrade(report.run_id, model=scripted(), store=store)
    other = checked(scripted, store)
    delete_runs(store, [other.run_id])  # deleted on request: entered in the chain as removed
    assert store.verify_integrity().ok
    forged = psql(
        db,
        "ALTER TABLE verdicts DISABLE TRIGGER verdicts_append_only; "
        "UPDATE verdicts SET status = 'forged' WHERE revision = 1 AND claim_id = 'f1'",
    )
    assert forged.returncode == 0, forged.stderr
    (problem, *_) = store.verify_integrity().problems
    assert problem.describe().startswith(
        f"verdicts row (run_id={report.run_id}, claim_id=f1, revision=1) was changed"
    )
