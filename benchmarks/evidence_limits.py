"""Memory and time of reading a large evidence folder, with and without ``max_evidence_bytes``.

Writes a folder of text files (``--mb`` MB in all, default 50), then, each in a fresh process,
measures wall time and peak RSS of:

- ``capped``: reading it under the default cap (20 MB): refused while reading, before indexing;
- ``uncapped``: reading all of it and building the supplied-evidence index (no cap);
- ``under cap``: reading and indexing a folder of ``--under-mb`` MB (default 15), within the cap.

Runs offline in a temporary folder:

    .venv/bin/python benchmarks/evidence_limits.py [--mb 50] [--under-mb 15] [--file-kb 500]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def write_corpus(folder: Path, megabytes: float, file_kb: int, seed: int = 0) -> int:
    """Text files of pseudo-English sentences, ``megabytes`` in all; returns the bytes written."""
    rng = random.Random(seed)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9)))
             for _ in range(20_000)]  # fmt: skip
    folder.mkdir(parents=True, exist_ok=True)
    target, written, index = int(megabytes * 1_000_000), 0, 0
    while written < target:
        size = min(file_kb * 1000, target - written)
        parts: list[str] = []
        length = 0
        while length < size:
            sentence = " ".join(rng.choices(words, k=rng.randint(6, 18))).capitalize() + ". "
            parts.append(sentence)
            length += len(sentence) + (2 if len(parts) % 6 == 0 else 0)
            if len(parts) % 6 == 0:
                parts.append("\n\n")
        data = "".join(parts)[:size].encode("utf-8")
        (folder / f"doc{index:05d}.txt").write_bytes(data)
        written += len(data)
        index += 1
    return written


def child(folder: str, cap: int | None) -> None:
    """Read (and, when allowed, index) the folder; print a JSON line of what happened."""
    from triqua.tools.documents import load_documents
    from triqua.tools.supplied import SuppliedRetriever

    began = time.perf_counter()
    outcome: dict[str, object] = {}
    try:
        documents = load_documents([folder], max_bytes=cap)
        outcome["read_s"] = time.perf_counter() - began
        retriever = SuppliedRetriever(documents)
        outcome["passages"] = retriever.passage_count
        outcome["result"] = "indexed"
    except ValueError as exc:
        outcome["result"] = "refused: " + str(exc).split(";")[0]
    outcome["seconds"] = time.perf_counter() - began
    outcome["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(outcome))


def measure(folder: Path, cap: int | None) -> dict[str, object]:
    """Run :func:`child` in a fresh process, so each figure is that scenario's own peak."""
    args = [sys.executable, __file__, "--child", str(folder), "--cap", str(cap or 0)]
    done = subprocess.run(args, capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def baseline_rss() -> float:
    """Peak RSS of a process that only imports the reading and indexing modules."""
    code = (
        "import resource, triqua.tools.documents, triqua.tools.supplied;"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=50.0, help="size of the large folder (MB)")
    parser.add_argument("--under-mb", type=float, default=15.0, help="size within the cap (MB)")
    parser.add_argument("--file-kb", type=int, default=500, help="size of each file (KB)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--cap", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.cap or None)
        return
    from triqua.context import DEFAULT_MAX_EVIDENCE_BYTES as CAP

    with tempfile.TemporaryDirectory() as tmp:
        large, small = Path(tmp) / "large", Path(tmp) / "small"
        large_bytes = write_corpus(large, args.mb, args.file_kb)
        small_bytes = write_corpus(small, args.under_mb, args.file_kb, seed=1)
        print(f"import-only baseline: peak RSS {baseline_rss():.0f} MB")
        print(f"cap (max_evidence_bytes default): {CAP / 1e6:.0f} MB")
        rows = [
            (f"{large_bytes / 1e6:.0f} MB, capped", measure(large, CAP)),
            (f"{large_bytes / 1e6:.0f} MB, uncapped", measure(large, None)),
            (f"{small_bytes / 1e6:.0f} MB, under cap", measure(small, CAP)),
        ]
    print(f"{'scenario':24} {'result':58} {'seconds':>8} {'peak RSS MB':>12}")
    for name, row in rows:
        result = str(row["result"])[:58]
        print(f"{name:24} {result:58} {row['seconds']:>8.1f} {row['peak_rss_mb']:>12.0f}")


if __name__ == "__main__":
    main()
