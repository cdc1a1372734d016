"""`triqua batch --ray`: the same reports, problems, summary and resume as the local batch.

Every test runs on the session's local Ray cluster (two CPUs) with the offline engine.
"""

from __future__ import annotations

import builtins
import io
import json
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from tests.conftest_chroma import chroma_server  # noqa: F401
from tests.conftest_ray import ray_session  # noqa: F401
from triqua.batch import BatchSummary, run_batch
from triqua.batch.ray_batch import RETRIES
from triqua.cli import app
from triqua.store import RunStore
from triqua.tools.ingest import ingest_paths

from .conftest import CURIE, PARIS

DANUBE = "The Danube flows through Budapest."
FRENCH = "La tour Eiffel se trouve à Paris et elle a été achevée en 1889 pour l'Exposition."
LINES: list[dict[str, Any]] = [
    {"id": "paris", "text": PARIS, "evidence": [PARIS]},
    {"id": "curie", "text": CURIE, "evidence": ["Marie Curie won the Nobel Prize in 1911."]},
    {"id": "danube", "text": DANUBE, "evidence": [{"path": "danube.md"}]},
    {"id": "missing", "text": DANUBE, "evidence": [{"path": "absent.md"}]},  # the driver's
    {"id": "french", "text": FRENCH, "evidence": [FRENCH]},  # refused in the worker
    {"id": 6, "text": f"{PARIS} {DANUBE}", "evidence": ["Rome is the capital of Italy."]},
]
CHECKED = {"paris", "curie", "danube", "6"}


@pytest.fixture
def batch_input(tmp_path: Path) -> Path:
    folder = tmp_path / "input"
    folder.mkdir()
    (folder / "danube.md").write_text(f"# Rivers\n\n{DANUBE} It reaches the Black Sea.\n")
    source = folder / "in.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in LINES), encoding="utf-8")
    return source


def run(source: Path, out: Path, **options: Any) -> tuple[BatchSummary, str]:
    buffer = io.StringIO()
    summary = run_batch(source, out, console=Console(file=buffer, width=300), **options)
    return summary, buffer.getvalue()


def reports(path: Path) -> dict[str, dict[str, Any]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    by_id = {str(row["id"]): row for row in rows}
    assert len(by_id) == len(rows), "each id once"
    return by_id


def verdicts(report: dict[str, Any]) -> tuple[Any, ...]:
    """What a report decided, without what differs from run to run (ids, times)."""
    records = tuple(
        (
            r["case_id"],
            r["claim_text"],
            r["verdict"]["status"],
            tuple(r["verdict"]["error_spans"]),
            r["verdict"]["quote"],
            tuple(e["text"] for e in r["evidence"]),
        )
        for r in report["records"]
    )
    return report["outcome"], report["scores"], report["spec"]["hash"], records


@pytest.mark.slow
def test_ray_batch_writes_what_the_local_batch_writes(
    ray_session: Any,  # noqa: F811
    batch_input: Path,
    tmp_path: Path,
) -> None:
    local, _ = run(batch_input, tmp_path / "local.jsonl", concurrency=2)
    store = tmp_path / "runs.sqlite"
    on_ray, ray_err = run(
        batch_input, tmp_path / "ray.jsonl", concurrency=2, ray="local", store=store
    )
    assert ray_session.is_initialized()  # the session's cluster served it and is still up
    local_reports, ray_reports = reports(tmp_path / "local.jsonl"), reports(tmp_path / "ray.jsonl")
    assert set(ray_reports) == set(local_reports) == CHECKED
    for ident, report in ray_reports.items():
        assert verdicts(report) == verdicts(local_reports[ident]), ident
        assert set(report) == set(local_reports[ident])  # the same fields, line for line
    assert sorted(on_ray.problems) == sorted(local.problems)
    assert len(on_ray.problems) == 2
    assert any("in.jsonl:4: id 'missing'" in p and "absent.md" in p for p in on_ray.problems)
    assert any("in.jsonl:5: id 'french'" in p and "English" in p for p in on_ray.problems)
    for field in ("checked", "by_status", "outcomes", "mean_score", "exit_code", "warnings"):
        assert getattr(on_ray, field) == getattr(local, field), field
    assert "mean TriQuaScore" in ray_err and "checked" in ray_err
    saved = {run.run_id for run in RunStore(store).runs()}  # the workers saved every line's run
    assert {r["run_id"] for r in ray_reports.values()} <= saved


@pytest.mark.slow
def test_ray_batch_resumes_after_failed_lines(
    ray_session: Any,  # noqa: F811
    batch_input: Path,
    tmp_path: Path,
) -> None:
    out = tmp_path / "out.jsonl"
    first, _ = run(batch_input, out, ray="local", language="auto")
    assert (first.checked, len(first.problems), first.exit_code) == (4, 2, 1), first.problems
    # A report of a run that failed (as a provider's 401 leaves it) is checked again.
    rows = out.read_text(encoding="utf-8").splitlines()
    failed = [json.dumps({**json.loads(r), "outcome": "failed"}) for r in rows if '"curie"' in r]
    kept = [r for r in rows if '"curie"' not in r]
    out.write_text("\n".join([*kept, *failed]) + "\n", encoding="utf-8")
    (batch_input.parent / "absent.md").write_text(DANUBE + "\n", encoding="utf-8")
    second, _ = run(batch_input, out, ray="local", language="en")  # fixed: French is taken
    assert (second.already_done, second.checked) == (3, 3) and not second.problems, second.problems
    final = reports(out)
    assert set(final) == CHECKED | {"missing", "french"}
    assert final["curie"]["outcome"] != "failed"
    assert final["missing"]["records"][0]["verdict"]["status"] == "supported"
    third, _ = run(batch_input, out, ray="local")
    assert third.checked == 0 and third.already_done == len(LINES)


@pytest.mark.slow
def test_cli_batch_on_ray_exits_and_reports_as_the_local_one(
    ray_session: Any,  # noqa: F811
    batch_input: Path,
    tmp_path: Path,
) -> None:
    runner = CliRunner()
    base = ["batch", str(batch_input), "--no-store", "--fail-on", "contradicted"]
    local = runner.invoke(app, [*base, "-o", str(tmp_path / "local.jsonl")])
    on_ray = runner.invoke(app, [*base, "-o", str(tmp_path / "ray.jsonl"), "--ray", "local"])
    assert on_ray.exit_code == local.exit_code == 1, on_ray.output

    def problems(stderr: str) -> list[str]:
        return sorted(line for line in stderr.splitlines() if "in.jsonl:" in line)

    assert problems(on_ray.stderr) == problems(local.stderr) and problems(on_ray.stderr)
    assert len(reports(tmp_path / "ray.jsonl")) == len(CHECKED)


@pytest.mark.slow
def test_ray_workers_search_the_shared_chroma_server(
    ray_session: Any,  # noqa: F811
    chroma_server: str,  # noqa: F811
    batch_input: Path,
    tmp_path: Path,
) -> None:
    ingest_paths([batch_input.parent / "danube.md"], "ray-corpus", url=chroma_server)
    source = tmp_path / "search.jsonl"
    rows = [{"id": "danube", "text": DANUBE}, {"id": "paris", "text": PARIS}]
    source.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    options = {"retriever": "chroma", "collection": "ray-corpus", "chroma_url": chroma_server}
    summary, _ = run(source, tmp_path / "out.jsonl", ray="local", **options)
    assert summary.checked == 2 and not summary.problems
    found = reports(tmp_path / "out.jsonl")
    danube, paris = (found[key]["records"][0] for key in ("danube", "paris"))
    assert danube["verdict"]["status"] == "supported"
    assert {e["retriever"] for e in danube["evidence"]} == {"chroma"}
    assert paris["verdict"]["status"] == "insufficient_evidence"  # not in the collection
    snapshot = found["danube"]["spec"]["corpus_snapshot"]
    assert (snapshot["collection"], snapshot["count"]) == ("ray-corpus", 1)


def _parent(pid: int) -> int:
    """The parent process id of ``pid`` (0 when it is gone)."""
    try:
        stat = (Path("/proc") / str(pid) / "stat").read_text()
    except OSError:
        return 0
    return int(stat.rsplit(")", 1)[1].split()[1])


def _ours(pid: int) -> bool:
    """True when ``pid`` descends from this process: a worker of the session's own cluster."""
    me = os.getpid()
    while pid > 1:
        pid = _parent(pid)
        if pid == me:
            return True
    return False


def checking_workers() -> list[int]:
    """Process ids of this test session's Ray workers checking a line now.

    Ray titles a worker after the method it runs; a worker is this session's when it
    descends from this process, which started the session's cluster (another cluster's
    workers on the same machine, a benchmark's say, are never touched).
    """
    found = []
    for proc in Path("/proc").iterdir():
        try:
            title = (proc / "cmdline").read_bytes()
        except OSError:
            continue
        if title.startswith(b"ray::LineChecker.check") and _ours(int(proc.name)):
            found.append(int(proc.name))
    return found


@pytest.mark.slow
def test_a_worker_killed_mid_run_loses_and_repeats_no_line(
    ray_session: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    source = tmp_path / "in.jsonl"
    rows = [{"id": i, "text": PARIS, "evidence": [PARIS]} for i in range(24)]
    source.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    killed: list[int] = []

    def kill_one() -> None:
        deadline = time.monotonic() + 120
        while not killed and time.monotonic() < deadline:
            for pid in checking_workers()[:1]:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            time.sleep(0.02)

    killer = threading.Thread(target=kill_one)
    killer.start()
    out, store = tmp_path / "out.jsonl", tmp_path / "runs.sqlite"
    summary, _ = run(source, out, ray="local", concurrency=2, cache=False, store=store)
    killer.join()
    assert killed, "no worker was seen running a line"
    assert summary.checked == 24 and not summary.problems  # Ray ran the lost line again
    written = reports(out)  # and the driver wrote it once, in input order
    assert [int(line.split(",")[0].split(":")[1]) for line in out.read_text().splitlines()] == (
        list(range(24))
    )
    assert len({r["run_id"] for r in written.values()}) == 24
    # The retry went on with the killed line's run: no unfinished run is left behind.
    saved = RunStore(store).runs()
    assert {run.run_id for run in saved} == {r["run_id"] for r in written.values()}
    assert all(run.revisions == 1 for run in saved)


def test_a_line_whose_worker_dies_every_time_ends_with_its_run_failed(
    ray_session: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    source = tmp_path / "in.jsonl"
    text = " ".join(f"City {i} lies on river {i + 7} in the north." for i in range(60))
    source.write_text(json.dumps({"id": "doomed", "text": text, "evidence": [text]}) + "\n")
    store = tmp_path / "runs.sqlite"
    killed: list[int] = []
    done = threading.Event()

    def kill_every_try() -> None:  # each attempt loses its worker once the run is stored
        while not done.is_set():
            if store.exists() and RunStore(store).runs():
                for pid in checking_workers():
                    if pid not in killed:
                        os.kill(pid, signal.SIGKILL)
                        killed.append(pid)
            time.sleep(0.02)

    killer = threading.Thread(target=kill_every_try)
    killer.start()
    try:
        summary, _ = run(source, tmp_path / "out.jsonl", ray="local", cache=False, store=store)
    finally:
        done.set()
        killer.join()
    assert len(killed) == RETRIES + 1  # the first try and every retry
    assert summary.checked == 0 and len(summary.problems) == 1
    assert "id 'doomed': ray: " in summary.problems[0]
    (saved,) = RunStore(store).runs()  # one run for all the tries, ended as failed
    assert saved.status == "failed" and saved.revisions == 0
    assert saved.error and saved.error.startswith("ray: ")


def test_ray_missing_is_one_line(
    batch_input: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_import = builtins.__import__

    def no_ray(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "ray":
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(app, ["batch", str(batch_input), "-o", str(out), "--ray", "local"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "error: --ray needs Ray, which is not installed: pip install 'triqua[ray]'"
    ]
    assert out.read_text() == ""  # nothing checked
