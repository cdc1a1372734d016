"""Writing to the run store: a run's input, its failure, and each report as a new revision.

Revision 0 stores the records; each re-grade adds one verdict per record and new evidence rows
only for records whose evidence changed. A re-grade's element claims (which it judges again)
are kept in its report row, keyed by fact (:data:`RECORD_ELEMENTS`). Nothing written is ever
rewritten. Every row is entered in the hash chain in the same transaction
(:mod:`triqua.store.integrity`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from triqua.schema import ClaimRecord, Document, Evidence, Report, sha256_text, utc_now
from triqua.schema.redaction import redact
from triqua.store.connection import Connection, StoreFile
from triqua.store.integrity import ChainWriter, keys_of
from triqua.store.models import FAILED_AT_START, RECORD_ELEMENTS

#: Record fields that change with each revision; they live in ``verdicts``/``evidence``.
_PER_REVISION = {"evidence", "verdict", "history", "usage", "rounds", "revisions", "spec_hash"}


class RunWriter(StoreFile):
    """The writing half of ``RunStore``: inserts only, one transaction per call."""

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
            ChainWriter(conn).added("runs", "run_id = ?", (run_id,))

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
            ChainWriter(conn).added("outcomes", "run_id = ?", (run_id,))

    def remove_unreported(self, run_ids: Sequence[str]) -> int:
        """Remove runs that have no report (their input and outcome); returns how many.

        A run with a report is never removed: the triggers refuse it and so does this.
        """
        removed = 0
        with self._write() as conn:
            chain = ChainWriter(conn)
            for run_id in run_ids:
                if conn.execute("SELECT 1 FROM reports WHERE run_id = ?", (run_id,)).fetchone():
                    raise ValueError(f"run {run_id} has a report: it is kept")
                for table in ("outcomes", "runs"):
                    chain.removed(table, keys_of(conn, table, "run_id = ?", (run_id,)))
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
                self._insert_verdict(conn, run_id, revision, record, new=revision == 0)
            self._insert_report(conn, report, revision)
            chain = ChainWriter(conn)
            if revision == 0:
                chain.added("records", "run_id = ?", (run_id,))
            for table in ("evidence", "verdicts", "reports"):
                chain.added(table, "run_id = ? AND revision = ?", (run_id, revision))
        return revision

    def _insert_record(
        self, conn: Connection, run_id: str, position: int, record: ClaimRecord
    ) -> None:
        base = record.model_dump_json(exclude=_PER_REVISION)
        conn.execute(
            "INSERT INTO records (run_id, claim_id, position, claim_text, record) "
            "VALUES (?, ?, ?, ?, ?)",
            (run_id, record.claim_id, position, record.claim_text, base),
        )

    def _insert_verdict(
        self,
        conn: Connection,
        run_id: str,
        revision: int,
        record: ClaimRecord,
        *,
        new: bool = False,
    ) -> None:
        """Add the record's verdict (and its evidence when it changed) at ``revision``.

        ``new``: the record was inserted in this transaction, so it is known and has no
        earlier evidence to compare with (two queries per record saved).
        """
        claim_id = record.claim_id
        if not new:
            known = conn.execute(
                "SELECT 1 FROM records WHERE run_id = ? AND claim_id = ?", (run_id, claim_id)
            ).fetchone()
            if known is None:
                raise ValueError(f"run {run_id} has no fact {claim_id}")
        evidence_revision = (
            None if new else self._evidence_revision(conn, run_id, claim_id, record.evidence)
        )
        if evidence_revision is None:
            evidence_revision = revision
            conn.executemany(
                "INSERT INTO evidence (run_id, claim_id, revision, position, evidence_id, "
                "document_id, source, start_offset, end_offset, content_hash, evidence) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
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
                    )
                    for position, item in enumerate(record.evidence)
                ],
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
        self, conn: Connection, run_id: str, claim_id: str, evidence: Sequence[Evidence]
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

    def _insert_report(self, conn: Connection, report: Report, revision: int) -> None:
        """Add the report row; after revision 0 it also holds each fact's element claims."""
        data = report.model_dump(mode="json", exclude={"records", "spec"})
        if revision > 0:
            data[RECORD_ELEMENTS] = {
                r.claim_id: [c.model_dump(mode="json") for c in r.elements] for r in report.records
            }
        meta = json.dumps(data)
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
