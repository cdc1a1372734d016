"""`triqua report` reads a report file bounded and line by line, naming what it could not read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from triqua.cli import app
from triqua.schema import Report

runner = CliRunner()


def report_json(run_id: str) -> str:
    """A saved report (as `check --json` writes it), on one line."""
    return Report(run_id=run_id, input_hash=f"hash-{run_id}").model_dump_json()


def batch_line(run_id: str) -> str:
    """One line of a batch output: the report with the line's id."""
    return json.dumps({"id": run_id, **json.loads(report_json(run_id))})


def test_good_lines_are_shown_and_bad_ones_named_by_number_with_exit_1(tmp_path: Path) -> None:
    path = tmp_path / "reports.jsonl"
    lines = [batch_line("a"), "{oops", batch_line("b"), '{"id": 3}', "", batch_line("c")]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["report", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 1, result.output
    assert result.stdout.count("tokens in") == 3  # a, b and c, each with its costs
    assert f"warning: {path}:2: invalid JSON" in result.stderr
    assert f"warning: {path}:4: not a triqua report (no run_id" in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last == f"error: {path}: 2 lines not read (line 2, 4); the 3 reports read are shown"


def test_markdown_of_a_batch_file_is_written_report_by_report(tmp_path: Path) -> None:
    path = tmp_path / "reports.jsonl"
    path.write_text(f"{batch_line('a')}\n[1]\n{batch_line('b')}\n", encoding="utf-8")
    out = tmp_path / "all.md"
    result = runner.invoke(app, ["report", str(path), "--md", str(out)])
    assert result.exit_code == 1
    assert out.read_text(encoding="utf-8").count("# triqua report") == 2
    assert "1 line not read (line 2)" in result.stderr


def test_a_file_with_no_report_makes_no_markdown_file(tmp_path: Path) -> None:
    path = tmp_path / "reports.jsonl"
    path.write_text("{oops\n[1]\n", encoding="utf-8")
    out = tmp_path / "none.md"
    result = runner.invoke(app, ["report", str(path), "--md", str(out)])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines()[-1] == f"error: {path}: no readable report"
    assert not out.exists()


def test_a_json_report_over_the_bound_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("triqua.cli.report.MAX_REPORT_BYTES", 1_000)
    report = Report(run_id="big", input_hash="h").model_dump_json(indent=2)
    path = tmp_path / "big.json"
    path.write_text(report + " " * 2_000, encoding="utf-8")
    result = runner.invoke(app, ["report", str(path)])
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"error: {path}: larger than 1,000 bytes, too large for one report")


def test_a_batch_output_over_the_bound_under_a_json_name_is_read_line_by_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one = len(batch_line("r0")) + 1
    monkeypatch.setattr("triqua.cli.report.MAX_REPORT_BYTES", 3 * one)
    path = tmp_path / "out.json"  # e.g. `triqua batch ... > out.json`
    path.write_text("".join(batch_line(f"r{i}") + "\n" for i in range(6)), encoding="utf-8")
    result = runner.invoke(app, ["report", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert result.stdout.count("tokens in") == 6


def test_a_line_over_the_bound_is_skipped_without_being_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("triqua.cli.report.MAX_REPORT_BYTES", 2 * len(batch_line("a")))
    path = tmp_path / "reports.jsonl"
    huge = json.dumps({"id": "x", "pad": "z" * 10 * len(batch_line("a"))})
    path.write_text(f"{batch_line('a')}\n{huge}\n{batch_line('b')}\n", encoding="utf-8")
    result = runner.invoke(app, ["report", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 1
    assert result.stdout.count("tokens in") == 2
    assert f"{path}:2: line longer than" in result.stderr


def test_an_endless_input_is_read_only_up_to_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("triqua.cli.report.MAX_REPORT_BYTES", 1_000_000)
    result = runner.invoke(app, ["report", "/dev/zero"])  # stat says 0 bytes; it never ends
    assert result.exit_code == 2
    assert "larger than 1,000,000 bytes" in result.stderr


def test_html_renders_one_report_and_refuses_a_file_of_several(tmp_path: Path) -> None:
    one = tmp_path / "one.json"
    one.write_text(report_json("solo"), encoding="utf-8")
    page = tmp_path / "one.html"
    assert runner.invoke(app, ["report", str(one), "--html", str(page)]).exit_code == 0
    assert "solo" in page.read_text(encoding="utf-8")
    several = tmp_path / "several.jsonl"
    several.write_text(f"{batch_line('a')}\n{batch_line('b')}\n", encoding="utf-8")
    refused = runner.invoke(app, ["report", str(several), "--html", str(tmp_path / "x.html")])
    assert refused.exit_code == 2
    assert "holds more than one report; --html renders one" in refused.stderr
    assert not (tmp_path / "x.html").exists()
