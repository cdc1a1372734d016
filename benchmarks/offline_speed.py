"""Offline engine end to end: facts per second and peak memory at 10, 40 and 160 KB of bios.

Each size runs ``triqua.check`` in a fresh child process (so peak RSS is that run's own) on
FActScore ChatGPT bios, checked against those same bios supplied as documents (one document
per bio paragraph), no model: the offline engine decomposes, retrieves with BM25 and judges
with rules + MiniLM. spaCy, ONNX, the graph libraries and the language profiles are loaded
before the clock starts (one unrelated sentence is checked first; their load time is shown
apart). Reported per size: facts, CPU seconds of all threads, facts per CPU second, wall time
and facts per wall second (with the load average: other jobs on the machine stretch wall
times, CPU time much less), peak RSS, and a digest of the verdicts so runs of two trees can be
compared. Scaling is linear when CPU per fact stays flat as the text grows. The model work of
the run is counted too, as figures the load does not move: the judge's forward passes, the
texts the embedder embedded, and the texts spaCy's pipeline parsed (in batches, and one by
one). ``--dump FILE`` writes each fact's verdict of the largest size (the fact, its status,
each unit's status and quote, and the alignment record) as JSON lines, to diff two trees.

Run: ``.venv/bin/python benchmarks/offline_speed.py [--sizes 10,40,160] [--rounds 1]
[--closed-book] [--data ../shared/data] [--dump verdicts.jsonl]``
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


class _ParseCounter:
    """Counts the texts the shared spaCy pipeline parses: in batches, and one call each."""

    def __init__(self, nlp: Any) -> None:
        from spacy.language import Language

        self.piped = self.called = 0
        pipe, call = Language.pipe, Language.__call__

        def counted_pipe(this: Any, texts: Any, *args: Any, **kwargs: Any) -> Any:
            texts = list(texts)
            if this is nlp:
                self.piped += len(texts)
            return pipe(this, texts, *args, **kwargs)

        def counted_call(this: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
            if this is nlp:
                self.called += 1
            return call(this, text, *args, **kwargs)

        Language.pipe = counted_pipe  # type: ignore[method-assign,assignment]
        Language.__call__ = counted_call  # type: ignore[method-assign,assignment]


def _verdict_rows(report: Any) -> list[dict[str, Any]]:
    """Each fact's verdict as ``--dump`` writes it: what a change of verdict would show."""
    return [
        {
            "fact": r.fact.to_string(),
            "status": r.verdict.status.value,
            "units": [(u.unit, u.status.value, u.quote) for u in r.verdict.unit_verdicts],
            "record": r.verdict.raw_output,
        }
        for r in report.records
    ]


def child(size: int, data: Path, closed_book: bool, dump: Path | None = None) -> dict[str, Any]:
    """One run in this process; returns its figures (and writes its verdicts to ``dump``)."""
    import triqua
    from triqua.engines.offline.verify.verifier import get_verifier
    from triqua.models.vectors import sentence_vectors
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
    judge = None if closed_book else get_verifier().entailment
    passes0 = judge.calls if judge is not None else 0
    vectors = sentence_vectors()
    embedded0 = vectors.embedded
    parses = _ParseCounter(load_nlp())
    started, cpu0 = time.perf_counter(), time.process_time()
    report = triqua.check(text, documents=documents or None, max_facts=1_000_000, cache=False)
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu0
    rows = [(r.fact.to_string(), r.verdict.status.value) for r in report.records]
    if dump is not None:
        lines = [json.dumps(row, ensure_ascii=False) for row in _verdict_rows(report)]
        dump.write_text("\n".join(lines) + "\n", encoding="utf-8")
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
        "judge_passes": (judge.calls if judge is not None else 0) - passes0,
        "embedded": vectors.embedded - embedded0,
        "parsed_batched": parses.piped,
        "parsed_alone": parses.called,
    }


def measure(size: int, data: Path, closed_book: bool, dump: Path | None = None) -> dict[str, Any]:
    """Run one size in a fresh child process and return its figures."""
    cmd = [sys.executable, __file__, "--child", str(size), "--data", str(data)]
    if closed_book:
        cmd.append("--closed-book")
    if dump is not None:
        cmd += ["--dump", str(dump)]
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
        "| CPU ms per fact | peak RSS | verdicts | judge passes | texts embedded "
        "| texts parsed (batched + alone) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in runs:
        lines.append(
            f"| {r['chars'] / 1000:.0f} KB | {r['facts']:,} | {r['cpu']:.1f} "
            f"| {r['facts'] / r['cpu']:.1f} | {r['wall']:.1f} ({r['loadavg']:.1f}) "
            f"| {r['facts'] / r['wall']:.1f} | {r['cpu'] / r['facts'] * 1000:.1f} "
            f"| {r['rss_peak_mb']:,.0f} MB | {r['digest']}: {_statuses(r['statuses'])} "
            f"| {r['judge_passes']:,} | {r['embedded']:,} "
            f"| {r['parsed_batched']:,} + {r['parsed_alone']:,} |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=data_dir())
    parser.add_argument("--sizes", default="10,40,160", help="KB of text, comma separated")
    parser.add_argument("--rounds", type=int, default=1, help="runs per size; best CPU kept")
    parser.add_argument("--closed-book", action="store_true", help="no supplied documents")
    parser.add_argument(
        "--dump", type=Path, help="write the largest size's verdicts here (JSON lines)"
    )
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.data, args.closed_book, args.dump)))
        return
    sizes = [int(float(s) * 1000) for s in args.sizes.split(",") if s.strip()]
    runs = []
    for size in sizes:
        dump = args.dump if size == max(sizes) else None
        tries = [
            measure(size, args.data, args.closed_book, dump) for _ in range(max(1, args.rounds))
        ]
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
