"""What a newcomer meets at the CLI's edges: notes, missing evidence, batch evidence paths."""

from __future__ import annotations

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
