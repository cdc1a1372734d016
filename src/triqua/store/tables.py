"""The run store's tables: the SQL schema, the append-only triggers and the upgrade path.

Every table is append-only: triggers refuse ``UPDATE``, ``DELETE`` and an ``INSERT`` on an
existing key (so ``INSERT OR REPLACE`` cannot rewrite a row either). Only a run without a
report may lose its ``runs`` and ``outcomes`` rows (pruning a failed run). The ``chain``
table holds the hash chain over every row (:mod:`triqua.store.integrity`).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from triqua.support.dbfiles import StoreError

SCHEMA_VERSION = 4
#: How the store names itself in errors.
WHAT = "run store"
APPEND_ONLY_TABLES = ("runs", "records", "verdicts", "evidence", "reports", "outcomes")
#: The hash chain over the rows of the append-only tables (append-only itself).
CHAIN_TABLE = "chain"
#: The primary key of each table: an insert on an existing one is refused.
KEYS = {
    "runs": ("run_id",),
    "records": ("run_id", "claim_id"),
    "verdicts": ("run_id", "claim_id", "revision"),
    "evidence": ("run_id", "claim_id", "revision", "position"),
    "reports": ("run_id", "revision"),
    "outcomes": ("run_id",),
    CHAIN_TABLE: ("seq",),
}
#: Tables whose rows may be deleted while their run has no report (pruning a failed run).
_PRUNABLE = ("runs", "outcomes")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    input_hash TEXT NOT NULL,
    text TEXT NOT NULL,
    question TEXT,
    settings TEXT NOT NULL,
    documents TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS records (
    run_id TEXT NOT NULL REFERENCES runs(run_id),
    claim_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    claim_text TEXT NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (run_id, claim_id)
);
CREATE TABLE IF NOT EXISTS verdicts (
    run_id TEXT NOT NULL REFERENCES runs(run_id),
    claim_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    status TEXT NOT NULL,
    judge TEXT NOT NULL,
    spec_hash TEXT NOT NULL,
    evidence_revision INTEGER NOT NULL,
    verdict TEXT NOT NULL,
    usage TEXT NOT NULL,
    rounds TEXT NOT NULL,
    revisions TEXT NOT NULL,
    PRIMARY KEY (run_id, claim_id, revision)
);
CREATE TABLE IF NOT EXISTS evidence (
    run_id TEXT NOT NULL REFERENCES runs(run_id),
    claim_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    position INTEGER NOT NULL,
    evidence_id TEXT NOT NULL,
    document_id TEXT NOT NULL,
    source TEXT,
    start_offset INTEGER,
    end_offset INTEGER,
    content_hash TEXT NOT NULL,
    evidence TEXT NOT NULL,
    PRIMARY KEY (run_id, claim_id, revision, position)
);
CREATE TABLE IF NOT EXISTS reports (
    run_id TEXT NOT NULL REFERENCES runs(run_id),
    revision INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    spec_hash TEXT NOT NULL,
    spec TEXT NOT NULL,
    engine TEXT NOT NULL,
    mode TEXT NOT NULL,
    score DOUBLE PRECISION,
    facts INTEGER NOT NULL,
    report TEXT NOT NULL,
    PRIMARY KEY (run_id, revision)
);
CREATE TABLE IF NOT EXISTS outcomes (
    run_id TEXT PRIMARY KEY REFERENCES runs(run_id),
    created_at TEXT NOT NULL,
    status TEXT NOT NULL,
    error TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS chain (
    seq INTEGER PRIMARY KEY,
    tbl TEXT NOT NULL,
    row_key TEXT NOT NULL,
    row_hash TEXT NOT NULL,
    chain_hash TEXT NOT NULL
);
"""


def _columns() -> dict[str, tuple[str, ...]]:
    """Each table's columns in schema order, read from the schema above (one source)."""
    found: dict[str, tuple[str, ...]] = {}
    for name, body in re.findall(r"CREATE TABLE IF NOT EXISTS (\w+) \((.*?)\n\)", _SCHEMA, re.S):
        lines = [line.strip() for line in body.splitlines() if line.strip()]
        found[name] = tuple(line.split()[0] for line in lines if not line.startswith("PRIMARY"))
    return found


#: Each table's columns, in schema order (what a row's hash covers).
COLUMNS = _columns()


def _refuse(table: str, action: str) -> str:
    return (
        f"SELECT RAISE(ABORT, 'triqua run store is append-only: {table} rows cannot be {action}');"
    )


def _triggers() -> list[str]:
    """Triggers that keep every table append-only (one statement each, idempotent).

    ``BEFORE INSERT`` rejects an existing key: ``INSERT OR REPLACE`` would otherwise delete
    the old row without firing the ``DELETE`` trigger (recursive triggers are off).
    """
    statements = []
    for table in (*APPEND_ONLY_TABLES, CHAIN_TABLE):
        statements.append(
            f"CREATE TRIGGER IF NOT EXISTS {table}_no_update BEFORE UPDATE ON {table} "
            f"BEGIN {_refuse(table, 'updated')} END"
        )
        # A run without a report may be pruned; once it has one, nothing of it goes.
        when = " WHEN EXISTS (SELECT 1 FROM reports WHERE run_id = OLD.run_id)"
        statements.append(
            f"CREATE TRIGGER IF NOT EXISTS {table}_no_delete BEFORE DELETE ON {table}"
            f"{when if table in _PRUNABLE else ''} BEGIN {_refuse(table, 'deleted')} END"
        )
        match = " AND ".join(f"{column} = NEW.{column}" for column in KEYS[table])
        statements.append(
            f"CREATE TRIGGER IF NOT EXISTS {table}_no_replace BEFORE INSERT ON {table} "
            f"WHEN EXISTS (SELECT 1 FROM {table} WHERE {match}) "
            f"BEGIN {_refuse(table, 'replaced')} END"
        )
    return statements


def schema_statements() -> list[str]:
    """The ``CREATE TABLE`` statements, one each (portable: SQLite and PostgreSQL)."""
    return [part.strip() for part in _SCHEMA.split(";") if part.strip()]


def schema_version(conn: sqlite3.Connection, path: Path) -> int:
    """The schema version of the open store at ``path``.

    Raises:
        StoreError: the store was written by a newer triqua.
    """
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{WHAT} {path} was written by a newer triqua (schema {version}; this one "
            f"reads {SCHEMA_VERSION}): upgrade triqua or pass --store FILE"
        )
    return version


def upgrade(
    conn: sqlite3.Connection, path: Path, chain: Callable[[Any], object] | None = None
) -> None:
    """Create the tables, or bring an older store up to date, in one transaction.

    Version 2 added ``outcomes``, the triggers that refuse an insert on an existing key,
    and allowed removing a run that has no report. Version 3 added the hash chain:
    ``chain`` enters the rows already there (:func:`triqua.store.integrity.chain_rows`).
    Version 4 declared scores ``DOUBLE PRECISION`` (PostgreSQL's ``REAL`` has 4 bytes;
    SQLite stores both in 8, so its stores need no change).
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = schema_version(conn, path)  # another process may have upgraded it meanwhile
        if version != SCHEMA_VERSION:
            for statement in schema_statements():
                conn.execute(statement)
            if version == 1:  # version 1 refused every delete, even of a failed run
                for table in _PRUNABLE:
                    conn.execute(f"DROP TRIGGER IF EXISTS {table}_no_delete")
            for statement in _triggers():
                conn.execute(statement)
            if chain is not None:
                chain(conn)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
