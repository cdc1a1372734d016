"""CI use of the CLI: --fail-under / --fail-on exit codes, --summary, --version."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from triqua.cli import app
from triqua.cli._gates import GATE_FAILED
from triqua.engines.factory import register_model

from .conftest import CURIE, FRANCE

runner = CliRunner()


@pytest.fixture
def model_name(scripted: Any) -> str:
    return register_model("gates-test", scripted())


def check(model: str, evidence: Path, *args: str, text: str = f"{FRANCE} {CURIE}") -> Any:
    return runner.invoke(
        app, ["check", text, "-e", str(evidence), "-m", model, "--no-store", *args]
    )


def test_fail_under_gates_on_the_score(model_name: str, evidence: Path) -> None:
    below = check(model_name, evidence, "--fail-under", "0.9")  # the score is 80 %
    assert below.exit_code == GATE_FAILED == 1, below.output
    assert "gate failed: TriQuaScore 80.0% is below --fail-under 90.0%" in below.stderr
    assert "TriQuaScore" in below.stdout  # the report is still printed
    passed = check(model_name, evidence, "--fail-under", "75%")
    assert passed.exit_code == 0, passed.output
    assert "gate failed" not in passed.stderr


def test_fail_on_contradicted(model_name: str, evidence: Path) -> None:
    failed = check(model_name, evidence, "--fail-on", "contradicted", "--json")
    assert failed.exit_code == GATE_FAILED, failed.output
    # The word reports use is accepted as well as its short form.
    long_form = check(model_name, evidence, "--fail-on", "insufficient_evidence")
    assert long_form.exit_code == 0, long_form.output  # no fact is insufficient here
    assert json.loads(failed.stdout)["scores"]["triqua_score"] == pytest.approx(0.8)
    assert "gate failed: 1 fact contradicted" in failed.stderr
    clean = check(model_name, evidence, "--fail-on", "contradicted", text=CURIE)
    assert clean.exit_code == 0, clean.output


@pytest.mark.parametrize("value", ["80", "1.5", "-0.1", "high"])
def test_a_bad_threshold_is_a_usage_error(model_name: str, evidence: Path, value: str) -> None:
    result = check(model_name, evidence, "--fail-under", value)
    assert result.exit_code == 2
    assert "0.8 or 80%" in result.stderr
    assert result.stdout == ""  # refused before checking


def test_summary_is_one_line(model_name: str, evidence: Path) -> None:
    result = check(model_name, evidence, "--summary")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("TriQuaScore 80.0% · 2 facts: 1 supported, 1 contradicted")
    assert "mode supplied_context" in lines[0]
    both = check(model_name, evidence, "--summary", "--json")
    assert both.exit_code == 2
    assert "--json or --summary" in both.stderr


def test_batch_gates_on_any_fact(model_name: str, evidence: Path, tmp_path: Path) -> None:
    answers = tmp_path / "answers.jsonl"
    ev = {"path": evidence.name}
    answers.write_text(
        json.dumps({"id": 1, "text": CURIE, "evidence": [ev]})
        + "\n"
        + json.dumps({"id": 2, "text": FRANCE, "evidence": [ev]})
        + "\n",
        encoding="utf-8",
    )
    out = tmp_path / "reports.jsonl"
    args = ["batch", str(answers), "-o", str(out), "-m", model_name, "--quiet"]
    failed = runner.invoke(app, [*args, "--fail-on", "contradicted", "--no-store"])
    assert failed.exit_code == GATE_FAILED, failed.output
    assert "gate failed: 1 fact contradicted (ids 2)" in failed.stderr  # the line is named
    mean = runner.invoke(app, [*args, "--no-resume", "--no-store", "--fail-under", "0.8"])
    assert mean.exit_code == 0, mean.output  # mean of 100 % and 66.7 %


def test_version_names_package_engines_and_spec() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("triqua ")
    assert any(line.startswith("offline decomposer offline-rules/") for line in lines)
    assert any(line.startswith("offline verifier offline-align/") for line in lines)
    assert "factuality spec 1" in lines
    assert "report schema 1.2" in lines
    assert any(line.startswith("element graph element-graph/3+") for line in lines)
