"""``triqua eval diagnostics`` decomposition quality: offline rule judges, two scripted judges."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from triqua.cli import app
from triqua.engines.factory import register_model
from triqua.evals.results import load_run
from triqua.testing import ScriptedChatModel, fenced

from .conftest import CURIE, FRANCE, PARIS, make_responder

runner = CliRunner()


def _bios(tmp_path: Path, texts: dict[str, str]) -> Path:
    path = tmp_path / "bios.jsonl"
    rows = [
        {
            "input": f"Question: Tell me a bio of {topic}.",
            "topic": topic,
            "output": text,
            "annotations": [
                {
                    "text": text,
                    "is-relevant": True,
                    "human-atomic-facts": [{"text": "x", "label": "S"}],
                }
            ],
        }
        for topic, text in texts.items()
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _run(args: list[str], out: Path) -> Any:
    result = runner.invoke(app, ["eval", "diagnostics", *args, "--out", str(out), "--yes"])
    assert result.exit_code == 0, result.output
    (folder,) = out.iterdir()
    return load_run(folder), folder, result.output


def test_offline_diagnostics_report_rates_per_criterion_and_label(tmp_path: Path) -> None:
    bios = _bios(
        tmp_path,
        {
            "Marie Curie": f"{CURIE} She won it again in 1911.",
            "France": FRANCE,
        },
    )
    run, folder, output = _run(["--bios", str(bios)], tmp_path / "results")
    assert "qualifiers well used" in output
    quality = run.details["quality"]
    assert quality["judges"] == ["rules"]
    assert run.options["containment_threshold"] == 0.8
    facts = run.headline["facts"]
    assert quality["facts"] == facts and facts >= 3
    for criterion in ("entailed", "decontextualised", "qualifiers_ok"):
        rate = run.headline[f"{criterion}_rate"]
        assert rate is not None and 0.0 <= rate <= 1.0
    assert quality["criteria"]["entailed"]["rules"]["n"] == facts
    assert (
        quality["criteria"]["qualifiers_ok"]["rules"]["n"]
        == run.details["decomposition"]["complex_facts"]
    )
    # Everything the offline engine decomposes counts as its own mode.
    assert list(quality["by_mode"]) == ["offline"]
    assert quality["by_mode"]["offline"]["facts"] == facts
    labels = {row["label"]: row for row in quality["by_label"]}
    assert labels["point in time"]["qualifiers"] >= 2
    assert labels["point in time"]["qualifiers_ok"]["rules"] == 1.0
    # The per-fact file names each fact's judgements, one JSON line per fact.
    lines = (folder / "judged-facts.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == facts
    row = json.loads(lines[0])
    assert set(row["diagnoses"]["rules"]["verdicts"]) == {
        "entailed",
        "decontextualised",
        "qualifiers_ok",
    }
    markdown = (folder / "result.md").read_text(encoding="utf-8")
    assert "| decomposition mode | facts |" in markdown
    assert "| qualifier label | qualifiers |" in markdown
    assert "≥ 0.80" in markdown


def test_containment_threshold_is_recorded_and_stated(tmp_path: Path) -> None:
    bios = _bios(tmp_path, {"France": FRANCE})
    run, folder, _ = _run(
        ["--bios", str(bios), "--containment-threshold", "0.5"], tmp_path / "results"
    )
    assert run.options["containment_threshold"] == 0.5
    assert "≥ 0.50 in the source sentence" in (folder / "result.md").read_text(encoding="utf-8")


def _judge(disagree_on: str | None) -> ScriptedChatModel:
    """A scripted quality judge: flags the 'excluding' qualifier; ``disagree_on`` not entailed."""

    def respond(tool: str, prompt: str) -> dict[str, Any]:
        assert tool == "DecompositionJudgement"
        fact = fenced(prompt, "FACT")
        misused = ["(excluding, overseas departments)"] if "excluding" in fact else []
        entailed = not (disagree_on and disagree_on in fact)
        return {
            "entailed": entailed,
            "not_entailed": [] if entailed else [fact],
            "decontextualised": True,
            "qualifiers_ok": not misused,
            "misused_qualifiers": misused,
            "rationale": "scripted",
        }

    return ScriptedChatModel(responder=respond)


@pytest.mark.slow
def test_two_scripted_judges_give_cohen_kappa(tmp_path: Path) -> None:
    bios = _bios(tmp_path, {"Marie Curie": CURIE, "France": FRANCE, "Paris": PARIS})
    decomposer = register_model("diag-decompose", ScriptedChatModel(responder=make_responder()))
    first = register_model("diag-judge-a", _judge(None))
    second = register_model("diag-judge-b", _judge("Paris"))
    run, folder, _ = _run(
        ["--bios", str(bios), "-m", decomposer, "--judge", first, "--judge", second, "--no-cache"],
        tmp_path / "results",
    )
    quality = run.details["quality"]
    assert len(quality["judges"]) == 2
    head = run.headline
    # Facts: Curie (1 qualifier), France (2 qualifiers), Paris (simple).
    assert head["facts"] == 3
    # Entailed: A [T, T, T], B [T, T, F]: p_o = 2/3, p_e = 1 * 2/3 = 2/3, κ = 0.
    assert head["entailed_rate"] == 1.0
    assert head["entailed_rate_judge2"] == pytest.approx(2 / 3)
    assert head["entailed_kappa"] == pytest.approx(0.0)
    # Qualifiers (complex facts only): both [T, F]: κ = 1.
    assert head["qualifiers_ok_rate"] == 0.5
    assert head["qualifiers_ok_kappa"] == pytest.approx(1.0)
    # Decontextualised: both always T, chance agreement 1, κ undefined.
    assert head["decontextualised_kappa"] is None
    assert quality["kappa"]["decontextualised"]["agreement"] == 1.0
    # The bios have a question and are one chunk each: the "question" prompt mode.
    assert list(quality["by_mode"]) == ["question"]
    labels = {row["label"]: row for row in quality["by_label"]}
    judge_a = quality["judges"][0]
    assert labels["excluding"]["qualifiers_ok"][judge_a] == 0.0
    assert labels["point in time"]["qualifiers_ok"][judge_a] == 1.0
    # 3 decomposition calls + 2 judges x 3 facts.
    assert run.usage.model_calls == 9
    assert "Cohen's κ" in (folder / "result.md").read_text(encoding="utf-8")


def test_more_than_two_judges_is_refused(tmp_path: Path) -> None:
    bios = _bios(tmp_path, {"Paris": PARIS})
    result = runner.invoke(
        app,
        ["eval", "diagnostics", "--bios", str(bios), *["--judge", "x:y"] * 3, "--yes"],
    )
    assert result.exit_code != 0
    assert "at most two --judge" in result.output


def test_bad_judge_temperature_is_a_clear_error(tmp_path: Path) -> None:
    bios = _bios(tmp_path, {"Paris": PARIS})
    judge = register_model("diag-judge-t", _judge(None))
    result = runner.invoke(
        app, ["eval", "diagnostics", "--bios", str(bios), "--judge", f"{judge}@hot", "--yes"]
    )
    assert result.exit_code != 0
    assert "'hot' is not a temperature" in result.output


def test_a_failed_judgement_is_an_error_left_out_of_rates() -> None:
    from triqua.evals.decomposition_llm import LLMDiagnosisJudge
    from triqua.evals.decomposition_quality import judge_facts, quality_summary
    from triqua.schema import Fact

    good = LLMDiagnosisJudge(_judge(None), name="good", max_retries=0).judge
    broken = LLMDiagnosisJudge(
        ScriptedChatModel(responder=lambda tool, prompt: "not json"), name="broken", max_retries=0
    ).judge
    fact = Fact.parse("(Paris, is capital of, France)", source_text=PARIS)
    judged = judge_facts([(PARIS, [fact], ["plain"])], {"good": good, "broken": broken})
    assert len(judged.errors) == 1 and judged.errors[0].startswith("broken: ")
    summary = quality_summary(judged)
    assert summary["criteria"]["entailed"]["good"] == {"n": 1, "pass_rate": 1.0}
    assert summary["criteria"]["entailed"]["broken"] == {"n": 0, "pass_rate": None}
    assert summary["kappa"]["entailed"]["n"] == 0
