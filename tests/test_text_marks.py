"""`triqua show --text`: the checked text with each fact's span marked by its verdict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from triqua.cli import app
from triqua.rendering.text_marks import marked_text
from triqua.schema import ClaimRecord, Fact, Span, Status, Verdict

TEXT = "Paris is in France. Berlin is in Spain. Nice weather."


def record(claim_id: str, start: int, end: int, status: Status) -> ClaimRecord:
    fact = Fact(subject="s", relation="r", object="o", span=Span(start=start, end=end))
    return ClaimRecord(
        response_id="r1",
        claim_id=claim_id,
        claim_text=f"({claim_id})",
        fact=fact,
        verdict=Verdict(status=status),
    )


def test_each_span_is_styled_by_its_worst_verdict_and_names_its_facts() -> None:
    records = [
        record("f1", 0, 19, Status.SUPPORTED),
        record("f2", 20, 39, Status.SUPPORTED),
        record("f3", 20, 39, Status.CONTRADICTED),  # same sentence, one wrong fact
    ]
    marked = marked_text(TEXT, records)
    assert marked.plain == ("Paris is in France.[f1] Berlin is in Spain.[f2,f3] Nice weather.")
    styles = {marked.plain[s.start : s.end]: str(s.style) for s in marked.spans}
    assert styles["Paris is in France."] == "underline green"
    assert styles["Berlin is in Spain."] == "underline red"
    assert "Nice weather." not in styles  # no fact came from it: plain text


def test_spans_outside_the_text_are_ignored() -> None:
    marked = marked_text("Short.", [record("f1", 0, 99, Status.SUPPORTED)])
    assert marked.plain == "Short."


@pytest.mark.slow
def test_show_text_prints_the_marked_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRIQUA_HOME", str(tmp_path))
    evidence = tmp_path / "ev.md"
    evidence.write_text("Paris is the capital of France.", encoding="utf-8")
    runner = CliRunner()
    made = runner.invoke(
        app, ["check", "Paris is the capital of France.", "-e", str(evidence), "--json"]
    )
    assert made.exit_code == 0, made.output
    run_id = json.loads(made.stdout)["run_id"]
    shown = runner.invoke(app, ["show", run_id, "--text"], env={"COLUMNS": "120"})
    assert shown.exit_code == 0, shown.output
    assert "Paris is the capital of France.[f1" in shown.stdout
