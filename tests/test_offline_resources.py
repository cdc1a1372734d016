"""The offline engine's shared resources: one spaCy pipeline, one ONNX thread, capped workers."""

from __future__ import annotations

import os

from triqua.context import Context
from triqua.engines.offline import decomposer, evidence, nlp
from triqua.engines.offline.embeddings import MiniLMEmbedder


def test_decomposer_and_verifier_read_text_with_one_pipeline() -> None:
    assert decomposer.get_decomposer().nlp is nlp.load_nlp()
    assert evidence.load_nlp is nlp.load_nlp
    assert decomposer.load_nlp is nlp.load_nlp


def test_offline_fan_out_is_capped_at_the_cores() -> None:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert Context(max_concurrency=64).workers() == min(64, cores or 1)
    assert Context(max_concurrency=1).workers() == 1


def test_model_calls_are_not_capped_at_the_cores() -> None:
    model = "openai:gpt-4.1-mini"
    assert Context(max_concurrency=64, model=model, verify_batch=1).workers() == 64
    assert Context(max_concurrency=64, model=model, verify_batch=2).workers() == 128


def test_each_embedding_call_runs_on_one_onnx_thread() -> None:
    embedder = MiniLMEmbedder()
    options = embedder._session.get_session_options()
    assert options.intra_op_num_threads == 1
    many = [f"sentence number {i} about the harbour" for i in range(150)]
    vectors = embedder.embed(many)  # three batches, run side by side
    again = MiniLMEmbedder(num_threads=1).embed(many)  # the same batches, one by one
    assert vectors.shape == (150, 384)
    assert abs(vectors - again).max() < 1e-5
