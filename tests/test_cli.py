"""The ``triqua`` command: input sources, evidence files, table and JSON output, errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from triqua.cli import app
from triqua.engines.factory import register_model

from .conftest import CURIE, FRANCE, PARIS

runner = CliRunner()


@pytest.fixture
def model_name(scripted: Any) -> str:
    return register_model("cli-test", scripted())


def test_check_prints_json_report(model_name: str, evidence: Path) -> None:
    result = runner.invoke(
        app, ["check", f"{FRANCE} {CURIE}", "-e", str(evidence), "-m", model_name, "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["schema_version"] == "1.2"
    assert [r["verdict"]["status"] for r in report["records"]] == ["contradicted", "supported"]
    assert report["scores"]["triqua_score"] == pytest.approx(0.8)


def test_check_prints_a_table(model_name: str, evidence: Path) -> None:
    result = runner.invoke(
        app, ["check", FRANCE, "-e", str(evidence), "-m", model_name], env={"COLUMNS": "200"}
    )
    assert result.exit_code == 0, result.output
    assert "TriQuaScore" in result.stdout
    assert "(point in time, 2026)" in result.stdout
    assert "contradicted" in result.stdout
    # The companion scores' names are explained on the line right under them.
    lines = result.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("claim-level "))
    assert lines[at + 1].startswith("(shares of checkable facts: ")
    glossary = " ".join(" ".join(lines[at + 1 :]).split())  # as wrapped to the width
    for term in ("claim-level =", "fact precision =", "contradiction rate =", "no-dedup ="):
        assert term in glossary
    assert "abstentions = facts left insufficient)" in glossary


def test_check_reads_a_file_and_stdin(model_name: str, evidence: Path, tmp_path: Path) -> None:
    text_file = tmp_path / "answer.txt"
    text_file.write_text(CURIE, encoding="utf-8")
    from_file = runner.invoke(
        app, ["check", "-f", str(text_file), "-e", str(evidence), "-m", model_name, "--json"]
    )
    from_stdin = runner.invoke(
        app, ["check", "-", "-e", str(evidence), "-m", model_name, "--json"], input=CURIE
    )
    from_file_dash = runner.invoke(
        app, ["check", "-f", "-", "-e", str(evidence), "-m", model_name, "--json"], input=CURIE
    )
    for result in (from_file, from_stdin, from_file_dash):
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["records"][0]["verdict"]["status"] == "supported"


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"", "empty"), (b"\x00\x01binary", "binary"), (b"caf\xe9", "UTF-8")],
)
def test_bad_text_files_give_one_line_errors(
    model_name: str, tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    result = runner.invoke(app, ["check", "-f", str(path), "-m", model_name])
    assert result.exit_code != 0
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_broken_evidence_file_is_a_clear_error(model_name: str, tmp_path: Path) -> None:
    bad = tmp_path / "evidence.bin"
    bad.write_bytes(b"\x00\x00\x00")
    result = runner.invoke(app, ["check", CURIE, "-e", str(bad), "-m", model_name])
    assert result.exit_code != 0
    assert "evidence.bin" in result.stderr


def test_missing_text_file(model_name: str, tmp_path: Path) -> None:
    result = runner.invoke(app, ["check", "-f", str(tmp_path / "nope.txt"), "-m", model_name])
    assert result.exit_code != 0 and "nope.txt" in result.stderr


def test_schema_command_prints_the_report_schema() -> None:
    result = runner.invoke(app, ["schema"])
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema["title"] == "Report" and "records" in schema["properties"]


def test_check_writes_an_html_report(model_name: str, evidence: Path, tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    result = runner.invoke(
        app, ["check", FRANCE, "-e", str(evidence), "-m", model_name, "--html", str(page)]
    )
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    assert "(point in time, 2026)" in html and "<script" not in html.lower()


def test_check_batch_writes_one_report_per_line(
    model_name: str, evidence: Path, tmp_path: Path
) -> None:
    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        json.dumps({"id": "a", "text": CURIE, "evidence": [{"path": str(evidence)}]})
        + "\nnot json\n",
        encoding="utf-8",
    )
    out = tmp_path / "reports.jsonl"
    result = runner.invoke(
        app, ["check", "--batch", str(answers), "-o", str(out), "-m", model_name, "--quiet"]
    )
    assert result.exit_code == 1  # one malformed line was reported and skipped
    (line,) = out.read_text(encoding="utf-8").splitlines()
    assert json.loads(line)["id"] == "a"
    assert "answers.jsonl:2: invalid JSON" in result.stderr


def test_check_with_citations_reports_completeness_and_links(
    model_name: str, tmp_path: Path
) -> None:
    (tmp_path / "physics.md").write_text(
        "Marie Curie won the Nobel Prize in Physics in 1903.\n", encoding="utf-8"
    )
    (tmp_path / "other.md").write_text("Bananas are rich in potassium.\n", encoding="utf-8")
    answer = tmp_path / "answer.txt"
    answer.write_text(f"{CURIE} [1] {PARIS} [2]\n\n[1] physics.md\n[2] other.md\n", "utf-8")
    result = runner.invoke(
        app, ["check", "-f", str(answer), "--citations", "-m", model_name, "--json"]
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["spec"]["mode"] == "supplied_context"  # the cited files were the evidence
    citations = payload["citations"]
    assert len(citations["links"]) == 2
    assert citations["link_correctness"] is not None


def test_routing_retrieval_and_model_flags_reach_the_run(
    model_name: str, evidence: Path, tmp_path: Path
) -> None:
    flags = [
        "--delta", "5", "--routing", "always", "--top-k", "2", "--as-of", "2024-06-01",
        "--allow-domain", "nobelprize.org", "--allow-domain", "wikipedia.org",
        "--block-domain", "example.com", "--temperature", "0.7",
    ]  # fmt: skip
    result = runner.invoke(
        app, ["check", CURIE, "-e", str(evidence), "-m", model_name, "--json", *flags]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    spec = report["spec"]
    assert spec["verdict_policy"]["delta"] == 5
    assert spec["models"]["routing"] == "always_element"
    assert spec["models"]["temperature"] == "0.7"
    assert spec["budget"]["max_results"] == 2
    assert spec["as_of"] == "2024-06-01"
    assert spec["source_policy"] == {
        "allowed_domains": ["nobelprize.org", "wikipedia.org"],
        "blocked_domains": ["example.com"],
    }
    (record,) = report["records"]
    assert record["route"] == "complex"  # --routing always: unit by unit
    assert record["complexity"]["reason"] == "routing=always_element"
    assert len(record["evidence"]) <= 2  # --top-k
    batch_file = tmp_path / "in.jsonl"
    batch_file.write_text(json.dumps({"id": "a1", "text": CURIE}) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    batched = runner.invoke(
        app,
        ["batch", str(batch_file), "-o", str(out), "-m", model_name, "--routing", "never",
         "--delta", "2", "--quiet"],
    )  # fmt: skip
    assert batched.exit_code == 0, batched.output
    line = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    batch_spec = (line.get("report") or line)["spec"]
    assert batch_spec["models"]["routing"] == "never_reverify"
    assert batch_spec["verdict_policy"]["delta"] == 2


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--routing", "sometimes"], "--routing must be auto, always or never"),
        (["--as-of", "June 2024"], "--as-of must be a date YYYY-MM-DD"),
    ],
)
def test_bad_routing_or_date_is_one_line(model_name: str, flags: list[str], message: str) -> None:
    result = runner.invoke(app, ["check", CURIE, "-m", model_name, *flags])
    assert result.exit_code == 2
    assert message in result.output
