"""The hand-written cases as evaluation cases: each passes or fails; a pass rate per suite.

Suites (``triqua.evals.cases``): the fact cases of ``tests/data/offline_cases.jsonl``
(offline judge, settled as a run settles it: every unit's expected status, and the wrong
unit named), the text cases of ``benchmarks/data/new_user_cases.jsonl`` (whole checks on
the offline engine) and the lies of ``benchmarks/data/plausible_lies_dev.jsonl`` (whole
checks: a lie passes when no fact is supported, a control when every fact is) and the
recall probe of ``benchmarks/data/recall_probe.jsonl`` (whole checks: true claims with the
passage that states them, and false counterparts that must not be supported).
With ``--engine llm`` the lies suite runs on the LLM path instead (``lies-llm``): a scripted
judge calls every unit supported and quotes the row's misleading sentence
(``plausible_lies.py``'s eager quoter), so the grounding rule alone decides; a lie passes
when no unit ends supported, a control when every fact does.
``tests/test_eval_cases.py`` holds the pass rates at or above the floors measured here, so
a regression fails the tests.

Usage: python benchmarks/eval_cases.py [--suite fact|text|lies|recall|all] [--engine offline|llm]
    [--json] [--quiet]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any

from plausible_lies import run_llm

from triqua.evals.cases import (
    CaseResult,
    lie_cases,
    load_cases,
    pass_rates,
    run_fact_cases,
    run_text_cases,
)

ROOT = Path(__file__).resolve().parents[1]
FACT_CASES = ROOT / "tests" / "data" / "offline_cases.jsonl"
TEXT_CASES = ROOT / "benchmarks" / "data" / "new_user_cases.jsonl"
LIE_CASES = ROOT / "benchmarks" / "data" / "plausible_lies_dev.jsonl"
RECALL_CASES = ROOT / "benchmarks" / "data" / "recall_probe.jsonl"


def llm_lie_results(rows: list[dict[str, Any]]) -> list[CaseResult]:
    """The lie rows checked on the LLM path by the eager quoting judge, as case results."""
    results = []
    for row in rows:
        got = run_llm(row)
        control = row["kind"] == "control"
        results.append(
            CaseResult(
                suite="lies-llm",
                id=row["id"],
                kind=row.get("shape", row["kind"]),
                passed=got.all_supported if control else not got.supported_unit,
                expected="supported" if control else "not_supported",
                got=str([status for _, status, _ in got.units] or "no fact"),
                detail=f"{row['claim']!r} | quote: {row['quote'][:160]!r}",
            )
        )
    return results


def run_suites(
    suite: str = "all", engine: str = "offline"
) -> tuple[list[CaseResult], dict[str, float]]:
    """The results of the chosen suites, and the seconds each took.

    ``engine`` "llm" runs the lies suite on the LLM path (:func:`llm_lie_results`).
    """
    results: list[CaseResult] = []
    seconds: dict[str, float] = {}
    if suite in ("fact", "all"):
        start = time.perf_counter()
        results += run_fact_cases(load_cases(FACT_CASES))
        seconds["fact"] = time.perf_counter() - start
    if suite in ("text", "all"):
        start = time.perf_counter()
        results += run_text_cases(load_cases(TEXT_CASES))
        seconds["text"] = time.perf_counter() - start
    if suite in ("lies", "all"):
        start = time.perf_counter()
        if engine == "llm":
            results += llm_lie_results(load_cases(LIE_CASES))
            seconds["lies-llm"] = time.perf_counter() - start
        else:
            results += run_text_cases(lie_cases(load_cases(LIE_CASES)), suite="lies")
            seconds["lies"] = time.perf_counter() - start
    if suite in ("recall", "all"):
        start = time.perf_counter()
        results += run_text_cases(load_cases(RECALL_CASES), suite="recall")
        seconds["recall"] = time.perf_counter() - start
    return results, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", choices=["fact", "text", "lies", "recall", "all"], default="all")
    parser.add_argument(
        "--engine", choices=["offline", "llm"], default="offline", help="the lies suite's path"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--quiet", action="store_true", help="do not list the failures")
    args = parser.parse_args(argv)
    results, seconds = run_suites(args.suite, args.engine)
    rates = pass_rates(results)
    if args.json:
        out = {
            "pass_rates": {
                s: {"passed": p, "cases": n, "rate": p / n} for s, (p, n) in rates.items()
            },
            "seconds": {s: round(t, 1) for s, t in seconds.items()},
            "failures": [asdict(r) for r in results if not r.passed],
        }
        json.dump(out, sys.stdout, indent=2)
        print()
        return 0
    for suite in sorted(rates, key=lambda s: s == "all"):
        passed, total = rates[suite]
        took = f"  ({seconds[suite]:.1f} s)" if suite in seconds else ""
        print(f"{suite:8} {passed:4}/{total:<4} {passed / total:.3f}{took}")
    kinds: Counter[tuple[str, str]] = Counter()
    passes: Counter[tuple[str, str]] = Counter()
    for r in results:
        kinds[(r.suite, r.kind)] += 1
        passes[(r.suite, r.kind)] += r.passed
    for key in sorted(kinds):
        print(f"  {key[0]:8} {key[1]:18} {passes[key]:4}/{kinds[key]}")
    if not args.quiet:
        for r in results:
            if not r.passed:
                print(r.describe())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
