"""The run store: every check and every re-grade, kept append-only in SQLite.

Tables (rows are only ever inserted; triggers refuse ``UPDATE``, ``DELETE`` and an ``INSERT``
on an existing key, so ``INSERT OR REPLACE`` cannot rewrite a row either):

- ``runs``: one row per run: input text and its hash, question, settings, documents.
- ``records``: one row per fact: the ``ClaimRecord`` without evidence and verdicts.
- ``verdicts``: one row per fact and revision (0 for the check, +1 per re-grade), with the
  judge, the spec hash, the usage and the evidence revision the verdict was reached on.
- ``evidence``: one row per passage, per fact and per evidence revision.
- ``reports``: one row per revision: the frozen ``FactualitySpec`` and its hash, the scores
  and the rest of the report.
- ``outcomes``: runs that failed and cannot be resumed (``failed_at_start``: before their
  first step; ``failed``: a run that was not durable).

Only a run that never produced a report may be removed (``triqua runs prune``): its input row
and outcome. Everything of a run with a report stays.

A report is rebuilt from these rows; the verdicts of earlier revisions become its records'
``history``. Old verdicts, evidence and scores stay readable after any number of re-grades.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from triqua.core.redaction import redact
from triqua.dbfiles import StoreError, lock_timeout, prepare_database_path, sqlite_errors
from triqua.schema import (
    ClaimRecord,
    Document,
    Evidence,
    Report,
    ReverifyRound,
    Revisions,
    Usage,
    Verdict,
    sha256_text,
    utc_now,
)
from triqua.tools.paths import triqua_home

__all__ = [
    "APPEND_ONLY_TABLES",
    "FAILED",
    "FAILED_AT_START",
    "STORE_ENV",
    "RunStore",
    "RunSummary",
    "StoreError",
    "StoredRun",
    "default_store_path",
    "resolve_store",
]

#: Environment variable that makes the Python API save runs: '1' (default file) or a path.
STORE_ENV = "TRIQUA_STORE"
SCHEMA_VERSION = 2
#: How the store names itself in errors.
WHAT = "run store"
APPEND_ONLY_TABLES = ("runs", "records", "verdicts", "evidence", "reports", "outcomes")
#: Outcome of a run that failed before its first step: it cannot be resumed.
FAILED_AT_START = "failed_at_start"
#: Outcome of a run that was not durable and failed: it cannot be resumed.
FAILED = "failed"
#: The primary key of each append-only table: an insert on an existing one is refused.
_KEYS = {
    "runs": ("run_id",),
    "records": ("run_id", "claim_id"),
    "verdicts": ("run_id", "claim_id", "revision"),
    "evidence": ("run_id", "claim_id", "revision", "position"),
    "reports": ("run_id", "revision"),
    "outcomes": ("run_id",),
}
#: Tables whose rows may be deleted while their run has no report (pruning a failed run).
_PRUNABLE = ("runs", "outcomes")
#: Record fields that change with each revision; they live in ``verdicts``/``evidence``.
_PER_REVISION = {"evidence", "verdict", "history", "usage", "rounds", "revisions", "spec_hash"}

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
    score REAL,
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
"""


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
    for table in APPEND_ONLY_TABLES:
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
        match = " AND ".join(f"{column} = NEW.{column}" for column in _KEYS[table])
        statements.append(
            f"CREATE TRIGGER IF NOT EXISTS {table}_no_replace BEFORE INSERT ON {table} "
            f"WHEN EXISTS (SELECT 1 FROM {table} WHERE {match}) "
            f"BEGIN {_refuse(table, 'replaced')} END"
        )
    return statements


def _schema_statements() -> list[str]:
    return [part.strip() for part in _SCHEMA.split(";") if part.strip()]


def default_store_path() -> Path:
    """``runs.sqlite`` in triqua's data directory (``$TRIQUA_HOME``)."""
    return triqua_home() / "runs.sqlite"


class RunSummary(BaseModel):
    """One line of ``triqua runs``."""

    run_id: str
    created_at: str
    score: float | None = None
    facts: int = 0
    mode: str = ""
    engine: str = ""
    revisions: int = Field(default=0, description="Reports stored: 0 while unfinished.")
    status: str = Field(
        default="unfinished",
        description="finished, unfinished (resumable), failed_at_start or failed.",
    )
    error: str | None = Field(default=None, description="Why a failed run failed.")


class StoredRun(BaseModel):
    """A run's input as stored: what is needed to look at it again or re-grade it."""

    run_id: str
    created_at: str
    input_hash: str
    text: str
    question: str | None = None
    settings: dict[str, Any] = Field(default_factory=dict)
    documents: list[Document] = Field(default_factory=list)


class RunStore:
    """Append-only SQLite store of runs, their records, verdict revisions, evidence, reports."""

    def __init__(self, path: str | Path | None = None) -> None:
        """Open (creating or upgrading when needed) the store at ``path`` (default: user data).

        Raises:
            StoreError: the file is damaged, locked, not a database, or from a newer triqua.
        """
        self.path = Path(path).expanduser() if path else default_store_path()
        prepare_database_path(self.path, WHAT)
        with self.connect() as conn:
            if self._version(conn) != SCHEMA_VERSION:
                self._upgrade(conn)

    def _version(self, conn: sqlite3.Connection) -> int:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{WHAT} {self.path} was written by a newer triqua (schema {version}; this one "
                f"reads {SCHEMA_VERSION}): upgrade triqua or pass --store FILE"
            )
        return version

    def _upgrade(self, conn: sqlite3.Connection) -> None:
        """Create the tables, or bring a version-1 store up to date, in one transaction.

        Version 2 added ``outcomes``, the triggers that refuse an insert on an existing key,
        and allowed removing a run that has no report.
        """
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = self._version(conn)  # another process may have upgraded it meanwhile
            if version != SCHEMA_VERSION:
                for statement in _schema_statements():
                    conn.execute(statement)
                if version == 1:  # version 1 refused every delete, even of a failed run
                    for table in _PRUNABLE:
                        conn.execute(f"DROP TRIGGER IF EXISTS {table}_no_delete")
                for statement in _triggers():
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

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

    # -- writing -------------------------------------------------------------------------

    def start_run(
        self,
        run_id: str,
        *,
        text: str,
        question: str | None,
        settings: dict[str, Any],
        documents: Sequence[Document] = (),
    ) -> None:
        """Record a run's input before it starts (kept once: a resumed run adds nothing)."""
        with self._write() as conn:
            if conn.execute("SELECT 1 FROM runs WHERE run_id = ?", (run_id,)).fetchone():
                return
            conn.execute(
                "INSERT INTO runs (run_id, created_at, input_hash, text, question, "
                "settings, documents) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    run_id,
                    utc_now().isoformat(),
                    sha256_text(text),
                    text,
                    question,
                    redact(json.dumps(settings, sort_keys=True, default=str)),
                    json.dumps([d.model_dump(mode="json") for d in documents]),
                ),
            )

    def mark_failed(self, run_id: str, error: str, *, status: str = FAILED_AT_START) -> None:
        """Record that a started run failed and cannot be resumed (kept once)."""
        with self._write() as conn:
            if conn.execute("SELECT 1 FROM outcomes WHERE run_id = ?", (run_id,)).fetchone():
                return
            if conn.execute("SELECT 1 FROM runs WHERE run_id = ?", (run_id,)).fetchone() is None:
                return  # never started here: nothing to mark
            first = error.strip().splitlines()[0] if error.strip() else "failed"
            conn.execute(
                "INSERT INTO outcomes (run_id, created_at, status, error) VALUES (?, ?, ?, ?)",
                (run_id, utc_now().isoformat(), status, redact(first)),
            )

    def outcome(self, run_id: str) -> tuple[str, str] | None:
        """``(status, error)`` of a run recorded as failed, or None."""
        with self.connect() as conn:
            row = conn.execute(
                "SELECT status, error FROM outcomes WHERE run_id = ?", (run_id,)
            ).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    def unreported(self) -> list[RunSummary]:
        """Runs without a report (unfinished or failed), oldest first: what may be pruned."""
        return sorted((r for r in self.runs() if r.revisions == 0), key=lambda r: r.created_at)

    def remove_unreported(self, run_ids: Sequence[str]) -> int:
        """Remove runs that have no report (their input and outcome); returns how many.

        A run with a report is never removed: the triggers refuse it and so does this.
        """
        removed = 0
        with self._write() as conn:
            for run_id in run_ids:
                if conn.execute("SELECT 1 FROM reports WHERE run_id = ?", (run_id,)).fetchone():
                    raise ValueError(f"run {run_id} has a report: it is kept")
                conn.execute("DELETE FROM outcomes WHERE run_id = ?", (run_id,))
                removed += conn.execute("DELETE FROM runs WHERE run_id = ?", (run_id,)).rowcount
        return removed

    def append_report(self, report: Report) -> int:
        """Add ``report`` as the run's next revision and return that revision number.

        Revision 0 also stores the records. Later revisions add one verdict per record and
        new evidence rows only for records whose evidence changed.

        Raises:
            ValueError: when the run was never started or a record is unknown to it.
        """
        run_id = report.run_id
        with self._write() as conn:
            if conn.execute("SELECT 1 FROM runs WHERE run_id = ?", (run_id,)).fetchone() is None:
                raise ValueError(f"run {run_id} is not in the store {self.path}")
            row = conn.execute(
                "SELECT COALESCE(MAX(revision) + 1, 0) FROM reports WHERE run_id = ?", (run_id,)
            ).fetchone()
            revision = int(row[0])
            for position, record in enumerate(report.records):
                if revision == 0:
                    self._insert_record(conn, run_id, position, record)
                self._insert_verdict(conn, run_id, revision, record)
            self._insert_report(conn, report, revision)
        return revision

    def _insert_record(
        self, conn: sqlite3.Connection, run_id: str, position: int, record: ClaimRecord
    ) -> None:
        base = record.model_dump_json(exclude=_PER_REVISION)
        conn.execute(
            "INSERT INTO records (run_id, claim_id, position, claim_text, record) "
            "VALUES (?, ?, ?, ?, ?)",
            (run_id, record.claim_id, position, record.claim_text, base),
        )

    def _insert_verdict(
        self, conn: sqlite3.Connection, run_id: str, revision: int, record: ClaimRecord
    ) -> None:
        claim_id = record.claim_id
        known = conn.execute(
            "SELECT 1 FROM records WHERE run_id = ? AND claim_id = ?", (run_id, claim_id)
        ).fetchone()
        if known is None:
            raise ValueError(f"run {run_id} has no fact {claim_id}")
        evidence_revision = self._evidence_revision(conn, run_id, claim_id, record.evidence)
        if evidence_revision is None:
            evidence_revision = revision
            for position, item in enumerate(record.evidence):
                conn.execute(
                    "INSERT INTO evidence (run_id, claim_id, revision, position, evidence_id, "
                    "document_id, source, start_offset, end_offset, content_hash, evidence) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        run_id,
                        claim_id,
                        revision,
                        position,
                        item.id,
                        item.document_id,
                        item.source,
                        item.start,
                        item.end,
                        item.content_hash,
                        item.model_dump_json(),
                    ),
                )
        verdict = record.verdict.model_copy(update={"revision": revision})
        conn.execute(
            "INSERT INTO verdicts (run_id, claim_id, revision, created_at, status, judge, "
            "spec_hash, evidence_revision, verdict, usage, rounds, revisions) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                run_id,
                claim_id,
                revision,
                verdict.created_at.isoformat(),
                verdict.status.value,
                verdict.judge or record.revisions.judge,
                record.spec_hash,
                evidence_revision,
                verdict.model_dump_json(),
                record.usage.model_dump_json(),
                json.dumps([r.model_dump(mode="json") for r in record.rounds]),
                record.revisions.model_dump_json(),
            ),
        )

    def _evidence_revision(
        self, conn: sqlite3.Connection, run_id: str, claim_id: str, evidence: Sequence[Evidence]
    ) -> int | None:
        """The evidence revision of the fact's latest verdict when ``evidence`` equals it."""
        row = conn.execute(
            "SELECT evidence_revision FROM verdicts WHERE run_id = ? AND claim_id = ? "
            "ORDER BY revision DESC LIMIT 1",
            (run_id, claim_id),
        ).fetchone()
        if row is None:
            return None
        ids = [
            r[0]
            for r in conn.execute(
                "SELECT evidence_id FROM evidence WHERE run_id = ? AND claim_id = ? "
                "AND revision = ? ORDER BY position",
                (run_id, claim_id, row[0]),
            )
        ]
        return int(row[0]) if ids == [item.id for item in evidence] else None

    def _insert_report(self, conn: sqlite3.Connection, report: Report, revision: int) -> None:
        meta = report.model_dump_json(exclude={"records", "spec"})
        conn.execute(
            "INSERT INTO reports (run_id, revision, created_at, spec_hash, spec, engine, mode, "
            "score, facts, report) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                report.run_id,
                revision,
                report.created_at.isoformat(),
                report.spec.hash,
                report.spec.model_dump_json(),
                report.engine,
                report.spec.mode.value,
                report.scores.triqua_score,
                len(report.records),
                meta,
            ),
        )

    # -- reading -------------------------------------------------------------------------

    def resolve(self, run_id: str) -> str:
        """The full id of the run named by ``run_id`` or a unique prefix of it.

        Raises:
            KeyError: when no run, or more than one, matches.
        """
        with self.connect() as conn:
            rows = conn.execute(
                "SELECT run_id FROM runs WHERE run_id = ? OR substr(run_id, 1, ?) = ? LIMIT 3",
                (run_id, len(run_id), run_id),
            ).fetchall()
        ids = sorted({r[0] for r in rows})
        if run_id in ids:
            return run_id
        if not ids:
            raise KeyError(f"no run {run_id!r} in {self.path}")
        if len(ids) > 1:
            raise KeyError(f"run id {run_id!r} is ambiguous: {', '.join(ids)}")
        return ids[0]

    def runs(self, limit: int | None = None) -> list[RunSummary]:
        """Runs, newest first, with the scores of their latest revision."""
        query = (
            "SELECT r.run_id, r.created_at, p.score, p.facts, p.mode, p.engine, "
            "(SELECT COUNT(*) FROM reports WHERE run_id = r.run_id), o.status, o.error "
            "FROM runs r LEFT JOIN reports p ON p.run_id = r.run_id AND p.revision = "
            "(SELECT MAX(revision) FROM reports WHERE run_id = r.run_id) "
            "LEFT JOIN outcomes o ON o.run_id = r.run_id "
            "ORDER BY r.created_at DESC, r.rowid DESC"
        )
        params: tuple[Any, ...] = ()
        if limit is not None:
            query += " LIMIT ?"
            params = (limit,)
        with self.connect() as conn:
            rows = conn.execute(query, params).fetchall()
        return [
            RunSummary(
                run_id=row[0],
                created_at=row[1],
                score=row[2],
                facts=row[3] or 0,
                mode=row[4] or "",
                engine=row[5] or "",
                revisions=row[6],
                status="finished" if row[6] else (row[7] or "unfinished"),
                error=row[8],
            )
            for row in rows
        ]

    def run(self, run_id: str) -> StoredRun:
        """The stored input of a run (``run_id`` may be a unique prefix)."""
        run_id = self.resolve(run_id)
        with self.connect() as conn:
            row = conn.execute(
                "SELECT run_id, created_at, input_hash, text, question, settings, documents "
                "FROM runs WHERE run_id = ?",
                (run_id,),
            ).fetchone()
        return StoredRun(
            run_id=row[0],
            created_at=row[1],
            input_hash=row[2],
            text=row[3],
            question=row[4],
            settings=json.loads(row[5]),
            documents=[Document.model_validate(d) for d in json.loads(row[6])],
        )

    def latest_revision(self, run_id: str) -> int | None:
        """The newest report revision of the run with exactly this id, or None when none."""
        with self.connect() as conn:
            row = conn.execute(
                "SELECT MAX(revision) FROM reports WHERE run_id = ?", (run_id,)
            ).fetchone()
        return None if row[0] is None else int(row[0])

    def report(self, run_id: str, revision: int | None = None) -> Report:
        """The report of a run at ``revision`` (default: the latest), rebuilt from its rows.

        Raises:
            KeyError: when the run or the revision is unknown, or the run has no report yet.
        """
        run_id = self.resolve(run_id)
        latest = self.latest_revision(run_id)
        if latest is None:
            failed = self.outcome(run_id)
            if failed is not None:
                raise KeyError(
                    f"run {run_id} has no report: it {failed[0].replace('_', ' ')} "
                    f"({failed[1]}) and cannot be resumed; check the text again"
                )
            raise KeyError(
                f"run {run_id} has no report yet (unfinished: resume it with "
                f"triqua check --resume {run_id[:12]})"
            )
        revision = latest if revision is None else revision
        with self.connect() as conn:
            row = conn.execute(
                "SELECT report, spec FROM reports WHERE run_id = ? AND revision = ?",
                (run_id, revision),
            ).fetchone()
            if row is None:
                raise KeyError(f"run {run_id} has no revision {revision} (latest: {latest})")
            records = [
                self._record_at(conn, run_id, claim_id, base, revision)
                for claim_id, base in conn.execute(
                    "SELECT claim_id, record FROM records WHERE run_id = ? ORDER BY position",
                    (run_id,),
                ).fetchall()
            ]
        data = json.loads(row[0])
        data["spec"] = json.loads(row[1])
        data["records"] = [r.model_dump(mode="json") for r in records]
        return Report.model_validate(data)

    def _record_at(
        self, conn: sqlite3.Connection, run_id: str, claim_id: str, base: str, revision: int
    ) -> ClaimRecord:
        rows = conn.execute(
            "SELECT revision, verdict, usage, rounds, revisions, spec_hash, evidence_revision "
            "FROM verdicts WHERE run_id = ? AND claim_id = ? AND revision <= ? ORDER BY revision",
            (run_id, claim_id, revision),
        ).fetchall()
        verdicts = [Verdict.model_validate_json(r[1]) for r in rows]
        _, _, usage, rounds, revisions, spec_hash, evidence_revision = rows[-1]
        evidence = [
            Evidence.model_validate_json(r[0])
            for r in conn.execute(
                "SELECT evidence FROM evidence WHERE run_id = ? AND claim_id = ? AND revision = ? "
                "ORDER BY position",
                (run_id, claim_id, evidence_revision),
            )
        ]
        data = json.loads(base)
        data.update(
            verdict=verdicts[-1],
            history=verdicts[:-1],
            evidence=evidence,
            usage=Usage.model_validate_json(usage),
            rounds=[ReverifyRound.model_validate(r) for r in json.loads(rounds)],
            revisions=Revisions.model_validate_json(revisions),
            spec_hash=spec_hash,
        )
        return ClaimRecord.model_validate(data)

    def history(self, run_id: str) -> dict[str, list[Verdict]]:
        """Every verdict revision of every fact, oldest first, keyed by fact id."""
        run_id = self.resolve(run_id)
        found: dict[str, list[Verdict]] = {}
        with self.connect() as conn:
            for claim_id, verdict in conn.execute(
                "SELECT v.claim_id, v.verdict FROM verdicts v JOIN records r "
                "ON r.run_id = v.run_id AND r.claim_id = v.claim_id "
                "WHERE v.run_id = ? ORDER BY r.position, v.revision",
                (run_id,),
            ):
                found.setdefault(claim_id, []).append(Verdict.model_validate_json(verdict))
        return found


def resolve_store(store: bool | str | Path | RunStore | None) -> RunStore | None:
    """The store a call asks for: an instance, a path, True (default file), False (none).

    None follows ``$TRIQUA_STORE``: unset, '' or '0' saves nothing; '1' the default file;
    anything else is a path.
    """
    if isinstance(store, RunStore):
        return store
    if store is None:
        setting = os.environ.get(STORE_ENV, "").strip()
        if setting.lower() in ("", "0", "false", "no"):
            return None
        return RunStore(None if setting.lower() in ("1", "true", "yes") else setting)
    if store is False:
        return None
    if store is True:
        return RunStore()
    return RunStore(store)
