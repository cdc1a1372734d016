"""A hash chain over the run store's rows: an edit made behind the store's back is found.

The triggers keep the store append-only against ordinary SQL, but whoever can write the file
can drop them, ``UPDATE`` a verdict and put them back. So every row triqua writes is also
entered in the ``chain`` table, in the same transaction: the hash of the row's content as
stored (read back, so the database's own types are hashed) and a chain hash covering that
row hash and the previous entry's chain hash. Removing rows (pruning a failed run, deleting
runs on request) enters a removal for each row. :func:`verify_chain` recomputes everything
and names the first row that differs from what was written: changed, missing, added without
an entry, or an entry of the chain itself edited.

The chain detects edits made with ordinary tools; someone who rewrites a row *and* recomputes
every later chain hash is caught only against a head hash recorded elsewhere (``triqua runs
verify`` prints it). Stores written before the chain existed are chained when they are first
opened by this version: their rows are vouched for as they were then.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from triqua.schema import sha256_text
from triqua.store.tables import APPEND_ONLY_TABLES, CHAIN_TABLE, COLUMNS, KEYS

__all__ = ["GENESIS", "ChainProblem", "ChainReport", "ChainWriter", "chain_rows", "verify_chain"]

#: The chain hash before the first entry.
GENESIS = "0" * 64
#: The row hash of an entry that records a row's removal.
REMOVED = ""


def row_hash(table: str, row: Sequence[Any]) -> str:
    """SHA-256 of a row's content, every column in schema order, as the database returns it."""
    return sha256_text(json.dumps([table, list(row)], separators=(",", ":"), default=str))


def row_key(key: Sequence[Any]) -> str:
    """A row's primary key as canonical JSON (how the chain names the row)."""
    return json.dumps(list(key), separators=(",", ":"), default=str)


def link(previous: str, seq: int, table: str, key: str, digest: str) -> str:
    """The chain hash of entry ``seq``: it covers the entry and the previous chain hash."""
    return sha256_text(f"{previous}\x1f{seq}\x1f{table}\x1f{key}\x1f{digest}")


def _select(table: str) -> str:
    return f"SELECT {', '.join(COLUMNS[table])} FROM {table}"


def _where(table: str) -> str:
    return " AND ".join(f"{column} = ?" for column in KEYS[table])


class ChainWriter:
    """Enters rows in the chain within one write transaction (the store's writer lock held)."""

    def __init__(self, conn: Any) -> None:
        """Start after the chain's last entry, read through ``conn``."""
        self.conn = conn
        last = conn.execute(
            f"SELECT seq, chain_hash FROM {CHAIN_TABLE} ORDER BY seq DESC LIMIT 1"
        ).fetchone()
        self.seq, self.head = (int(last[0]), str(last[1])) if last else (0, GENESIS)

    def _enter(self, entries: Iterable[tuple[str, Sequence[Any], str]]) -> None:
        """Append (table, primary key, row hash) entries, linked in order, in one statement."""
        rows = []
        for table, key, digest in entries:
            self.seq += 1
            name = row_key(key)
            self.head = link(self.head, self.seq, table, name, digest)
            rows.append((self.seq, table, name, digest, self.head))
        if rows:
            self.conn.executemany(
                f"INSERT INTO {CHAIN_TABLE} (seq, tbl, row_key, row_hash, chain_hash) "
                "VALUES (?, ?, ?, ?, ?)",
                rows,
            )

    def added(self, table: str, where: str, parameters: Sequence[Any]) -> int:
        """Enter the rows of ``table`` matching ``where``, as stored now; returns how many.

        Rows are read back in one query (so the database's own types are hashed) and
        entered in primary-key order.
        """
        order = ", ".join(KEYS[table])
        rows = self.conn.execute(
            f"{_select(table)} WHERE {where} ORDER BY {order}", tuple(parameters)
        ).fetchall()
        self._enter((table, _key_of(table, row), row_hash(table, row)) for row in rows)
        return len(rows)

    def removed(self, table: str, keys: Iterable[Sequence[Any]]) -> None:
        """Enter the removal of the rows of ``table`` with these primary keys."""
        self._enter((table, key, REMOVED) for key in keys)


def _key_of(table: str, row: Sequence[Any]) -> list[Any]:
    """The primary key of a row read with :func:`_select`."""
    return [row[COLUMNS[table].index(column)] for column in KEYS[table]]


def keys_of(conn: Any, table: str, where: str, parameters: Sequence[Any]) -> list[tuple[Any, ...]]:
    """The primary keys of the rows of ``table`` matching ``where`` (before removing them)."""
    columns = ", ".join(KEYS[table])
    rows = conn.execute(f"SELECT {columns} FROM {table} WHERE {where}", tuple(parameters))
    return [tuple(row) for row in rows.fetchall()]


def chain_rows(conn: Any) -> int:
    """Enter every row not yet in the chain (a store written before it); returns how many."""
    writer = ChainWriter(conn)
    known = {(str(t), str(k)) for t, k in conn.execute(f"SELECT tbl, row_key FROM {CHAIN_TABLE}")}
    entered = 0
    for table in APPEND_ONLY_TABLES:
        order = ", ".join(KEYS[table])
        rows = conn.execute(f"{_select(table)} ORDER BY {order}").fetchall()
        new = [
            (table, key, row_hash(table, row))
            for row in rows
            if (table, row_key(key := _key_of(table, row))) not in known
        ]
        writer._enter(new)
        entered += len(new)
    return entered


@dataclass(frozen=True)
class ChainProblem:
    """One row (or chain entry) that differs from what triqua wrote."""

    table: str
    key: str
    what: str
    seq: int | None = None

    def describe(self) -> str:
        """One line naming the row by its table and primary key, and what is wrong."""
        columns = self.table and KEYS.get(self.table)
        values = json.loads(self.key) if self.key else []
        named = ", ".join(f"{c}={v}" for c, v in zip(columns or (), values, strict=False))
        entry = f" (chain entry {self.seq})" if self.seq is not None else ""
        return f"{self.table} row ({named}) {self.what}{entry}"


@dataclass(frozen=True)
class ChainReport:
    """What :func:`verify_chain` found: rows checked, chain length and head, the problems."""

    rows: int
    entries: int
    head: str
    problems: tuple[ChainProblem, ...]

    @property
    def ok(self) -> bool:
        """True when every row is as it was written."""
        return not self.problems


def verify_chain(conn: Any) -> ChainReport:
    """Recompute the chain and every row's hash; problems in chain order (first changed first)."""
    problems: list[ChainProblem] = []
    expected: dict[tuple[str, str], tuple[str, int]] = {}
    head, entries = GENESIS, 0
    for seq, table, key, digest, stored in conn.execute(
        f"SELECT seq, tbl, row_key, row_hash, chain_hash FROM {CHAIN_TABLE} ORDER BY seq"
    ).fetchall():
        entries += 1
        head = link(head, int(seq), str(table), str(key), str(digest))
        if int(seq) != entries or head != stored:
            problems.append(
                ChainProblem(CHAIN_TABLE, row_key([seq]), "was edited or removed", int(seq))
            )
            head = str(stored)  # go on from the stored hash: report each break once
        expected[(str(table), str(key))] = (str(digest), int(seq))
    rows = 0
    for table in APPEND_ONLY_TABLES:
        for row in conn.execute(_select(table)).fetchall():
            rows += 1
            key = row_key(_key_of(table, row))
            digest, seq = expected.pop((table, key), (None, None))
            if digest is None:
                problems.append(ChainProblem(table, key, "was added behind the store's back"))
            elif digest == REMOVED:
                problems.append(ChainProblem(table, key, "was put back after its removal", seq))
            elif digest != row_hash(table, row):
                problems.append(ChainProblem(table, key, "was changed after it was written", seq))
    for (table, key), (digest, seq) in expected.items():
        if digest != REMOVED:
            problems.append(ChainProblem(table, key, "was deleted behind the store's back", seq))
    problems.sort(key=lambda p: (p.seq is None, p.seq or 0))
    return ChainReport(rows=rows, entries=entries, head=head, problems=tuple(problems))
