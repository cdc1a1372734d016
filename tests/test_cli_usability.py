"""What a newcomer meets at the CLI's edges: notes, missing evidence, batch evidence paths."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from triqua.cli import app

from .conftest import PARIS

runner = CliRunner()


@pytest.fixture(scope="module")
def offline_run() -> tuple[str, str]:
    """One closed-book check on the offline engine, as a newcomer first runs it."""
    result = runner.invoke(app, ["check", PARIS, "--no-store"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    return result.stdout, result.stderr


def test_offline_note_goes_to_stderr_not_stdout(offline_run: tuple[str, str]) -> None:
    stdout, stderr = offline_run
    assert "offline engine" in stderr
    assert "offline engine" not in stdout


def test_quiet_drops_the_offline_note_everywhere() -> None:
    result = runner.invoke(app, ["check", PARIS, "--no-store", "--quiet"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "TriQuaScore" in result.stdout
    assert "offline engine" not in result.stdout
    assert "offline engine" not in result.stderr


def test_no_evidence_source_is_said_up_front(offline_run: tuple[str, str]) -> None:
    stdout, stderr = offline_run
    first = stderr.splitlines()[0]
    assert first.startswith("note: no evidence source given")
    for way in ("-e", "--retriever chroma", "--retriever tavily"):
        assert way in first
    assert "no evidence source" not in stdout
    assert "TriQuaScore" in stdout  # the run went on, closed book
    assert "closed_book" in stdout


def test_evidence_or_a_chosen_retriever_gets_no_hint(tmp_path: Path) -> None:
    evidence = tmp_path / "ev.txt"
    evidence.write_text("Paris is the capital and largest city of France.\n", encoding="utf-8")
    given = runner.invoke(app, ["check", PARIS, "--no-store", "-e", str(evidence)])
    chosen = runner.invoke(app, ["check", PARIS, "--no-store", "--retriever", "closed_book"])
    for result in (given, chosen):
        assert result.exit_code == 0, result.output
        assert "no evidence source" not in result.stderr
    assert (
        json.loads(
            runner.invoke(app, ["check", PARIS, "--no-store", "-e", str(evidence), "--json"]).stdout
        )["spec"]["mode"]
        == "supplied_context"
    )
