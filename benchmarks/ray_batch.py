"""Ray batch benchmark: the same lines through the local batch and ``--ray``, two engines.

Every configuration is one ``triqua batch`` command, started afresh, over the same input
file (the cache is off, so no line is answered from an earlier one): the local batch at
``--concurrency`` 1 and 2, and ``--ray`` with 1 and 2 workers joining one Ray head started
for the benchmark (``--cpus`` CPUs), each once on the offline engine and once on a scripted
model behind a loopback OpenAI-compatible stub that answers each call after ``--latency``
seconds (every process reaches it by URL, as it would a vLLM server). A command's time
includes what a user's pays: starting Python and loading the engines (in the local batch's
process; with ``--ray``, in each worker), then the lines. Prints seconds and lines per second,
and the ratios the scaling note states; ``--write-doc docs/scaling.md`` puts the table in
the note between its ``ray_batch`` markers, ``--json FILE`` keeps the figures, and
``--from-json FILE --write-doc docs/scaling.md`` rewrites the note from kept figures.

Run: ``.venv/bin/python benchmarks/ray_batch.py [--lines 200] [--latency 0.1]
[--cpus 2] [--note TEXT] [--write-doc docs/scaling.md] [--json FILE] [--from-json FILE]``
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from triqua.testing.endpoint import stub_endpoint

FACT = re.compile(r"City (\d+) lies on river (\d+)\.")
UNIT = re.compile(r"^- (\(.*\))$", re.M)
BEGIN, END = "<!-- ray_batch:begin -->", "<!-- ray_batch:end -->"
RUNS: dict[str, dict[str, Any]] = {
    "local, --concurrency 1": {"concurrency": 1},
    "local, --concurrency 2": {"concurrency": 2},
    "--ray, 1 worker": {"concurrency": 1, "ray": "local"},
    "--ray, 2 workers": {"concurrency": 2, "ray": "local"},
}


def answer(schema: str, prompt: str) -> dict[str, Any]:
    """The scripted model: one fact per line's sentence, judged insufficient, queries refined."""
    if schema == "ExtractedFacts":
        city, river = FACT.findall(prompt)[-1]
        sentence = f"City {city} lies on river {river}."
        fact = {"subject": f"City {city}", "relation": "lies on", "object": f"river {river}"}
        return {"facts": [{**fact, "qualifiers": [], "source_sentence": sentence}]}
    if schema == "Judgement":
        return {"status": "insufficient_evidence", "rationale": "scripted"}
    if schema == "RefinedQueries":
        return {"queries": [f"refined {unit}" for unit in UNIT.findall(prompt)]}
    if schema == "CoverageJudgement":
        return {"verdict": "addressed", "missing": [], "rationale": "scripted"}
    raise ValueError(f"unexpected schema {schema!r}")


def batch_file(folder: Path, lines: int) -> Path:
    """``lines`` one-sentence lines with evidence (the input of every configuration)."""
    path = folder / "lines.jsonl"
    rows = []
    for i in range(lines):
        text = (
            f"City {i} lies on river {i + 7}. It was founded in {1200 + i} by merchants from "
            f"the north. Its population was {1000 * i + 500} in 2020, and its mayor is Ann "
            f"Lee, who was elected in {2000 + i % 20}."
        )
        evidence = (
            f"City {i} lies on river {i + 7}. City {i} was founded in {1200 + i} by "
            f"merchants. In 2020 the population of City {i} was {1000 * i + 500}. The river "
            f"{i + 7} flows north into the sea."
        )
        rows.append({"id": i, "text": text, "evidence": [evidence]})
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def timed(source: Path, name: str, options: list[str], env: dict[str, str]) -> float:
    """Seconds one ``triqua batch`` command over ``source`` takes, from a fresh process.

    Each command pays what a user's pays: starting Python, loading the engines (the local
    batch in its own process; with ``--ray``, each worker), then the lines.
    """
    out = source.with_name(re.sub(r"\W+", "-", name).strip("-") + ".out.jsonl")
    command = [sys.executable, "-m", "triqua", "batch", str(source), "-o", str(out)]
    command += ["--no-resume", "--no-store", "--no-cache", "--quiet", *options]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    seconds = time.perf_counter() - started
    lines = len(source.read_text().splitlines())
    written = len(out.read_text().splitlines()) if out.exists() else 0
    if done.returncode != 0 or written != lines:
        tail = done.stderr.strip().splitlines()[-3:]
        raise SystemExit(f"{name}: exit {done.returncode}, {written}/{lines} written; {tail}")
    return seconds


def measure(source: Path, address: str, env: dict[str, str]) -> dict[str, float]:
    """Seconds of each configuration on ``source``, ``--ray`` joining the head at ``address``."""
    seconds = {}
    for name, flags in RUNS.items():
        options = ["--concurrency", str(flags["concurrency"])]
        if "ray" in flags:
            options += ["--ray", address]
        seconds[name] = timed(source, name, options, env)
    return seconds


@contextmanager
def ray_head(cpus: int, env: dict[str, str]) -> Iterator[str]:
    """A Ray head on this machine for every ``--ray`` batch (started once): its address."""
    ray = shutil.which("ray", path=str(Path(sys.executable).parent))
    if ray is None:
        raise SystemExit("the ray command is missing (pip install 'triqua[ray]')")
    folder = Path(tempfile.mkdtemp(prefix="tq-bench-", dir="/tmp"))  # short: Ray's sockets
    port = free_port()
    log = folder / "head.log"
    with log.open("w") as sink:
        head = subprocess.Popen(
            [
                *(ray, "start", "--head", "--node-ip-address=127.0.0.1", f"--port={port}"),
                *(f"--num-cpus={cpus}", "--include-dashboard=false", f"--temp-dir={folder}/t"),
                "--block",
            ],
            stdout=sink,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 120
        while "--block" not in log.read_text(errors="replace"):
            if head.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"ray start failed:\n{log.read_text()[-2000:]}")
            time.sleep(0.5)
        yield f"127.0.0.1:{port}"
    finally:
        os.killpg(head.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            head.wait(timeout=60)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGKILL)
        shutil.rmtree(folder, ignore_errors=True)


def free_port() -> int:
    """A TCP port free on the loopback interface now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def ratios(seconds: dict[str, float]) -> dict[str, float]:
    """Speed ratios (a higher speed over a lower one) the scaling note states."""

    def speed(name: str) -> float:
        return 1 / seconds[name]

    return {
        "2 Ray workers / 1": speed("--ray, 2 workers") / speed("--ray, 1 worker"),
        "2 Ray workers / local --concurrency 2": speed("--ray, 2 workers")
        / speed("local, --concurrency 2"),
        "local --concurrency 2 / 1": speed("local, --concurrency 2")
        / speed("local, --concurrency 1"),
    }


def table(results: dict[str, Any]) -> str:
    """The figures as the Markdown the scaling note shows."""
    lines = results["lines"]
    out = [
        f"{lines} lines, measured {results['when']} on {results['machine']} "
        f"({results['cpus']} CPUs for Ray; {results['note']}).",
        "",
        "| configuration | offline engine | scripted model, "
        f"{results['latency'] * 1000:g} ms a call |",
        "|---|---|---|",
    ]
    for name in RUNS:
        cells = []
        for engine in ("offline", "model"):
            seconds = results[engine]["seconds"][name]
            cells.append(f"{seconds:.1f} s ({lines / seconds:.2f} lines/s)")
        out.append(f"| {name} | {cells[0]} | {cells[1]} |")
    for name in results["offline"]["ratios"]:
        a, b = (results[engine]["ratios"][name] for engine in ("offline", "model"))
        out.append(f"| {name} | {a:.2f}x | {b:.2f}x |")
    return "\n".join(out)


def write_doc(path: Path, markdown: str) -> None:
    """Replace the text between the note's ``ray_batch`` markers with ``markdown``."""
    text = path.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{path}: no {BEGIN} … {END} block to replace")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    path.write_text(f"{head}{BEGIN}\n{markdown}\n{END}{tail}", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--lines", type=int, default=200, help="lines per batch")
    parser.add_argument("--latency", type=float, default=0.1, help="seconds per model call")
    parser.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray cluster")
    parser.add_argument("--note", default="an idle machine", help="how the machine was")
    parser.add_argument("--write-doc", type=Path, help="put the table in this note")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument(
        "--from-json", type=Path, help="measure nothing: the figures a --json run wrote"
    )
    args = parser.parse_args()
    if args.from_json:
        report(json.loads(args.from_json.read_text(encoding="utf-8")), args)
        return
    try:
        import ray  # noqa: F401
    except ImportError:
        print("skipped: Ray is not installed (pip install 'triqua[ray]')")
        return
    home = Path(tempfile.mkdtemp(prefix="triqua-ray-bench-"))
    source = batch_file(home, args.lines)
    results: dict[str, Any] = {
        "lines": args.lines,
        "latency": args.latency,
        "cpus": args.cpus,
        "note": args.note,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "when": datetime.now(UTC).strftime("%Y-%m-%d"),
    }
    env = {
        **os.environ,
        "TRIQUA_HOME": str(home),  # the workers get it too: no shared cache or store
        "OPENAI_API_KEY": "sk-stub",  # langchain-openai wants one; the stub ignores it
    }
    env = {k: v for k, v in env.items() if not k.startswith("TRIQUA_") or k == "TRIQUA_HOME"}
    with ray_head(args.cpus, env) as address:
        offline = measure(source, address, env)
        with stub_endpoint(answer, latency=args.latency) as stub:
            model_env = {
                **env,
                "TRIQUA_MODEL": "openai:stub-model",  # every process reaches the stub by URL
                "TRIQUA_BASE_URL": stub.base_url,
                "TRIQUA_VERIFY_BATCH": "1",  # one call per fact, as the scripted answers are
            }
            model = measure(source, address, model_env)
    for engine, seconds in (("offline", offline), ("model", model)):
        results[engine] = {"seconds": seconds, "ratios": ratios(seconds)}
    report(results, args)


def report(results: dict[str, Any], args: argparse.Namespace) -> None:
    """Print the table; keep the figures (``--json``) and put the table in the note."""
    markdown = table(results)
    print(markdown)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    if args.write_doc:
        write_doc(args.write_doc, markdown)
        print(f"wrote the table into {args.write_doc}", file=sys.stderr)


if __name__ == "__main__":
    main()
