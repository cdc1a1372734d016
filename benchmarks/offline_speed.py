"""Offline engine end to end: facts per second and peak memory at 10, 40 and 160 KB of bios.

Each size runs ``triqua.check`` in a fresh child process (so peak RSS is that run's own) on
FActScore ChatGPT bios, checked against those same bios supplied as documents (one document
per bio paragraph), no model: the offline engine decomposes, retrieves with BM25 and judges
with rules + MiniLM. spaCy, ONNX, the graph libraries and the language profiles are loaded
before the clock starts (one unrelated sentence is checked first; their load time is shown
apart). Reported per size: facts, CPU seconds of all threads, facts per CPU second, wall time
and facts per wall second (with the load average: other jobs on the machine stretch wall
times, CPU time much less), peak RSS, and a digest of the verdicts so runs of two trees can be
compared. Scaling is linear when CPU per fact stays flat as the text grows.

Run: ``.venv/bin/python benchmarks/offline_speed.py [--sizes 10,40,160] [--rounds 1]
[--closed-book] [--data ../shared/data]``
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from shared_data import data_dir

ROOT = Path(__file__).resolve().parents[1]
AIM_FACTS_PER_S = 50
AIM_PEAK_MB = 700


def text_kind(data: Path) -> str:
    """What the measured text is, as the figures name it: the bios, or generated prose."""
    found = (data / "factscore_labeled" / "ChatGPT.jsonl").exists()
    return "bios" if found else "generated prose (no FActScore bios found; set TRIQUA_DATA)"


def bios_text(size: int, data: Path) -> str:
    """``size`` characters of FActScore ChatGPT bios (repeated if short), else generated prose."""
    path = data / "factscore_labeled" / "ChatGPT.jsonl"
    if path.exists():
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
        base = "\n\n".join(r["output"] for r in rows)
    else:
        base = " ".join(f"Person{i} was born in City{i} in {1900 + i % 100}." for i in range(5000))
    return ((base + "\n\n") * (size // len(base) + 1))[:size]


def child(size: int, data: Path, closed_book: bool) -> dict[str, Any]:
    """One run in this process; returns its figures."""
    import triqua
    from triqua.engines.offline.verify.verifier import get_verifier
    from triqua.nlp.pipeline import load_nlp

    text = bios_text(size, data)
    documents = [] if closed_book else [p for p in text.split("\n\n") if p.strip()]
    started, cpu0 = time.perf_counter(), time.process_time()
    load_nlp()
    if not closed_book:
        get_verifier().warm_up()
    # One unrelated sentence first: LangGraph and LangChain (~1.2 s of imports) load then, not
    # inside the timed run: their cost is cold start (`perf.py --only cold`), not throughput.
    # It is long enough (40 letters) for the language check, whose profiles (~0.4 s) load once.
    warm = "The Danube flows through Vienna and Budapest into the Black Sea."
    triqua.check(warm, documents=None if closed_book else [warm], cache=False)
    load_s = time.perf_counter() - started
    load_cpu = time.process_time() - cpu0
    rss_loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    load_before = os.getloadavg()[0]
    started, cpu0 = time.perf_counter(), time.process_time()
    report = triqua.check(text, documents=documents or None, max_facts=1_000_000, cache=False)
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu0
    rows = [(r.fact.to_string(), r.verdict.status.value) for r in report.records]
    return {
        "size": size,
        "chars": len(text),
        "facts": len(rows),
        "statuses": dict(Counter(status for _, status in rows)),
        "digest": hashlib.sha1(json.dumps(rows).encode("utf-8")).hexdigest()[:12],
        "wall": wall,
        "cpu": cpu,
        "load_s": load_s,
        "load_cpu": load_cpu,
        "rss_loaded_mb": rss_loaded,
        "rss_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "loadavg": (load_before + os.getloadavg()[0]) / 2,
    }


def measure(size: int, data: Path, closed_book: bool) -> dict[str, Any]:
    """Run one size in a fresh child process and return its figures."""
    cmd = [sys.executable, __file__, "--child", str(size), "--data", str(data)]
    if closed_book:
        cmd.append("--closed-book")
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    figures: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return figures


def _statuses(counts: dict[str, int]) -> str:
    """Verdict counts as "S 390 / C 3 / I 98" (supported, contradicted, insufficient)."""
    keys = ("supported", "contradicted", "insufficient_evidence")
    return " / ".join(f"{key[0].upper()} {counts.get(key, 0)}" for key in keys)


def table(runs: list[dict[str, Any]]) -> list[str]:
    """Markdown rows: one per size, then the scaling of CPU per fact against the smallest."""
    lines = [
        "| text | facts | CPU s | facts per CPU s | wall s (load avg) | facts/s wall "
        "| CPU ms per fact | peak RSS | verdicts |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in runs:
        lines.append(
            f"| {r['chars'] / 1000:.0f} KB | {r['facts']:,} | {r['cpu']:.1f} "
            f"| {r['facts'] / r['cpu']:.1f} | {r['wall']:.1f} ({r['loadavg']:.1f}) "
            f"| {r['facts'] / r['wall']:.1f} | {r['cpu'] / r['facts'] * 1000:.1f} "
            f"| {r['rss_peak_mb']:,.0f} MB | {r['digest']}: {_statuses(r['statuses'])} |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=data_dir())
    parser.add_argument("--sizes", default="10,40,160", help="KB of text, comma separated")
    parser.add_argument("--rounds", type=int, default=1, help="runs per size; best CPU kept")
    parser.add_argument("--closed-book", action="store_true", help="no supplied documents")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.data, args.closed_book)))
        return
    sizes = [int(float(s) * 1000) for s in args.sizes.split(",") if s.strip()]
    runs = []
    for size in sizes:
        tries = [measure(size, args.data, args.closed_book) for _ in range(max(1, args.rounds))]
        runs.append(min(tries, key=lambda r: r["cpu"]))
    kind = text_kind(args.data)
    mode = "closed book" if args.closed_book else "the text checked against itself"
    print(f"text: {kind}")
    print(f"offline engine, {mode}; {os.cpu_count()} CPUs; best CPU of {args.rounds} run(s)\n")
    print("\n".join(table(runs)))
    first, last = runs[0], runs[-1]
    per_fact = [r["cpu"] / r["facts"] for r in runs]
    print(
        f"\nscaling: {last['chars'] / first['chars']:.0f}× the text → "
        f"{last['facts'] / first['facts']:.1f}× the facts, "
        f"{last['cpu'] / first['cpu']:.1f}× the CPU; CPU per fact "
        + " → ".join(f"{p * 1000:.1f} ms" for p in per_fact)
        + f" ({per_fact[-1] / per_fact[0]:.2f}× from smallest to largest)"
    )
    print(
        "load before the clock (spaCy, ONNX, graph libraries, language profiles): "
        f"{first['load_s']:.1f} s wall, "
        f"{first['load_cpu']:.1f} s CPU, {first['rss_loaded_mb']:,.0f} MB; "
        f"aims: >= {AIM_FACTS_PER_S} facts/s, peak <= {AIM_PEAK_MB} MB"
    )


if __name__ == "__main__":
    main()
