"""Run limits reached part-way: model calls (``max_calls``) and Chroma's search budget.

A limit that is reached loses nothing: the facts it stopped end insufficient_evidence with
the reason recorded, and the report and the terminal say which limit and what it skipped.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import triqua
from tests.conftest_chroma import ChromaStore, chroma_server, chroma_store  # noqa: F401
from tests.test_limits import DOCS, Responder, complex_text, notes, simple_text
from triqua.cli import app
from triqua.core.budget.limits import LIMIT_NOTE_PREFIX, MODEL_CALL_LIMIT
from triqua.engines.factory import register_model
from triqua.schema import Report, Status
from triqua.testing import ScriptedChatModel
from triqua.tools.ingest import ingest_paths

pytestmark = [
    pytest.mark.usefixtures("per_fact_verification"),  # per-fact calls counted or faulted
    pytest.mark.timeout(180),
    pytest.mark.filterwarnings("ignore:The 'initial' parameter is deprecated"),
]

runner = CliRunner()


def scripted(responder: Responder | None = None) -> ScriptedChatModel:
    return ScriptedChatModel(responder=responder or Responder())


def limited(report: Report) -> list[Any]:
    return [r for r in report.records if MODEL_CALL_LIMIT in (r.verdict.error or "")]


# --- max_calls --------------------------------------------------------------------------------


def test_max_calls_records_the_facts_it_stops_and_says_so() -> None:
    model = scripted()
    report = triqua.check(
        simple_text(6), model=model, documents=DOCS, chunk_size=0, cache=False, max_calls=4
    )
    assert len(model.calls) == 4  # one decomposition, three verifications
    assert report.usage.model_calls == 4
    assert len(report.records) == 6, "every fact is recorded"
    stopped = limited(report)
    assert len(stopped) == 3
    for record in stopped:
        assert record.verdict.status is Status.INSUFFICIENT
        assert record.verdict.error == f"{MODEL_CALL_LIMIT} (max_calls=4): not verified"
    assert sum(r.verdict.status is Status.SUPPORTED for r in report.records) == 3
    (note,) = [n for n in report.notes if n.startswith(LIMIT_NOTE_PREFIX)]
    assert note.startswith(f"{LIMIT_NOTE_PREFIX}max_calls=4 ({MODEL_CALL_LIMIT})")
    assert "3 facts not verified" in note


def test_max_calls_zero_decomposes_nothing_and_notes_the_chunks() -> None:
    model = scripted()
    report = triqua.check(simple_text(4), model=model, documents=DOCS, cache=False, max_calls=0)
    assert model.calls == [] and report.records == [] and report.score is None
    assert any("max_calls=0" in n and "chunks not decomposed" in n for n in report.notes)


def test_max_calls_stops_reverification_with_a_recorded_round() -> None:
    model = scripted(Responder(leave_partner_open=True))
    report = triqua.check(
        complex_text(1),
        model=model,
        retriever=notes(),
        cache=False,
        reverify_rounds=5,
        routing="always_element",
        max_calls=3,  # decompose, verify, one refinement: the round's judge call is refused
    )
    (record,) = report.records
    assert len(model.calls) == 3
    assert record.rounds and record.rounds[-1].stop_reason == MODEL_CALL_LIMIT
    assert record.verdict.status is Status.INSUFFICIENT
    assert any("re-verification rounds not run" in n for n in report.notes)


def test_cache_hits_spend_no_model_calls() -> None:
    text, model = simple_text(3), scripted()
    first = triqua.check(text, model=model, documents=DOCS, chunk_size=0, max_calls=10)
    assert first.usage.model_calls == 4 and len(model.calls) == 4
    again = triqua.check(text, model=model, documents=DOCS, chunk_size=0, max_calls=1)
    assert len(model.calls) == 4 and not limited(again), "cache hits are not model calls"
    assert [r.verdict.status for r in again.records] == [r.verdict.status for r in first.records]


def test_max_calls_on_the_command_line_warns_and_keeps_every_fact(tmp_path: Path) -> None:
    name = register_model(f"calls-{os.urandom(4).hex()}", scripted())
    evidence = tmp_path / "docs.txt"
    evidence.write_text("\n\n".join(DOCS), encoding="utf-8")
    result = runner.invoke(
        app,
        [
            *("check", simple_text(5), "-e", str(evidence), "-m", name, "--chunk-size", "0"),
            *("--max-calls", "3", "--json", "--no-store", "--no-cache"),
        ],
    )
    assert result.exit_code == 0, result.output
    report = Report.model_validate_json(result.stdout)
    assert len(report.records) == 5 and len(limited(report)) == 3
    assert f"warning: {LIMIT_NOTE_PREFIX}max_calls=3" in result.stderr
    assert "3 facts not verified" in result.stderr


def test_batch_says_which_item_reached_a_limit(tmp_path: Path) -> None:
    name = register_model(f"calls-{os.urandom(4).hex()}", scripted())
    source = tmp_path / "in.jsonl"
    source.write_text(
        f'{{"id": "x", "text": "{simple_text(3)}", "evidence": ["{DOCS[0]}", "{DOCS[1]}"]}}\n',
        encoding="utf-8",
    )
    result = runner.invoke(
        app,
        [
            *("batch", str(source), "-o", str(tmp_path / "out.jsonl"), "-m", name),
            *("--max-calls", "2", "--chunk-size", "0"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert re.search(
        rf"warning: .*in\.jsonl:1: id 'x': {LIMIT_NOTE_PREFIX}max_calls=2", result.stderr
    )


# --- the search budget covers Chroma ------------------------------------------------------------


@pytest.fixture
def corpus(tmp_path: Path, chroma_store: ChromaStore) -> ChromaStore:  # noqa: F811
    folder = tmp_path / "corpus"
    folder.mkdir()
    for index, doc in enumerate(DOCS[:8]):
        (folder / f"{index}.txt").write_text(doc, encoding="utf-8")
    ingest_paths([folder], chroma_store.collection, **chroma_store.options)
    return chroma_store


@pytest.mark.slow
def test_max_searches_bounds_chroma_searches(corpus: ChromaStore) -> None:
    store = {"chroma_url": corpus.url} if corpus.url else {"chroma_path": str(corpus.path)}
    report = triqua.check(
        simple_text(6),
        model=scripted(),
        retriever="chroma",
        collection=corpus.collection,
        chunk_size=0,
        cache=False,
        max_searches=2,
        **store,
    )
    assert len(report.records) == 6
    assert report.usage.search_calls == 2
    unsearched = [r for r in report.records if not r.usage.search_calls]
    assert len(unsearched) == 4
    assert all("search budget spent" in (r.verdict.error or "") for r in unsearched)
    assert all(r.verdict.status is Status.INSUFFICIENT for r in unsearched)
    assert any(n.startswith(f"{LIMIT_NOTE_PREFIX}max_searches=2: 4 searches") for n in report.notes)
    name = register_model(f"chroma-{os.urandom(4).hex()}", scripted())
    result = runner.invoke(
        app,
        [
            *("check", simple_text(3), "-m", name, "--retriever", "chroma"),
            *("--collection", corpus.collection, "--chunk-size", "0", "--max-searches", "1"),
            *("--json", "--no-store", "--no-cache"),
        ],
        env=corpus.env,
    )
    assert result.exit_code == 0, result.output
    cli_report = Report.model_validate_json(result.stdout)
    assert cli_report.usage.search_calls == 1 and len(cli_report.records) == 3
    assert f"warning: {LIMIT_NOTE_PREFIX}max_searches=1: 2 searches" in result.stderr


# --- every limit is documented in --help --------------------------------------------------------


@pytest.mark.parametrize("command", ["check", "batch"])
def test_help_lists_every_limit_with_its_default(command: str) -> None:
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "250"})
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    for option, default in [
        ("--max-facts", "5000"),
        ("--max-input-chars", "2000000"),
        ("--max-evidence-bytes", "20000000"),
        ("--max-calls", "10000"),
        ("--max-searches", "50"),
    ]:
        assert option in text
        at = text.index(option)
        assert (
            f"(default: {default})" in text[at : at + 300]
            or f"or {default})" in text[at : at + 300]
        ), option
    assert "--allow-path" in text
