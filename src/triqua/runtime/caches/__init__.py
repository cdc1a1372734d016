"""The call cache: model answers and web searches a run reads before it asks."""
