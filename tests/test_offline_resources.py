"""The offline engine's shared resources: one spaCy pipeline, one ONNX thread, capped workers."""

from __future__ import annotations

import os

import pytest

from triqua.context import Context
from triqua.engines.offline.decompose import decomposer
from triqua.models.embeddings import MiniLMEmbedder
from triqua.nlp import parses
from triqua.nlp import passages as evidence
from triqua.nlp import pipeline as nlp


def test_decomposer_and_verifier_read_text_with_one_pipeline() -> None:
    assert decomposer.get_decomposer().nlp is nlp.load_nlp()
    assert evidence.load_nlp is nlp.load_nlp
    assert decomposer.load_nlp is nlp.load_nlp
    assert parses.load_nlp is nlp.load_nlp  # the element graph's parses, the same pipeline


def test_offline_fan_out_is_capped_at_the_cores() -> None:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert Context(max_concurrency=64).workers() == min(64, cores or 1)
    assert Context(max_concurrency=1).workers() == 1


def test_model_calls_are_not_capped_at_the_cores() -> None:
    model = "openai:gpt-4.1-mini"
    assert Context(max_concurrency=64, model=model, verify_batch=1).workers() == 64
    assert Context(max_concurrency=64, model=model, verify_batch=2).workers() == 64


@pytest.mark.slow
def test_each_embedding_call_runs_on_one_onnx_thread() -> None:
    embedder = MiniLMEmbedder()
    options = embedder._session.get_session_options()
    assert options.intra_op_num_threads == 1
    many = [f"sentence number {i} about the harbour" for i in range(150)]
    vectors = embedder.embed(many)  # several batches, run side by side
    again = MiniLMEmbedder(num_threads=1).embed(many)  # the same batches, one by one
    assert vectors.shape == (150, 384)
    assert abs(vectors - again).max() < 1e-5


def test_planned_chunks_are_parsed_together_and_give_the_same_facts() -> None:
    chunks = [
        "Marie Curie was born in Warsaw in 1867.",
        "She moved to Paris in 1891 and studied physics.",
        "Paris is the capital of France.",
    ]

    def facts_of(rule: decomposer.RuleDecomposer) -> list[tuple[str, object]]:
        found, offset = [], 0
        for i, chunk in enumerate(chunks):
            previous = chunks[i - 1] if i else None
            result = rule.analyse(chunk, offset=offset, chunk_index=i, previous_chunk=previous)
            found += [(f.to_string(), f.span) for f in result.facts]
            offset += len(chunk) + 1
        return found

    planned = decomposer.RuleDecomposer()
    batches: list[list[str]] = []
    pipe = planned._pipe
    planned._pipe = lambda nlp, texts: batches.append(texts) or pipe(nlp, texts)  # type: ignore[method-assign]
    planned.plan(chunks)
    assert facts_of(planned) == facts_of(decomposer.RuleDecomposer())
    assert batches == [chunks]  # one spaCy call read all three chunks


@pytest.mark.slow
def test_a_run_announces_its_chunks_to_the_offline_decomposer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import triqua

    plans: list[list[str]] = []
    rule = decomposer.get_decomposer()
    plan = rule.plan
    monkeypatch.setattr(rule, "plan", lambda chunks: plans.append(list(chunks)) or plan(chunks))
    text = "Marie Curie was born in Warsaw.\n\nShe moved to Paris in 1891."
    report = triqua.check(text, chunk_size=40, cache=False)
    assert len(plans[-1]) >= 2 and all(chunk in text for chunk in plans[-1])
    assert report.records


def test_the_offline_judge_embeds_announced_queries_ahead() -> None:
    """The judge hears each chunk's facts and embeds their queries before they are judged."""
    import time

    from triqua.core.reading.fact_parts import fact_parts
    from triqua.engines.offline.engine import OfflineDecomposer, OfflineJudge
    from triqua.models.vectors import sentence_vectors
    from triqua.schema import Chunk

    cache = sentence_vectors()
    cache.clear()
    text = "Ada Lovelace was born in London in 1815. She wrote the first published algorithm."
    chunk = Chunk(index=0, text=text, start=0, end=len(text))
    facts = (
        OfflineDecomposer()
        .decompose(chunk, previous_chunk=None, question=None, chunked=False)
        .facts
    )
    queries = sorted({fact_parts(fact).query for fact in facts})
    assert queries and not cache._expected and len(cache) == 0  # decomposing embeds nothing
    OfflineJudge().expect(facts)
    for _ in range(500):  # the background leader embeds them, unasked
        if cache.embedded >= len(queries):
            break
        time.sleep(0.01)
    assert cache.embedded == len(queries) and len(cache) == len(queries)
    cache.get(queries)  # judging finds them ready: nothing more is embedded
    assert cache.embedded == len(queries)
    cache.clear()


def test_decomposer_parses_are_kept_unmerged_for_later_readers() -> None:
    """The decomposer merges tokens in copies; the element graph finds the parse it would make."""
    chunks = [
        "Ada Lovelace was born in London, England in 1815.",
        "Sam Walton opened his first store in Rogers, Arkansas. He was born in Kingfisher.",
        '"Blue Moon" was recorded by the Marcels in New York.',
    ]
    parses.clear()
    shared = decomposer.RuleDecomposer()  # the shared pipeline: parses kept
    alone = decomposer.RuleDecomposer(nlp.load_nlp())  # a pipeline of its own: nothing kept
    facts = [[f.to_string() for f in shared.decompose(chunk)] for chunk in chunks]
    for chunk, found in zip(chunks, facts, strict=True):
        assert found == [f.to_string() for f in alone.decompose(chunk)]
        kept = parses.parsed(chunk)
        assert kept is not None  # kept for the element graph and the gates
        fresh = nlp.load_nlp()(chunk)
        assert [(t.text, t.tag_, t.dep_, t.head.i, t.ent_type_) for t in kept] == [
            (t.text, t.tag_, t.dep_, t.head.i, t.ent_type_) for t in fresh
        ]
    assert any(facts)
    assert "Rogers" in [t.text for t in parses.parsed(chunks[1]) or []]  # not merged in place
    parses.clear()


def test_entities_of_a_kept_parse_are_read_from_it_and_match_the_recogniser_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A text parsed lately is not run through the recogniser again, for the same entities."""
    texts = [
        "Marie Curie moved from Warsaw to Paris in 1891 and studied at the Sorbonne.",
        "Sam Walton opened his first Walmart store in Rogers, Arkansas in 1962.",
    ]
    pipeline = nlp.load_nlp()
    parses.clear()
    alone = [evidence.entities.__wrapped__(t) for t in texts]  # the recogniser alone
    assert all(alone)
    evidence.entities.cache_clear()
    parses.parse_many(texts)
    runs: list[str] = []
    real_make_doc = pipeline.make_doc
    monkeypatch.setattr(pipeline, "make_doc", lambda text: runs.append(text) or real_make_doc(text))
    assert [evidence.entities(t) for t in texts] == alone
    assert runs == []  # read from the kept parses
    evidence.entities.cache_clear()
    parses.clear()
    assert evidence.entities(texts[0]) == alone[0]
    assert runs == [texts[0]]  # nothing kept: the recogniser runs alone
    evidence.entities.cache_clear()
