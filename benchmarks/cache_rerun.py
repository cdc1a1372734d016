"""Cached re-run speed-up: a 10-fact text checked twice by a scripted model with 50 ms latency.

Prints the wall time, model calls and searches of the first run and of the cached re-run, and
their ratio. The re-run is served from the report cache before any graph work (no model call,
no search); ``--calls-only`` times the call cache alone (the graph runs, the model answers
come from the cache). Runs offline in a temporary data directory:

    .venv/bin/python benchmarks/cache_rerun.py [--latency 0.05] [--repeats 3] [--concurrency 8]
"""

from __future__ import annotations

import argparse
import os
import re
import tempfile
import time
from typing import Any

SENTENCES = [
    ("Marie Curie", "won", "the Nobel Prize in Physics", "1903"),
    ("Albert Einstein", "received", "the Nobel Prize in Physics", "1921"),
    ("Ada Lovelace", "published", "the first computer program", "1843"),
    ("Alan Turing", "proposed", "the Turing test", "1950"),
    ("Rosalind Franklin", "photographed", "DNA", "1952"),
    ("Tim Berners-Lee", "invented", "the World Wide Web", "1989"),
    ("Grace Hopper", "developed", "the first compiler", "1952"),
    ("Dmitri Mendeleev", "published", "the periodic table", "1869"),
    ("Charles Darwin", "published", "On the Origin of Species", "1859"),
    ("Isaac Newton", "published", "the Principia", "1687"),
]


def text_and_documents() -> tuple[str, list[str]]:
    sentences = [f"{s} {r} {o} in {y}." for s, r, o, y in SENTENCES]
    return " ".join(sentences), sentences


def responder(latency: float) -> Any:
    from triqua.testing import shown_text

    by_sentence = {
        f"{s} {r} {o} in {y}.": {
            "subject": s,
            "relation": r,
            "object": o,
            "qualifiers": [{"label": "point in time", "value": y}],
            "source_sentence": f"{s} {r} {o} in {y}.",
        }
        for s, r, o, y in SENTENCES
    }

    def respond(tool: str, prompt: str) -> dict[str, Any]:
        time.sleep(latency)
        if tool == "ExtractedFacts":
            body = shown_text(prompt)
            return {"facts": [fact for sentence, fact in by_sentence.items() if sentence in body]}
        ids = re.findall(r"<<<EVIDENCE id=(ev-[0-9a-f]+)>>>", prompt)
        return {"status": "supported" if ids else "insufficient_evidence", "evidence_ids": ids[:1]}

    return respond


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--latency", type=float, default=0.05, help="seconds per model call")
    parser.add_argument("--repeats", type=int, default=3, help="first/cached pairs to time")
    parser.add_argument("--concurrency", type=int, default=8, help="facts verified at once")
    parser.add_argument(
        "--calls-only",
        action="store_true",
        help="change a setting outside the report key each run so only the call cache serves",
    )
    args = parser.parse_args()
    os.environ["TRIQUA_HOME"] = tempfile.mkdtemp(prefix="triqua-bench-")

    import triqua
    from triqua.testing import ScriptedChatModel

    text, documents = text_and_documents()
    triqua.check(text, documents=documents, cache=False)  # warm imports and the offline engine
    print(
        f"10-fact text, scripted model with {args.latency * 1000:.0f} ms per call, "
        f"max_concurrency={args.concurrency}"
    )
    print(f"{'run':<8}{'wall s':>10}{'model calls':>13}{'searches':>10}{'facts':>7}")
    ratios = []
    for repeat in range(args.repeats):
        model = ScriptedChatModel(responder=responder(args.latency))
        cache_path = os.path.join(os.environ["TRIQUA_HOME"], f"cache-{repeat}.sqlite")
        timings = []
        for label in ("first", "cached"):
            before = len(model.calls)
            # A spec override the report key sees but the model calls do not: the report is
            # then computed again, from cached model answers.
            overrides = {"corpus": label} if args.calls_only else None
            start = time.perf_counter()
            report = triqua.check(
                text,
                documents=documents,
                model=model,
                cache_path=cache_path,
                max_concurrency=args.concurrency,
                spec_overrides=overrides,
            )
            wall = time.perf_counter() - start
            timings.append(wall)
            calls = len(model.calls) - before
            assert calls == report.usage.model_calls
            searches = report.usage.search_calls
            facts = len(report.records)
            print(f"{label:<8}{wall:>10.3f}{calls:>13}{searches:>10}{facts:>7}")
        ratios.append(timings[0] / timings[1])
    print(f"speed-up (first / cached): {', '.join(f'{r:.1f}x' for r in ratios)}")
    if args.calls_only:
        print("call cache only: local BM25 searches over supplied documents still run")


if __name__ == "__main__":
    main()
