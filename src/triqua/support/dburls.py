"""Database URLs: telling a PostgreSQL URL from a SQLite path, and printing one safely."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

__all__ = ["is_database_url", "public_url"]

_SCHEMES = ("postgresql://", "postgres://")


def is_database_url(location: object) -> bool:
    """True when ``location`` names a PostgreSQL database rather than a SQLite file."""
    return isinstance(location, str) and location.startswith(_SCHEMES)


def public_url(url: str) -> str:
    """``url`` without its password: safe to print and to keep in checkpoint metadata."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}@{netloc}" if user else netloc))
