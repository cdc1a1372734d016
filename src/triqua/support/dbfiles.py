"""Opening triqua's SQLite files (run store, checkpoints) with one clear line on any fault.

A damaged, truncated, locked or misplaced database file must not end a command with a
traceback: :class:`StoreError` names the file, what is wrong and what to do. The header
checks here are cheap (the first 100 bytes and the file size), so every open can afford them.
:func:`set_up_wal` switches a file to WAL mode even while other processes open it too.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

__all__ = [
    "LOCK_TIMEOUT_ENV",
    "StoreError",
    "check_database_file",
    "is_busy",
    "lock_timeout",
    "prepare_database_path",
    "set_up_wal",
    "sqlite_errors",
    "store_error",
]

#: Seconds to wait for a database locked by another process (default 30).
LOCK_TIMEOUT_ENV = "TRIQUA_LOCK_TIMEOUT"
_HEADER = b"SQLite format 3\x00"


class StoreError(ValueError):
    """A run store or checkpoint file cannot be used; the message is one line saying why.

    A ``ValueError`` so that every caller that reports bad input in one line reports this too.
    """


def lock_timeout() -> float:
    """Seconds to wait on a locked database: ``$TRIQUA_LOCK_TIMEOUT`` or 30."""
    raw = os.environ.get(LOCK_TIMEOUT_ENV, "").strip()
    try:
        return max(0.0, float(raw)) if raw else 30.0
    except ValueError:
        return 30.0


def is_busy(exc: BaseException) -> bool:
    """True for SQLite's "database is locked": another connection holds the lock."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF == sqlite3.SQLITE_BUSY


def set_up_wal(conn: sqlite3.Connection, *statements: str) -> None:
    """Put ``conn``'s file in WAL mode and run ``statements``, waiting for others doing so.

    Switching a new file to WAL upgrades a read lock to a write lock. When another
    connection holds the write lock then (another process setting up the same new file:
    batch workers sharing one cache), SQLite answers "database is locked" at once instead
    of waiting, since waiting while holding the read lock could deadlock. The failed
    statement has let the read lock go: this waits for the write lock holding nothing
    (``BEGIN IMMEDIATE``, under the connection's busy timeout) and tries again, until
    :func:`lock_timeout` has passed. ``conn`` must be in autocommit mode.

    Raises:
        sqlite3.Error: the file stays locked past the timeout (:func:`is_busy`), or any
            other fault of the file.
    """
    deadline = time.monotonic() + lock_timeout()
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            for statement in statements:
                conn.execute(statement)
            return
        except sqlite3.OperationalError as exc:
            if not is_busy(exc) or time.monotonic() >= deadline:
                raise
        conn.execute("BEGIN IMMEDIATE")  # returns once the other's write is over
        conn.execute("ROLLBACK")


def _aside(what: str) -> str:
    return f"move it aside (triqua then starts a new {what})"


def check_database_file(path: Path, what: str) -> None:
    """Refuse a ``path`` that cannot be a usable SQLite database, before SQLite opens it.

    A missing or empty file is fine (SQLite creates it). Catches a directory or special file
    in its place, a file that is not SQLite, and one shorter than its header says (truncated).

    Raises:
        StoreError: naming the file, the fault and what to do.
    """
    try:
        if path.is_dir():
            raise StoreError(f"{what} {path} is a directory, not a database file: {_aside(what)}")
        if path.exists() and not path.is_file():
            raise StoreError(f"{what} {path} is not a regular file: {_aside(what)}")
        if not path.exists():
            return
        size = path.stat().st_size
        with path.open("rb") as handle:
            header = handle.read(100)
    except PermissionError as exc:
        raise StoreError(f"{what} {path}: permission denied ({exc.strerror})") from exc
    except OSError as exc:
        raise StoreError(f"{what} {path}: cannot read it ({exc.strerror or exc})") from exc
    if size == 0:
        return
    if len(header) < 100 or not header.startswith(_HEADER):
        raise StoreError(
            f"{what} {path} is not a SQLite database (damaged or another file): {_aside(what)}"
        )
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    # The page count in the header is valid only when its change counters agree.
    if header[24:28] == header[92:96] and pages and size < pages * page_size:
        if _recovers(path):
            # Whole after all: its pages were in the write-ahead log (a full disk stopped a
            # checkpoint), or another process was writing it between the size and the header.
            return
        raise StoreError(
            f"{what} {path} is truncated ({size} of {pages * page_size} bytes): "
            f"restore it from a backup or {_aside(what)}"
        )


def _recovers(path: Path) -> bool:
    """True when SQLite, under its own locks, finds the file whole.

    A run stopped by a full disk can leave the main file shorter than its header says while
    the ``-wal`` file beside it still holds the rest (opening the database replays the log);
    and another process writing the store (batch workers) can grow the file between the
    size and the header read here. Only a file SQLite itself finds damaged is truncated.
    """
    try:
        with closing(sqlite3.connect(path, timeout=5)) as conn:
            return conn.execute("PRAGMA quick_check").fetchone() == ("ok",)
    except sqlite3.Error:
        return False


def prepare_database_path(path: Path, what: str) -> None:
    """Create the folder of ``path`` and check the file (see :func:`check_database_file`)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(
            f"{what} {path}: cannot create its folder ({exc.strerror or exc})"
        ) from exc
    check_database_file(path, what)


def store_error(exc: BaseException, path: Path, what: str) -> StoreError:
    """One-line ``StoreError`` for an error SQLite (or the OS) raised on ``path``."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    lowered = text.lower()
    if "locked" in lowered or "busy" in lowered:
        return StoreError(
            f"{what} {path} is locked by another process: wait for it to finish, or raise "
            f"{LOCK_TIMEOUT_ENV} (seconds, now {lock_timeout():g})"
        )
    if "not a database" in lowered or "malformed" in lowered or "corrupt" in lowered:
        return StoreError(
            f"{what} {path} is damaged ({text}): restore it from a backup or {_aside(what)}"
        )
    if "readonly" in lowered or "read-only" in lowered or "permission" in lowered:
        return StoreError(f"{what} {path} cannot be written ({text}): check its permissions")
    if "unable to open" in lowered or isinstance(exc, OSError):
        return StoreError(f"{what} {path} cannot be opened ({text}): check the path")
    if "disk" in lowered and "full" in lowered:
        return StoreError(f"{what} {path}: the disk is full ({text})")
    return StoreError(f"{what} {path}: {text}")


@contextmanager
def sqlite_errors(path: Path, what: str) -> Iterator[None]:
    """Turn SQLite and OS errors raised inside into one-line ``StoreError``s.

    ``IntegrityError`` (a refused write, e.g. by the append-only triggers) passes unchanged:
    it is a programming error, not a fault of the file.
    """
    try:
        yield
    except sqlite3.IntegrityError:
        raise
    except (sqlite3.Error, OSError) as exc:
        raise store_error(exc, path, what) from exc
