"""Offline engine: rules and local embeddings, used when no language model is configured."""
