"""Eval slices (status, route, mode, qualifier label): exact counts, tables and JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from triqua.cli import app
from triqua.evals.claims import ClaimOutcome
from triqua.evals.claims_summary import CLAIM_COLUMNS, claim_slices
from triqua.evals.decomposition_judges import CriterionVerdict, FactDiagnosis
from triqua.evals.decomposition_quality import JudgedFact
from triqua.evals.results import load_run
from triqua.evals.slices import (
    FACT_COLUMNS,
    NO_QUALIFIER,
    CheckedFact,
    fact_slices,
    judged_slices,
    qualifier_labels,
    slice_lines,
)
from triqua.schema import Fact

from .conftest import CURIE, FRANCE, PARIS

runner = CliRunner()


def _rows(sliced: dict[str, Any], dimension: str) -> dict[str, dict[str, Any]]:
    return {row["slice"]: row for row in sliced[dimension]}


def test_qualifier_labels_are_normalised_once_per_fact() -> None:
    fact = Fact.parse("(Curie, won, Nobel)-(Point in time, 1903)-(point in time., 1911)")
    assert qualifier_labels(fact) == ("point in time",)
    assert qualifier_labels(Fact.parse("(Paris, is capital of, France)")) == (NO_QUALIFIER,)


FACTS = [
    CheckedFact("supported", "simple", "question", (NO_QUALIFIER,)),
    CheckedFact("supported", "complex", "question", ("point in time",), reverified=True),
    CheckedFact("contradicted", "complex", "question", ("point in time", "location")),
    CheckedFact("insufficient_evidence", "complex", "question+chunks", ("location",), True),
    CheckedFact("not_checkable", "simple", "question+chunks", (NO_QUALIFIER,)),
]


def test_fact_slices_count_and_rate_every_dimension() -> None:
    sliced = fact_slices(FACTS)
    assert list(sliced) == ["status", "route", "mode", "qualifier_label"]
    status = _rows(sliced, "status")
    assert {k: r["n"] for k, r in status.items()} == {
        "supported": 2,
        "contradicted": 1,
        "insufficient_evidence": 1,
        "not_checkable": 1,
    }
    assert status["supported"]["share"] == pytest.approx(0.4)
    assert status["supported"]["precision"] == 1.0
    assert status["not_checkable"]["precision"] is None
    route = _rows(sliced, "route")
    # Complex: 1 supported, 1 contradicted, 1 insufficient, all checkable; 2 re-verified.
    assert route["complex"]["n"] == 3
    assert route["complex"]["precision"] == pytest.approx(1 / 3)
    assert route["complex"]["contradicted_rate"] == pytest.approx(1 / 3)
    assert route["complex"]["reverified_rate"] == pytest.approx(2 / 3)
    # Simple: 1 supported, 1 not checkable -> precision 1/1.
    assert (route["simple"]["n"], route["simple"]["precision"]) == (2, 1.0)
    mode = _rows(sliced, "mode")
    assert (mode["question"]["n"], mode["question"]["precision"]) == (3, pytest.approx(2 / 3))
    assert (mode["question+chunks"]["n"], mode["question+chunks"]["precision"]) == (2, 0.0)
    labels = _rows(sliced, "qualifier_label")
    # The fact with both labels is in both slices: slices overlap.
    assert {k: r["n"] for k, r in labels.items()} == {
        "point in time": 2,
        "location": 2,
        NO_QUALIFIER: 2,
    }
    assert labels["point in time"]["precision"] == 0.5
    assert labels["location"]["precision"] == 0.0
    # Largest first, ties by name.
    assert [r["slice"] for r in sliced["qualifier_label"]] == [
        NO_QUALIFIER,
        "location",
        "point in time",
    ]


def _outcome(gold: str, triqua: str, direct: str, route: str, labels: list[str]) -> ClaimOutcome:
    return ClaimOutcome(
        index=0,
        gold=gold,
        triqua=triqua,
        direct=direct,
        route=route,
        qualifier_labels=labels,
        mode="offline",
    )


def test_claim_slices_give_recall_by_gold_and_precision_by_verdict() -> None:
    rows = [
        _outcome("supported", "supported", "supported", "simple", []),
        _outcome("supported", "insufficient_evidence", "supported", "complex", ["point in time"]),
        _outcome("contradicted", "contradicted", "supported", "complex", ["point in time"]),
        _outcome("contradicted", "supported", "contradicted", "simple", []),
        _outcome("partial", "supported", "insufficient_evidence", "complex", ["location"]),
        ClaimOutcome(index=9, gold="supported", triqua="", direct="", error="boom"),
    ]
    sliced = claim_slices(rows)
    gold = _rows(sliced, "gold")
    # The failed row is in no slice.
    assert {k: r["n"] for k, r in gold.items()} == {"supported": 2, "contradicted": 2, "partial": 1}
    assert gold["supported"]["triqua_accuracy"] == 0.5  # triqua's recall of supported
    assert gold["supported"]["direct_accuracy"] == 1.0
    assert gold["contradicted"]["triqua_accuracy"] == 0.5
    # Partial rows have no 3-way gold: accuracy undefined, binary accuracy defined.
    assert gold["partial"]["three_way"] == 0 and gold["partial"]["triqua_accuracy"] is None
    assert gold["partial"]["triqua_binary_accuracy"] == 0.0
    assert gold["partial"]["direct_binary_accuracy"] == 1.0
    verdict = _rows(sliced, "verdict")
    # triqua said supported 3 times: right once among the 2 with a 3-way gold.
    assert verdict["supported"]["n"] == 3
    assert verdict["supported"]["triqua_accuracy"] == 0.5
    route = _rows(sliced, "route")
    assert (route["complex"]["n"], route["simple"]["n"]) == (3, 2)
    assert route["complex"]["triqua_accuracy"] == 0.5
    assert route["simple"]["triqua_accuracy"] == 0.5
    labels = _rows(sliced, "qualifier_label")
    assert {k: r["n"] for k, r in labels.items()} == {
        NO_QUALIFIER: 2,
        "point in time": 2,
        "location": 1,
    }
    assert _rows(sliced, "mode")["offline"]["n"] == 5


def _diagnosis(entailed: bool, qualifiers_ok: bool = True) -> FactDiagnosis:
    return FactDiagnosis(
        verdicts={
            "entailed": CriterionVerdict(passed=entailed),
            "decontextualised": CriterionVerdict(passed=True),
            "qualifiers_ok": CriterionVerdict(passed=qualifiers_ok),
        }
    )


def test_judged_slices_rate_each_judge_and_their_agreement() -> None:
    simple = Fact.parse("(Paris, is capital of, France)")
    dated = Fact.parse("(Curie, won, Nobel)-(point in time, 1903)")
    facts = [
        JudgedFact(simple, "plain", "s", {"a": _diagnosis(True), "b": _diagnosis(True)}, "simple"),
        JudgedFact(simple, "plain", "s", {"a": _diagnosis(True), "b": _diagnosis(False)}, "simple"),
        JudgedFact(
            dated, "chunks", "s", {"a": _diagnosis(False, False), "b": _diagnosis(False)}, "complex"
        ),
    ]
    sliced = judged_slices(facts, ["a", "b"])
    assert list(sliced) == ["route", "mode", "qualifier_label"]
    simple_row = _rows(sliced, "route")["simple"]
    assert simple_row["n"] == 2
    assert simple_row["entailed_rate"] == 1.0
    assert simple_row["entailed_rate_judge2"] == 0.5
    assert simple_row["entailed_agreement"] == 0.5
    # Qualifier use is rated over facts with qualifiers only: none in the simple slice.
    assert simple_row["qualifiers_ok_n"] == 0 and simple_row["qualifiers_ok_rate"] is None
    dated_row = _rows(sliced, "qualifier_label")["point in time"]
    assert (
        dated_row["n"],
        dated_row["qualifiers_ok_rate"],
        dated_row["qualifiers_ok_agreement"],
    ) == (
        1,
        0.0,
        0.0,
    )
    assert _rows(sliced, "mode")["chunks"]["entailed_agreement"] == 1.0
    # A fact without a recorded route is in no route slice.
    unrouted = [JudgedFact(simple, "plain", "s", {"a": _diagnosis(True)})]
    assert judged_slices(unrouted, ["a"])["route"] == []


def test_slice_lines_render_one_table_per_dimension_and_cap_long_ones() -> None:
    many = [CheckedFact("supported", "simple", "plain", (f"label {i:02d}",)) for i in range(20)]
    lines = slice_lines(fact_slices(many), FACT_COLUMNS, unit="facts", top=15)
    text = "\n".join(lines)
    assert "| verdict status | facts | share | supported |" in text
    assert "| route | facts | share |" in text
    assert "| supported | 20 | 1.000 | 20 | 0 | 0 | 0 | 1.000 | 0.000 |" in text
    assert "5 smaller qualifier label slice(s) are in result.json." in text
    assert sum(line.startswith("| label ") for line in lines) == 15
    assert CLAIM_COLUMNS[1] == ("triqua accuracy", "triqua_accuracy")


def _bios(tmp_path: Path) -> Path:
    path = tmp_path / "bios.jsonl"
    rows = [
        {
            "input": f"Question: Tell me a bio of {topic}.",
            "topic": topic,
            "output": text,
            "annotations": [
                {"text": text, "human-atomic-facts": [{"text": "x", "label": "S"}]},
            ],
        }
        for topic, text in {"Marie Curie": CURIE, "France": FRANCE, "Paris": PARIS}.items()
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.slow
def test_offline_factscore_run_writes_slices_and_says_coverage_needs_a_model(
    tmp_path: Path,
) -> None:
    out = tmp_path / "results"
    result = runner.invoke(
        app,
        ["eval", "factscore-bio", "--bios", str(_bios(tmp_path)), "--out", str(out), "--yes"],
        env={"COLUMNS": "250"},
    )
    assert result.exit_code == 0, result.output
    (folder,) = out.iterdir()
    run = load_run(folder)
    sliced = run.details["slices"]
    facts = run.details["decomposition"]["facts"]
    assert facts >= 3
    for dimension in ("status", "route", "mode"):
        assert sum(row["n"] for row in sliced[dimension]) == facts
    assert [row["slice"] for row in sliced["mode"]] == ["offline"]
    labels = _rows(sliced, "qualifier_label")
    assert labels["point in time"]["n"] >= 2 and labels[NO_QUALIFIER]["n"] >= 1
    # Closed book offline: every checkable fact abstains.
    assert _rows(sliced, "status")["insufficient_evidence"]["n"] == facts
    markdown = (folder / "result.md").read_text(encoding="utf-8")
    assert "| verdict status | facts | share |" in markdown
    assert "| decomposition mode | facts | share |" in markdown
    assert re.search(r"verdict status +facts +share +supported", result.output)  # printed
    requested = run.details["requested_coverage"]
    assert requested["measured"] is False
    assert "needs a chat model" in requested["note"]
    assert "needs a chat model" in markdown
    assert not any(key.startswith("requested_") for key in run.headline)


@pytest.mark.slow
def test_offline_claims_and_diagnostics_runs_write_slices(tmp_path: Path) -> None:
    claims = tmp_path / "claims.jsonl"
    rows = [
        {"claim": CURIE, "evidence": CURIE, "stance": "completely-support"},
        {"claim": PARIS, "evidence": "Lyon is a city in France.", "stance": "irrelevant"},
        {"claim": FRANCE, "evidence": FRANCE, "stance": "partially-support"},
    ]
    claims.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "claims-results"
    result = runner.invoke(
        app, ["eval", "claims", str(claims), "--out", str(out), "--yes"], env={"COLUMNS": "250"}
    )
    assert result.exit_code == 0, result.output
    run = load_run(next(out.iterdir()))
    sliced = run.details["slices"]
    gold = _rows(sliced, "gold")
    assert {k: r["n"] for k, r in gold.items()} == {
        "supported": 1,
        "insufficient_evidence": 1,
        "partial": 1,
    }
    assert sum(r["n"] for r in sliced["route"]) == 3
    assert _rows(sliced, "mode")["offline"]["n"] == 3
    assert "point in time" in _rows(sliced, "qualifier_label")
    assert {r["route"] for r in run.details["rows"]} <= {"simple", "complex"}
    assert re.search(r"gold label +rows +share +3-way rows +triqua accuracy", result.output)
    # Offline, facts are verified directly (no check run), and the stamp says so.
    assert run.runs == {"check_runs": 0, "with_stamp_settings": 0}
    markdown = (next(out.iterdir()) / "result.md").read_text()
    assert "| check runs | none: facts verified directly" in markdown

    out = tmp_path / "diag-results"
    result = runner.invoke(
        app,
        ["eval", "diagnostics", "--bios", str(_bios(tmp_path)), "--out", str(out), "--yes"],
        env={"COLUMNS": "250"},
    )
    assert result.exit_code == 0, result.output
    folder = next(out.iterdir())
    run = load_run(folder)
    sliced = run.details["slices"]
    assert list(sliced) == ["route", "mode", "qualifier_label"]
    assert sum(r["n"] for r in sliced["route"]) == run.headline["facts"]
    assert "entailed_rate" in sliced["mode"][0]
    judged = [json.loads(line) for line in (folder / "judged-facts.jsonl").read_text().splitlines()]
    assert {row["route"] for row in judged} <= {"simple", "complex"}
    assert re.search(r"route +facts +share +entailed \(rules\)", result.output)
