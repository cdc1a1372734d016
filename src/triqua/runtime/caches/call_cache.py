"""A cache of model answers and web searches, keyed by revision and exact input (SQLite).

A repeated check of the same text asks no model and searches nothing: each role's answer is
kept under the hash of (model, engine revision, prompt files, the role's exact input), each
search under the hash of (retriever revision, query, k). Cached answers cost nothing, so they
count as 0 model calls and 0 searches in a report's usage. On by default; ``cache=False``
(``--no-cache`` on the command line) asks again.

Not cached, on purpose: the offline engine (deterministic and fast, recomputing is as cheap
as looking up) and local retrievers (supplied documents, closed book, Chroma), which are fast
and whose revisions do not name their content, so a cached answer could outlive the corpus.
Failed answers (provider errors, malformed output) are never stored.

LangChain's model cache (``BaseChatModel.cache``) is not used: it stores raw generations
below the output parser, so a malformed answer would be replayed to every retry, and a hit
looks like a real call to the usage count. Caching each role's parsed result avoids both.

This module is the store; ``cached_engines`` wraps the chat-model roles and
``cached_searches`` the web searches.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from triqua.schema import sha256_text, utc_now
from triqua.support.dbfiles import LOCK_TIMEOUT_ENV, is_busy, lock_timeout, set_up_wal
from triqua.tools.paths import triqua_home

__all__ = [
    "CacheFileError",
    "ResultCache",
    "cache_key",
    "close_cache",
    "default_cache_path",
    "load_cached",
    "open_cache",
    "prompts_revision",
]

#: Bumped when the layout of cached values changes, so old entries are simply missed.
CACHE_VERSION = "1"
_PROMPT_FILES = (
    "decompose_system.md",
    "decompose_examples.json",
    "verify_system.md",
    "refine_system.md",
)


def default_cache_path() -> Path:
    """``cache.sqlite`` in triqua's data directory."""
    return triqua_home() / "cache.sqlite"


def cache_key(kind: str, *parts: Any) -> str:
    """SHA-256 of the canonical JSON of ``kind`` and ``parts``."""
    payload = json.dumps([CACHE_VERSION, kind, *parts], sort_keys=True, default=str)
    return sha256_text(payload)


@cache
def prompts_revision() -> str:
    """Hash of the prompt files: editing a prompt invalidates the answers it produced."""
    from triqua.prompts import load_text

    return sha256_text("".join(load_text(name) for name in _PROMPT_FILES))[:16]


class CacheFileError(ValueError):
    """The cache file cannot be opened or created; the message says what to do."""


_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS cache (key TEXT PRIMARY KEY, kind TEXT NOT NULL, "
    "value TEXT NOT NULL, created_at TEXT NOT NULL)"
)


class ResultCache:
    """A thread-safe SQLite key-value store of JSON answers."""

    def __init__(self, path: str | Path) -> None:
        """Open (creating when missing) the cache file at ``path``.

        Raises:
            CacheFileError: when the file cannot be opened or created (a directory in its
                place, no permission, a full disk, not a database).
        """
        self.path = Path(path).expanduser()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(
                self.path, timeout=lock_timeout(), check_same_thread=False, isolation_level=None
            )
            set_up_wal(self._conn, _SCHEMA)
        except (sqlite3.Error, OSError) as exc:
            if is_busy(exc):
                raise CacheFileError(
                    f"cache file {self.path} is locked by another process: wait for it to "
                    f"finish, or raise {LOCK_TIMEOUT_ENV} (seconds, now {lock_timeout():g})"
                ) from None
            raise CacheFileError(
                f"cache file {self.path} cannot be used ({exc}): remove or move it, set "
                "cache_path elsewhere, or run with --no-cache"
            ) from None
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        #: The last write that failed (a full disk): the run goes on without caching it.
        self.write_error: str | None = None

    def get(self, key: str) -> str | None:
        """The value stored under ``key``, or None (a read that fails is a miss)."""
        with self._lock:
            try:
                query = "SELECT value FROM cache WHERE key = ?"
                row = self._conn.execute(query, (key,)).fetchone()
            except sqlite3.Error:
                row = None
            if row is None:
                self.misses += 1
                return None
            self.hits += 1
            return str(row[0])

    def put(self, key: str, kind: str, value: str) -> None:
        """Store ``value`` under ``key`` (a later identical answer replaces it).

        A write that fails (a full disk) is kept in ``write_error`` and the run goes on: the
        answer is already in hand, only its reuse is lost.
        """
        with self._lock:
            try:
                self._conn.execute(
                    "INSERT OR REPLACE INTO cache (key, kind, value, created_at) "
                    "VALUES (?, ?, ?, ?)",
                    (key, kind, value, utc_now().isoformat()),
                )
            except sqlite3.Error as exc:
                self.write_error = f"cache file {self.path}: write failed ({exc})"

    def __len__(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT count(*) FROM cache").fetchone()[0])

    def model_name(self, model_id: str) -> str:
        """How answers of the chat model ``model_id`` are keyed here: by its full id."""
        return model_id

    def close(self) -> None:
        """Close the file (a closed cache must not be used again)."""
        with self._lock:
            self._conn.close()


_OPEN: dict[Path, ResultCache] = {}
_OPEN_LOCK = threading.Lock()


def open_cache(
    path: str | Path | None = None, kind: type[ResultCache] = ResultCache
) -> ResultCache:
    """The process-wide cache at ``path`` (default: :func:`default_cache_path`), opened once.

    ``kind`` is the class that opens it the first time (a run's journal opens its file as
    :class:`~triqua.runtime.caches.journal.RunJournal`).
    """
    resolved = Path(path or default_cache_path()).expanduser().resolve()
    with _OPEN_LOCK:
        if resolved not in _OPEN:
            _OPEN[resolved] = kind(resolved)
        return _OPEN[resolved]


def close_cache(path: str | Path) -> None:
    """Close the cache at ``path`` if this process opened it (its file may then be removed)."""
    resolved = Path(path).expanduser().resolve()
    with _OPEN_LOCK:
        store = _OPEN.pop(resolved, None)
    if store is not None:
        store.close()


def load_cached(model: type[Any], value: str | None) -> Any:
    """Parse a cached value, treating one that no longer validates as a miss."""
    if value is None:
        return None
    try:
        return model.model_validate_json(value)
    except ValidationError:
        return None
