"""Guards benchmark: stalled calls end within their bound, and no key reaches any written file.

Prints, each against a baseline run in the same process:

* a run whose judge stalls on every call (model_timeout): wall time vs its bound, and vs a
  run without a timeout whose stall is only ``--stall`` seconds;
* a run whose retriever hangs on every search (search_timeout): wall time vs its bound;
* ``triqua check`` against a local endpoint that accepts and never answers (langchain-openai);
* a provider that echoes its key in a 401 body, through the CLI with --json, --html and the
  run store (and a kept checkpoint): hits of the key in every file written (must be 0);
* the cost of :func:`redact` per call on a raw model output.

Exits 1 when a run outlasts its bound or a key is found.

Run: ``.venv/bin/python benchmarks/guards.py [--facts 12] [--timeout 1.0] [--stall 4]``
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import secrets
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

import triqua
from triqua.cli import app
from triqua.engines.factory import register_model
from triqua.runtime.resources import register_retriever
from triqua.schema import Report, Status
from triqua.schema.redaction import redact
from triqua.testing import ScriptedChatModel, fenced, shown_text
from triqua.tools.base import Retriever, SearchBudget, SearchResult

RELEASE = threading.Event()  # set at exit: stalled worker threads end
CONCURRENCY = 8


def corpus(n: int) -> tuple[str, list[str]]:
    """``n`` one-fact sentences and one document per fact."""
    sentences = [f"Person{i} was born in City{i}." for i in range(n)]
    return " ".join(sentences), sentences


def responder(stall: str | None, seconds: float) -> Callable[[str, str], dict[str, Any] | str]:
    """Answer every role from the prompt; calls for schema ``stall`` first wait ``seconds``."""

    def respond(tool: str, prompt: str) -> dict[str, Any] | str:
        if tool == stall:
            RELEASE.wait(seconds)
        if tool == "ExtractedFacts":
            text = shown_text(prompt)
            facts = []
            for sentence in text.split("."):
                words = sentence.split()
                if len(words) == 5:
                    facts.append(
                        {
                            "subject": words[0],
                            "relation": "was born in",
                            "object": words[4],
                            "source_sentence": sentence.strip() + ".",
                        }
                    )
            return {"facts": facts}
        if tool == "Judgement":
            ids = [p.split(">>>")[0] for p in prompt.split("<<<EVIDENCE id=")[1:]]
            return {"status": "insufficient_evidence", "evidence_ids": ids[:1]}
        return {"queries": []}

    return respond


class HangingRetriever(Retriever):
    """Accepts every query and answers after ``seconds`` (or never, before exit)."""

    name = "hanging"
    revision = "hanging-1"
    uses_budget = True

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        self._count_call()
        RELEASE.wait(self.seconds)
        return SearchResult()


def timed(run: Callable[[], Report]) -> tuple[float, Report]:
    started = time.perf_counter()
    report = run()
    return time.perf_counter() - started, report


def waves(n: int) -> int:
    return math.ceil(n / CONCURRENCY)


def stalled_judge(args: argparse.Namespace) -> bool:
    text, docs = corpus(args.facts)
    retries, wait = 1, 0.05

    def check(model: ScriptedChatModel, timeout: float) -> Report:
        return triqua.check(
            text,
            model=model,
            documents=docs,
            model_timeout=timeout,
            max_output_retries=retries,
            retry_wait=wait,
            cache=False,
            max_concurrency=CONCURRENCY,
            chunk_size=0,
        )

    base, _ = timed(lambda: check(ScriptedChatModel(responder=responder(None, 0)), args.timeout))
    wall, report = timed(
        lambda: check(ScriptedChatModel(responder=responder("Judgement", 3600)), args.timeout)
    )
    # Per fact: each attempt at most `timeout`, and a back-off of at most 2*wait*2^i between.
    chain = (retries + 1) * args.timeout + sum(2 * wait * 2**i for i in range(retries))
    # Verification is batched by default: a batch whose call fails is split into per-fact
    # calls, so a stalled judge costs a fact the batch's chain, then its own.
    per_fact = chain * (2 if triqua.Context().verify_batch > 1 else 1)
    # Facts run `CONCURRENCY` at a time: each wave stalls, then does a baseline run's work.
    bound = waves(args.facts) * (base + per_fact)
    timed_out = sum("timed out after" in (r.verdict.error or "") for r in report.records)
    untimed, _ = timed(
        lambda: check(ScriptedChatModel(responder=responder("Judgement", args.stall)), 0)
    )
    print(
        f"stalled judge ({args.facts} facts, model_timeout {args.timeout:g} s, 1 retry): "
        f"wall {wall:.2f} s vs bound {bound:.2f} s (baseline {base:.2f} s) · "
        f"{timed_out}/{len(report.records)} facts 'timed out' · without a timeout a "
        f"{args.stall:g} s stall takes {untimed:.2f} s"
    )
    ok = wall <= bound + 1.0 and timed_out == len(report.records) == args.facts
    ok = ok and all(r.verdict.status is Status.INSUFFICIENT for r in report.records)
    return ok


def hanging_retriever(args: argparse.Namespace) -> bool:
    text, _ = corpus(args.facts)
    model = ScriptedChatModel(responder=responder(None, 0))

    def check(name: str, timeout: float) -> Report:
        return triqua.check(
            text,
            model=model,
            retriever=name,
            search_timeout=timeout,
            cache=False,
            max_concurrency=CONCURRENCY,
            chunk_size=0,
        )

    fast = register_retriever("guards-fast", HangingRetriever(0))
    hanging = HangingRetriever(3600)
    slow = register_retriever("guards-hanging", hanging)
    base, _ = timed(lambda: check(fast, args.timeout))
    wall, report = timed(lambda: check(slow, args.timeout))
    bound = waves(args.facts) * (base + args.timeout)
    timed_out = sum("search timed out" in (r.verdict.error or "") for r in report.records)
    print(
        f"hanging retriever ({args.facts} facts, search_timeout {args.timeout:g} s): "
        f"wall {wall:.2f} s vs bound {bound:.2f} s (baseline {base:.2f} s) · "
        f"{timed_out}/{len(report.records)} facts 'timed out' · {hanging.calls} searches"
    )
    return wall <= bound + 1.0 and timed_out == len(report.records) == args.facts


def silent_endpoint(args: argparse.Namespace) -> bool:
    if importlib.util.find_spec("langchain_openai") is None:
        print("silent endpoint: skipped (langchain-openai not installed)")
        return True
    import langchain_openai  # noqa: F401 - imported before the timed run

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                held.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    os.environ["TRIQUA_BASE_URL"] = f"http://127.0.0.1:{server.getsockname()[1]}/v1"
    os.environ.setdefault("OPENAI_API_KEY", "sk-dummy-key-for-a-silent-server")
    started = time.perf_counter()
    result = CliRunner().invoke(
        app,
        [
            *("check", "Paris is the capital of France.", "-m", "openai:gpt-4o-mini"),
            *("--model-timeout", str(args.timeout), "--json", "--no-store", "--no-cache"),
        ],
    )
    wall = time.perf_counter() - started
    del os.environ["TRIQUA_BASE_URL"]
    server.close()
    for conn in held:
        conn.close()
    # 3 attempts (max_output_retries=2) of `timeout`, back-off at most (1+1) + (2+1) s.
    bound = 3 * args.timeout + 5.0
    errors = json.loads(result.stdout).get("failed_chunks", []) if result.stdout else []
    said = any("timed out" in e["error"].lower() for e in errors)
    print(
        f"silent endpoint (openai client, model_timeout {args.timeout:g} s): wall {wall:.2f} s "
        f"(timeouts and back-off at most {bound:.2f} s) · exit {result.exit_code} · "
        f"'timed out' recorded: {said} (before: still waiting after 200 s)"
    )
    return wall <= bound + 5.0 and said


def leaky_provider() -> bool:
    key = "sk-proj-" + secrets.token_hex(24)
    token = "opaque" + secrets.token_hex(12)
    os.environ["OPENAI_API_KEY"], os.environ["ORG_TOKEN"] = key, token
    body = f"Error code: 401 - Incorrect API key provided: {key} (X-Org-Token: {token})"

    def respond(tool: str, prompt: str) -> dict[str, Any] | str:
        if tool == "ExtractedFacts" and "Person0" in shown_text(prompt):
            raise PermissionError(body)
        if tool == "Judgement" and "Person1" in fenced(prompt, "FACT"):
            raise PermissionError(body)
        if tool == "Judgement":
            return {"status": "insufficient_evidence", "rationale": f"echo {key} {token}"}
        return responder(None, 0)(tool, prompt)

    name = register_model("guards-leaky", ScriptedChatModel(responder=respond))
    text, docs = corpus(4)
    hits: dict[str, int] = {}
    files = 0
    for stored in (True, False):
        with tempfile.TemporaryDirectory() as tmp:
            home = Path(tmp) / "home"
            os.environ["TRIQUA_HOME"] = str(home)
            evidence = Path(tmp) / "evidence.txt"
            evidence.write_text(" ".join(docs), encoding="utf-8")
            store = ["--store", f"{tmp}/runs.sqlite"] if stored else ["--no-store"]
            result = CliRunner().invoke(
                app,
                [
                    *("check", text, "-m", name, "-e", str(evidence), "--chunk-size", "40"),
                    *("--json", "--html", f"{tmp}/report.html", "--no-cache", *store),
                ],
            )
            written = [p for p in Path(tmp).rglob("*") if p.is_file()]
            files += len(written)
            blobs = [p.read_bytes() for p in written]
            blobs += [result.stdout.encode(), result.stderr.encode()]
            for label, secret in (("key", key), ("token", token)):
                hits[label] = hits.get(label, 0) + sum(b.count(secret.encode()) for b in blobs)
    raw = json.dumps({"status": "supported", "rationale": "x " * 400, "evidence_ids": ["ev-1"]})
    n = 2000
    started = time.perf_counter()
    for _ in range(n):
        redact(raw)
    per_call = (time.perf_counter() - started) / n * 1e6
    print(
        f"redaction: {files} files written (store, checkpoints, HTML) + JSON stdout + stderr "
        f"· key hits {hits['key']} · env-token hits {hits['token']} · redact() "
        f"{per_call:.0f} µs per {len(raw)}-char raw output"
    )
    return hits == {"key": 0, "token": 0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--facts", type=int, default=12)
    parser.add_argument("--timeout", type=float, default=1.0)
    parser.add_argument("--stall", type=float, default=4.0)
    args = parser.parse_args()
    os.environ.setdefault("TRIQUA_HOME", tempfile.mkdtemp(prefix="triqua-guards-"))
    # Warm-up: imports and graph start-up are paid here, not in the first baseline.
    triqua.check(corpus(2)[0], model=ScriptedChatModel(responder=responder(None, 0)), cache=False)
    ok = [stalled_judge(args), hanging_retriever(args), silent_endpoint(args), leaky_provider()]
    RELEASE.set()
    sys.exit(0 if all(ok) else 1)


if __name__ == "__main__":
    main()
