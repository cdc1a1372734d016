"""Checkpoint file size after a durable run, without and with hygiene, and prune timing.

One offline durable run over several FActScore ChatGPT bios (the bios are also the supplied
evidence), three times, each into a fresh checkpoint file:

- kept: the run's checkpoints are left (what a ``--no-store`` run used to leave);
- deleted: its thread is deleted but the file not compacted (what a stored run used to do);
- hygiene: deleted, ``VACUUM`` when worthwhile, WAL truncated (what every run does now).

Then ``runs prune`` on a store with many unfinished runs (copies of the real thread) and
runs that failed at start: the time to plan (dry run) and to prune, and the sizes.

    .venv/bin/python benchmarks/checkpoints.py [--bios 6] [--unfinished 20] [--failed 200]
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

from shared_data import data_dir

DATA = data_dir()
BIOS = "factscore_labeled/ChatGPT.jsonl"


def load_bios(count: int) -> list[str]:
    """The first ``count`` non-empty ChatGPT bios."""
    for base in (Path("/work/shared/data"), DATA):
        path = base / BIOS
        if path.exists():
            break
    else:
        raise SystemExit(f"missing {BIOS} under the shared data folder")
    bios = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            output = json.loads(line).get("output")
            if output:
                bios.append(output)
            if len(bios) == count:
                break
    return bios


def sizes(path: Path) -> dict[str, int]:
    """Bytes of the file and its WAL, and the free pages inside the file."""
    from triqua.runtime.persistence.checkpoints import database_bytes

    wal = Path(f"{path}-wal")
    with sqlite3.connect(path) as conn:
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        free = conn.execute("PRAGMA freelist_count").fetchone()[0]
    return {
        "file": path.stat().st_size,
        "wal": wal.stat().st_size if wal.exists() else 0,
        "free": free * page,
        "total": database_bytes(path),
    }


def run_once(mode: str, text: str, bios: list[str], folder: Path) -> tuple[float, dict[str, int]]:
    """One durable run with the given hygiene; returns its time and the checkpoint sizes."""
    import triqua
    import triqua.execution.check_run as check_run
    from triqua.runtime.persistence.checkpoints import forget_run

    async def kept(saver: Any, run_id: str) -> None:
        return None

    async def deleted(saver: Any, run_id: str) -> None:
        await saver.adelete_thread(run_id)

    check_run.forget_run = {"kept": kept, "deleted": deleted, "hygiene": forget_run}[mode]
    path = folder / f"{mode}.sqlite"
    start = time.perf_counter()
    try:
        triqua.check(text, documents=bios, durable=True, store=True, checkpoints=path, cache=False)
    finally:
        check_run.forget_run = forget_run
    return time.perf_counter() - start, sizes(path)


def megabytes(size: int) -> str:
    return f"{size / 1_000_000:8.3f} MB"


def copy_thread(source: Path, target: Path, run_ids: list[str]) -> str:
    """Fill ``target`` with copies of the one thread in ``source`` under ``run_ids``."""
    with sqlite3.connect(target) as conn:
        conn.execute("ATTACH DATABASE ? AS src", (str(source),))
        for table in ("checkpoints", "writes"):
            conn.execute(f"CREATE TABLE {table} AS SELECT * FROM src.{table} WHERE 0")
        (thread,) = conn.execute("SELECT DISTINCT thread_id FROM src.checkpoints").fetchone()
        for run_id in run_ids:
            for table in ("checkpoints", "writes"):
                columns = [r[1] for r in conn.execute(f"PRAGMA src.table_info({table})")]
                picked = ", ".join("?" if c == "thread_id" else c for c in columns)
                conn.execute(
                    f"INSERT INTO {table} SELECT {picked} FROM src.{table}",
                    (run_id,),
                )
        conn.commit()
        conn.execute("DETACH DATABASE src")
    return str(thread)


def bench_prune(kept: Path, folder: Path, unfinished: int, failed: int) -> None:
    """Time ``prune`` on many unfinished runs (real-size threads) and failed-at-start runs."""
    from triqua.runtime.persistence.checkpoints import database_bytes
    from triqua.runtime.persistence.prune import prune
    from triqua.store import RunStore

    store = RunStore(folder / "prune-runs.sqlite")
    checkpoints = folder / "prune-checkpoints.sqlite"
    ids = [f"unfinished-{i:04d}" for i in range(unfinished)]
    copy_thread(kept, checkpoints, ids)
    for run_id in ids:
        store.start_run(run_id, text="x", question=None, settings={})
    for i in range(failed):
        store.start_run(f"failed-{i:04d}", text="x", question=None, settings={})
        store.mark_failed(f"failed-{i:04d}", "tavily: no API key")
    before = database_bytes(checkpoints)
    start = time.perf_counter()
    planned = prune(store, checkpoints, older_than=0, dry_run=True)
    planned_s = time.perf_counter() - start
    start = time.perf_counter()
    done = prune(store, checkpoints, older_than=0)
    pruned_s = time.perf_counter() - start
    print(
        f"\nprune: {unfinished} unfinished runs (each a copy of the real thread) + "
        f"{failed} failed at start"
    )
    print(f"  dry run: {len(planned.runs)} runs planned in {planned_s * 1000:.1f} ms")
    print(
        f"  prune:   {len(done.runs)} runs, {done.checkpoint_rows} checkpoint rows in "
        f"{pruned_s * 1000:.1f} ms; checkpoints {megabytes(before).strip()} -> "
        f"{megabytes(database_bytes(checkpoints)).strip()}; runs left {len(store.runs())}"
    )


def main() -> None:
    """Run the three hygiene modes and the prune benchmark, printing real figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bios", type=int, default=6, help="FActScore bios in the text")
    parser.add_argument("--unfinished", type=int, default=20, help="unfinished runs to prune")
    parser.add_argument("--failed", type=int, default=200, help="failed-at-start runs")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="triqua-bench-checkpoints-"))
    os.environ["TRIQUA_HOME"] = str(folder)
    bios = load_bios(args.bios)
    text = "\n\n".join(bios)
    print(f"text: {args.bios} FActScore bios, {len(text)} characters; offline engine")
    import triqua

    triqua.check(bios[0], documents=bios[:1], cache=False)  # warm-up: load the offline engine
    print(f"{'mode':<8} {'run s':>7} {'file':>12} {'wal':>12} {'free in file':>14} {'total':>12}")
    totals = {}
    for mode in ("kept", "deleted", "hygiene"):
        seconds, size = run_once(mode, text, bios, folder)
        totals[mode] = size["total"]
        print(
            f"{mode:<8} {seconds:7.1f} {megabytes(size['file'])} {megabytes(size['wal'])} "
            f"{megabytes(size['free']):>14} {megabytes(size['total'])}"
        )
    print(
        f"hygiene leaves {totals['hygiene'] / totals['kept']:.1%} of the kept size and "
        f"{totals['hygiene'] / totals['deleted']:.1%} of the deleted-only size"
    )
    bench_prune(folder / "kept.sqlite", folder, args.unfinished, args.failed)


if __name__ == "__main__":
    main()
