"""A cache file that cannot be used is one clear line; a failed cache write loses no run."""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from triqua.cli import app
from triqua.runtime.caches.call_cache import CacheFileError, ResultCache, close_cache


@pytest.mark.slow
def test_a_directory_in_place_of_the_cache_file_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRIQUA_HOME", str(tmp_path))
    (tmp_path / "cache.sqlite").mkdir()
    evidence = tmp_path / "paris.txt"
    evidence.write_text("Paris is the capital of France.", "utf-8")
    result = CliRunner().invoke(
        app, ["check", "Paris is the capital of France.", "-e", str(evidence)]
    )
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "cache file" in lines[0] and "--no-cache" in lines[0]
    with pytest.raises(CacheFileError, match="cannot be used"):
        ResultCache(tmp_path / "cache.sqlite")


def test_a_failed_cache_write_is_kept_and_the_run_goes_on(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path / "cache.sqlite")
    cache.put("k", "kind", "v")

    class FullDisk:
        def execute(self, *args: object) -> object:
            raise sqlite3.OperationalError("database or disk is full")

    cache._conn = FullDisk()  # type: ignore[assignment]
    cache.put("k2", "kind", "v2")
    assert cache.write_error is not None and "disk is full" in cache.write_error
    assert cache.get("k2") is None  # a failed read is a miss


def _hold_write_lock(path: Path) -> sqlite3.Connection:
    """Another process's setup in the middle of its write: the fresh file's lock held."""
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    return holder


def test_a_cache_opened_while_another_sets_the_file_up_waits_for_it(tmp_path: Path) -> None:
    # Switching a fresh file to WAL upgrades a read lock to a write lock; SQLite answers
    # "database is locked" at once, without waiting, when another connection holds the write
    # lock then (the busy timeout does not apply): batch workers opening one new cache file
    # together hit it. The setup waits for the lock instead.
    path = tmp_path / "cache.sqlite"
    holder = _hold_write_lock(path)
    released = threading.Timer(0.3, holder.execute, ("COMMIT",))
    released.start()
    started = time.monotonic()
    try:
        cache = ResultCache(path)
    finally:
        released.join()
        holder.close()
    assert time.monotonic() - started >= 0.25  # it waited for the other's setup
    cache.put("k", "kind", "v")
    assert cache.get("k") == "v"
    assert cache._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    cache.close()


def test_a_cache_file_locked_past_the_lock_timeout_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRIQUA_LOCK_TIMEOUT", "0.3")
    path = tmp_path / "cache.sqlite"
    holder = _hold_write_lock(path)
    try:
        with pytest.raises(CacheFileError, match="locked") as refused:
            ResultCache(path)
    finally:
        holder.close()
    assert "TRIQUA_LOCK_TIMEOUT" in str(refused.value)


def _open_at_once(paths: list[str], barrier: Any, errors: Any) -> None:
    for path in paths:  # each round a new file, opened by every worker at the same moment
        barrier.wait()
        try:
            cache = ResultCache(path)
            cache.put(f"k{os.getpid()}", "kind", "v")
            cache.close()
        except CacheFileError as exc:
            errors.put(str(exc))


def test_many_processes_opening_one_new_cache_file_at_once_all_open_it(tmp_path: Path) -> None:
    # Before the setup waited for the lock, about one round in six lost a worker here.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    workers, rounds = 8, 24
    paths = [str(tmp_path / f"cache{n}.sqlite") for n in range(rounds)]
    barrier, errors = context.Barrier(workers), context.Queue()
    processes = [
        context.Process(target=_open_at_once, args=(paths, barrier, errors)) for _ in range(workers)
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(120)
    assert [process.exitcode for process in processes] == [0] * workers
    assert errors.empty(), errors.get()
    for path in paths:
        assert len(ResultCache(path)) == workers
        close_cache(path)
