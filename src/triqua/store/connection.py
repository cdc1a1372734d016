"""The run store's database and connections: opening, upgrading and one write transaction.

A path names a SQLite file (the default); a ``postgresql://`` URL a PostgreSQL database
(``triqua.store.postgres``). Both hand out connections that run the same statements.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any, Protocol

from triqua.store.integrity import chain_rows
from triqua.store.postgres import PostgresDatabase
from triqua.store.tables import SCHEMA_VERSION, WHAT, schema_version, upgrade
from triqua.support.dbfiles import lock_timeout, prepare_database_path, sqlite_errors
from triqua.support.dburls import is_database_url
from triqua.tools.paths import triqua_home


class Connection(Protocol):
    """What the reading and writing halves use: sqlite3's connection or ``PgConnection``."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Any:
        """Run one statement with ``?`` placeholders."""

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> Any:
        """Run one statement once per parameter row."""


def default_store_path() -> Path:
    """``runs.sqlite`` in triqua's data directory (``$TRIQUA_HOME``)."""
    return triqua_home() / "runs.sqlite"


class StoreFile:
    """The store's database: what the reading and writing halves of ``RunStore`` share."""

    #: Breaks ties between runs started in the same microsecond, newest first.
    _newest = "r.rowid"

    def __init__(self, path: str | Path | None = None) -> None:
        """Open (creating or upgrading when needed) the store at ``path`` (default: user data).

        ``path`` may be a ``postgresql://`` URL: the store then lives in that database.

        Raises:
            StoreError: the file is damaged, locked, not a database, or from a newer triqua;
                the database cannot be reached.
        """
        self._pg: PostgresDatabase | None = None
        if is_database_url(path):
            self._pg = PostgresDatabase(str(path))
            self._newest = "r.run_id"
            self.path: Path | str = self._pg.where
            return
        file = Path(path).expanduser() if path else default_store_path()
        self.path = file
        prepare_database_path(file, WHAT)
        with self.connect() as conn:
            assert isinstance(conn, sqlite3.Connection)
            if schema_version(conn, file) != SCHEMA_VERSION:
                upgrade(conn, file, chain_rows)

    @property
    def database_url(self) -> str | None:
        """The PostgreSQL URL of a Postgres store (checkpoints go there too); None for SQLite."""
        return self._pg.url if self._pg is not None else None

    @property
    def location(self) -> str:
        """Where the store is, to open it again: the file's full path, or the URL sans password."""
        return str(self.path) if self._pg is not None else str(Path(self.path).resolve())

    @contextmanager
    def connect(self) -> Iterator[Connection]:
        """A connection for one operation; closed afterwards.

        Raises:
            StoreError: one line for any fault of the file (damaged, locked, unreadable).
        """
        if self._pg is not None:
            with self._pg.connect() as pg:
                yield pg
            return
        assert isinstance(self.path, Path)
        with (
            sqlite_errors(self.path, WHAT),
            closing(
                sqlite3.connect(self.path, timeout=lock_timeout(), isolation_level=None)
            ) as conn,
        ):
            conn.execute("PRAGMA foreign_keys = ON")
            yield conn

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        """One write transaction, taken up front so revision numbers cannot race."""
        if self._pg is not None:
            with self._pg.transaction() as pg:
                yield pg
            return
        with self.connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
