"""A cache file that cannot be used is one clear line; a failed cache write loses no run."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from triqua.cli import app
from triqua.runtime.caches.call_cache import CacheFileError, ResultCache


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
