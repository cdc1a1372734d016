"""Reading the run store: listing runs, a run's input, and a report rebuilt at any revision.

A report is rebuilt from its rows; the verdicts of earlier revisions become its records'
``history``, so old verdicts, evidence and scores stay readable after any number of re-grades.
"""

from __future__ import annotations

import json
from typing import Any

from triqua.schema import (
    ClaimRecord,
    Document,
    Evidence,
    Report,
    ReverifyRound,
    Revisions,
    Usage,
    Verdict,
)
from triqua.store.connection import Connection, StoreFile
from triqua.store.integrity import ChainReport, verify_chain
from triqua.store.models import RECORD_ELEMENTS, RunSummary, StoredRun


class RunReader(StoreFile):
    """The reading half of ``RunStore``: every query that rebuilds what was stored."""

    def outcome(self, run_id: str) -> tuple[str, str] | None:
        """``(status, error)`` of a run recorded as failed, or None."""
        with self.connect() as conn:
            row = conn.execute(
                "SELECT status, error FROM outcomes WHERE run_id = ?", (run_id,)
            ).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    def verify_integrity(self) -> ChainReport:
        """Recompute the store's hash chain: rows changed, added or deleted behind its back."""
        with self.connect() as conn:
            return verify_chain(conn)

    def unreported(self) -> list[RunSummary]:
        """Runs without a report (unfinished or failed), oldest first: what may be pruned."""
        return sorted((r for r in self.runs() if r.revisions == 0), key=lambda r: r.created_at)

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
            "(SELECT COUNT(*) FROM reports WHERE run_id = r.run_id), o.status, o.error, "
            "substr(r.text, 1, 200) "
            "FROM runs r LEFT JOIN reports p ON p.run_id = r.run_id AND p.revision = "
            "(SELECT MAX(revision) FROM reports WHERE run_id = r.run_id) "
            "LEFT JOIN outcomes o ON o.run_id = r.run_id "
            f"ORDER BY r.created_at DESC, {self._newest} DESC"
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
                text=" ".join((row[9] or "").split()),
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
        # A re-grade's element claims replace the ones revision 0 recorded with the fact.
        elements = data.pop(RECORD_ELEMENTS, {})
        data["records"] = [
            r.model_dump(mode="json")
            | ({"elements": elements[r.claim_id]} if r.claim_id in elements else {})
            for r in records
        ]
        return Report.model_validate(data)

    def _record_at(
        self, conn: Connection, run_id: str, claim_id: str, base: str, revision: int
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
