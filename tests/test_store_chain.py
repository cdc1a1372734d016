"""The run store's hash chain: ``triqua runs verify`` names a row changed behind its back."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import triqua
from triqua.cli import app
from triqua.runtime.persistence.run_delete import delete_runs
from triqua.store import RunStore

from .conftest import CURIE, FRANCE

DOCS = ["Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie."]


def stored(scripted: Any, path: Path) -> triqua.Report:
    return triqua.check(f"{FRANCE} {CURIE}", documents=DOCS, model=scripted(), store=path)


def verify(path: Path) -> Any:
    return CliRunner().invoke(app, ["runs", "verify", "--store", str(path)])


def forge(path: Path, *statements: str) -> None:
    """Run SQL on the file as an outsider would: triggers dropped first, when named."""
    with sqlite3.connect(path) as conn:
        for statement in statements:
            conn.execute(statement)


def test_an_untouched_store_verifies(scripted: Any, tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite"
    report = stored(scripted, path)
    triqua.regrade(report.run_id, model=scripted(), store=path)
    store = RunStore(path)
    store.start_run("failed-run", text="x", question=None, settings={})
    store.mark_failed("failed-run", "no API key")
    store.remove_unreported(["failed-run"])  # pruned: entered as removed, not missing
    other = stored(scripted, path)
    delete_runs(store, [other.run_id])  # deleted on request: likewise
    result = verify(path)
    assert result.exit_code == 0, result.output
    assert "rows as written" in result.stdout
    found = store.verify_integrity()
    assert found.ok and found.rows > 0 and found.entries > found.rows


def test_a_verdict_updated_after_drop_trigger_is_named(scripted: Any, tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite"
    report = stored(scripted, path)
    forged = next(r for r in report.records if r.verdict.status.value != "supported")
    forge(
        path,
        "DROP TRIGGER verdicts_no_update",
        f"UPDATE verdicts SET status = 'supported' WHERE claim_id = '{forged.claim_id}'",
    )
    result = verify(path)
    assert result.exit_code == 1
    (line,) = result.stderr.strip().splitlines()
    assert (
        f"verdicts row (run_id={report.run_id}, claim_id={forged.claim_id}, revision=0) "
        "was changed after it was written"
    ) in line


@pytest.mark.slow
@pytest.mark.parametrize(
    ("statements", "what"),
    [
        (
            ["DROP TRIGGER evidence_no_delete", "DELETE FROM evidence WHERE position = 0"],
            "evidence row (run_id=",
        ),
        (
            ["INSERT INTO outcomes SELECT run_id, created_at, 'failed', 'forged' FROM runs"],
            "outcomes row (run_id=",
        ),
        (
            [
                "DROP TRIGGER chain_no_update",
                "UPDATE chain SET row_hash = 'x' WHERE seq = 2",
            ],
            "chain row (seq=2) was edited",
        ),
    ],
    ids=["deleted", "added", "chain-edited"],
)
def test_rows_deleted_added_or_a_chain_edited_are_named(
    scripted: Any, tmp_path: Path, statements: list[str], what: str
) -> None:
    path = tmp_path / "runs.sqlite"
    stored(scripted, path)
    forge(path, *statements)
    result = verify(path)
    assert result.exit_code == 1 and what in result.stderr


def test_a_store_written_before_the_chain_is_chained_on_open(scripted: Any, tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite"
    report = stored(scripted, path)
    forge(  # as version 2 wrote it: no chain
        path,
        "DROP TRIGGER chain_no_update",
        "DROP TRIGGER chain_no_delete",
        "DROP TRIGGER chain_no_replace",
        "DROP TABLE chain",
        "PRAGMA user_version = 2",
    )
    found = RunStore(path).verify_integrity()  # opening it enters its rows
    assert found.ok and found.entries == found.rows > 0
    assert verify(path).exit_code == 0
    forge(path, "DROP TRIGGER reports_no_update", "UPDATE reports SET score = 1.0")
    result = verify(path)
    assert result.exit_code == 1
    assert f"reports row (run_id={report.run_id}, revision=0) was changed" in result.stderr
