"""The run store's file and connections: opening, upgrading and one write transaction."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from triqua.store.tables import SCHEMA_VERSION, WHAT, schema_version, upgrade
from triqua.support.dbfiles import lock_timeout, prepare_database_path, sqlite_errors
from triqua.tools.paths import triqua_home


def default_store_path() -> Path:
    """``runs.sqlite`` in triqua's data directory (``$TRIQUA_HOME``)."""
    return triqua_home() / "runs.sqlite"


class StoreFile:
    """The store's SQLite file: what the reading and writing halves of ``RunStore`` share."""

    def __init__(self, path: str | Path | None = None) -> None:
        """Open (creating or upgrading when needed) the store at ``path`` (default: user data).

        Raises:
            StoreError: the file is damaged, locked, not a database, or from a newer triqua.
        """
        self.path = Path(path).expanduser() if path else default_store_path()
        prepare_database_path(self.path, WHAT)
        with self.connect() as conn:
            if schema_version(conn, self.path) != SCHEMA_VERSION:
                upgrade(conn, self.path)

    @contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        """A connection for one operation; closed afterwards.

        Raises:
            StoreError: one line for any fault of the file (damaged, locked, unreadable).
        """
        with (
            sqlite_errors(self.path, WHAT),
            closing(
                sqlite3.connect(self.path, timeout=lock_timeout(), isolation_level=None)
            ) as conn,
        ):
            conn.execute("PRAGMA foreign_keys = ON")
            yield conn

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken up front so revision numbers cannot race."""
        with self.connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
