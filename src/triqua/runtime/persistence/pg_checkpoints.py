"""Checkpoints in PostgreSQL: LangGraph's Postgres saver, in the run store's database.

With ``--store-url postgresql://…`` a durable run checkpoints every step into the same
database as its run store, so another process or machine can ``--resume`` it. The saver's
tables (``checkpoints``, ``checkpoint_blobs``, ``checkpoint_writes``) are LangGraph's own;
``triqua runs prune`` reads their thread ages and deletes spent threads here. Postgres
reclaims space itself (autovacuum): there is no file to compact.

``langgraph-checkpoint-postgres`` comes with the ``postgres`` extra, imported on use.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from triqua.store.postgres import import_psycopg
from triqua.support.dbfiles import StoreError
from triqua.support.dburls import public_url

__all__ = ["THREAD_TABLES", "delete_pg_threads", "open_pg_checkpointer", "pg_thread_ages"]

#: The saver's tables that hold a thread's rows.
THREAD_TABLES = ("checkpoints", "checkpoint_blobs", "checkpoint_writes")
#: Session lock that lets one process at a time create or migrate the saver's tables.
_SETUP_LOCK = 0x7472_6971_7563  # "triquc"
_EXTRA = "pip install 'triqua[postgres]'"


def _psycopg() -> Any:
    return import_psycopg("checkpoints in PostgreSQL need")


@asynccontextmanager
async def open_pg_checkpointer(url: str, serde: Any) -> AsyncIterator[Any]:
    """An ``AsyncPostgresSaver`` on ``url`` with its tables set up, restoring with ``serde``.

    Raises:
        StoreError: the extra is missing, or the server cannot be reached (or is lost).
    """
    psycopg = _psycopg()
    try:
        from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
    except ImportError as exc:
        raise StoreError(
            f"checkpoints in PostgreSQL need langgraph-checkpoint-postgres: {_EXTRA}"
        ) from exc
    try:
        async with AsyncPostgresSaver.from_conn_string(url, serde=serde) as saver:
            conn: Any = saver.conn  # from_conn_string: one connection, in autocommit
            if not await _set_up(conn, len(saver.MIGRATIONS)):
                await conn.execute("SELECT pg_advisory_lock(%s)", (_SETUP_LOCK,))
                try:
                    await saver.setup()
                finally:
                    await conn.execute("SELECT pg_advisory_unlock(%s)", (_SETUP_LOCK,))
            yield saver
    except psycopg.OperationalError as exc:  # unreachable, or lost during the run
        first = (str(exc).strip().splitlines() or ["cannot connect"])[0]
        raise StoreError(f"checkpoints {public_url(url)}: {first}") from exc


async def _set_up(conn: Any, migrations: int) -> bool:
    """Whether the saver's tables are there with every migration applied.

    Then setting up is skipped: it starts with ``CREATE TABLE IF NOT EXISTS``, which a role
    that may only read and write the tables (``triqua store init --run-as``) is refused.
    """
    cursor = await conn.execute("SELECT to_regclass('checkpoint_migrations') IS NOT NULL")
    row = await cursor.fetchone()
    if not row or not _first(row):
        return False
    cursor = await conn.execute("SELECT MAX(v) FROM checkpoint_migrations")
    row = await cursor.fetchone()
    latest = _first(row) if row else None
    return latest is not None and int(latest) >= migrations - 1


def _first(row: Any) -> Any:
    """A row's first value, whether the cursor returns tuples or dicts."""
    return next(iter(row.values())) if isinstance(row, dict) else row[0]


def _has_tables(conn: Any) -> bool:
    row = conn.execute(
        "SELECT COUNT(*) FROM pg_tables WHERE schemaname = current_schema() "
        "AND tablename = ANY(%s)",
        (list(THREAD_TABLES),),
    ).fetchone()
    return bool(row and row[0] == len(THREAD_TABLES))


def pg_thread_ages(url: str, query: str) -> list[tuple[str, str]]:
    """``(thread, latest checkpoint id)`` pairs by ``query``; none before the first durable run."""
    with _psycopg().connect(url, autocommit=True) as conn:
        if not _has_tables(conn):
            return []
        return [(str(thread), str(latest)) for thread, latest in conn.execute(query)]


def delete_pg_threads(url: str, thread_ids: list[str]) -> int:
    """Delete the saver's rows of ``thread_ids`` in one transaction; returns rows deleted."""
    deleted = 0
    with _psycopg().connect(url) as conn, conn.transaction():
        if not _has_tables(conn):
            return 0
        for table in THREAD_TABLES:
            deleted += conn.execute(
                f"DELETE FROM {table} WHERE thread_id = ANY(%s)", (thread_ids,)
            ).rowcount
    return deleted
