"""``triqua eval``: end-to-end runs with a scripted model, the cost guard prompt, compare."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from triqua.cli import app
from triqua.engines.factory import register_model
from triqua.evals.results import load_run

from .conftest import CURIE, FRANCE, PARIS

runner = CliRunner()
#: The scripted evals are read under the strict grounding rule: the shipped judge reads "Marie
#: Curie won Nobel Prize in Physics in 1903" as contradicted by the sentence stating it.
STRICT = {"TRIQUA_GROUNDING": "strict"}

FRANCE_2025 = "France had a population of 64.5 million in 2025, excluding overseas departments."


def _annotated(text: str, labels: list[str]) -> list[dict[str, Any]]:
    facts = [{"text": f"fact {i}", "label": label} for i, label in enumerate(labels)]
    return [{"text": text, "is-relevant": True, "human-atomic-facts": facts}]


@pytest.fixture
def bios(tmp_path: Path) -> Path:
    records = [
        {
            "topic": "Marie Curie",
            "output": CURIE,
            "annotations": _annotated(CURIE, ["S", "S", "NS"]),
        },
        {"topic": "France", "output": FRANCE, "annotations": _annotated(FRANCE, ["S", "NS"])},
        {"topic": "Paris", "output": PARIS, "annotations": _annotated(PARIS, ["S"])},
        {"topic": "Nobody", "output": "I could not find anything.", "annotations": None},
        {"topic": "Quiet", "output": "Hmm, well.", "annotations": _annotated("Hmm, well.", ["IR"])},
    ]
    path = tmp_path / "bios.jsonl"
    path.write_text(
        "".join(
            json.dumps({"input": f"Question: Tell me a bio of {r['topic']}.", **r}) + "\n"
            for r in records
        ),
        encoding="utf-8",
    )
    return path


@pytest.fixture
def evidence_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "evidence"
    folder.mkdir()
    (folder / "Marie Curie.txt").write_text(CURIE, encoding="utf-8")
    (folder / "France.md").write_text(FRANCE_2025, encoding="utf-8")
    (folder / "Quiet.txt").write_text("Nothing to see.", encoding="utf-8")
    return folder


def test_factscore_bio_with_a_scripted_model(
    scripted: Any, bios: Path, evidence_dir: Path, tmp_path: Path
) -> None:
    model = register_model("eval-bio", scripted())
    out = tmp_path / "results"
    result = runner.invoke(
        app,
        [
            "eval",
            "factscore-bio",
            "--bios",
            str(bios),
            "--evidence-dir",
            str(evidence_dir),
            "-m",
            model,
            "--out",
            str(out),
            "--no-cache",
        ],
        env={"COLUMNS": "200", **STRICT},
    )
    assert result.exit_code == 0, result.output
    assert "estimate: 4 texts" in result.stderr
    (folder,) = out.iterdir()
    run = load_run(folder)
    assert run.eval == "factscore-bio" and run.engine != "offline"
    assert folder.name.endswith(run.spec_hash[:8])
    assert run.data[0].sha256 == hashlib.sha256(bios.read_bytes()).hexdigest()
    assert run.data[1].path == str(evidence_dir) and run.data[1].rows == 3
    head = run.headline
    # Curie: gold 2/3, all units supported -> 1.0; France: gold 1/2, the year is wrong -> 2/3.
    assert (head["scored"], head["undefined"], head["declined"], head["no_evidence"]) == (
        2,
        1,
        1,
        1,
    )
    # F1@K over the 3 checked bios: checkable facts 1 (Curie), 1 (France), 0 (undefined) ->
    # K = median 1. Curie 1 of 1 supported -> P = R = 1 -> 1; France and the undefined bio
    # have no supported fact -> 0. Mean 1/3.
    assert head["f1_k"] == 1.0
    assert head["f1_at_k"] == pytest.approx(1 / 3)
    # 2 facts; 5 model calls (3 decompositions, 2 verifications); neither fact re-verified.
    assert head["model_calls_per_fact"] == pytest.approx(2.5)
    assert head["reverify_trigger_rate"] == 0.0
    assert head["triqua_score_mae"] == pytest.approx(0.25)
    assert head["triqua_score_pearson"] == pytest.approx(1.0)
    assert head["mean_gold"] == pytest.approx((2 / 3 + 1 / 2) / 2)
    assert run.usage.model_calls > 0
    # The run's model also judged whether each of the 3 checked bios addresses its question.
    assert run.details["requested_coverage"]["counts"]["addressed"] == 3
    assert run.headline["requested_addressed_share"] == 1.0
    files = sorted(p.name for p in folder.iterdir())
    assert files == [
        "result.json",
        "result.md",
        "scatter-claim-level.svg",
        "scatter-no-dedup.svg",
        "scatter-triqua.svg",
    ]
    assert "declined (ineligible)" in (folder / "result.md").read_text()
    # The stamp describes the 3 check runs: each bio's spec is the stamp's but for the bio's
    # own evidence, so its hash differs from the stamp's and the stamp says all 3 agree.
    assert run.runs == {"check_runs": 3, "with_stamp_settings": 3}
    checked = [b for b in run.details["bios"] if b["spec_hash"]]
    assert len(checked) == 3 and all(b["spec_hash"] != run.spec_hash for b in checked)
    assert "| check runs | 3; 3 with this spec" in (folder / "result.md").read_text()


def test_claims_with_a_scripted_model_and_custom_fields(scripted: Any, tmp_path: Path) -> None:
    model = register_model("eval-claims", scripted())
    rows = [
        {"text": CURIE, "passage": CURIE, "gold": "SUP"},
        {"text": FRANCE, "passage": FRANCE_2025, "gold": "REF"},
        {"text": PARIS, "passage": "Berlin is large.", "gold": "NEI"},
        {"text": PARIS, "passage": "Paris.", "gold": "X"},
        {"text": CURIE, "passage": "Marie Curie won a prize.", "gold": "PART"},
    ]
    data = tmp_path / "claims.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "results"
    result = runner.invoke(
        app,
        [
            "eval",
            "claims",
            str(data),
            "--claim-field",
            "text",
            "--evidence-field",
            "passage",
            "--label-field",
            "gold",
            "--label-map",
            "SUP=supported,REF=contradicted,NEI=insufficient_evidence,PART=partial,X=skip",
            "-m",
            model,
            "--out",
            str(out),
            "--no-cache",
        ],
        env={"COLUMNS": "200", **STRICT},
    )
    assert result.exit_code == 0, result.output
    run = load_run(next(out.iterdir()))
    summary = run.details["summary"]
    # The scripted judge supports anything with evidence unless the year conflicts. Through
    # the graph, BM25 finds no passage sharing a word with the Paris fact, so triqua abstains;
    # the direct baseline is handed the whole passage and the judge calls it supported, but
    # its quote ("Berlin is large.") carries neither Paris nor France: the grounding rule
    # makes it insufficient evidence.
    assert summary["systems"]["triqua"]["confusion_matrix"] == [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    assert summary["systems"]["direct"]["confusion_matrix"] == [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    assert summary["partial"]["rows"] == 1
    assert run.options["skipped"] == 1
    assert run.headline["triqua_f1_contradicted"] == pytest.approx(1.0)
    assert run.usage.model_calls > 0
    # Binary view over the 3-way rows and the partial row (gold: not supported). The judge
    # would support the partial Curie claim, but its quote lacks the claim's wrong value, so
    # the grounding rule leaves it insufficient: not supported, as gold says.
    assert summary["binary"]["triqua"]["confusion_matrix"] == [[1, 0], [0, 3]]
    assert run.headline["triqua_binary_f1_supported"] == pytest.approx(1.0)
    # ElementCheck's Coverage: every row gave triqua a fact, and the binary view is all
    # right; the definite view: the supported and contradicted rows are definite and right.
    assert run.headline["triqua_coverage"] == 1.0 and run.headline["triqua_overall"] == 1.0
    assert run.headline["triqua_definite_coverage"] == 1.0
    # Every row was one check run with the stamp's settings and the row's own passage.
    assert run.runs == {"check_runs": 4, "with_stamp_settings": 4}
    # Calibration: Curie supported at 0.8 and France contradicted at 0.9, both right; the
    # Paris abstention carries no confidence. ECE = 0.5 * 0.2 + 0.5 * 0.1 = 0.15.
    assert summary["calibration"]["triqua"]["without_confidence"] == 1
    assert run.headline["triqua_ece"] == pytest.approx(0.15)
    # One fact per claim (4), one decomposition and one verification call each; no fact is
    # complex, so none is re-verified.
    assert summary["cost"]["facts"] == 4
    assert run.headline["reverify_trigger_rate"] == 0.0
    assert run.headline["model_calls_per_fact"] == pytest.approx(2.0)
    folder = next(out.iterdir())
    assert {"calibration-triqua.svg", "calibration-direct.svg"} <= {
        p.name for p in folder.iterdir()
    }
    markdown = (folder / "result.md").read_text()
    assert "Binary view, supported vs not" in markdown and "| 0.8–0.9 | 1 |" in markdown


def test_cost_guard_prompt_answered_no_aborts(scripted: Any, bios: Path, tmp_path: Path) -> None:
    fake = scripted()
    model = register_model("eval-guard", fake)
    out = tmp_path / "results"
    args = [
        "eval",
        "factscore-bio",
        "--bios",
        str(bios),
        "-m",
        model,
        "--out",
        str(out),
        "--confirm-above",
        "5",
    ]
    result = runner.invoke(app, args, input="n\n")
    assert result.exit_code == 1
    assert "Continue?" in result.output
    assert "aborted: nothing was run" in result.stderr
    assert fake.calls == [] and not out.exists()


def test_cost_guard_is_skipped_with_yes(scripted: Any, bios: Path, tmp_path: Path) -> None:
    model = register_model("eval-yes", scripted())
    out = tmp_path / "results"
    args = [
        "eval",
        "diagnostics",
        "--bios",
        str(bios),
        "-m",
        model,
        "--out",
        str(out),
        "--confirm-above",
        "0",
        "--yes",
        "--no-cache",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "Continue?" not in result.output
    run = load_run(next(out.iterdir()))
    # Curie and France yield one fact each (both complex); Paris one simple fact.
    assert run.headline["facts"] == 3
    assert run.headline["complex_share"] == pytest.approx(2 / 3)
    assert run.details["decomposition"]["qualifiers"] == 3
    # One decomposition call per annotated bio (Curie, France, Paris, Quiet: 4) for 3 facts;
    # nothing is verified, so there is no re-verify trigger rate.
    assert run.headline["model_calls_per_fact"] == pytest.approx(4 / 3)
    assert run.headline["reverify_trigger_rate"] is None


def test_one_knowledge_source_at_a_time(bios: Path, evidence_dir: Path) -> None:
    result = runner.invoke(
        app,
        [
            "eval",
            "factscore-bio",
            "--bios",
            str(bios),
            "--evidence-dir",
            str(evidence_dir),
            "--collection",
            "demo",
        ],
    )
    assert result.exit_code == 2
    assert "name one knowledge source" in result.stderr


def test_compare_prints_the_difference(tmp_path: Path) -> None:
    from triqua.evals.results import EvalRun, write_run
    from triqua.schema import FactualitySpec

    spec = FactualitySpec()
    a = write_run(
        EvalRun.stamped("claims", spec, "offline", headline={"macro_f1": 0.5}), tmp_path / "a", ""
    )
    b = write_run(
        EvalRun.stamped("claims", spec, "offline", headline={"macro_f1": 0.625}), tmp_path / "b", ""
    )
    result = runner.invoke(app, ["eval", "compare", str(a), str(b)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "macro_f1" in result.stdout and "+0.125" in result.stdout
    missing = runner.invoke(app, ["eval", "compare", str(a), str(tmp_path / "none")])
    assert missing.exit_code == 2 and "none" in missing.stderr
