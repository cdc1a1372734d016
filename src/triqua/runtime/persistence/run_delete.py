"""Delete whole runs on the user's explicit request: store rows of every revision, checkpoints.

The run store is append-only: triggers refuse ``DELETE`` so that no verdict, evidence or
score is ever rewritten. Deleting a run removes it whole (input, facts, every revision),
which rewrites nothing that remains; it lifts the ``*_no_delete`` triggers for one
transaction and puts the very same triggers back before committing, so a failure leaves
the store as it was. Each removed row is entered in the store's hash chain as removed, so
``triqua runs verify`` tells these deletions from ones made behind the store's back.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from triqua.store import APPEND_ONLY_TABLES, RunStore
from triqua.store.integrity import ChainWriter, keys_of

__all__ = ["delete_runs"]


def _run_tables(conn: sqlite3.Connection) -> list[str]:
    """Tables with a ``run_id`` column, ``runs`` last (the others reference it)."""
    names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    tables = [
        name
        for name in names
        if any(col[1] == "run_id" for col in conn.execute(f'PRAGMA table_info("{name}")'))
    ]
    return sorted(tables, key=lambda name: name == "runs")


def _enter_removals(conn: Any, tables: Sequence[str], run_ids: Sequence[str]) -> None:
    """Enter every row of these runs in the hash chain as removed (before deleting them)."""
    chain = ChainWriter(conn)
    for table in tables:
        if table in APPEND_ONLY_TABLES:
            for run_id in run_ids:
                chain.removed(table, keys_of(conn, table, "run_id = ?", (run_id,)))


def _delete_rows_postgres(url: str, run_ids: Sequence[str]) -> None:
    from triqua.store.postgres import PgConnection, import_psycopg

    with import_psycopg().connect(url) as conn, conn.transaction():
        _enter_removals(PgConnection(conn), APPEND_ONLY_TABLES, run_ids)
        for table in APPEND_ONLY_TABLES:
            conn.execute(f"ALTER TABLE {table} DISABLE TRIGGER {table}_append_only")
        for table in sorted(APPEND_ONLY_TABLES, key=lambda name: name == "runs"):
            conn.execute(f"DELETE FROM {table} WHERE run_id = ANY(%s)", (list(run_ids),))
        for table in APPEND_ONLY_TABLES:
            conn.execute(f"ALTER TABLE {table} ENABLE TRIGGER {table}_append_only")


def _delete_rows(store: RunStore, run_ids: Sequence[str]) -> None:
    if store.database_url is not None:
        _delete_rows_postgres(store.database_url, run_ids)
        return
    with store.connect() as conn:
        assert isinstance(conn, sqlite3.Connection)
        conn.execute("BEGIN IMMEDIATE")
        try:
            triggers = conn.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
                "AND name LIKE '%no_delete'"
            ).fetchall()
            for name, _ in triggers:
                conn.execute(f'DROP TRIGGER "{name}"')
            _enter_removals(conn, _run_tables(conn), run_ids)
            for table in _run_tables(conn):
                conn.executemany(
                    f'DELETE FROM "{table}" WHERE run_id = ?', [(run_id,) for run_id in run_ids]
                )
            for _, sql in triggers:
                conn.execute(sql)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")


def _delete_checkpoints(checkpoints: Path, run_ids: Sequence[str]) -> None:
    """Drop the runs' checkpoint threads (the thread id is the run id)."""
    from langgraph.checkpoint.sqlite import SqliteSaver

    with sqlite3.connect(checkpoints, timeout=30, check_same_thread=False) as conn:
        saver = SqliteSaver(conn)
        for run_id in run_ids:
            saver.delete_thread(run_id)


def delete_runs(
    store: RunStore, run_ids: Sequence[str], *, checkpoints: Path | None = None
) -> list[str]:
    """Delete the runs named by id or unique prefix; returns their full ids.

    Every name is resolved first, so an unknown or ambiguous one deletes nothing.

    Args:
        store: The run store.
        run_ids: Run ids or unique prefixes.
        checkpoints: The checkpoint file whose threads of these runs go too (skipped when
            missing or None; a Postgres store's own database is used instead).

    Raises:
        KeyError: when a name matches no run, or more than one.
    """
    full = list(dict.fromkeys(store.resolve(run_id) for run_id in run_ids))
    _delete_rows(store, full)
    if store.database_url is not None:  # a Postgres store keeps its checkpoints beside it
        from triqua.runtime.persistence.pg_checkpoints import delete_pg_threads

        delete_pg_threads(store.database_url, full)
    elif checkpoints is not None and checkpoints.is_file():
        _delete_checkpoints(checkpoints, full)
    return full
