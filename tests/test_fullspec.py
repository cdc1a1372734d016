"""The whole FactualitySpec: decision, failure costs, population, corpus snapshot, citations."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import triqua
from triqua.cli import app
from triqua.context import Context
from triqua.core.verdicts.abstention import rationale_of_final, withhold_unconfident
from triqua.runtime.resources.spec import corpus_snapshot
from triqua.schema import (
    CitationPolicy,
    CorpusSnapshot,
    FactualitySpec,
    FailureCosts,
    Status,
    UnitVerdict,
    Verdict,
    sha256_text,
)
from triqua.schema.spec import bayes_threshold
from triqua.testing import ScriptedChatModel, best_quote, fenced, passages, shown_text
from triqua.tools.ingest import ingest_paths

from .conftest import CURIE, EVIDENCE_ID, PARIS, decompose_by_table
from .conftest_chroma import ChromaStore, chroma_server, chroma_store  # noqa: F401

DOCS = [CURIE, PARIS]


def test_a_spec_stored_before_the_new_fields_keeps_its_hash() -> None:
    old = FactualitySpec(authority="the supplied documents", corpus="c").model_dump(mode="json")
    later = ("decision", "failure_costs", "case_population", "corpus_snapshot", "citations")
    for name in (*later, "grounding"):
        del old[name]
    stored_hash = old.pop("hash")
    # The hash as version-1 triqua computed it: the canonical JSON of every field.
    canonical = json.dumps(old, sort_keys=True, separators=(",", ":"))
    assert stored_hash == sha256_text(canonical)
    loaded = FactualitySpec.model_validate({**old, "hash": stored_hash})
    assert loaded.hash == stored_hash and loaded.decision is None


@pytest.mark.parametrize(
    "update",
    [
        {"decision": "publish gate"},
        {"failure_costs": FailureCosts(false_supported=4, false_contradicted=1)},
        {"case_population": "news answers, 2024"},
        {"corpus_snapshot": CorpusSnapshot(kind="chroma", collection="c", count=3)},
        {"citations": CitationPolicy()},
    ],
)
def test_every_new_field_changes_the_hash(update: dict[str, Any]) -> None:
    base = FactualitySpec()
    changed = base.model_copy(update=update)
    assert changed.hash != base.hash
    # ... and each value of it, too.
    if "citations" in update:
        other = changed.model_copy(update={"citations": CitationPolicy(partial_weight=0.25)})
        assert other.hash != changed.hash
    if "failure_costs" in update:
        costs = FailureCosts(false_supported=1, false_contradicted=1)
        assert changed.model_copy(update={"failure_costs": costs}).hash != changed.hash


def test_failure_costs_set_the_bayes_threshold() -> None:
    assert FailureCosts(false_supported=4, false_contradicted=1).supported_threshold == 0.8
    assert bayes_threshold(1, 3) == 0.25
    with pytest.raises(ValueError, match="not both zero"):
        FailureCosts(false_supported=0, false_contradicted=0)
    with pytest.raises(ValueError, match="partial"):
        CitationPolicy(complete_weight=0.4, partial_weight=0.5)


@pytest.mark.slow
def test_the_api_records_decision_costs_population_and_snapshot() -> None:
    report = triqua.check(
        CURIE,
        documents=DOCS,
        decision="publish gate",
        case_population="biographies",
        cost_false_supported=3,
        citation_partial_weight=0.25,
    )
    spec = report.spec
    assert spec.decision == "publish gate" and spec.case_population == "biographies"
    assert spec.failure_costs == FailureCosts(false_supported=3, false_contradicted=1)
    assert spec.failure_costs.supported_threshold == 0.75
    assert spec.citations == CitationPolicy(partial_weight=0.25)
    snap = spec.corpus_snapshot
    assert snap is not None and snap.kind == "supplied" and snap.count == 2
    assert sorted(snap.documents.values()) == sorted(sha256_text(d) for d in DOCS)
    assert snap.content_hash == sha256_text("\n".join(sorted(snap.documents.values())))
    assert all(r.spec_hash == spec.hash for r in report.records)
    plain = triqua.check(CURIE, documents=DOCS)
    assert plain.spec.failure_costs is None and plain.spec.hash != spec.hash
    edited = triqua.check(CURIE, documents=[CURIE, PARIS + " Really."])
    assert edited.spec.corpus_snapshot is not None
    assert edited.spec.corpus_snapshot.content_hash != snap.content_hash


def test_overrides_describe_the_use_but_cannot_change_costs_or_snapshot() -> None:
    report = triqua.check(
        CURIE,
        documents=DOCS,
        decision="triage",
        spec_overrides={"decision": "audit", "case_population": "lab notes"},
    )
    assert report.spec.decision == "audit" and report.spec.case_population == "lab notes"
    costs = {"false_supported": 9, "false_contradicted": 1}
    with pytest.raises(ValueError, match="spec_overrides\\['failure_costs'\\]"):
        triqua.check(CURIE, documents=DOCS, spec_overrides={"failure_costs": costs})
    with pytest.raises(ValueError, match="corpus_snapshot"):
        triqua.check(
            CURIE, documents=DOCS, spec_overrides={"corpus_snapshot": {"kind": "supplied"}}
        )
    with pytest.raises(ValueError, match="unknown spec field"):
        triqua.check(CURIE, documents=DOCS, spec_overrides={"citations": {"span": "x", "y": 1}})


@pytest.mark.parametrize(
    ("settings", "match"),
    [
        ({"cost_false_supported": -1.0}, "failure costs"),
        ({"cost_false_supported": 0.0, "cost_false_contradicted": 0.0}, "not both zero"),
        ({"citation_partial_weight": 0.8, "citation_complete_weight": 0.5}, "citation weights"),
    ],
)
def test_bad_costs_and_weights_are_refused(settings: dict[str, float], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        Context(**settings).validate()  # type: ignore[arg-type]


def test_web_snapshots_record_the_date_searched() -> None:
    dated = corpus_snapshot("tavily", Context(as_of="2024-05-01"))
    assert dated.as_of == date(2024, 5, 1) and dated.count is None
    assert corpus_snapshot("tavily", Context()).as_of == datetime.now(UTC).date()
    closed = corpus_snapshot("closed_book", Context())
    assert closed.as_of is None and closed.content_hash is None


def test_chroma_snapshot_counts_and_hashes_the_collection(
    tmp_path: Path,
    chroma_store: ChromaStore,  # noqa: F811
) -> None:
    (tmp_path / "a.md").write_text(CURIE, "utf-8")
    ingest_paths([tmp_path / "a.md"], chroma_store.collection, **chroma_store.options)
    context = Context(
        retriever="chroma",
        collection=chroma_store.collection,
        chroma_path=str(chroma_store.path) if chroma_store.path else None,
        chroma_url=chroma_store.url,
    )
    first = corpus_snapshot("chroma", context)
    assert first.count == 1 and first.content_hash and first.note is None
    assert corpus_snapshot("chroma", context) == first  # same collection, same snapshot
    (tmp_path / "b.md").write_text(PARIS, "utf-8")
    ingest_paths([tmp_path / "b.md"], chroma_store.collection, **chroma_store.options)
    second = corpus_snapshot("chroma", context)
    assert second.count == 2 and second.content_hash != first.content_hash
    missing = corpus_snapshot("chroma", Context(collection="nope", chroma_path=context.chroma_path))
    assert missing.count is None and "not found" in (missing.note or "")


def judge_with(confidence: float) -> Callable[[str, str], dict[str, Any]]:
    """A scripted judge that supports every fact, quoting it, at ``confidence``."""

    def respond(tool: str, prompt: str) -> dict[str, Any]:
        if tool == "ExtractedFacts":
            return decompose_by_table(shown_text(prompt))
        ids = EVIDENCE_ID.findall(prompt)
        passage = passages(prompt)[ids[0]]
        return {
            "status": "supported",
            "evidence_ids": ids[:1],
            "quote": best_quote(passage, fenced(prompt, "FACT")),
            "confidence": confidence,
        }

    return respond


@pytest.mark.parametrize(
    ("confidence", "costs", "status"),
    [
        (0.7, {"cost_false_supported": 4.0}, Status.INSUFFICIENT),  # threshold 0.8
        (0.85, {"cost_false_supported": 4.0}, Status.SUPPORTED),
        (0.7, {"cost_false_supported": 1.0, "cost_false_contradicted": 1.0}, Status.SUPPORTED),
        (0.3, {}, Status.SUPPORTED),  # no costs: no threshold
    ],
)
def test_the_abstention_threshold_withholds_unconfident_support(
    confidence: float, costs: dict[str, float], status: Status
) -> None:
    model = ScriptedChatModel(responder=judge_with(confidence))
    report = triqua.check(PARIS, documents=[PARIS], model=model, chunk_size=0, **costs)
    (record,) = report.records
    assert record.verdict.status is status
    if status is Status.INSUFFICIENT:
        assert record.verdict.abstention is not None
        assert "confidence 0.70 < threshold 0.80" in record.verdict.abstention
        assert record.verdict.unit_verdicts[0].abstention is not None
        assert report.score == 0.0
        # The reason is shown where the quote is, in the terminal and the HTML report.
        from rich.console import Console

        from triqua.rendering.html import render_html
        from triqua.rendering.terminal import facts_table

        console = Console(width=200, record=True)
        console.print(facts_table(report))
        shown = console.export_text()
        assert "withheld" in shown and "0.70" in shown
        assert "supported withheld: confidence 0.70" in render_html(report)
    else:
        assert record.verdict.abstention is None


def test_withholding_keeps_contradictions_and_confidence_free_verdicts() -> None:
    units = [
        UnitVerdict(unit="(a, b, c)", kind="base", status=Status.SUPPORTED, confidence=0.9),
        UnitVerdict(unit="(x, 1)", kind="qualifier", status=Status.SUPPORTED, confidence=0.6),
        UnitVerdict(unit="(y, 2)", kind="qualifier", status=Status.CONTRADICTED),
    ]
    verdict = Verdict(status=Status.CONTRADICTED, unit_verdicts=units, confidence=0.5)
    out = withhold_unconfident(verdict, 0.75)
    assert [u.status for u in out.unit_verdicts] == [
        Status.SUPPORTED,
        Status.INSUFFICIENT,
        Status.CONTRADICTED,
    ]
    assert out.abstention == "(x, 1): supported withheld: confidence 0.60 < threshold 0.75"
    bare = Verdict(status=Status.SUPPORTED)
    assert withhold_unconfident(bare, 0.99) == bare


def test_cli_flags_set_the_spec_and_show_prints_it(tmp_path: Path) -> None:
    runner = CliRunner()
    evidence = tmp_path / "e.md"
    evidence.write_text(PARIS, "utf-8")
    store = tmp_path / "runs.sqlite"
    args = ["check", PARIS, "-e", str(evidence), "--store", str(store), "--json"]
    flags = [
        "--decision",
        "publish gate",
        "--case-population",
        "travel answers",
        "--cost-false-supported",
        "3",
        "--cost-false-contradicted",
        "1",
        "--citation-weights",
        "complete=1,partial=0.3",
    ]
    result = runner.invoke(app, args + flags)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    spec = report["spec"]
    assert spec["decision"] == "publish gate"
    assert spec["case_population"] == "travel answers"
    assert spec["failure_costs"]["supported_threshold"] == 0.75
    assert spec["citations"]["partial_weight"] == 0.3
    assert spec["corpus_snapshot"]["documents"] == {
        next(iter(spec["corpus_snapshot"]["documents"])): sha256_text(PARIS)
    }
    shown = runner.invoke(app, ["show", report["run_id"], "--store", str(store)])
    assert shown.exit_code == 0, shown.output
    for text in ("publish gate", "travel answers", "supported_threshold", "0.75", "0.3"):
        assert text in shown.stdout, text
    bad = runner.invoke(app, [*args, "--citation-weights", "full=1"])
    assert bad.exit_code == 2 and "complete=W,partial=W" in bad.output


def test_a_withheld_verdicts_rationale_says_its_final_verdict() -> None:
    judge = judge_with(0.7)

    def respond(tool: str, prompt: str) -> Any:
        answer = judge(tool, prompt)
        if tool == "ExtractedFacts":
            return answer
        return {**answer, "rationale": "The passage states it: supported."}

    model = ScriptedChatModel(responder=respond)
    report = triqua.check(
        PARIS, documents=[PARIS], model=model, chunk_size=0, cost_false_supported=4.0
    )
    (record,) = report.records
    assert record.verdict.status is Status.INSUFFICIENT
    rationale = record.verdict.rationale
    assert rationale.startswith("Final verdict insufficient_evidence: ")
    assert "confidence 0.70 < threshold 0.80" in rationale.splitlines()[0]
    # The offline judge's one line per unit is rewritten in place.
    units = [UnitVerdict(unit="(a, b, c)", kind="base", status=Status.SUPPORTED, confidence=0.6)]
    judged = Verdict(
        status=Status.SUPPORTED,
        unit_verdicts=units,
        rationale='(a, b, c): supported (entailed) — [e1] "a b c"',
    )
    final = withhold_unconfident(judged, 0.75)
    assert rationale_of_final(judged, final) == (
        "(a, b, c): insufficient_evidence (supported withheld: confidence 0.60 < threshold 0.75)"
    )
    assert rationale_of_final(judged, judged) == judged.rationale  # unchanged: as judged
