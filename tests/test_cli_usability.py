"""What a newcomer meets at the CLI's edges: notes, missing evidence, batch evidence paths."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from triqua.cli import app
from triqua.engines.factory import register_model

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


def test_batch_warns_when_text_evidence_names_a_file(tmp_path: Path, scripted: Any) -> None:
    model = register_model("usability-batch", scripted())
    (tmp_path / "ev.txt").write_text("Paris is the capital of France.\n", encoding="utf-8")
    lines = [
        {"id": "a", "text": PARIS, "evidence": ["ev.txt"]},
        {"id": "b", "text": PARIS, "evidence": ["Paris is the capital of France."]},
        {"id": "c", "text": PARIS, "evidence": [{"path": "ev.txt"}]},
    ]
    answers = tmp_path / "answers.jsonl"
    answers.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    out = tmp_path / "reports.jsonl"
    result = runner.invoke(app, ["batch", str(answers), "-o", str(out), "-m", model, "--quiet"])
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if "checked as text" in line]
    assert len(warnings) == 1, result.stderr
    assert f"{answers}:1: id 'a'" in warnings[0]
    assert "evidence 1 'ev.txt'" in warnings[0]
    assert '{"path": "ev.txt"}' in warnings[0]
    statuses = {
        r["id"]: r["records"][0]["verdict"]["status"]
        for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())
    }
    assert statuses["c"] == "supported"  # the path form reads the file


#: Files ``check -f`` must refuse as JSON records (name → content), and prose it must check.
JSON_RECORD_FILES = {
    "answers.jsonl": json.dumps({"id": "a", "text": PARIS}) + "\n",
    "answers.ndjson": json.dumps({"id": "a", "text": PARIS}) + "\n",
    "one.json": json.dumps({"text": PARIS}, indent=2) + "\n",  # pretty-printed, over lines
    "records.txt": "".join(json.dumps({"id": i, "text": PARIS}) + "\n\n" for i in range(2)),
    "list.txt": json.dumps([{"text": PARIS}]) + "\n",
}
PROSE_FILES = {
    "answer.txt": f"{PARIS}\n",
    "braces.txt": "{Paris} is the capital of France.\n",
    "links.md": f"[Paris](https://example.org) is a city.\n{PARIS}\n",
    "half.txt": json.dumps({"text": PARIS}) + f"\n{PARIS}\n",  # one record, then prose
}


@pytest.mark.parametrize("name", sorted(JSON_RECORD_FILES))
def test_check_refuses_a_file_of_json_records_and_names_batch(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(JSON_RECORD_FILES[name], encoding="utf-8")
    result = runner.invoke(app, ["check", "-f", str(path), "--no-store"])
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"error: {path} holds JSON records, not prose")
    assert f"--batch {path}" in line
    assert result.stdout == ""  # refused before any check


@pytest.mark.parametrize("name", sorted(PROSE_FILES))
def test_check_reads_a_prose_file_as_text(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(PROSE_FILES[name], encoding="utf-8")
    result = runner.invoke(app, ["check", "-f", str(path), "--no-store", "--summary"])
    assert result.exit_code == 0, result.output
    assert "JSON records" not in result.stderr
    assert result.stdout.startswith("TriQuaScore")


def test_json_records_on_stdin_are_checked_as_text() -> None:
    record = json.dumps({"text": PARIS}) + "\n"
    result = runner.invoke(app, ["check", "-", "--no-store", "--summary"], input=record)
    assert result.exit_code == 0, result.output
    assert "JSON records" not in result.stderr


THREE_FACTS = f"{PARIS} Berlin is the capital of Germany. Ada Lovelace was born in 1815."


def test_a_run_cut_at_max_facts_says_so_and_is_partial() -> None:
    args = ["check", THREE_FACTS, "--no-store", "--max-facts", "1"]
    line = runner.invoke(app, [*args, "--summary"])
    assert line.exit_code == 0, line.output  # checked; the README's table: partial exits 0
    assert "(stopped at max_facts: 2 facts not verified) · partial ·" in line.stdout
    table = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert "of the text (stopped at max_facts: 2 facts not verified)" in table.stdout
    report = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    assert report["outcome"] == "partial" and len(report["unverified_facts"]) == 2
    whole = runner.invoke(app, ["check", THREE_FACTS, "--no-store", "--summary"])
    assert "stopped" not in whole.stdout and " · complete · " in whole.stdout


def test_coverage_is_undefined_when_nothing_is_checkable() -> None:
    args = ["check", "Ada was born.", "--no-store", "--no-cache"]
    line = runner.invoke(app, [*args, "--summary"])
    assert line.exit_code == 0, line.output
    assert "TriQuaScore undefined" in line.stdout
    assert "coverage undefined (no checkable facts)" in line.stdout
    assert "100.0%" not in line.stdout
    table = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert "coverage undefined (no checkable facts)" in table.stdout
    report = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    assert report["coverage"] is None and report["scores"]["triqua_score"] is None
    checked = runner.invoke(app, ["check", PARIS, "--no-store", "--summary"])
    assert " · coverage 100.0% · " in checked.stdout  # a checkable fact: coverage measured


def test_the_summary_line_states_citation_completeness(tmp_path: Path) -> None:
    (tmp_path / "capital.md").write_text(f"{PARIS}\n", encoding="utf-8")
    (tmp_path / "fruit.md").write_text("Bananas are rich in potassium.\n", encoding="utf-8")
    answer = tmp_path / "answer.txt"
    answer.write_text(
        f"{PARIS} [1] Berlin is the capital of Germany. [2]\n\n[1] capital.md\n[2] fruit.md\n",
        encoding="utf-8",
    )
    args = ["check", "-f", str(answer), "--citations", "--no-store"]
    line = runner.invoke(app, [*args, "--summary"])
    assert line.exit_code == 0, line.output
    (only,) = line.stdout.splitlines()
    assert " · citations: completeness 50.0%, link correctness 50.0% · " in only
    cited = json.loads(runner.invoke(app, [*args, "--json"]).stdout)["citations"]
    assert (cited["completeness"], cited["link_correctness"]) == (0.5, 0.5)
    plain = runner.invoke(app, ["check", "-f", str(answer), "--no-store", "--summary"])
    assert "citations" not in plain.stdout  # not judged: not said


def test_one_of_a_thing_is_said_in_the_singular(tmp_path: Path) -> None:
    line = runner.invoke(app, ["check", PARIS, "--no-store", "--summary"])
    assert "· 1 fact: " in line.stdout and "1 facts" not in line.stdout
    table = runner.invoke(app, ["check", PARIS, "--no-store"], env={"COLUMNS": "200"})
    assert "(0/1 unit; 1 before dedup)" in table.stdout and "1 units" not in table.stdout
    two = f"{PARIS} Berlin is the capital of Germany."
    cut = runner.invoke(app, ["check", two, "--no-store", "--max-facts", "1", "--summary"])
    assert "limit reached: max_facts=1: 1 more fact found was not verified" in cut.stderr
    assert "(stopped at max_facts: 1 fact not verified)" in cut.stdout
    (tmp_path / "capital.md").write_text(f"{PARIS}\n", encoding="utf-8")
    answer = tmp_path / "answer.txt"
    answer.write_text(f"{PARIS} [1]\n\n[1] capital.md\n", encoding="utf-8")
    cited = runner.invoke(app, ["check", "-f", str(answer), "--citations", "--no-store"])
    assert "· 1 link (" in cited.stdout and "1 links" not in cited.stdout
    for output in (line, table, cut, cited):
        assert not re.search(r"\b1 (facts|units|links|chunks|claims|runs|lines)\b", output.output)
