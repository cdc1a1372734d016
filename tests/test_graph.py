"""The whole pipeline driven by scripted chat models and supplied documents."""

from __future__ import annotations

from typing import Any

import pytest

import triqua
from triqua.graph.main import build_graph
from triqua.schema import Status
from triqua.testing import fenced, shown_text

from .conftest import CURIE, FRANCE, PARIS

# About per-fact verification calls (counted, faulted or stalled one by one).
pytestmark = pytest.mark.usefixtures("per_fact_verification")

DOCS = [
    "France had a population of 64.5 million in 2025, excluding overseas departments.",
    "Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie.",
]


def test_end_to_end_with_supplied_documents(scripted: Any) -> None:
    model = scripted()
    report = triqua.check(f"{FRANCE} {CURIE}", documents=DOCS, model=model)
    assert [r.claim_id for r in report.records] == ["f1", "f2"]
    france, curie = report.records
    assert france.verdict.status is Status.CONTRADICTED
    assert france.verdict.wrong_components == ["(point in time, 2026)"]
    assert curie.verdict.status is Status.SUPPORTED
    assert curie.verdict.evidence_ids and curie.evidence
    # France: 2 of 3 units supported; Curie: 2 of 2.
    assert report.scores.triqua_score == pytest.approx(4 / 5)
    assert report.scores.claim_level_score == pytest.approx(1 / 2)
    assert report.spec.mode.value == "supplied_context"
    assert all(r.spec_hash == report.spec.hash for r in report.records)
    assert report.usage.model_calls >= 3  # 1 decomposition + 2 verifications
    assert triqua.Report.model_validate_json(report.model_dump_json()) == report


def test_spans_point_into_the_text(scripted: Any) -> None:
    text = f"{PARIS}\n\n{FRANCE}"
    report = triqua.check(text, documents=DOCS, model=scripted(), chunk_size=40)
    for record in report.records:
        span = record.fact.span
        assert span is not None
        assert text[span.start : span.end] == record.fact.source_text


def test_decomposition_fans_out_per_chunk_with_previous_chunk(scripted: Any) -> None:
    model = scripted()
    text = f"{PARIS} {CURIE} {FRANCE}"
    triqua.check(text, documents=DOCS, model=model, chunk_size=60, decompose_batch_chars=0)
    prompts = [p for tool, p in model.calls if tool == "ExtractedFacts"]
    assert len(prompts) >= 3
    assert all("Mode: chunks." in p for p in prompts)
    # The real input follows the few-shot examples: its message starts at the last "Mode:".
    inputs = [p[p.rfind("Mode: ") :] for p in prompts]
    first = next(i for i in inputs if shown_text(i).startswith(PARIS))
    assert "<<<PREVIOUS>>>" not in first  # the first chunk has no previous chunk
    assert any(PARIS in fenced(i, "PREVIOUS") for i in inputs)


def test_question_mode_is_used_when_a_question_is_given(scripted: Any) -> None:
    model = scripted()
    triqua.check(
        CURIE, question="Tell me about Marie Curie", documents=DOCS, model=model, chunk_size=0
    )
    prompt = next(p for tool, p in model.calls if tool == "ExtractedFacts")
    assert "Mode: question." in prompt and "<<<QUESTION>>>" in prompt


def test_no_checkable_facts_gives_undefined_score(scripted: Any) -> None:
    report = triqua.check("What a lovely day it is!", documents=DOCS, model=scripted())
    assert report.records == []
    assert report.scores.triqua_score is None
    assert any("undefined" in note for note in report.notes)


def test_empty_text_is_a_clear_error(scripted: Any) -> None:
    with pytest.raises(ValueError, match="text is empty"):
        triqua.check("   \n", documents=DOCS, model=scripted())


def test_a_graph_input_without_text_says_so(scripted: Any) -> None:
    graph = build_graph()
    context = triqua.make_context(model=scripted())
    with pytest.raises(ValueError, match="text is missing: the input has no 'text'"):
        graph.invoke({"question": "Who won?", "documents": DOCS}, context=context)
    with pytest.raises(ValueError, match="text is empty"):
        graph.invoke({"text": " ", "documents": DOCS}, context=context)


@pytest.mark.slow
def test_malformed_model_output_is_recorded_never_supported(scripted: Any) -> None:
    model = scripted(judge=lambda fact, prompt: "this is not json {")
    report = triqua.check(CURIE, documents=DOCS, model=model, max_output_retries=1)
    (record,) = report.records
    assert record.verdict.status is Status.INSUFFICIENT
    assert record.verdict.error and "malformed" in record.verdict.error
    assert report.failures == 1
    verify_calls = [1 for tool, _ in model.calls if tool == "Judgement"]
    assert len(verify_calls) == 2  # first try + one retry, then the failure is recorded


def test_provider_error_is_recorded(scripted: Any) -> None:
    def boom(fact: str, prompt: str) -> dict[str, Any]:
        raise TimeoutError("provider timed out")

    report = triqua.check(CURIE, documents=DOCS, model=scripted(judge=boom), max_output_retries=0)
    (record,) = report.records
    assert record.verdict.status is Status.INSUFFICIENT
    assert "TimeoutError" in (record.verdict.error or "")


def test_supported_without_evidence_is_downgraded(scripted: Any) -> None:
    def liar(fact: str, prompt: str) -> dict[str, Any]:
        return {"status": "supported", "evidence_ids": ["made-up"], "confidence": 1.0}

    unrelated = ["Bananas are rich in potassium."]
    report = triqua.check(PARIS, documents=unrelated, model=scripted(judge=liar))
    # The cited id does not exist and no passage of the run backs the fact: the judge's
    # claim of support does not stand.
    (record,) = report.records
    assert record.verdict.status is Status.INSUFFICIENT
    assert "made-up" not in record.verdict.evidence_ids


def test_closed_book_with_llm_is_marked_parametric(scripted: Any) -> None:
    def knows(fact: str, prompt: str) -> dict[str, Any]:
        assert "closed book" in prompt
        return {"status": "supported", "confidence": 0.6}

    report = triqua.check(PARIS, model=scripted(judge=knows), retriever="closed_book")
    (record,) = report.records
    assert report.spec.mode.value == "closed_book"
    assert record.verdict.basis == "parametric"
    assert record.evidence == []


def test_graph_streams_custom_progress_events(scripted: Any) -> None:
    model = scripted()
    context = triqua.make_context(model=model)
    graph = build_graph()
    events = [
        chunk
        for _namespace, chunk in graph.stream(
            {"text": CURIE, "documents": DOCS},
            context=context,
            stream_mode="custom",
            subgraphs=True,  # per-fact events come from the verification subgraph
        )
    ]
    names = [e["event"] for e in events]
    assert "chunk_decomposed" in names and "fact_verified" in names and "scored" in names


def test_updates_show_the_path_taken(scripted: Any) -> None:
    context = triqua.make_context(model=scripted())
    graph = build_graph()
    nodes = []
    for update in graph.stream(
        {"text": PARIS, "documents": DOCS}, context=context, stream_mode="updates"
    ):
        nodes.extend(update)
    assert nodes == ["prepare", "split", "decompose", "route", "verify_batch", "score"]


def test_unknown_setting_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown setting"):
        triqua.Context.from_mapping({"modle": "x"})
