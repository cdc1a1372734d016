"""Every CLI error is one line on stderr with exit code 2, never a traceback."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from typer.testing import CliRunner

from triqua.cli import app
from triqua.engines.factory import register_model
from triqua.runtime.persistence.checkpoints import default_checkpoint_path
from triqua.store import RunStore, default_store_path

from .conftest import CURIE, FRANCE

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]
EVIDENCE = "Marie Curie won the Nobel Prize in Physics in 1903.\n"


def one_line_error(result: Result, *needles: str) -> str:
    """The error line, after asserting exit code 2, one line, and no traceback."""
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.output
    for needle in needles:
        assert needle in lines[0]
    return lines[0]


@pytest.fixture
def model(scripted: Any) -> Any:
    return scripted()


@pytest.fixture
def model_name(model: Any) -> str:
    return register_model("cli-errors", model)


@pytest.fixture
def evidence(tmp_path: Path) -> Path:
    path = tmp_path / "evidence.md"
    path.write_text(EVIDENCE, encoding="utf-8")
    return path


def test_check_batch_with_a_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "missing.jsonl"
    one_line_error(runner.invoke(app, ["check", "--batch", str(missing)]), "missing.jsonl")


@pytest.mark.parametrize("command", ["check --batch", "batch"])
@pytest.mark.parametrize("value", ["0", "-3"])
def test_concurrency_below_one(tmp_path: Path, command: str, value: str) -> None:
    lines = tmp_path / "in.jsonl"
    lines.write_text(json.dumps({"id": 1, "text": CURIE}) + "\n", encoding="utf-8")
    result = runner.invoke(app, [*command.split(), str(lines), "--concurrency", value])
    one_line_error(result, "--concurrency must be 1 or more", value)


@pytest.mark.parametrize(
    ("target", "says"),
    [
        ("nodir/report.html", "does not exist"),
        (".", "is a directory"),
        ("/proc/report.html", "cannot be written"),  # writable by mode, refuses new files
    ],
)
def test_html_problems_are_caught_before_the_run(
    model: Any, model_name: str, evidence: Path, tmp_path: Path, target: str, says: str
) -> None:
    html = tmp_path / target
    result = runner.invoke(
        app, ["check", CURIE, "-e", str(evidence), "-m", model_name, "--html", str(html)]
    )
    one_line_error(result, "--html", says)
    assert model.calls == []  # nothing was spent on a run whose report could not be written
    assert not default_store_path().exists() or not RunStore().runs()


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"Marie Curie won \xe9 prize.", "not valid UTF-8 (byte 0xe9 at offset 16)"),
        (b"Marie Curie\x00 won.", "binary data (NUL byte at offset 11)"),
    ],
)
def test_bad_bytes_on_stdin(model_name: str, data: bytes, says: str) -> None:
    result = runner.invoke(app, ["check", "-", "-m", model_name], input=data)
    line = one_line_error(result, "stdin", says)
    assert "iconv" in line or "NUL" in line


@pytest.mark.slow
def test_a_file_name_as_text_is_refused_with_the_option_that_reads_it(
    model: Any, model_name: str, evidence: Path, tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "answer.txt").write_text("Marie Curie won the Nobel Prize.", encoding="utf-8")
    result = runner.invoke(app, ["check", "answer.txt", "-e", str(evidence), "-m", model_name])
    line = one_line_error(result, "'answer.txt' is a file name", "-f answer.txt")
    assert "no such file" not in line
    assert model.calls == []  # the nine characters "answer.txt" were never checked
    # One word that only looks like a file name: the same hint, saying there is no such file.
    one_line_error(runner.invoke(app, ["extract", "notes.md"]), "-f notes.md (no such file")
    # A one-word text that is no file name is checked as before.
    result = runner.invoke(app, ["check", "Ulm.", "-m", model_name, "--no-store"])
    assert result.exit_code == 0, result.output


@pytest.mark.slow
def test_bad_bytes_on_a_real_stdin_under_a_c_locale(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "TRIQUA_HOME": str(tmp_path / "home"),
        "PYTHONPATH": str(ROOT / "src"),
        "LC_ALL": "C",  # Python's stdin then decodes with surrogateescape, not strictly
        "PYTHONIOENCODING": "",
    }
    done = subprocess.run(
        [sys.executable, "-m", "triqua", "check", "--no-store"],
        input=b"Paris\xff is in France.",
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    err = done.stderr.decode()
    assert err.strip().splitlines() == [
        "error: stdin: not valid UTF-8 (byte 0xff at offset 5); convert it first, "
        "e.g. iconv -f latin1 -t utf-8 FILE > FILE.utf8"
    ]


def garbage(path: Path) -> None:
    path.write_bytes(b"not a database, just text\n" * 200)


def truncated(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])


def directory(path: Path) -> None:
    path.unlink()
    path.mkdir()


def filled_store(path: Path, model_name: str, evidence: Path) -> None:
    for text in (FRANCE, CURIE):
        result = runner.invoke(
            app, ["check", text, "-e", str(evidence), "-m", model_name, "--store", str(path)]
        )
        assert result.exit_code == 0, result.output


@pytest.mark.slow
@pytest.mark.parametrize(
    ("damage", "says"),
    [(garbage, "is not a SQLite database"), (truncated, "truncated"), (directory, "directory")],
)
@pytest.mark.parametrize(
    "command",
    [["runs"], ["show", "abc"], ["regrade", "abc"], ["check", CURIE], ["runs", "prune"]],
)
def test_a_corrupt_store_is_one_line_in_every_command(
    model_name: str,
    evidence: Path,
    tmp_path: Path,
    damage: Callable[[Path], None],
    says: str,
    command: list[str],
) -> None:
    store = tmp_path / "runs.sqlite"
    filled_store(store, model_name, evidence)
    damage(store)
    extra = ["-e", str(evidence), "-m", model_name] if command[0] == "check" else []
    result = runner.invoke(app, [*command, *extra, "--store", str(store)])
    one_line_error(result, f"run store {store}", says)


def test_a_corrupt_checkpoint_file_is_one_line(model_name: str, evidence: Path) -> None:
    checkpoints = default_checkpoint_path()
    checkpoints.parent.mkdir(parents=True, exist_ok=True)
    garbage(checkpoints)
    result = runner.invoke(app, ["check", CURIE, "-e", str(evidence), "-m", model_name])
    one_line_error(result, f"checkpoint file {checkpoints}", "move it aside")


def test_a_locked_store_is_one_line(tmp_path: Path) -> None:
    store = tmp_path / "runs.sqlite"
    RunStore(store).start_run("r1", text="x", question=None, settings={})
    holder = sqlite3.connect(store, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        result = runner.invoke(
            app, ["runs", "--store", str(store)], env={"TRIQUA_LOCK_TIMEOUT": "0.1"}
        )
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    one_line_error(result, "is locked by another process", "TRIQUA_LOCK_TIMEOUT")


def test_resuming_a_run_that_failed_at_start_is_one_line() -> None:
    failed = runner.invoke(app, ["check", CURIE, "--retriever", "tavily"])
    one_line_error(failed, "tavily")
    (run,) = RunStore().runs()
    result = runner.invoke(app, ["check", "--resume", run.run_id[:8]])
    one_line_error(result, run.run_id[:12], "failed at start", "cannot be resumed")


class _Endless(io.RawIOBase):
    """A byte stream of ``size`` letters that counts what was read of it (``yes |`` cut short)."""

    def __init__(self, size: int) -> None:
        self.left, self.served = size, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = min(len(buffer), self.left)
        buffer[:n] = b"a" * n
        self.left -= n
        self.served += n
        return n


@pytest.mark.parametrize("command", ["check", "extract"])
def test_a_huge_stdin_is_refused_after_the_bytes_the_limit_allows(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stream = _Endless(50_000_000)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(stream)))
    code = app([command, "-", "--max-input-chars", "1000"], standalone_mode=False)
    assert code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: stdin: ")
    assert "above the limit of 1,000 characters (max_input_chars)" in lines[0]
    assert stream.served < 100_000  # not the 50 MB it offered


def test_a_huge_file_is_refused_before_it_is_read_whole(tmp_path: Path) -> None:
    huge = tmp_path / "huge.txt"
    with huge.open("wb") as handle:  # sparse: 64 GiB on disk as nothing, all NUL bytes
        handle.truncate(64 * 2**30)
    one_line_error(
        runner.invoke(app, ["check", "-f", str(huge)]),
        str(huge),
        "above the limit of 2,000,000 characters",
    )


def test_an_error_naming_data_sends_no_escape_sequence(tmp_path: Path) -> None:
    folder = tmp_path / "evidence"
    folder.mkdir()
    (folder / "x\x1b]0;pwned\x1b\\.txt").write_bytes(b"\x00binary")  # a name from a download
    result = runner.invoke(app, ["check", CURIE, "-e", str(folder), "--no-store"])
    line = one_line_error(result, "x?]0;pwned?\\.txt: looks binary")
    assert "\x1b" not in line
