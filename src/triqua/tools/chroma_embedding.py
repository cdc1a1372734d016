"""The MiniLM embedder as Chroma's embedding function ``"triqua_minilm"``.

Chroma records the function's name and config with a collection; importing this module
registers the name, so a persisted collection reopens with the same embedder (and a
collection embedded by another model is refused). It lives with the Chroma retriever so
that only Chroma's users load Chroma.
"""

from __future__ import annotations

from typing import Any, cast

from chromadb.api.types import Documents, Embeddable, EmbeddingFunction, Space
from chromadb.api.types import Embeddings as ChromaEmbeddings
from chromadb.utils.embedding_functions import register_embedding_function

from triqua.models.embeddings import get_embedder
from triqua.models.revisions import MODEL_REVISION

__all__ = ["TriquaMiniLMEmbeddingFunction", "chroma_embedding_function"]


@register_embedding_function
class TriquaMiniLMEmbeddingFunction(EmbeddingFunction[Documents]):
    """Chroma embedding function ``"triqua_minilm"``: the shared embedder, no download.

    Chroma stores the name and config with a collection; importing this module registers
    the name, so reopening the collection rebuilds this function instead of Chroma's
    default (which would download a model).
    """

    def __init__(self, model_revision: str = MODEL_REVISION) -> None:
        """Check that vectors made with ``model_revision`` are what this embedder makes."""
        if model_revision != MODEL_REVISION:
            raise ValueError(
                f"collection was embedded with {model_revision!r}, "
                f"this embedder is {MODEL_REVISION!r}; re-embed the collection"
            )
        self.model_revision = model_revision

    def __call__(self, input: Documents) -> ChromaEmbeddings:
        """Embed documents for Chroma, one float32 vector each."""
        return list(get_embedder().embed(list(input)))

    @staticmethod
    def name() -> str:
        """The name Chroma records in the collection's configuration."""
        return "triqua_minilm"

    def default_space(self) -> Space:
        """Cosine distance: the model was trained for cosine similarity."""
        return "cosine"

    def supported_spaces(self) -> list[Space]:
        """All three spaces rank unit vectors identically."""
        return ["cosine", "ip", "l2"]

    def get_config(self) -> dict[str, Any]:
        """The config Chroma persists with the collection."""
        return {"model_revision": self.model_revision}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> TriquaMiniLMEmbeddingFunction:
        """Rebuild from a persisted config (fails if the model revision differs)."""
        return TriquaMiniLMEmbeddingFunction(config.get("model_revision", MODEL_REVISION))

    @staticmethod
    def validate_config(config: dict[str, Any]) -> None:
        """Reject configs made by another model revision."""
        revision = config.get("model_revision", MODEL_REVISION)
        if revision != MODEL_REVISION:
            raise ValueError(
                f"unsupported model_revision {revision!r}; expected {MODEL_REVISION!r}"
            )

    def validate_config_update(
        self, old_config: dict[str, Any], new_config: dict[str, Any]
    ) -> None:
        """Forbid switching models on a collection that already holds vectors."""
        if new_config.get("model_revision", MODEL_REVISION) != old_config.get(
            "model_revision", MODEL_REVISION
        ):
            raise ValueError("the embedding model of an existing collection cannot change")


def chroma_embedding_function() -> EmbeddingFunction[Embeddable]:
    """A ``"triqua_minilm"`` function typed as Chroma's client methods expect.

    Chroma annotates ``embedding_function`` parameters with ``EmbeddingFunction[Embeddable]``,
    which a text-only ``EmbeddingFunction[Documents]`` does not satisfy for type checkers.
    """
    return cast(EmbeddingFunction[Embeddable], TriquaMiniLMEmbeddingFunction())
