"""The Markdown report: `check --md FILE` and `report FILE --md OUT`, escaped for tables."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from triqua.cli import app
from triqua.engines.factory import register_model
from triqua.rendering.markdown import md_escape

from .conftest import CURIE, FRANCE

runner = CliRunner()
UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


@pytest.fixture
def model_name(scripted: Any) -> str:
    return register_model("md-test", scripted())


def test_check_writes_a_markdown_report(model_name: str, evidence: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.md"
    result = runner.invoke(
        app,
        [
            "check",
            f"{FRANCE} {CURIE}",
            "-e",
            str(evidence),
            "-m",
            model_name,
            "--json",
            "--no-store",
            "--md",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    run_id = json.loads(result.stdout)["run_id"]
    text = out.read_text(encoding="utf-8")
    assert text.startswith("## triqua report\n")
    assert "**TriQuaScore 80.0%** (4/5 units)" in text
    assert f"run `{run_id}`" in text
    rows = [line for line in text.splitlines() if line.startswith("| f")]
    assert len(rows) == 2
    for row in rows:
        assert len(UNESCAPED_PIPE.findall(row)) == 6  # five cells, whatever their text
    france, curie = rows
    assert "❌ contradicted" in france and "**wrong** (point in time, 2026)" in france
    assert "“2026”" in france
    assert "✅ supported" in curie
    assert f"`{evidence}`" in curie


def test_report_command_writes_markdown_for_each_batch_report(
    model_name: str, evidence: Path, tmp_path: Path
) -> None:
    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        "".join(
            json.dumps({"id": i, "text": t, "evidence": [{"path": evidence.name}]}) + "\n"
            for i, t in enumerate([FRANCE, CURIE])
        ),
        encoding="utf-8",
    )
    reports = tmp_path / "reports.jsonl"
    done = runner.invoke(app, ["batch", str(answers), "-o", str(reports), "-m", model_name])
    assert done.exit_code == 0, done.output
    out = tmp_path / "all.md"
    result = runner.invoke(app, ["report", str(reports), "--md", str(out)])
    assert result.exit_code == 0, result.output
    headings = [line for line in out.read_text("utf-8").splitlines() if line.startswith("## ")]
    # Each names its line (a batch writes lines as they finish, in any order).
    assert sorted(headings) == ["## triqua report — 0", "## triqua report — 1"]
    unwritable = runner.invoke(app, ["report", str(reports), "--md", str(tmp_path)])
    assert unwritable.exit_code == 2
    assert len(unwritable.stderr.strip().splitlines()) == 1


def test_markdown_escapes_what_would_break_a_table() -> None:
    assert md_escape("a | b\n<img src=x>`code`*bold*") == (r"a \| b \<img src=x\>\`code\`\*bold\*")


def test_an_evidence_source_stays_inside_its_table_cell(tmp_path: Path) -> None:
    # A file name (or a shared collection's source metadata) with line breaks, a pipe and HTML.
    folder = tmp_path / "evidence"
    folder.mkdir()
    name = "ev\n\n<img src=x onerror=alert(1)>\n\n| x`y.txt"
    (folder / name).write_text(CURIE + "\n", encoding="utf-8")
    out = tmp_path / "report.md"
    result = runner.invoke(app, ["check", CURIE, "-e", str(folder), "--no-store", "--md", str(out)])
    assert result.exit_code == 0, result.output
    lines = out.read_text(encoding="utf-8").splitlines()
    (row,) = [line for line in lines if line.startswith("| f1 ")]
    assert "<img src=x onerror=alert(1)>" in row  # shown, inside the cell's code span
    assert not any(line.startswith("<img") for line in lines)
    assert len(UNESCAPED_PIPE.findall(row)) == 6  # five cells: the name's pipe is escaped
    assert row.endswith("x y.txt` |") or row.endswith("xy.txt` |")


def test_a_dash_writes_each_report_output_to_stdout_not_a_file_named_dash(
    model_name: str, evidence: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # where a file named '-' would appear
    saved = tmp_path / "report.json"
    done = runner.invoke(
        app, ["check", CURIE, "-e", str(evidence), "-m", model_name, "--json", "--no-store"]
    )
    assert done.exit_code == 0, done.output
    saved.write_text(done.stdout, encoding="utf-8")
    md = runner.invoke(app, ["report", str(saved), "--md", "-"])
    assert md.exit_code == 0, md.output
    assert md.stdout.startswith("## triqua report\n") and "wrote" not in md.stderr
    html = runner.invoke(app, ["report", str(saved), "--html", "-"])
    assert html.exit_code == 0, html.output
    assert html.stdout.lstrip().lower().startswith("<!doctype html>")
    both = runner.invoke(app, ["report", str(saved), "--html", "-", "--md", "-"])
    assert both.exit_code == 2 and both.stdout == ""
    assert "--html and --md would all write to stdout" in both.stderr
    checked = runner.invoke(
        app, ["check", CURIE, "-e", str(evidence), "-m", model_name, "--no-store", "--md", "-"]
    )
    assert checked.exit_code == 0, checked.output
    assert checked.stdout.startswith("## triqua report\n")  # in place of the table
    clash = ["check", CURIE, "-e", str(evidence), "-m", model_name, "--json", "--html", "-"]
    refused = runner.invoke(app, clash)
    assert refused.exit_code == 2 and "--html and --json" in refused.stderr
    facts = runner.invoke(app, ["extract", CURIE, "-m", model_name, "-o", "-"])
    assert facts.exit_code == 0, facts.output
    assert json.loads(facts.stdout.splitlines()[0])["subject"]
    answers = tmp_path / "answers.jsonl"
    answers.write_text(json.dumps({"id": 1, "text": CURIE}) + "\n", encoding="utf-8")
    batch = runner.invoke(app, ["batch", str(answers), "-o", "-", "-m", model_name])
    assert batch.exit_code in (0, 1), batch.output
    assert json.loads(batch.stdout.splitlines()[0])["id"] == 1
    assert not (tmp_path / "-").exists()
