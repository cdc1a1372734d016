"""The run store in PostgreSQL: the same tables and queries as SQLite, through psycopg.

``RunStore("postgresql://…")`` keeps runs here. The statements of ``tables``, ``reading`` and
``writing`` are portable SQL and run unchanged: :class:`PgConnection` only swaps SQLite's
``?`` placeholders for psycopg's ``%s``. What differs lives here: the schema version (a
``store_version`` table instead of ``PRAGMA user_version``), one writer at a time (a
transaction-scoped advisory lock instead of ``BEGIN IMMEDIATE``) and the append-only
triggers, written in PL/pgSQL with the same rules as SQLite's: no ``UPDATE`` (so no upsert),
no ``DELETE`` except of a run that has no report (``runs`` and ``outcomes``, the prune path),
no ``TRUNCATE``; a second insert of a key is refused by the primary key.

psycopg comes with the ``postgres`` extra; it is imported only when such a store is opened.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from triqua.store.integrity import chain_rows
from triqua.store.tables import (
    APPEND_ONLY_TABLES,
    CHAIN_TABLE,
    SCHEMA_VERSION,
    WHAT,
    schema_statements,
)
from triqua.support.dbfiles import StoreError
from triqua.support.dburls import public_url

__all__ = ["PgConnection", "PostgresDatabase"]

#: Advisory lock key taken by every write transaction (one writer at a time, as in SQLite).
_WRITE_LOCK = 0x7472_6971_7561  # "triqua"

#: Columns holding scores or confidences (``DOUBLE PRECISION`` since schema version 4).
_FLOAT_COLUMNS = (("reports", "score"),)

_REFUSE_FUNCTION = """
CREATE OR REPLACE FUNCTION triqua_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' AND TG_TABLE_NAME IN ('runs', 'outcomes') THEN
        -- the prune path: a run without a report may go; once it has one, nothing of it goes
        IF NOT EXISTS (SELECT 1 FROM reports WHERE run_id = OLD.run_id) THEN
            RETURN OLD;
        END IF;
    END IF;
    RAISE EXCEPTION 'triqua run store is append-only: % rows cannot be %',
        TG_TABLE_NAME, lower(TG_OP) || 'd'
        USING ERRCODE = 'integrity_constraint_violation';
END
$$
"""


def import_psycopg(needed_by: str = "a postgresql:// run store needs") -> Any:
    """The psycopg module, imported on use: the one place triqua imports psycopg.

    The run store, its roles, the Postgres checkpoints and run deletion all take it from
    here, so psycopg (the ``postgres`` extra) is imported in the store's package only.

    Raises:
        StoreError: psycopg is not installed; the message says what ``needed_by`` it.
    """
    try:
        import psycopg
    except ImportError as exc:
        raise StoreError(f"{needed_by} psycopg: pip install 'triqua[postgres]'") from exc
    return psycopg


def _widen_scores(conn: PgConnection) -> None:
    """Scores as 8-byte floats: stores before version 4 kept them in 4 (0.73333335).

    A score already stored keeps the value it was read back as, and so the hash the chain
    holds for its row: it is converted through its text (``0.73333335``), not its 4-byte
    binary value (``0.7333333492279053``). Only new scores keep every digit.
    """
    for table, column in _FLOAT_COLUMNS:
        row = conn.execute(
            "SELECT data_type FROM information_schema.columns WHERE table_schema = "
            "current_schema() AND table_name = ? AND column_name = ?",
            (table, column),
        ).fetchone()
        if row is not None and row[0] != "double precision":
            conn.execute(
                f"ALTER TABLE {table} ALTER COLUMN {column} TYPE DOUBLE PRECISION "
                f"USING {column}::text::double precision"
            )


class PgConnection:
    """A psycopg connection that runs the store's SQLite-style (``?``) statements."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    @staticmethod
    def _sql(sql: str) -> str:
        return sql.replace("?", "%s")

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Any:
        """Run one statement; returns psycopg's cursor (fetchone, fetchall, rowcount, iter)."""
        return self._conn.execute(self._sql(sql), tuple(parameters) or None)

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> Any:
        """Run one statement once per parameter row."""
        rows = [tuple(p) for p in parameters]
        cursor = self._conn.cursor()
        if rows:
            cursor.executemany(self._sql(sql), rows)
        return cursor


class PostgresDatabase:
    """One PostgreSQL database holding a run store: connections, writes and the schema."""

    def __init__(self, url: str) -> None:
        """Open the store at ``url``, creating its tables and triggers when needed.

        Raises:
            StoreError: psycopg is missing, the server cannot be reached, or the store was
                written by a newer triqua.
        """
        self.url = url
        self.where = public_url(url)
        with self.transaction() as conn:
            if self._version(conn) != SCHEMA_VERSION:
                self._upgrade(conn)

    @contextmanager
    def connect(self) -> Iterator[PgConnection]:
        """A connection in autocommit mode for one operation; closed afterwards.

        Raises:
            StoreError: one line when the server cannot be reached or refuses the login.
        """
        psycopg = import_psycopg()
        try:
            conn = psycopg.connect(self.url, autocommit=True)
        except psycopg.OperationalError as exc:
            first = (str(exc).strip().splitlines() or ["cannot connect"])[0]
            raise StoreError(f"{WHAT} {self.where}: {first}") from exc
        with conn:
            yield PgConnection(conn)

    @contextmanager
    def transaction(self) -> Iterator[PgConnection]:
        """One write transaction; writers queue on an advisory lock so revisions cannot race."""
        with self.connect() as wrapped:
            conn = wrapped._conn
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_WRITE_LOCK,))
                yield wrapped

    def _version(self, conn: PgConnection) -> int:
        """The store's schema version; 0 for an empty database (nothing created to read it)."""
        if conn.execute("SELECT to_regclass('store_version')").fetchone()[0] is None:
            return 0
        row = conn.execute("SELECT MAX(version) FROM store_version").fetchone()
        version = int(row[0]) if row and row[0] is not None else 0
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{WHAT} {self.where} was written by a newer triqua (schema {version}; this "
                f"one reads {SCHEMA_VERSION}): upgrade triqua or pass another --store-url"
            )
        return version

    def _upgrade(self, conn: PgConnection) -> None:
        """Create the tables, the refusing function and one trigger pair per table."""
        conn.execute("CREATE TABLE IF NOT EXISTS store_version (version INTEGER NOT NULL)")
        for statement in schema_statements():
            conn.execute(statement)
        _widen_scores(conn)
        conn.execute(_REFUSE_FUNCTION)
        for table in (*APPEND_ONLY_TABLES, CHAIN_TABLE):
            for name, when, each in (
                (f"{table}_append_only", "UPDATE OR DELETE", "ROW"),
                (f"{table}_no_truncate", "TRUNCATE", "STATEMENT"),
            ):
                conn.execute(f"DROP TRIGGER IF EXISTS {name} ON {table}")
                conn.execute(
                    f"CREATE TRIGGER {name} BEFORE {when} ON {table} "
                    f"FOR EACH {each} EXECUTE FUNCTION triqua_append_only()"
                )
        chain_rows(conn)  # rows written before the chain existed are entered as they are
        conn.execute("DELETE FROM store_version")
        conn.execute("INSERT INTO store_version (version) VALUES (?)", (SCHEMA_VERSION,))
