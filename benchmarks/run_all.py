"""Run every benchmark script in this folder, one after another, and print their figures.

Each script runs in its own process with its default arguments (so one script's models and
caches never skew another's timings); a failing script is reported and the others still run.

Run: ``make bench`` or ``.venv/bin/python benchmarks/run_all.py [NAME ...]``
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def scripts(names: list[str]) -> list[Path]:
    """The benchmark scripts to run: all of them, or those named (with or without .py)."""
    found = sorted(p for p in HERE.glob("*.py") if p.name != Path(__file__).name)
    if not names:
        return found
    wanted = {name.removesuffix(".py") for name in names}
    unknown = wanted - {p.stem for p in found}
    if unknown:
        raise SystemExit(f"unknown benchmark(s): {', '.join(sorted(unknown))}")
    return [p for p in found if p.stem in wanted]


def run(script: Path) -> int:
    """Run one script, its output passing straight through; return its exit status."""
    print(f"\n=== {script.name} ===", flush=True)
    started = time.perf_counter()
    status = subprocess.run([sys.executable, str(script)], cwd=HERE.parent, check=False).returncode
    outcome = "ok" if status == 0 else f"FAILED (exit {status})"
    print(f"--- {script.name}: {outcome} in {time.perf_counter() - started:.0f} s", flush=True)
    return status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="benchmarks to run (default: all)")
    args = parser.parse_args()
    failed = [script.name for script in scripts(args.names) if run(script) != 0]
    if failed:
        raise SystemExit(f"\nfailed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
