"""Re-grading: new verdicts are appended as a revision; old ones stay readable."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import triqua
from triqua.cli import app
from triqua.engines.factory import register_model
from triqua.runtime.resources import register_retriever
from triqua.schema import Evidence, Status
from triqua.store import RunStore
from triqua.testing import best_quote, fenced, passages
from triqua.tools.base import Retriever, SearchBudget, SearchResult

from .conftest import CURIE, FRANCE

DOCS = [
    "France had a population of 64.5 million in 2025, excluding overseas departments.",
    "Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie.",
]
TEXT = f"{FRANCE} {CURIE}"


def contradicts_all(fact: str, prompt: str) -> dict[str, Any]:
    """A stricter judge: everything is contradicted by the first passage."""
    ids = re.findall(r"<<<EVIDENCE id=(ev-[0-9a-f]+)>>>", prompt)
    return {"status": "contradicted", "evidence_ids": ids[:1], "rationale": "strict"}


def rows(path: Path, table: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as conn:
        return conn.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall()


@pytest.fixture
def stored(scripted: Any, tmp_path: Path) -> tuple[RunStore, triqua.Report]:
    store = RunStore(tmp_path / "runs.sqlite")
    report = triqua.check(TEXT, documents=DOCS, model=scripted(), store=store)
    return store, report


def test_regrade_appends_a_revision_and_keeps_the_old_one(
    scripted: Any, stored: tuple[RunStore, triqua.Report]
) -> None:
    store, original = stored
    verdicts_before = rows(store.path, "verdicts")
    evidence_before = rows(store.path, "evidence")
    reports_before = rows(store.path, "reports")
    strict = scripted(judge=contradicts_all)
    regraded = triqua.regrade(original.run_id, model=strict, store=store)

    assert [r.verdict.status for r in regraded.records] == [Status.CONTRADICTED] * 2
    assert [r.verdict.revision for r in regraded.records] == [1, 1]
    assert [r.history for r in regraded.records] == [[r.verdict] for r in original.records]
    assert regraded.scores.claim_level_score == 0.0
    assert original.scores.claim_level_score == 0.5
    # The sentence-level view is rebuilt from the new verdicts.
    assert [s.status for s in regraded.sentences] == [Status.CONTRADICTED] * 2
    assert len(original.sentences) == 2
    # The old rows are untouched; new verdict and report rows were added, no new evidence.
    assert rows(store.path, "verdicts")[: len(verdicts_before)] == verdicts_before
    assert len(rows(store.path, "verdicts")) == 2 * len(verdicts_before)
    assert rows(store.path, "evidence") == evidence_before
    assert rows(store.path, "reports")[:1] == reports_before
    assert store.report(original.run_id, revision=0) == original
    assert store.report(original.run_id) == regraded
    # Reused evidence: the judge saw exactly the stored passages.
    seen = {m for _, p in strict.calls for m in re.findall(r"id=(ev-[0-9a-f]+)>>>", p)}
    assert seen == {e.id for r in original.records for e in r.evidence}
    assert [r.evidence for r in regraded.records] == [r.evidence for r in original.records]
    assert regraded.usage.model_calls == 2 and regraded.usage.search_calls == 0


def test_every_regrade_is_one_more_revision(
    scripted: Any, stored: tuple[RunStore, triqua.Report]
) -> None:
    store, original = stored
    triqua.regrade(original.run_id, model=scripted(judge=contradicts_all), store=store)
    latest = triqua.regrade(original.run_id[:10], model=scripted(), store=store)
    assert [len(r.history) for r in latest.records] == [2, 2]
    history = store.history(original.run_id)
    assert [v.revision for v in history["f1"]] == [0, 1, 2]
    assert [v.status for v in history["f2"]] == [
        Status.SUPPORTED,
        Status.CONTRADICTED,
        Status.SUPPORTED,
    ]
    assert [store.report(original.run_id, revision=i).score for i in range(3)] == [
        original.score,
        0.0,
        original.score,
    ]


def test_regrade_normalises_like_the_verify_node(scripted: Any, tmp_path: Path) -> None:
    def bare(fact: str, prompt: str) -> dict[str, Any]:
        # No unit verdicts although asked for: settle() must derive one per unit (and ground it).
        ev_id, text = next((i, t) for i, t in passages(prompt).items() if "France" in t)
        return {"status": "supported", "evidence_ids": [ev_id], "quote": best_quote(text, fact)}

    store = RunStore(tmp_path / "runs.sqlite")
    original = triqua.check(
        FRANCE, documents=DOCS, model=scripted(), store=store, routing="always_element"
    )
    regraded = triqua.regrade(original.run_id, model=scripted(judge=bare), store=store)
    (france,) = regraded.records
    assert france.route == "complex"
    units = france.verdict.unit_verdicts
    assert [u.unit for u in units] == [u.text for u in france.fact.units()]
    status = {u.unit: u for u in units}
    assert status["(France, has population, 64.5 million)"].status is Status.SUPPORTED
    assert status["(excluding, overseas departments)"].status is Status.SUPPORTED
    assert all(u.evidence_ids and u.quote for u in units if u.status is Status.SUPPORTED)
    # The passage says 2025: the judge's "supported" cannot stand for the 2026 qualifier.
    year = status["(point in time, 2026)"]
    assert year.status is Status.INSUFFICIENT
    assert "quote lacks value 2026" in (year.grounding or "")
    assert france.verdict.status is Status.INSUFFICIENT


class Fresh(Retriever):
    """A budgeted retriever whose passages change after every search (a moving web)."""

    name = "fresh"
    revision = "fresh/1"
    uses_budget = True

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        self._count_call()
        text = f"{query} (edition {self.calls})"
        return SearchResult(evidence=[Evidence.build(document_id="web", text=text, retriever="w")])


def test_search_again_appends_new_evidence_and_keeps_the_old(scripted: Any, tmp_path: Path) -> None:
    retriever = Fresh()
    name = register_retriever(f"fresh-{id(retriever)}", retriever)
    store = RunStore(tmp_path / "runs.sqlite")
    original = triqua.check(CURIE, model=scripted(), retriever=name, store=store, cache=False)
    searches = retriever.calls
    reused = triqua.regrade(original.run_id, model=scripted(), store=store)
    assert retriever.calls == searches
    assert reused.records[0].evidence == original.records[0].evidence
    evidence_rows = len(rows(store.path, "evidence"))
    again = triqua.regrade(original.run_id, model=scripted(), store=store, search_again=True)
    assert retriever.calls > searches
    assert again.usage.search_calls == retriever.calls - searches
    assert again.records[0].evidence != original.records[0].evidence
    assert len(rows(store.path, "evidence")) > evidence_rows
    assert store.report(original.run_id, revision=0).records[0].evidence == (
        original.records[0].evidence
    )
    assert store.report(original.run_id, revision=1).records[0].evidence == (
        original.records[0].evidence
    )


def test_regrade_needs_a_judge_it_can_rebuild(stored: tuple[RunStore, triqua.Report]) -> None:
    store, original = stored
    from triqua.support import instances as instances

    instances._INSTANCES.clear()  # as in a new process: the run's model instance is gone
    with pytest.raises(ValueError, match="choose a judge with model="):
        triqua.regrade(original.run_id, store=store)
    with pytest.raises(KeyError, match="no run"):
        triqua.regrade("nope", store=store)


def test_cli_regrade_and_history(scripted: Any, stored: tuple[RunStore, triqua.Report]) -> None:
    store, original = stored
    name = register_model("regrade-cli", scripted(judge=contradicts_all))
    runner = CliRunner()
    result = runner.invoke(
        app,
        ["regrade", original.run_id[:8], "-m", name, "--store", str(store.path)],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    assert "revision 1" in result.stderr and "contradicted" in result.stdout
    history = runner.invoke(
        app,
        ["show", original.run_id, "--history", "--store", str(store.path)],
        env={"COLUMNS": "200"},
    )
    assert history.exit_code == 0
    lines = [line for line in history.stdout.splitlines() if "│ f" in line]
    assert [line.split("│")[3].strip() for line in lines] == ["0", "1", "0", "1"]
    assert "supported" in history.stdout and "contradicted" in history.stdout, history.stdout
    missing = runner.invoke(app, ["regrade", "nope", "--store", str(store.path)])
    assert missing.exit_code != 0 and missing.stderr.startswith("error: no run 'nope'")


def test_regrade_asks_the_judge_even_when_cached(
    scripted: Any, stored: tuple[RunStore, triqua.Report]
) -> None:
    store, original = stored
    model = scripted()
    triqua.regrade(original.run_id, model=model, store=store)
    triqua.regrade(original.run_id, model=model, store=store)
    assert len(model.calls) == 4
    assert all(fenced(p, "FACT") for _, p in model.calls)


@pytest.mark.slow
def test_cli_regrade_searches_a_chroma_collection_named_now(
    scripted: Any, stored: tuple[RunStore, triqua.Report], tmp_path: Path
) -> None:
    from triqua.tools.ingest import ingest_paths

    store, original = stored
    (tmp_path / "curie.md").write_text(DOCS[1], "utf-8")
    chroma = tmp_path / "chroma"
    ingest_paths([tmp_path / "curie.md"], "regrade-docs", path=chroma)
    name = register_model("regrade-chroma", scripted())
    args = ["regrade", original.run_id, "-m", name, "--store", str(store.path), "--json"]
    result = CliRunner().invoke(
        app,
        [*args, "--retriever", "chroma", "--chroma-path", str(chroma)],
        env={"TRIQUA_COLLECTION": "regrade-docs"},  # the collection from the environment
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    sources = {e["retriever"] for r in report["records"] for e in r["evidence"]}
    assert sources == {"chroma"}
    assert report["spec"]["corpus_snapshot"]["collection"] == "regrade-docs"


def test_the_regrade_spec_is_what_regrade_applied(
    scripted: Any, stored: tuple[RunStore, triqua.Report]
) -> None:
    from triqua.regrade import regrade

    store, original = stored
    plain = regrade(original.run_id, model=scripted(), store=store)
    costly = regrade(original.run_id, model=scripted(), store=store, cost_false_supported=9.0)
    assert plain.spec.verdict_policy.reverify_rounds == 0  # regrade never re-verifies
    assert costly.spec.failure_costs is not None
    assert costly.spec.failure_costs.false_supported == 9.0
    assert costly.spec.hash != plain.spec.hash  # a setting that moves verdicts moves the hash
    assert "temperature" in plain.spec.models
    # The grounding rule is this regrade's, recorded with it.
    judged = regrade(original.run_id, model=scripted(), store=store, grounding="judge")
    assert (original.spec.grounding, plain.spec.grounding) == ("judged", "judged")
    assert judged.spec.grounding == "judge" and judged.spec.hash != plain.spec.hash


def test_cli_regrade_with_a_missing_collection_is_one_line(
    stored: tuple[RunStore, triqua.Report], tmp_path: Path
) -> None:
    store, original = stored
    args = ["regrade", original.run_id, "--store", str(store.path), "--retriever", "chroma"]
    result = CliRunner().invoke(
        app, [*args, "--collection", "nowhere", "--chroma-path", str(tmp_path / "chroma")]
    )
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "collection 'nowhere' not found" in lines[0]


def test_regrade_judges_element_claims_again_and_keeps_the_old_ones(
    scripted: Any, tmp_path: Path
) -> None:
    """A complex fact's element claims are judged again; revision 0 still has the old ones."""
    store = RunStore(tmp_path / "runs.sqlite")
    original = triqua.check(
        CURIE, documents=DOCS, model=scripted(), store=store, routing="always_element"
    )
    before = [c for r in original.records for c in r.elements]
    assert before and all(r.route == "complex" for r in original.records)
    assert all(c.judged is Status.SUPPORTED for c in before)

    strict = scripted(judge=contradicts_all)
    regraded = triqua.regrade(original.run_id, model=strict, store=store)

    after = [c for r in regraded.records for c in r.elements]
    assert [c.unit for c in after] == [c.unit for c in before]
    assert all(c.judged is Status.CONTRADICTED for c in after)
    (sentence,) = regraded.sentences
    assert sentence.elements == after and sentence.status is Status.CONTRADICTED
    # One call for the fact and one per element, each charged to the record.
    calls = sum(1 + len({c.element for c in r.elements}) for r in original.records)
    assert len(strict.calls) == calls == regraded.usage.model_calls
    # Append-only: the stored revisions rebuild each one's own element claims.
    assert store.report(original.run_id, revision=0) == original
    assert store.report(original.run_id) == regraded
