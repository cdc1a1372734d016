"""PostgreSQL run store: scores to the last digit, and a run-as role that cannot lift the triggers.

The roles test runs on a cluster of its own whose logins need a password (scram-sha-256).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from typer.testing import CliRunner

import triqua
from triqua.cli import app
from triqua.store import RunStore

from .conftest_postgres import password_cluster, pg_server, pg_url  # noqa: F401  (fixtures)
from .test_store import checked

ELEVEN_FIFTEENTHS = 0.7333333333333333
SUPERUSER_PASSWORD = "pw-super-7"
OWNER, OWNER_PASSWORD = "triqua_owner", "pw-owner-7"
RUN_AS, RUN_AS_PASSWORD = "triqua_app", "pw-app-7"


def _with_score(report: triqua.Report, score: float) -> triqua.Report:
    """The same report graded ``score`` (stored as the run's next revision)."""
    return report.model_copy(
        update={"scores": report.scores.model_copy(update={"triqua_score": score})}
    )


def _score_type(url: str) -> str:
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT data_type FROM information_schema.columns "
            "WHERE table_name = 'reports' AND column_name = 'score'"
        ).fetchone()
    assert row is not None
    return str(row[0])


def test_an_old_store_with_real_scores_is_migrated_then_keeps_every_digit(
    scripted: Any,
    pg_url: str,  # noqa: F811
) -> None:
    store = RunStore(pg_url)
    with psycopg.connect(pg_url, autocommit=True) as conn:  # the tables of a version-3 store
        conn.execute("ALTER TABLE reports ALTER COLUMN score TYPE REAL")
        conn.execute("DELETE FROM store_version")
        conn.execute("INSERT INTO store_version (version) VALUES (3)")
    assert _score_type(pg_url) == "real"
    report = checked(scripted, store)  # written as the old store kept it
    store.append_report(_with_score(report, ELEVEN_FIFTEENTHS))
    assert repr(store.runs()[0].score) == "0.73333335"  # 4 bytes: 7 or 8 digits

    reopened = RunStore(pg_url)  # opening it migrates it
    assert _score_type(pg_url) == "double precision"
    assert reopened.append_report(_with_score(report, ELEVEN_FIFTEENTHS)) == 2
    (row,) = reopened.runs()
    assert repr(row.score) == "0.7333333333333333"
    # The rows written before the migration still check out against the hash chain.
    assert not reopened.verify_integrity().problems


def test_sqlite_and_postgres_keep_the_same_scores_to_the_digit(
    scripted: Any,
    pg_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    scores = []
    for where in (tmp_path / "runs.sqlite", pg_url):
        store = RunStore(where)
        report = checked(scripted, store)
        store.append_report(_with_score(report, ELEVEN_FIFTEENTHS))
        store.append_report(_with_score(report, 2 / 3))
        summary = store.runs()[0]
        stored = [store.report(report.run_id, revision=n).score for n in range(3)]
        scores.append((repr(summary.score), [repr(s) for s in stored]))
    assert scores[0] == scores[1]
    assert scores[0][0] == repr(2 / 3) == "0.6666666666666666"
    with sqlite3.connect(tmp_path / "runs.sqlite") as conn:
        column = [r for r in conn.execute("PRAGMA table_info(reports)") if r[1] == "score"]
    assert column[0][2] == "DOUBLE PRECISION"


@pytest.fixture(scope="module")
def secured() -> Iterator[str]:
    """A server that asks every TCP login for its password; its ``host:port``."""
    with password_cluster(SUPERUSER_PASSWORD) as base:
        yield base.split("@", 1)[1]


def _login(where: str, user: str, password: str, database: str = "postgres") -> str:
    return f"postgresql://{user}:{password}@{where}/{database}"


def test_the_run_as_role_cannot_lift_the_triggers_or_rewrite_a_verdict(
    scripted: Any, secured: str
) -> None:
    admin = _login(secured, "triqua", SUPERUSER_PASSWORD)
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        psycopg.connect(_login(secured, "triqua", "wrong")).close()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {OWNER} LOGIN PASSWORD '{OWNER_PASSWORD}'")
        conn.execute(f"CREATE ROLE {RUN_AS} LOGIN PASSWORD '{RUN_AS_PASSWORD}'")
        conn.execute(f"CREATE DATABASE runs OWNER {OWNER}")
    owner_url = _login(secured, OWNER, OWNER_PASSWORD, "runs")
    run_as_url = _login(secured, RUN_AS, RUN_AS_PASSWORD, "runs")
    init = ["store", "init", "--url", owner_url, "--owner", OWNER, "--run-as", RUN_AS]
    result = CliRunner().invoke(app, init)
    assert result.exit_code == 0, result.output
    assert f"owned by {OWNER}" in result.stderr

    # Everything a check needs works as the run-as role: a plain run, a durable one, reading.
    store = RunStore(run_as_url)
    report = checked(scripted, store)
    durable = checked(scripted, store, durable=True)
    assert {r.run_id for r in store.runs()} == {report.run_id, durable.run_id}
    assert store.report(durable.run_id) == durable

    with psycopg.connect(run_as_url, autocommit=True) as conn:
        for statement in (
            "ALTER TABLE verdicts DISABLE TRIGGER verdicts_append_only",
            "ALTER TABLE verdicts DISABLE TRIGGER ALL",
            "DROP TRIGGER verdicts_append_only ON verdicts",
            "DROP FUNCTION triqua_append_only() CASCADE",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="must be owner"):
                conn.execute(statement)
        for statement in (
            "UPDATE verdicts SET status = 'supported'",
            "TRUNCATE verdicts",
            "DELETE FROM verdicts",
        ):
            with pytest.raises(
                psycopg.errors.InsufficientPrivilege, match="permission denied for table"
            ):
                conn.execute(statement)
    # The owner is still held by the trigger itself.
    with psycopg.connect(owner_url, autocommit=True) as conn:
        with pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="append-only"):
            conn.execute("UPDATE verdicts SET status = 'supported'")
        triggers = conn.execute(
            "SELECT tgenabled FROM pg_trigger WHERE tgname = 'verdicts_append_only'"
        ).fetchone()
    assert triggers == ("O",)  # still enabled
    assert RunStore(run_as_url).report(report.run_id) == report
