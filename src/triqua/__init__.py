"""triqua."""
