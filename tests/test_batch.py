"""Batch checks: JSONL in, one report per line out, malformed lines reported, resumable."""

from __future__ import annotations

import io
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from triqua.batch import completed_ids, run_batch
from triqua.cli import app
from triqua.engines.factory import register_model
from triqua.schema import Report, Usage
from triqua.testing import shown_text

from .conftest import CURIE, FRANCE, PARIS, default_judgement

FRANCE_DOC = "France had a population of 64.5 million in 2025, excluding overseas departments."
CURIE_DOC = "Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie."


def _write(path: Path, rows: list[Any]) -> Path:
    lines = [row if isinstance(row, str) else json.dumps(row) for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _reports(path: Path) -> dict[Any, dict[str, Any]]:
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert all(row.keys() >= {"id", "scores", "records"} for row in rows)
    assert len({row["id"] for row in rows}) == len(rows)  # each id once
    return {row["id"]: row for row in rows}


def _console() -> tuple[Console, io.StringIO]:
    buffer = io.StringIO()
    return Console(file=buffer, width=200), buffer


GOOD = [
    {"id": "france", "text": FRANCE, "evidence": [FRANCE_DOC]},
    {"id": "curie", "text": CURIE, "question": "Who was Marie Curie?", "evidence": [CURIE_DOC]},
    {"id": 3, "text": f"{PARIS} {CURIE}", "evidence": [CURIE_DOC, PARIS]},
]


def test_batch_writes_one_report_per_line_and_a_summary(tmp_path: Path, scripted: Any) -> None:
    source = _write(tmp_path / "in.jsonl", GOOD)
    out = tmp_path / "out.jsonl"
    console, buffer = _console()
    summary = run_batch(source, out, concurrency=2, console=console, model=scripted())
    reports = _reports(out)
    assert set(reports) == {"france", "curie", 3}
    assert reports["france"]["scores"]["triqua_score"] == pytest.approx(2 / 3)
    assert reports["curie"]["question"] == "Who was Marie Curie?"
    assert Report.model_validate({k: v for k, v in reports[3].items() if k != "id"}).score == 1.0
    assert summary.checked == 3 and summary.problems == []
    assert summary.mean_score == pytest.approx((2 / 3 + 1 + 1) / 3)
    assert summary.by_status == {"supported": 3, "contradicted": 1}
    usage = [Usage.model_validate(r["usage"]) for r in reports.values()]
    assert summary.usage == usage[0] + usage[1] + usage[2]
    assert summary.usage.model_calls > 0 and summary.usage.search_calls == 4  # one per fact
    table = buffer.getvalue()
    assert "mean TriQuaScore" in table and "88.9%" in table and "model calls" in table


def test_malformed_lines_are_reported_by_number_and_skipped(tmp_path: Path, scripted: Any) -> None:
    rows: list[Any] = [
        GOOD[0],
        "{not json",
        {"text": CURIE},
        {"id": "no-text"},
        {"id": "bad-path", "text": CURIE, "evidence": [{"path": "missing.txt"}]},
        {"id": "bad-evidence", "text": CURIE, "evidence": "just a string"},
        {"id": "france", "text": PARIS},
        "",
        GOOD[1],
    ]
    source = _write(tmp_path / "in.jsonl", rows)
    out = tmp_path / "out.jsonl"
    console, buffer = _console()
    summary = run_batch(source, out, console=console, model=scripted())
    assert set(_reports(out)) == {"france", "curie"}
    problems = sorted(summary.problems)
    assert len(problems) == 6
    expected = {
        2: "invalid JSON",
        3: "missing 'id'",
        4: "missing 'text'",
        5: "missing.txt: no such file",
        6: "'evidence' must be a list",
        7: "duplicate id 'france'",
    }
    for line, message in expected.items():
        assert any(p.startswith(f"{source}:{line}: ") and message in p for p in problems), line
    assert "in.jsonl:2: invalid JSON" in buffer.getvalue()


def test_rerun_resumes_after_a_partial_output(tmp_path: Path, scripted: Any) -> None:
    source = _write(tmp_path / "in.jsonl", GOOD)
    out = tmp_path / "out.jsonl"
    console, _ = _console()
    run_batch(source, out, console=console, model=scripted())
    first = out.read_text().splitlines()
    kept = next(line for line in first if json.loads(line)["id"] == "curie")
    out.write_text(kept + "\n" + '{"id": "france", "scores": {"triqua_sc')  # torn last write
    model = scripted()
    summary = run_batch(source, out, console=console, model=model)
    assert summary.already_done == 1 and summary.checked == 2
    reports = _reports(out)
    assert set(reports) == {"france", "curie", 3}
    assert out.read_text().splitlines()[0] == kept  # the finished line was left alone
    checked = sorted(shown_text(p) for t, p in model.calls if t == "ExtractedFacts")
    assert checked == sorted([FRANCE, f"{PARIS} {CURIE}"])  # "curie" was not checked again
    assert completed_ids(out) == {"france", "curie", "3"}


def test_no_resume_starts_the_output_afresh(tmp_path: Path, scripted: Any) -> None:
    source = _write(tmp_path / "in.jsonl", GOOD[:1])
    out = tmp_path / "out.jsonl"
    out.write_text('{"id": "france"}\n{"id": "stale"}\n')
    summary = run_batch(source, out, resume=False, quiet=True, model=scripted())
    assert summary.checked == 1 and set(_reports(out)) == {"france"}


def test_evidence_by_path_resolves_beside_the_input(tmp_path: Path, scripted: Any) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "curie.md").write_text(f"# Curie\n\n{CURIE_DOC}\n")
    row = {"id": "p", "text": CURIE, "evidence": [{"path": "docs/curie.md"}, PARIS]}
    source = _write(tmp_path / "in.jsonl", [row])
    out = tmp_path / "out.jsonl"
    summary = run_batch(source, out, quiet=True, model=scripted())
    assert summary.problems == []
    (record,) = _reports(out)["p"]["records"]
    assert record["verdict"]["status"] == "supported"
    assert any(e["source"].endswith("docs/curie.md") for e in record["evidence"])


def test_stdout_is_the_default_output(
    tmp_path: Path, scripted: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _write(tmp_path / "in.jsonl", GOOD[1:2])
    run_batch(source, quiet=True, model=scripted())
    (line,) = capsys.readouterr().out.splitlines()
    assert json.loads(line)["id"] == "curie"


def test_checks_run_concurrently_up_to_the_bound(tmp_path: Path, scripted: Any) -> None:
    running, peak, lock = [0], [0], threading.Lock()

    def slow_judge(fact: str, prompt: str) -> dict[str, Any]:
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.2)
        with lock:
            running[0] -= 1
        return default_judgement(fact, prompt)

    rows = [{"id": i, "text": CURIE, "evidence": [CURIE_DOC]} for i in range(4)]
    source = _write(tmp_path / "in.jsonl", rows)
    summary = run_batch(
        source, tmp_path / "out.jsonl", concurrency=2, quiet=True, model=scripted(slow_judge)
    )
    assert summary.checked == 4
    assert peak[0] == 2


def test_a_fifo_or_a_folder_as_input_is_named_for_what_it_is(tmp_path: Path) -> None:
    fifo = tmp_path / "lines.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match=r"lines\.jsonl: not a regular file \(FIFO"):
        run_batch(fifo)  # refused unread: opening a FIFO waits for a writer
    with pytest.raises(ValueError, match="is a directory, not a file"):
        run_batch(tmp_path)


def test_bad_arguments_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no such file"):
        run_batch(tmp_path / "absent.jsonl")
    source = _write(tmp_path / "in.jsonl", GOOD[:1])
    with pytest.raises(ValueError, match="concurrency must be >= 1"):
        run_batch(source, concurrency=0)


def test_batch_command_writes_output_and_exits_1_on_problems(tmp_path: Path, scripted: Any) -> None:
    name = register_model("batch-cli", scripted())
    source = _write(tmp_path / "in.jsonl", [GOOD[1], "{oops"])
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(app, ["batch", str(source), "-o", str(out), "-m", name])
    assert result.exit_code == 1
    assert set(_reports(out)) == {"curie"}
    assert "in.jsonl:2: invalid JSON" in result.output


def test_a_rerun_checks_the_lines_that_failed_and_replaces_their_reports(
    tmp_path: Path, scripted: Any
) -> None:
    source = _write(tmp_path / "in.jsonl", GOOD)
    out = tmp_path / "out.jsonl"
    console, _ = _console()
    run_batch(source, out, console=console, model=scripted())
    lines = out.read_text().splitlines()
    failed = json.loads(next(line for line in lines if json.loads(line)["id"] == "france"))
    failed["outcome"] = "failed"  # as a run whose provider answered 401 leaves it
    out.write_text(
        "\n".join(json.dumps(failed) if json.loads(x)["id"] == "france" else x for x in lines)
        + "\n"
    )
    model = scripted()
    summary = run_batch(source, out, console=console, model=model)
    assert summary.already_done == 2 and summary.checked == 1
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert sorted(map(str, ids)) == ["3", "curie", "france"]  # one line per id
    reports = _reports(out)
    assert reports["france"]["outcome"] != "failed"
    checked = [shown_text(p) for t, p in model.calls if t == "ExtractedFacts"]
    assert checked == [FRANCE]


def test_a_second_batch_on_the_same_output_is_refused(tmp_path: Path, scripted: Any) -> None:
    from filelock import FileLock

    source = _write(tmp_path / "in.jsonl", GOOD[:1])
    out = tmp_path / "out.jsonl"
    with FileLock(tmp_path / ".out.jsonl.lock"), pytest.raises(ValueError, match="another batch"):
        run_batch(source, out, quiet=True, model=scripted())
    assert not out.exists()
    assert run_batch(source, out, quiet=True, model=scripted()).checked == 1


def test_each_line_run_is_saved_and_named_by_its_report(tmp_path: Path, scripted: Any) -> None:
    from triqua.store import RunStore

    source = _write(tmp_path / "in.jsonl", GOOD)
    out = tmp_path / "out.jsonl"
    store = tmp_path / "runs.sqlite"
    run_batch(source, out, quiet=True, model=scripted(), store=store)
    reports = _reports(out)
    saved = {r.run_id for r in RunStore(store).runs()}
    assert saved == {r["run_id"] for r in reports.values()} and len(saved) == len(GOOD)
    unsaved = tmp_path / "out2.jsonl"
    run_batch(source, unsaved, quiet=True, model=scripted())  # the library default: not saved
    assert {r.run_id for r in RunStore(store).runs()} == saved


def test_a_live_progress_bar_counts_the_lines_on_a_terminal(tmp_path: Path, scripted: Any) -> None:
    source = _write(tmp_path / "in.jsonl", [*GOOD, "{not json"])
    buffer = io.StringIO()
    terminal = Console(file=buffer, width=200, force_terminal=True)
    run_batch(source, tmp_path / "out.jsonl", console=terminal, model=scripted())
    shown = buffer.getvalue()
    assert "lines" in shown and "4/4" in shown  # three checked, one refused: all counted
    assert "mean TriQuaScore 88.9%" in shown and "3 complete" in shown and "1 not checked" in shown
    assert shown.index("invalid JSON") < shown.rindex("4/4")  # problems scroll above the bar
    # A rerun counts the lines already in the output as done.
    buffer.truncate(0)
    run_batch(source, tmp_path / "out.jsonl", console=terminal, model=scripted())
    assert "4/4" in buffer.getvalue()
    # No bar when quiet, nor where stderr is no terminal (piped): as triqua check.
    for console, quiet in [(terminal, True), (_console()[0], False)]:
        buffer = console.file  # type: ignore[assignment]
        buffer.truncate(0)
        buffer.seek(0)
        run_batch(source, tmp_path / "again.jsonl", console=console, quiet=quiet, model=scripted())
        assert "/4" not in buffer.getvalue()


def test_no_cache_asks_the_model_again(tmp_path: Path, scripted: Any) -> None:
    model = scripted()
    name = register_model("batch-no-cache", model)
    source = _write(tmp_path / "in.jsonl", [GOOD[1]])
    runner = CliRunner()

    def batch(out: str, *flags: str) -> int:
        before = len(model.calls)
        command = ["batch", str(source), "-o", str(tmp_path / out), "-m", name, *flags]
        result = runner.invoke(app, command)
        assert result.exit_code == 0, result.output
        return len(model.calls) - before

    assert batch("first.jsonl") > 0
    assert batch("cached.jsonl") == 0  # every answer came from the cache
    asked = batch("fresh.jsonl", "--no-cache")
    assert asked > 0
    fresh = _reports(tmp_path / "fresh.jsonl")["curie"]
    assert fresh["usage"]["model_calls"] == asked


def test_escape_sequences_in_a_line_never_reach_the_terminal(tmp_path: Path) -> None:
    line = {"id": "a", "text": PARIS, "evidence": [{"path": "gone\x1b]0;pwned\x07.txt"}]}
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps(line) + "\n", encoding="utf-8")
    shown = io.StringIO()
    console = Console(file=shown, force_terminal=True, width=200)
    summary = run_batch(source, tmp_path / "out.jsonl", console=console, quiet=True)
    assert "\x1b]0;pwned" in summary.problems[0]  # kept as it is in the summary
    assert "gone?]0;pwned?.txt: no such file" in shown.getvalue()
    assert "\x1b]" not in shown.getvalue() and "\x07" not in shown.getvalue()
