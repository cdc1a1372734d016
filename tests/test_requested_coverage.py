"""Requested-content coverage: a scripted chat model says addressed, partly or not addressed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from triqua.cli import app
from triqua.engines.factory import register_model
from triqua.engines.llm.coverage import RequestedCoverage, RequestedCoverageJudge, coverage_summary
from triqua.evals.results import load_run
from triqua.testing import ScriptedChatModel, fenced

from .conftest import CURIE, FRANCE, PARIS

runner = CliRunner()


def _cover(tool: str, prompt: str) -> dict[str, Any]:
    """Addressed when the answer names the question's subject; 'population 2030' asked apart."""
    assert tool == "CoverageJudgement"
    question, answer = fenced(prompt, "QUESTION"), fenced(prompt, "ANSWER")
    subject = question.removeprefix("Tell me a bio of ").split(" and ")[0].rstrip(".")
    if subject not in answer:
        return {"verdict": "not_addressed", "missing": [f"a bio of {subject}"]}
    if "2030" in question and "2030" not in answer:
        return {"verdict": "partly", "missing": ["population in 2030"], "rationale": "no 2030"}
    if "Nobel" in answer and "1911" in question:
        # Says addressed yet names a missing part: recorded as partly.
        return {"verdict": "addressed", "missing": ["the 1911 prize"]}
    return {"verdict": "addressed", "missing": [], "rationale": "about the subject"}


def _judge(responder: Any = _cover) -> RequestedCoverageJudge:
    return RequestedCoverageJudge(ScriptedChatModel(responder=responder), max_retries=0)


def test_judge_records_addressed_partly_and_not_addressed() -> None:
    judge = _judge()
    addressed, usage = judge.judge("Tell me a bio of Marie Curie.", CURIE)
    assert (addressed.verdict, addressed.missing) == ("addressed", [])
    assert addressed.judge and usage.model_calls == 1
    partly, _ = judge.judge("Tell me a bio of France and its population in 2030.", FRANCE)
    assert (partly.verdict, partly.missing) == ("partly", ["population in 2030"])
    assert partly.rationale == "no 2030"
    off, _ = judge.judge("Tell me a bio of Marie Curie.", PARIS)
    assert (off.verdict, off.missing) == ("not_addressed", ["a bio of Marie Curie"])
    inconsistent, _ = judge.judge("Tell me a bio of Marie Curie and her 1911 prize.", CURIE)
    assert (inconsistent.verdict, inconsistent.missing) == ("partly", ["the 1911 prize"])


def test_a_failed_judgement_is_recorded_not_raised() -> None:
    def broken(tool: str, prompt: str) -> dict[str, Any]:
        raise RuntimeError("provider down")

    coverage, usage = _judge(broken).judge("Tell me a bio of Paris.", PARIS)
    assert coverage.verdict is None and usage.model_calls == 0
    assert coverage.error is not None and "provider down" in coverage.error


def test_coverage_summary_counts_verdicts_and_failures() -> None:
    items = [
        RequestedCoverage(question="q1", verdict="addressed"),
        RequestedCoverage(question="q2", verdict="partly", missing=["x"]),
        RequestedCoverage(question="q3", verdict="partly", missing=["y"]),
        RequestedCoverage(question="q4", verdict="not_addressed", missing=["z"]),
        RequestedCoverage(question="q5", error="boom"),
    ]
    summary = coverage_summary(items)
    assert summary["counts"] == {"addressed": 1, "partly": 2, "not_addressed": 1}
    assert (summary["judged"], summary["failed"]) == (4, 1)
    assert summary["shares"]["partly"] == 0.5
    assert [row["question"] for row in summary["missing"]] == ["q2", "q3", "q4"]


def _bios(tmp_path: Path) -> Path:
    questions = {
        "Marie Curie": ("Tell me a bio of Marie Curie.", CURIE),
        "France": ("Tell me a bio of France and its population in 2030.", FRANCE),
        "Lyon": ("Tell me a bio of Lyon.", PARIS),
        "Nobody": ("Tell me a bio of Nobody.", "I could not find anything."),
    }
    rows = [
        {
            "input": f"Question: {question}",
            "topic": topic,
            "output": text,
            "annotations": None
            if topic == "Nobody"
            else [{"text": text, "human-atomic-facts": [{"text": "x", "label": "S"}]}],
        }
        for topic, (question, text) in questions.items()
    ]
    path = tmp_path / "bios.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.slow
def test_factscore_run_records_coverage_with_a_coverage_model(tmp_path: Path) -> None:
    model = register_model("coverage-judge", ScriptedChatModel(responder=_cover))
    out = tmp_path / "results"
    result = runner.invoke(
        app,
        [
            "eval",
            "factscore-bio",
            "--bios",
            str(_bios(tmp_path)),
            "--coverage-model",
            model,
            "--out",
            str(out),
            "--yes",
        ],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    # The estimate counts one coverage call per eligible bio, though the check is offline.
    assert "~3 model calls" in result.stderr
    (folder,) = out.iterdir()
    run = load_run(folder)
    requested = run.details["requested_coverage"]
    # Three checked bios (the declined one is not judged).
    assert requested["counts"] == {"addressed": 1, "partly": 1, "not_addressed": 1}
    assert run.headline["requested_addressed_share"] == pytest.approx(1 / 3)
    assert run.options["coverage_model"]
    bios = {b["topic"]: b for b in run.details["bios"]}
    assert bios["France"]["requested"]["missing"] == ["population in 2030"]
    assert bios["Nobody"]["requested"] is None
    # The offline check made no model call; the coverage judge made three.
    assert run.usage.model_calls == 3
    markdown = (folder / "result.md").read_text(encoding="utf-8")
    assert "| Tell me a bio of France and its population in 2030. | partly |" in markdown
    assert "needs a chat model" not in markdown
    assert "Requested-content coverage" in result.output


def _checking_model() -> ScriptedChatModel:
    """Decomposes and judges as the shared responder does; coverage as :func:`_cover`."""
    from .conftest import make_responder

    base = make_responder()

    def respond(tool: str, prompt: str) -> dict[str, Any] | str:
        return _cover(tool, prompt) if tool == "CoverageJudgement" else base(tool, prompt)

    return ScriptedChatModel(responder=respond)


def test_check_with_a_question_records_whether_the_text_addresses_it() -> None:
    import triqua
    from triqua.rendering.markdown import render_markdown

    model = _checking_model()
    question = "Tell me a bio of Marie Curie and her prize of 1911."
    report = triqua.check(CURIE, question=question, documents=[CURIE], model=model, cache=False)
    coverage = report.requested_coverage
    assert coverage is not None and coverage.verdict == "partly"
    assert coverage.missing == ["the 1911 prize"] and coverage.question == question
    assert report.usage_by_role["coverage"].model_calls == 1
    assert [tool for tool, _ in model.calls].count("CoverageJudgement") == 1
    assert "question coverage: partly; missing: the 1911 prize" in render_markdown(report)


def test_no_coverage_without_a_question_a_model_or_the_setting() -> None:
    import triqua

    question = "Tell me a bio of Marie Curie."
    off = _checking_model()
    kept = triqua.check(
        CURIE,
        question=question,
        documents=[CURIE],
        model=off,
        cache=False,
        requested_coverage=False,
    )
    no_question = triqua.check(CURIE, documents=[CURIE], model=_checking_model(), cache=False)
    offline = triqua.check(CURIE, question=question, documents=[CURIE], cache=False)
    assert [r.requested_coverage for r in (kept, no_question, offline)] == [None, None, None]
    assert "CoverageJudgement" not in [tool for tool, _ in off.calls]
    assert "coverage" not in offline.usage_by_role
