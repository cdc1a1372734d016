"""Ray batch benchmark: lines per second of the local batch and of ``--ray`` with 1 and 2 workers.

The model is a local OpenAI-compatible endpoint (a loopback stub) that answers every call
after a fixed ``--latency``, so the model's latency dominates, as with a hosted model; the
workers reach it through ``TRIQUA_MODEL`` / ``TRIQUA_BASE_URL`` like any endpoint. Each line
costs two calls (decompose, verify). Prints lines per second and their ratios in one run, and
the resident memory of a Ray worker after it checked a line on the offline engine.

Exits 1 when two Ray workers are not at least 1.7x as fast as one.

Run: ``.venv/bin/python benchmarks/ray_batch.py [--lines 24] [--latency 0.25]``
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from triqua.batch import run_batch
from triqua.testing.endpoint import stub_endpoint

FACT = re.compile(r"City (\d+) lies on river (\d+)\.")


def answer(schema: str, prompt: str) -> dict[str, Any]:
    """The stub model's answer: one fact per line's text; every fact left insufficient."""
    if schema == "ExtractedFacts":
        city, river = FACT.findall(prompt)[-1]
        sentence = f"City {city} lies on river {river}."
        fact = {"subject": f"City {city}", "relation": "lies on", "object": f"river {river}"}
        return {"facts": [{**fact, "qualifiers": [], "source_sentence": sentence}]}
    if schema == "Judgement":
        return {"status": "insufficient_evidence", "rationale": "stub"}
    raise ValueError(f"unexpected schema {schema!r}")


def batch_file(folder: Path, lines: int, first: int) -> Path:
    """``lines`` one-sentence lines with evidence, numbered from ``first`` (no cache hits)."""
    path = folder / f"lines-{first}.jsonl"
    rows = []
    for i in range(first, first + lines):
        text = f"City {i} lies on river {i + 7}."
        rows.append({"id": i, "text": text, "evidence": [f"Notes on city {i}."]})
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def lines_per_second(source: Path, **options: Any) -> float:
    """Lines per second of one batch over ``source`` (every line must be checked)."""
    out = source.with_suffix(".out.jsonl")
    quiet = Console(file=io.StringIO())
    started = time.perf_counter()
    summary = run_batch(source, out, console=quiet, quiet=True, cache=False, **options)
    seconds = time.perf_counter() - started
    if summary.problems or summary.checked != len(source.read_text().splitlines()):
        raise SystemExit(f"{source.name}: {summary.problems[:3]}")
    return summary.checked / seconds


def worker_memory_mb(ray: Any) -> float:
    """Peak resident memory (MB) of a fresh Ray worker after one line on the offline engine."""

    def offline_line() -> float:
        import resource

        import triqua

        triqua.check(
            "Marie Curie won the Nobel Prize in Physics in 1903.",
            documents=["Marie Curie won the Nobel Prize in Physics in 1903."],
            model=None,
            cache=False,
        )
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    fresh = {"env_vars": {"TRIQUA_MODEL": "", "TRIQUA_BENCH_WORKER": "memory"}}
    task = ray.remote(num_cpus=1, runtime_env=fresh)(offline_line)
    return float(ray.get(task.remote()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=24, help="lines per batch")
    parser.add_argument("--latency", type=float, default=0.25, help="seconds per model call")
    args = parser.parse_args()
    try:
        import ray
    except ImportError:
        print("skipped: Ray is not installed (pip install 'triqua[ray]')")
        return
    home = Path(tempfile.mkdtemp(prefix="triqua-ray-bench-"))
    with stub_endpoint(answer, latency=args.latency) as stub:
        os.environ.update(
            TRIQUA_HOME=str(home),
            TRIQUA_MODEL="openai:stub-model",
            TRIQUA_BASE_URL=stub.base_url,
            TRIQUA_VERIFY_BATCH="1",
            OPENAI_API_KEY="sk-stub",  # langchain-openai wants one; the stub ignores it
        )
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        try:
            # Warm-up: the driver's and both workers' engines built, outside the timings.
            lines_per_second(batch_file(home, 2, 0), concurrency=2)
            lines_per_second(batch_file(home, 2, 100), ray="local", concurrency=2)
            runs = {
                "local batch, 1 at a time": {"concurrency": 1},
                "local batch, 2 at a time": {"concurrency": 2},
                "--ray, 1 worker": {"concurrency": 1, "ray": "local"},
                "--ray, 2 workers": {"concurrency": 2, "ray": "local"},
            }
            rates = {
                name: lines_per_second(batch_file(home, args.lines, 1000 * n), **options)
                for n, (name, options) in enumerate(runs.items(), start=1)
            }
            memory = worker_memory_mb(ray)
        finally:
            ray.shutdown()
    one = rates["--ray, 1 worker"]
    print(f"{args.lines} lines, 2 model calls each at {args.latency:g} s (local stub endpoint)")
    for name, rate in rates.items():
        print(f"  {name:<26} {rate:6.2f} lines/s  ({rate / one:.2f}x one Ray worker)")
    print(f"  offline engine, one Ray worker's peak memory: {memory:.0f} MB")
    speedup = rates["--ray, 2 workers"] / one
    if speedup < 1.7:
        print(f"2 workers are {speedup:.2f}x one (aim: >= 1.7x)", file=sys.stderr)
        raise SystemExit(1)


if __name__ == "__main__":
    main()
