"""Checkpoint hygiene: a durable run's checkpoints live only while the run is unfinished.

LangGraph's SQLite saver keeps every step of every thread (one thread per run id) and never
shrinks its file. A finished run's thread is deleted at once, whether or not the run was
stored; the file is then compacted when enough of it is free (``VACUUM``) and its WAL is
checkpointed and truncated. :func:`thread_ages` and :func:`delete_threads` serve
``triqua runs prune`` for threads left by interrupted runs. :func:`open_checkpointer` opens
the file for a durable run. Each takes a ``postgresql://`` URL as well: the checkpoints then
live in that database (``pg_checkpoints``), beside a Postgres run store.
"""

from __future__ import annotations

import asyncio
import copy
import sqlite3
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, closing, suppress
from datetime import UTC, datetime
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any
from uuid import UUID

from triqua.support.dbfiles import (
    lock_timeout,
    prepare_database_path,
    set_up_wal,
    sqlite_errors,
)
from triqua.support.dburls import is_database_url
from triqua.tools.paths import triqua_home

if TYPE_CHECKING:
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

__all__ = [
    "DEFAULT_UNFINISHED_DAYS",
    "WHAT",
    "checkpoint_serde",
    "checkpoint_time",
    "compact",
    "compact_async",
    "database_bytes",
    "default_checkpoint_path",
    "delete_threads",
    "forget_run",
    "open_checkpointer",
    "thread_ages",
    "with_checkpoint_types",
    "worth_vacuum",
]

#: Unfinished runs younger than this many days may still be running: prune keeps them.
DEFAULT_UNFINISHED_DAYS = 1.0
#: How the checkpoint file names itself in errors.
WHAT = "checkpoint file"
#: Free space below which ``VACUUM`` is not worth rewriting the file.
MIN_FREE_BYTES = 1 << 20
#: ... and the share of the file that must be free.
MIN_FREE_SHARE = 0.25
# uuid6 (LangGraph checkpoint ids) counts 100 ns steps from 1582-10-15.
_UUID_EPOCH = 0x01B21DD213814000


def worth_vacuum(page_size: int, pages: int, free_pages: int) -> bool:
    """True when rewriting the file frees at least 1 MiB and a quarter of it."""
    free = free_pages * page_size
    return free >= MIN_FREE_BYTES and free_pages >= MIN_FREE_SHARE * max(pages, 1)


def database_bytes(path: Path) -> int:
    """Size of a SQLite file with its WAL and shared-memory files."""
    return sum(
        p.stat().st_size for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")) if p.exists()
    )


def checkpoint_time(checkpoint_id: str) -> datetime | None:
    """When a checkpoint was written, from its time-ordered (uuid6) id; None if not one."""
    try:
        value = UUID(checkpoint_id)
    except ValueError:
        return None
    if value.version != 6:
        return None
    ticks = ((value.int >> 80) << 12) | ((value.int >> 64) & 0x0FFF)
    return datetime.fromtimestamp((ticks - _UUID_EPOCH) / 10_000_000, tz=UTC)


async def compact_async(conn: Any) -> None:
    """``VACUUM`` an aiosqlite connection's file when worthwhile, then truncate its WAL.

    Best effort: when another process holds the file, the space is reclaimed next time.
    """
    with suppress(sqlite3.Error):
        if conn.in_transaction:
            await conn.commit()
        sizes = []
        for pragma in ("page_size", "page_count", "freelist_count"):
            async with conn.execute(f"PRAGMA {pragma}") as cursor:
                row = await cursor.fetchone()
                sizes.append(int(row[0]) if row else 0)
        if worth_vacuum(*sizes):
            await conn.execute("VACUUM")
        await conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


async def forget_run(saver: Any, run_id: str) -> None:
    """Delete a finished run's checkpoints and journal; compact a SQLite checkpoint file."""
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    from triqua.runtime.caches.journal import forget_journal

    await saver.adelete_thread(run_id)
    forget_journal(run_id)
    if isinstance(saver, AsyncSqliteSaver):
        await compact_async(saver.conn)


def _open(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, timeout=lock_timeout(), isolation_level=None)


def _set_up_wal(path: Path) -> None:
    """Switch a new file to WAL before the saver does, waiting for another process doing so.

    The saver's own setup switches it too, but a new file's switch fails at once while
    another process (durable batch workers) is setting the same file up; see
    :func:`~triqua.support.dbfiles.set_up_wal`. Once the file is in WAL mode, the saver's
    switch changes nothing and its tables wait for the lock as any write does.
    """
    with closing(_open(path)) as conn:
        set_up_wal(conn)


def _has_tables(conn: sqlite3.Connection) -> bool:
    row = conn.execute(
        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' "
        "AND name IN ('checkpoints', 'writes')"
    ).fetchone()
    return bool(row and row[0] == 2)


#: Each thread with its latest checkpoint id (SQLite and PostgreSQL alike).
_THREAD_AGES = "SELECT thread_id, MAX(checkpoint_id) FROM checkpoints GROUP BY thread_id"


def thread_ages(path: Path | str) -> dict[str, datetime | None]:
    """Each thread (run id) in the checkpoint file with the time of its latest checkpoint.

    Raises:
        StoreError: the file is damaged, locked or not a database.
    """
    if is_database_url(path):
        from triqua.runtime.persistence.pg_checkpoints import pg_thread_ages

        return {t: checkpoint_time(latest) for t, latest in pg_thread_ages(str(path), _THREAD_AGES)}
    path = Path(path)
    if not path.exists():
        return {}
    prepare_database_path(path, WHAT)
    with sqlite_errors(path, WHAT), closing(_open(path)) as conn:
        if not _has_tables(conn):
            return {}
        rows = conn.execute(_THREAD_AGES).fetchall()
    return {str(thread): checkpoint_time(str(latest)) for thread, latest in rows}


def delete_threads(path: Path | str, thread_ids: list[str]) -> int:
    """Delete the checkpoints, pending writes and journals of ``thread_ids``; rows deleted."""
    from triqua.runtime.caches.journal import forget_journal

    for thread in thread_ids:
        forget_journal(thread)
    if thread_ids and is_database_url(path):
        from triqua.runtime.persistence.pg_checkpoints import delete_pg_threads

        return delete_pg_threads(str(path), thread_ids)
    path = Path(path)
    if not thread_ids or not path.exists():
        return 0
    prepare_database_path(path, WHAT)
    deleted = 0
    with sqlite_errors(path, WHAT), closing(_open(path)) as conn:
        if not _has_tables(conn):
            return 0
        conn.execute("BEGIN IMMEDIATE")
        for thread in thread_ids:
            for table in ("checkpoints", "writes"):
                deleted += conn.execute(
                    f"DELETE FROM {table} WHERE thread_id = ?", (thread,)
                ).rowcount
        conn.execute("COMMIT")
    return deleted


def compact(path: Path | str) -> tuple[int, int]:
    """Compact the checkpoint file when worthwhile and truncate its WAL.

    Returns:
        The bytes on disk (file, WAL and shared memory) before and after; 0, 0 for a
        PostgreSQL database (it reclaims space itself).
    """
    if is_database_url(path):
        return 0, 0
    path = Path(path)
    if not path.exists():
        return 0, 0
    before = database_bytes(path)
    prepare_database_path(path, WHAT)
    with sqlite_errors(path, WHAT), closing(_open(path)) as conn:
        sizes = [
            int(conn.execute(f"PRAGMA {pragma}").fetchone()[0])
            for pragma in ("page_size", "page_count", "freelist_count")
        ]
        if worth_vacuum(*sizes):
            conn.execute("VACUUM")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return before, database_bytes(path)


def default_checkpoint_path() -> Path:
    """``checkpoints.sqlite`` in triqua's data directory (``$TRIQUA_HOME``)."""
    return triqua_home() / "checkpoints.sqlite"


def _checkpoint_types() -> list[tuple[str, str]]:
    """Models and enums of triqua's loaded modules: the only types restored from checkpoints.

    Called after the graph is built, so every type its nodes can put in the state is loaded.
    Worked out once per set of loaded modules (scanning them took milliseconds per run).
    """
    loaded = tuple(
        sorted(
            name
            for name, module in list(sys.modules.items())
            if module is not None and (name == "triqua" or name.startswith("triqua."))
        )
    )
    return list(_types_in(loaded))


@lru_cache(maxsize=4)
def _types_in(names: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """The pydantic models and enums defined in the modules ``names``."""
    from pydantic import BaseModel  # here, so that ``triqua --help`` (prune) loads no pydantic

    return tuple(
        (value.__module__, value.__name__)
        for name in names
        for value in list(vars(sys.modules[name]).values())
        if isinstance(value, type)
        and value.__module__ == name
        and issubclass(value, BaseModel | Enum)
    )


def checkpoint_serde() -> JsonPlusSerializer:
    """LangGraph's checkpoint serializer, restoring only triqua's types and LangGraph's safe ones.

    Any other type in a checkpoint is left as its raw data, with LangGraph's "blocked" warning
    (LangGraph's default restores every type and warns of each). Build it after the graph
    module (:mod:`triqua.graph.main`) is imported, so every type its state can hold is loaded;
    ``triqua.checkpoint_serde`` does. Add a parent graph's own types with LangGraph's
    ``with_msgpack_allowlist``.
    """
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

    return JsonPlusSerializer(allowed_msgpack_modules=_checkpoint_types())


def with_checkpoint_types(checkpointer: Any) -> Any:
    """``checkpointer`` restoring triqua's types: a copy with :func:`checkpoint_serde`.

    Only a saver that still has LangGraph's default serializer gets one: the copy (LangGraph's
    own way to change a saver's serializer) shares the saver's storage and connection, and the
    saver itself is unchanged. A serializer its owner chose is kept as it is, as is anything
    that is not a saver (``None``, ``True``, ``False``).
    """
    from langgraph.checkpoint.base import BaseCheckpointSaver

    if not isinstance(checkpointer, BaseCheckpointSaver):
        return checkpointer
    if checkpointer.serde is not BaseCheckpointSaver.serde:  # the class default, shared
        return checkpointer
    saver = copy.copy(checkpointer)
    saver.serde = checkpoint_serde()
    return saver


@asynccontextmanager
async def open_checkpointer(path: str | Path | None = None) -> AsyncIterator[Any]:
    """A saver on ``path`` that restores only known types from checkpoints.

    ``AsyncSqliteSaver`` on a file (default: user data); ``AsyncPostgresSaver`` on a
    ``postgresql://`` URL.

    Open it after importing the graph (:mod:`triqua.graph.main`), so every type the graph
    state can hold is loaded and allowed.
    """
    import aiosqlite
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    serde = checkpoint_serde()
    if is_database_url(path):
        from triqua.runtime.persistence.pg_checkpoints import open_pg_checkpointer

        async with open_pg_checkpointer(str(path), serde) as saver:
            yield saver
        return
    file = Path(path).expanduser() if path else default_checkpoint_path()
    prepare_database_path(file, WHAT)
    with sqlite_errors(file, WHAT):  # a damaged or locked file: one line, no traceback
        await asyncio.to_thread(_set_up_wal, file)
        async with aiosqlite.connect(file, timeout=lock_timeout()) as conn:
            saver = AsyncSqliteSaver(conn, serde=serde)
            await saver.setup()
            yield saver
