"""Chunks of a response decomposed in one call up to ``decompose_batch_chars``, kept per chunk."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

import triqua
from triqua.core.report.records import resolved_context
from triqua.core.text.chunk_batches import merged_chunk, pack, split_facts, split_spans
from triqua.core.text.chunking import split_text
from triqua.engines.llm.engine import ExtractedFacts, _usage_of, facts_of
from triqua.prompts import compact_answer
from triqua.schema import Chunk, Document, Fact, Report, Span
from triqua.testing import ScriptedChatModel, shown_parts, shown_text

pytestmark = pytest.mark.filterwarnings("ignore:The 'initial' parameter is deprecated")

SENTENCE = re.compile(r"(Person\d+) was born in (City\d+)( in (\d{4}))?\.")
TEXT = " ".join(
    f"Person{i} was born in City{i} in {1900 + i}."
    if i % 3 == 0
    else f"Person{i} was born in City{i}."
    for i in range(12)
)
DOCS = [Document(text=TEXT, source="people.txt")]


def answer_by_pattern(text: str) -> dict[str, Any]:
    """Every sentence of the fenced text as one fact, in the compact answer form."""
    facts = [
        {
            "subject": m[1],
            "relation": "was born in",
            "object": m[2],
            "qualifiers": [{"label": "point in time", "value": m[4]}] if m[4] else [],
            "source_sentence": m[0],
        }
        for m in SENTENCE.finditer(text)
    ]
    return compact_answer(facts)


def responder(tool: str, prompt: str) -> dict[str, Any]:
    if tool == "ExtractedFacts":
        return answer_by_pattern(shown_text(prompt))
    if tool == "Judgement":
        ids = re.findall(r"<<<EVIDENCE id=(ev-[0-9a-f]+)>>>", prompt)
        units = re.findall(r"^- (\(.*\))$", prompt, flags=re.M)
        return {
            "status": "supported",
            "unit_verdicts": [{"unit": u, "status": "supported"} for u in units],
            "evidence_ids": ids[:1],
        }
    return {"queries": re.findall(r"^- (\(.*\))$", prompt, flags=re.M)}


def check(model: ScriptedChatModel, **settings: Any) -> Report:
    settings = {"cache": False, "chunk_size": 60, "retry_wait": 0.0, **settings}
    return triqua.check(TEXT, documents=DOCS, model=model, **settings)


def decompose_prompts(model: ScriptedChatModel) -> list[str]:
    return [p for tool, p in model.calls if tool == "ExtractedFacts"]


def fact_places(report: Report) -> list[tuple[str, str, str, int, int, int | None, str]]:
    return sorted(
        (
            r.fact.subject,
            r.fact.relation,
            r.fact.object,
            r.fact.span.start if r.fact.span else -1,
            r.fact.span.end if r.fact.span else -1,
            r.fact.chunk_index,
            r.fact.source_text,
        )
        for r in report.records
    )


def _joined(text: str) -> str:
    return " ".join(text.split())


def test_a_multi_chunk_text_under_the_limit_is_decomposed_in_one_call() -> None:
    model = ScriptedChatModel(responder=responder)
    report = check(model)
    chunks = split_text(TEXT, 60)
    assert report.chunks == len(chunks) > 5
    (prompt,) = decompose_prompts(model)
    assert shown_text(prompt) == TEXT  # the batch is the exact slice of the input
    # A text of several chunks is read in chunk mode: each chunk its own TEXT, after its own
    # PREVIOUS (the chunk before it), as one call per chunk would show it.
    assert prompt[prompt.rfind("Mode: ") :].startswith("Mode: chunks.")
    assert shown_parts(prompt) == [
        (_joined(chunks[i - 1].text) if i else None, _joined(c.text)) for i, c in enumerate(chunks)
    ]
    assert len(report.records) == 12
    assert report.usage_by_role["decompose"].model_calls == 1
    assert report.spec.claim_policy.decompose_batch_chars == 4_000
    assert {r.fact.chunk_index for r in report.records} == set(range(report.chunks))
    # Each record's context is the PREVIOUS its chunk was shown with, and nothing else.
    shown = {text: previous for previous, text in shown_parts(prompt)}
    for record in report.records:
        chunk = chunks[record.fact.chunk_index or 0]
        assert record.context == resolved_context(None, shown[_joined(chunk.text)])


def test_a_one_chunk_text_is_read_in_plain_mode_with_no_previous() -> None:
    model = ScriptedChatModel(responder=responder)
    report = triqua.check(TEXT[:50], documents=DOCS, model=model, cache=False, chunk_size=300)
    (prompt,) = decompose_prompts(model)
    assert prompt[prompt.rfind("Mode: ") :].startswith("Mode: plain.")
    assert shown_parts(prompt) == [(None, TEXT[:50].strip())]
    assert all(record.context == "" for record in report.records)


def test_over_the_limit_the_chunks_go_in_several_calls_with_the_chunk_before() -> None:
    model = ScriptedChatModel(responder=responder)
    report = check(model, decompose_batch_chars=130)
    chunks = split_text(TEXT, 60)
    batches = pack(chunks, 130)
    prompts = decompose_prompts(model)
    assert 1 < len(batches) == len(prompts) < len(chunks)
    inputs = sorted(
        (p[p.rfind("Mode: ") :] for p in prompts), key=lambda i: TEXT.find(shown_text(i))
    )
    for members, given in zip(batches, inputs, strict=True):
        assert given.startswith("Mode: chunks.")
        assert shown_text(given) == TEXT[members[0].start : members[-1].end]
        assert shown_parts(given) == [
            (_joined(chunks[m.index - 1].text) if m.index else None, _joined(m.text))
            for m in members
        ]
    assert len(report.records) == 12
    assert report.usage_by_role["decompose"].model_calls == len(batches)


def test_facts_keep_the_spans_and_chunks_of_per_chunk_decomposition() -> None:
    one_by_one = check(ScriptedChatModel(responder=responder), decompose_batch_chars=0)
    batched = check(ScriptedChatModel(responder=responder))
    assert fact_places(batched) == fact_places(one_by_one)
    for record in batched.records:
        span = record.fact.span
        assert span is not None and TEXT[span.start : span.end] == record.fact.source_text
    assert [(u.chunk_index, u.span) for u in batched.undecomposed] == [
        (u.chunk_index, u.span) for u in one_by_one.undecomposed
    ]


def test_a_failed_batch_is_split_into_per_chunk_calls_and_a_bad_chunk_is_recorded() -> None:
    bad = "Person4 was born in City4."

    def failing(tool: str, prompt: str) -> dict[str, Any]:
        if tool == "ExtractedFacts":
            text = shown_text(prompt)
            if bad in text:
                raise RuntimeError("provider error")
            return answer_by_pattern(text)
        return responder(tool, prompt)

    model = ScriptedChatModel(responder=failing)
    report = check(model, max_output_retries=1)
    chunks = split_text(TEXT, 60)
    prompts = decompose_prompts(model)
    # The batch call and its retry fail; then one call per chunk, the bad chunk retried once.
    assert len(prompts) == 2 + len(chunks) + 1
    (failed,) = report.failed_chunks
    culprit = next(c for c in chunks if bad in c.text)
    assert (failed.chunk_index, failed.cause) == (culprit.index, "error")
    assert failed.span == Span(start=culprit.start, end=culprit.end)
    assert "RuntimeError: provider error" in failed.error
    expected = len(SENTENCE.findall(TEXT)) - len(SENTENCE.findall(culprit.text))
    assert len(report.records) == expected
    assert all(r.fact.chunk_index != culprit.index for r in report.records)
    assert report.usage_by_role["decompose"].model_calls == 1 + len(chunks)
    assert report.outcome == "partial"


def test_the_model_calls_limit_applies_to_the_batch_call() -> None:
    model = ScriptedChatModel(responder=responder)
    report = check(model, max_calls=1, routing="never_reverify")
    assert len(decompose_prompts(model)) == 1
    assert len(report.records) == 12  # decomposed in the one call; verification was refused
    assert all(r.verdict.status.value == "insufficient_evidence" for r in report.records)


# --- the pure batching functions ----------------------------------------------------------


def test_pack_groups_consecutive_chunks_up_to_the_limit() -> None:
    chunks = split_text(TEXT, 60)
    assert pack(chunks, 0) == [[c] for c in chunks]
    groups = pack(chunks, 130)
    assert [c for g in groups for c in g] == chunks
    assert all(g[-1].end - g[0].start <= 130 for g in groups if len(g) > 1)
    long = Chunk(index=0, text="x" * 200, start=0, end=200)
    assert pack([long], 100) == [[long]]


def test_merged_chunk_is_the_slice_and_refuses_gaps_in_order() -> None:
    chunks = split_text(TEXT, 60)
    merged = merged_chunk(chunks[1:3], TEXT)
    assert merged.text == TEXT[chunks[1].start : chunks[2].end]
    assert (merged.index, merged.start, merged.end) == (1, chunks[1].start, chunks[2].end)
    with pytest.raises(ValueError, match="not consecutive"):
        merged_chunk([chunks[0], chunks[2]], TEXT)
    with pytest.raises(ValueError, match="not the text"):
        merged_chunk([chunks[0].model_copy(update={"text": "changed"})], TEXT)


def test_split_spans_cuts_a_sentence_at_a_chunk_boundary_and_facts_follow_their_start() -> None:
    text = "Alpha beta gamma delta. Epsilon zeta."
    first = Chunk(index=0, text="Alpha beta", start=0, end=10)
    second = Chunk(index=1, text="gamma delta. Epsilon zeta.", start=11, end=len(text))
    across = Span(start=0, end=23)
    assert split_spans([across], [first, second]) == [
        [Span(start=0, end=10)],
        [Span(start=11, end=23)],
    ]
    fact = Fact(subject="Epsilon", relation="is", object="zeta", span=Span(start=24, end=37))
    assert [[f.chunk_index for f in part] for part in split_facts([fact], [first, second])] == [
        [],
        [1],
    ]


def test_a_repeated_sentence_is_placed_at_each_occurrence_in_order() -> None:
    sentence = "Person1 was born in City1."
    text = f"{sentence} Person2 was born in City2. {sentence}"
    parsed = ExtractedFacts.model_validate(answer_by_pattern(text))
    facts = facts_of(parsed, Chunk(index=0, text=text, start=10, end=10 + len(text)))
    starts = [f.span.start - 10 for f in facts if f.span and f.subject == "Person1"]
    assert starts == [0, text.rindex(sentence)]


def test_an_answer_in_another_shape_is_an_error_not_an_empty_decomposition() -> None:
    with pytest.raises(ValueError):
        ExtractedFacts.model_validate({"facts": {"not": "a list"}})
    with pytest.raises(ValueError):
        ExtractedFacts.model_validate({})
    legacy = ExtractedFacts.model_validate(
        {"facts": [{"subject": "A", "relation": "is", "object": "B", "source_sentence": "A is B."}]}
    )
    assert legacy.sentences[0].sentence == "A is B." and legacy.sentences[0].facts[0].o == "B"


def test_cached_input_tokens_are_counted_where_the_provider_reports_them() -> None:
    message = AIMessage(
        content="",
        usage_metadata={
            "input_tokens": 1_200,
            "output_tokens": 300,
            "total_tokens": 1_500,
            "input_token_details": {"cache_read": 1_024},
        },
    )
    usage = _usage_of(message, [HumanMessage("x")])
    assert (usage.input_tokens, usage.cached_input_tokens, usage.output_tokens) == (
        1_200,
        1_024,
        300,
    )
    assert (usage + usage).cached_input_tokens == 2_048


def test_cli_decompose_batch_chars_zero_makes_one_call_per_chunk(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from triqua.cli import app
    from triqua.engines.factory import register_model

    model = ScriptedChatModel(responder=responder)
    name = register_model("decompose-batch-cli", model)
    docs = tmp_path / "people.txt"
    docs.write_text(TEXT + "\n", encoding="utf-8")
    args = ["check", TEXT, "-e", str(docs), "-m", name, "--chunk-size", "60"]
    result = CliRunner().invoke(
        app, [*args, "--decompose-batch-chars", "0", "--json", "--no-store", "--no-cache"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["spec"]["claim_policy"]["decompose_batch_chars"] == 0
    prompts = decompose_prompts(model)
    assert len(prompts) == len(split_text(TEXT, 60))
    assert all(len(shown_parts(p)) == 1 for p in prompts)
