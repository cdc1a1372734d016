"""The run store: what a run saves, how it is listed and shown, and that it is append-only."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import triqua
from triqua.cli import app
from triqua.engines.factory import register_model
from triqua.schema import sha256_text
from triqua.store import APPEND_ONLY_TABLES, RunStore, default_store_path

from .conftest import CURIE, FRANCE

DOCS = [
    "France had a population of 64.5 million in 2025, excluding overseas departments.",
    "Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie.",
]
TEXT = f"{FRANCE} {CURIE}"


class TracedStore(RunStore):
    """A store that records every SQL statement it runs."""

    def __init__(self, path: Path) -> None:
        self.statements: list[str] = []
        super().__init__(path)

    @contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        with super().connect() as conn:
            conn.set_trace_callback(self.statements.append)
            yield conn


def checked(scripted: Any, store: Any, **kwargs: Any) -> triqua.Report:
    return triqua.check(
        TEXT, question="Tell me facts", documents=DOCS, model=scripted(), store=store, **kwargs
    )


def test_a_run_saves_its_input_spec_records_and_report(scripted: Any, tmp_path: Path) -> None:
    store = RunStore(tmp_path / "runs.sqlite")
    report = checked(scripted, store)
    run = store.run(report.run_id)
    assert run.text == TEXT and run.input_hash == sha256_text(TEXT) == report.input_hash
    assert run.question == "Tell me facts"
    assert [d.text for d in run.documents] == DOCS
    assert run.settings["model"].startswith("instance:")
    loaded = store.report(report.run_id)
    assert loaded.spec == report.spec and loaded.spec.hash == report.spec.hash
    assert loaded.scores == report.scores and loaded.usage == report.usage
    for saved, original in zip(loaded.records, report.records, strict=True):
        assert saved.fact == original.fact
        assert saved.evidence == original.evidence
        assert saved.verdict == original.verdict
        assert saved.revisions == original.revisions and saved.spec_hash == report.spec.hash
        assert saved.verdict.raw_output and saved.history == []
    assert loaded == report


def test_the_stored_spec_hash_and_evidence_hashes_are_queryable(
    scripted: Any, tmp_path: Path
) -> None:
    path = tmp_path / "runs.sqlite"
    report = checked(scripted, path)
    with sqlite3.connect(path) as conn:
        (spec_hash,) = conn.execute("SELECT spec_hash FROM reports").fetchone()
        hashes = {row[0] for row in conn.execute("SELECT content_hash FROM evidence")}
    assert spec_hash == report.spec.hash
    assert hashes == {e.content_hash for r in report.records for e in r.evidence}


def test_runs_are_listed_newest_first_with_unfinished_ones(scripted: Any, tmp_path: Path) -> None:
    store = RunStore(tmp_path / "runs.sqlite")
    first = checked(scripted, store)
    second = checked(scripted, store)
    store.start_run("unfinished", text="x", question=None, settings={})
    listed = store.runs()
    assert [r.run_id for r in listed] == ["unfinished", second.run_id, first.run_id]
    assert listed[0].revisions == 0 and listed[0].score is None
    assert listed[1].score == pytest.approx(second.score)
    assert listed[1].facts == 2 and listed[1].mode == "supplied_context"
    assert listed[1].engine == second.engine
    assert [r.run_id for r in store.runs(limit=1)] == ["unfinished"]
    with pytest.raises(KeyError, match="no report yet"):
        store.report("unfinished")


def test_run_ids_resolve_from_unique_prefixes(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "runs.sqlite")
    for run_id in ("abc123", "abd456"):
        store.start_run(run_id, text="x", question=None, settings={})
    assert store.resolve("abc") == "abc123"
    with pytest.raises(KeyError, match="ambiguous"):
        store.resolve("ab")
    with pytest.raises(KeyError, match="no run"):
        store.resolve("zz")


@pytest.mark.parametrize("table", [t for t in APPEND_ONLY_TABLES if t != "outcomes"])
def test_updates_and_deletes_are_refused(scripted: Any, tmp_path: Path, table: str) -> None:
    path = tmp_path / "runs.sqlite"
    checked(scripted, path)
    with sqlite3.connect(path) as conn:
        before = conn.execute(f"SELECT * FROM {table}").fetchall()
        assert before
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute(f"UPDATE {table} SET run_id = 'other'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute(f"DELETE FROM {table}")
        assert conn.execute(f"SELECT * FROM {table}").fetchall() == before


def test_store_only_ever_inserts(scripted: Any, tmp_path: Path) -> None:
    store = TracedStore(tmp_path / "runs.sqlite")
    report = checked(scripted, store)
    triqua.regrade(report.run_id, model=scripted(), store=store)
    triqua.regrade(report.run_id, model=scripted(), store=store, search_again=True)
    writes = [s.split()[0].upper() for s in store.statements if s.split()[0].upper() != "SELECT"]
    assert "INSERT" in writes
    assert not {"UPDATE", "DELETE", "REPLACE", "DROP"} & set(writes)
    assert not [s for s in store.statements if "OR REPLACE" in s.upper()]


def test_api_saves_only_when_asked(scripted: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    checked(scripted, None)
    assert not default_store_path().exists()
    monkeypatch.setenv("TRIQUA_STORE", "1")
    report = checked(scripted, None)
    assert RunStore().runs()[0].run_id == report.run_id
    checked(scripted, False)
    assert len(RunStore().runs()) == 1


def test_a_failed_check_leaves_no_run(scripted: Any, tmp_path: Path) -> None:
    store = RunStore(tmp_path / "runs.sqlite")
    with pytest.raises(ValueError, match="text is empty"):
        triqua.check("  ", documents=DOCS, model=scripted(), store=store)
    assert store.runs() == []


runner = CliRunner()


@pytest.fixture
def cli_model(scripted: Any) -> str:
    return register_model("store-cli", scripted())


@pytest.fixture
def evidence(tmp_path: Path) -> Path:
    path = tmp_path / "evidence.md"
    path.write_text("\n\n".join(DOCS), encoding="utf-8")
    return path


def cli_check(cli_model: str, evidence: Path, *extra: str) -> dict[str, Any]:
    result = runner.invoke(
        app, ["check", TEXT, "-e", str(evidence), "-m", cli_model, "--json", *extra]
    )
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def test_cli_saves_by_default_and_lists_and_shows(cli_model: str, evidence: Path) -> None:
    report = cli_check(cli_model, evidence)
    listed = runner.invoke(app, ["runs", "--json"])
    assert listed.exit_code == 0
    (row,) = json.loads(listed.stdout)
    assert row["run_id"] == report["run_id"] and row["facts"] == 2
    table = runner.invoke(app, ["runs"], env={"COLUMNS": "200"})
    assert report["run_id"][:8] in table.stdout and "80.0%" in table.stdout
    # "rev" is the latest revision's number, 0 for a run never re-graded, as in show --history
    (line,) = [row for row in table.stdout.splitlines() if report["run_id"][:8] in row]
    assert line.split()[line.split().index("supplied") + 2] == "0"
    narrow = runner.invoke(app, ["runs"], env={"COLUMNS": "80"})  # nothing cut at 80 columns
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 80
    assert "supplied" in narrow.stdout and report["engine"][:6] in narrow.stdout
    assert report["run_id"][:8] in narrow.stdout and "As of" in narrow.stdout  # its text
    shown = runner.invoke(app, ["show", report["run_id"][:8], "--json"])
    assert shown.exit_code == 0
    assert json.loads(shown.stdout) == report
    pretty = runner.invoke(app, ["show", report["run_id"]], env={"COLUMNS": "200"})
    assert "TriQuaScore" in pretty.stdout and "(point in time, 2026)" in pretty.stdout
    # The frozen spec is printed with the report: mode, retriever and policies.
    assert f"Spec {report['spec']['hash'][:12]}" in pretty.stdout
    assert "supplied_context" in pretty.stdout and "verdict_policy.delta" in pretty.stdout


def test_cli_store_options(cli_model: str, evidence: Path, tmp_path: Path) -> None:
    cli_check(cli_model, evidence, "--no-store")
    assert not default_store_path().exists()
    elsewhere = tmp_path / "elsewhere.sqlite"
    report = cli_check(cli_model, evidence, "--store", str(elsewhere))
    assert RunStore(elsewhere).runs()[0].run_id == report["run_id"]
    shown = runner.invoke(app, ["show", report["run_id"], "--store", str(elsewhere), "--json"])
    assert json.loads(shown.stdout)["run_id"] == report["run_id"]


def test_cli_show_unknown_run_is_one_line() -> None:
    result = runner.invoke(app, ["show", "nope"])
    assert result.exit_code != 0
    assert result.stderr.startswith("error: no run 'nope'")
    assert len(result.stderr.strip().splitlines()) == 1
