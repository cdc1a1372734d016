"""The run store stays append-only against raw SQL, upgrades old stores, and names its faults."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

import triqua
from triqua.store import APPEND_ONLY_TABLES, SCHEMA_VERSION, RunStore
from triqua.support.dbfiles import StoreError

from .conftest import CURIE, FRANCE

DOCS = ["Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie."]


def stored_run(scripted: Any, path: Path) -> triqua.Report:
    return triqua.check(f"{FRANCE} {CURIE}", documents=DOCS, model=scripted(), store=path)


def with_failed_run(path: Path) -> None:
    store = RunStore(path)
    store.start_run("failed-run", text="x", question=None, settings={})
    store.mark_failed("failed-run", "no API key")


def rows(conn: sqlite3.Connection, table: str) -> list[Any]:
    return conn.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall()


@pytest.mark.slow
@pytest.mark.parametrize("verb", ["INSERT OR REPLACE", "REPLACE", "INSERT", "INSERT OR IGNORE"])
@pytest.mark.parametrize("table", APPEND_ONLY_TABLES)
def test_an_insert_on_an_existing_key_is_refused(
    scripted: Any, tmp_path: Path, table: str, verb: str
) -> None:
    path = tmp_path / "runs.sqlite"
    stored_run(scripted, path)
    with_failed_run(path)
    with sqlite3.connect(path) as conn:
        before = rows(conn, table)
        assert before
        columns = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
        # The first row again, every text column rewritten: a forged verdict or report.
        forged = [
            "forged" if isinstance(v, str) and c not in ("run_id", "claim_id") else v
            for c, v in zip(columns, before[0], strict=True)
        ]
        marks = ", ".join("?" for _ in columns)
        with pytest.raises(sqlite3.IntegrityError, match=r"append-only.*cannot be replaced"):
            conn.execute(f"{verb} INTO {table} ({', '.join(columns)}) VALUES ({marks})", forged)
        assert rows(conn, table) == before


def test_new_keys_are_still_inserted(scripted: Any, tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite"
    report = stored_run(scripted, path)
    revised = triqua.regrade(report.run_id, model=scripted(), store=path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM reports").fetchone()[0] == 2
        assert conn.execute("SELECT COUNT(*) FROM verdicts").fetchone()[0] == 2 * len(
            revised.records
        )


def test_only_a_run_without_a_report_can_be_removed(scripted: Any, tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite"
    report = stored_run(scripted, path)
    with_failed_run(path)
    with sqlite3.connect(path) as conn:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("DELETE FROM runs WHERE run_id = ?", (report.run_id,))
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("UPDATE outcomes SET error = 'other'")
    store = RunStore(path)
    with pytest.raises(ValueError, match="has a report"):
        store.remove_unreported([report.run_id])
    assert store.remove_unreported(["failed-run"]) == 1
    assert [r.run_id for r in store.runs()] == [report.run_id]


def downgrade_to_v1(path: Path) -> None:
    """Make ``path`` look as version 1 wrote it: no outcomes, no insert triggers."""
    with sqlite3.connect(path) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'")]
        for name in names:
            if (
                name.endswith("_no_replace")
                or name.startswith("outcomes_")
                or name == ("runs_no_delete")
            ):
                conn.execute(f"DROP TRIGGER {name}")
        conn.execute("DROP TABLE outcomes")
        conn.execute(
            "CREATE TRIGGER runs_no_delete BEFORE DELETE ON runs BEGIN SELECT RAISE(ABORT, "
            "'triqua run store is append-only: runs rows cannot be deleted'); END"
        )
        conn.execute("PRAGMA user_version = 1")


def test_a_version_1_store_is_upgraded_in_place(scripted: Any, tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite"
    report = stored_run(scripted, path)
    downgrade_to_v1(path)
    with sqlite3.connect(path) as conn:  # version 1 let a report be replaced
        conn.execute("BEGIN")
        conn.execute("INSERT OR REPLACE INTO reports SELECT * FROM reports")
        conn.execute("ROLLBACK")
    store = RunStore(path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
        with pytest.raises(sqlite3.IntegrityError, match="cannot be replaced"):
            conn.execute("INSERT OR REPLACE INTO reports SELECT * FROM reports")
        with pytest.raises(sqlite3.IntegrityError, match="cannot be deleted"):
            conn.execute("DELETE FROM runs")
    assert store.report(report.run_id) == report
    with_failed_run(path)  # the new outcomes table works on the upgraded store
    assert RunStore(path).runs()[0].status == "failed_at_start"


def test_a_store_from_a_newer_triqua_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite"
    RunStore(path)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(StoreError, match="newer triqua"):
        RunStore(path)


def truncated(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def garbage(path: Path) -> None:
    path.write_bytes(b"this is not a database\n" * 500)


def damaged_pages(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[4096:] = b"\xff" * (len(data) - 4096)  # the header intact, the tables destroyed
    path.write_bytes(bytes(data))


def directory(path: Path) -> None:
    path.unlink()
    path.mkdir()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("damage", "says"),
    [
        (truncated, "is truncated"),
        (garbage, "is not a SQLite database"),
        (damaged_pages, "is damaged"),
        (directory, "is a directory"),
    ],
)
def test_a_faulty_store_is_one_store_error_naming_the_file(
    scripted: Any, tmp_path: Path, damage: Any, says: str
) -> None:
    path = tmp_path / "runs.sqlite"
    stored_run(scripted, path)
    stored_run(scripted, path)
    damage(path)
    with pytest.raises(StoreError) as caught:
        RunStore(path).runs()
    message = str(caught.value)
    assert says in message and str(path) in message and "\n" not in message
    assert "move it aside" in message


def test_a_locked_store_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "runs.sqlite"
    RunStore(path)
    monkeypatch.setenv("TRIQUA_LOCK_TIMEOUT", "0.1")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match=r"is locked by another process.*TRIQUA_LOCK_TIMEOUT"):
            RunStore(path).start_run("r", text="x", question=None, settings={})
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_a_faulty_checkpoint_file_is_one_store_error(scripted: Any, tmp_path: Path) -> None:
    checkpoints = tmp_path / "checkpoints.sqlite"
    garbage(checkpoints)
    with pytest.raises(StoreError, match=r"checkpoint file .*checkpoints.sqlite is not a SQLite"):
        triqua.check(
            FRANCE, documents=DOCS, model=scripted(), durable=True, checkpoints=checkpoints
        )


def test_a_file_whose_missing_pages_are_in_its_write_ahead_log_is_healthy(tmp_path: Path) -> None:
    """A full disk can stop a checkpoint: the log beside the file still holds the pages."""
    import shutil
    import sqlite3

    from triqua.support.dbfiles import check_database_file

    live = tmp_path / "live.sqlite"
    conn = sqlite3.connect(live)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("CREATE TABLE t (x TEXT)")
    conn.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 200)
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.executemany("INSERT INTO t VALUES (?)", [("y" * 500,)] * 200)
    conn.commit()
    left = tmp_path / "left.sqlite"  # what a process killed mid-checkpoint leaves
    shutil.copy(live, left)
    shutil.copy(f"{live}-wal", f"{left}-wal")
    conn.close()
    header = bytearray(left.read_bytes())
    pages = int.from_bytes(header[28:32], "big")
    header[28:32] = (pages + 20).to_bytes(4, "big")  # the header counts pages not yet written
    left.write_bytes(bytes(header))
    check_database_file(left, "checkpoint file")  # recovered from its log: no error
    with sqlite3.connect(left) as reopened:
        assert reopened.execute("SELECT COUNT(*) FROM t").fetchone() == (400,)
    without_log = tmp_path / "lost.sqlite"
    without_log.write_bytes(bytes(header))
    with pytest.raises(StoreError, match="is truncated"):
        check_database_file(without_log, "checkpoint file")


def test_a_checkpoint_file_opened_while_another_sets_it_up_waits_for_it(tmp_path: Path) -> None:
    """Durable runs opening one new checkpoint file together: each waits for the other."""
    import asyncio
    import threading
    import time

    from triqua.runtime.persistence.checkpoints import open_checkpointer

    path = tmp_path / "checkpoints.sqlite"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")  # another process's setup, mid-write
    released = threading.Timer(0.3, holder.execute, ("COMMIT",))
    released.start()

    async def tables() -> list[str]:
        async with open_checkpointer(path) as saver:
            async with saver.conn.execute("PRAGMA journal_mode") as cursor:
                assert (await cursor.fetchone())[0] == "wal"
            async with saver.conn.execute("SELECT name FROM sqlite_master") as cursor:
                return sorted(row[0] for row in await cursor.fetchall())

    started = time.monotonic()
    try:
        names = asyncio.run(tables())
    finally:
        released.join()
        holder.close()
    assert time.monotonic() - started >= 0.25
    assert {"checkpoints", "writes"} <= set(names)
