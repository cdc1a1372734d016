"""Offline MiniLM embeddings: the embedder, the LangChain wrapper, the Chroma function."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import chromadb
import numpy as np
import pytest
from chromadb.config import Settings

from triqua.models.embeddings import (
    DIMENSION,
    MAX_TOKENS,
    MODEL_REVISION,
    MiniLMEmbedder,
    MiniLMEmbeddings,
    get_embedder,
)
from triqua.tools.chroma_embedding import TriquaMiniLMEmbeddingFunction, chroma_embedding_function

SENTENCES = [
    "The cat sits on the mat",
    "A cat is sitting on a rug",
    "Stock markets fell sharply",
    "Marie Curie won the Nobel Prize in Physics in 1903.",
    "",
    "Paris is the capital of France, and it lies on the Seine. " * 3,
]

DOCS = [
    "The Eiffel Tower is in Paris.",
    "Photosynthesis turns light into chemical energy in plants.",
    "The Great Wall of China is thousands of kilometres long.",
]


def _settings() -> Settings:
    return Settings(anonymized_telemetry=False)


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    return get_embedder()


def test_embed_shape_dtype_and_unit_norm(embedder: MiniLMEmbedder) -> None:
    vectors = embedder.embed(SENTENCES)
    assert vectors.shape == (len(SENTENCES), DIMENSION)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_embed_empty_input_gives_zero_rows(embedder: MiniLMEmbedder) -> None:
    vectors = embedder.embed([])
    assert vectors.shape == (0, DIMENSION)
    assert vectors.dtype == np.float32


def test_embed_rejects_a_bare_string(embedder: MiniLMEmbedder) -> None:
    with pytest.raises(TypeError):
        embedder.embed("one sentence")


def test_paraphrase_is_closer_than_unrelated_sentence(embedder: MiniLMEmbedder) -> None:
    cat, rug, stocks = embedder.embed(SENTENCES[:3])
    assert float(cat @ rug) > 0.5
    assert float(cat @ rug) > float(cat @ stocks) + 0.3


def test_batch_matches_one_by_one_and_keeps_input_order(embedder: MiniLMEmbedder) -> None:
    batched = embedder.embed(SENTENCES)
    single = np.stack([embedder.embed([s])[0] for s in SENTENCES])
    np.testing.assert_allclose(batched, single, atol=1e-5)


def test_small_batches_match_one_large_batch() -> None:
    tiny = MiniLMEmbedder(batch_size=2, num_threads=1)
    np.testing.assert_allclose(tiny.embed(SENTENCES), get_embedder().embed(SENTENCES), atol=1e-5)


def test_long_text_is_truncated_not_rejected(embedder: MiniLMEmbedder) -> None:
    long_text = "word " * (MAX_TOKENS * 4)
    longer_text = long_text + "completely different ending about volcanoes " * 50
    a, b = embedder.embed([long_text, longer_text])
    # Both are cut at the same 256 tokens, so the tail cannot change the vector.
    np.testing.assert_allclose(a, b, atol=1e-6)


def test_embed_one_is_cached_and_read_only(embedder: MiniLMEmbedder) -> None:
    first = embedder.embed_one("A repeated query")
    assert embedder.embed_one("A repeated query") is first
    assert not first.flags.writeable
    np.testing.assert_allclose(first, embedder.embed(["A repeated query"])[0], atol=1e-5)


def test_get_embedder_is_a_singleton() -> None:
    assert get_embedder() is get_embedder()


def test_bad_batch_size_and_missing_model_raise(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="batch_size"):
        MiniLMEmbedder(batch_size=0)
    with pytest.raises(FileNotFoundError):
        MiniLMEmbedder(model_path=tmp_path / "absent.onnx")


def test_langchain_embeddings_match_embedder(embedder: MiniLMEmbedder) -> None:
    wrapper = MiniLMEmbeddings()
    docs = wrapper.embed_documents(SENTENCES[:2])
    query = wrapper.embed_query(SENTENCES[0])
    assert len(docs) == 2 and len(docs[0]) == DIMENSION
    assert isinstance(query[0], float)
    np.testing.assert_allclose(docs[0], query, atol=1e-5)


def test_langchain_chroma_similarity_search(tmp_path: Path) -> None:
    from langchain_chroma import Chroma

    store = Chroma(
        collection_name="langchain-docs",
        embedding_function=MiniLMEmbeddings(),
        persist_directory=str(tmp_path),
        client_settings=_settings(),
    )
    store.add_texts(DOCS, ids=["eiffel", "photo", "wall"])
    hits = store.similarity_search("Where is the Eiffel Tower?", k=1)
    assert hits[0].page_content == DOCS[0]


def test_chroma_function_config_round_trip() -> None:
    ef = TriquaMiniLMEmbeddingFunction()
    assert ef.name() == "triqua_minilm"
    assert ef.get_config() == {"model_revision": MODEL_REVISION}
    assert not ef.is_legacy()
    rebuilt = TriquaMiniLMEmbeddingFunction.build_from_config(ef.get_config())
    assert rebuilt.get_config() == ef.get_config()
    vectors = ef(["hello world", "goodbye"])
    assert len(vectors) == 2 and vectors[0].shape == (DIMENSION,)


def test_chroma_function_rejects_another_model_revision() -> None:
    with pytest.raises(ValueError, match="re-embed"):
        TriquaMiniLMEmbeddingFunction.build_from_config({"model_revision": "other-model@9"})
    with pytest.raises(ValueError, match="cannot change"):
        TriquaMiniLMEmbeddingFunction().validate_config_update(
            {"model_revision": MODEL_REVISION}, {"model_revision": "other-model@9"}
        )


# Runs in a fresh interpreter: only importing triqua's module registers "triqua_minilm".
# Chroma's own default embedder is made to fail, so a pass proves it was never used.
_REOPEN_SCRIPT = textwrap.dedent(
    """
    import json, sys
    import chromadb
    from chromadb.config import Settings
    from chromadb.utils.embedding_functions import onnx_mini_lm_l6_v2 as default_ef

    def _no_default(*args, **kwargs):
        raise RuntimeError("Chroma's default embedding function was used")

    default_ef.ONNXMiniLM_L6_V2.__call__ = _no_default
    import triqua.tools.chroma_embedding  # noqa: F401  (registers triqua_minilm)

    client = chromadb.PersistentClient(
        path=sys.argv[1], settings=Settings(anonymized_telemetry=False)
    )
    collection = client.get_collection("facts")
    result = collection.query(query_texts=["Which tower stands in Paris?"], n_results=1)
    ef = collection.configuration["embedding_function"]
    print(json.dumps({"id": result["ids"][0][0], "ef": ef.name()}))
    """
)


@pytest.mark.slow
def test_persisted_collection_reopens_in_new_process_without_ef(tmp_path: Path) -> None:
    client = chromadb.PersistentClient(path=str(tmp_path), settings=_settings())
    collection = client.create_collection("facts", embedding_function=chroma_embedding_function())
    hnsw = collection.configuration["hnsw"]
    assert hnsw is not None and hnsw.get("space") == "cosine"
    collection.add(ids=["eiffel", "photo", "wall"], documents=DOCS)
    del collection, client

    proc = subprocess.run(
        [sys.executable, "-c", _REOPEN_SCRIPT, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout.strip().splitlines()[-1])
    assert answer == {"id": "eiffel", "ef": "triqua_minilm"}
