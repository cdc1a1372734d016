"""Offline verifier on the hand-written cases of tests/data/offline_cases.jsonl.

Each case is a fact (subject, relation, object, qualifiers), an evidence passage (with
an optional title), the expected status of every unit and, for a fact with a wrong
part, the unit that is wrong.
Prints unit-level accuracy (overall and per category), how often the wrong component is
named, and every case that went wrong.

Usage: python benchmarks/offline_cases.py [--data PATH] [--quiet]
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

from triqua.core.verdicts.settling import settle
from triqua.engines.offline.verify.verifier import VERIFIER_REVISION, get_verifier
from triqua.engines.second_opinion import reader_for
from triqua.evals.cases import case_fact
from triqua.schema import Evidence, Verdict

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "offline_cases.jsonl"


def load_cases(path: Path = DATA) -> list[dict[str, object]]:
    """The cases of the set, one JSON object a line."""
    return [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]


def judge(case: dict[str, object]) -> Verdict:
    """Verify one case's fact against its evidence passage, as a run stores the verdict."""
    evidence = Evidence.build(
        document_id=str(case["id"]),
        text=str(case["evidence"]),
        title=str(case["title"]) if case.get("title") else None,
        retriever="cases",
    )
    fact = case_fact(case)
    # Settled as a run settles it: the grounding rule, read by the judge's reader.
    return settle(
        fact, get_verifier().verify(fact, [evidence]), [evidence], reader=reader_for("shipped")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--quiet", action="store_true", help="do not list the failures")
    args = parser.parse_args()
    cases = load_cases(args.data)
    get_verifier().warm_up()
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    named = wrong_cases = 0
    failures = []
    t0 = time.perf_counter()
    for case in cases:
        verdict = judge(case)
        got = [u.status.value for u in verdict.unit_verdicts]
        expected = list(case["expected"])  # type: ignore[call-overload]
        category = str(case["category"])
        hits = sum(g == e for g, e in zip(got, expected, strict=True))
        right[category] += hits
        total[category] += len(expected)
        if case.get("wrong"):
            wrong_cases += 1
            named += case["wrong"] in verdict.wrong_components
        if hits < len(expected) or (
            case.get("wrong") and case["wrong"] not in verdict.wrong_components
        ):
            failures.append((case, got, verdict))
    elapsed = time.perf_counter() - t0
    print(f"verifier {VERIFIER_REVISION}; {len(cases)} cases, {sum(total.values())} units")
    print(f"unit accuracy: {sum(right.values()) / max(1, sum(total.values())):.3f}")
    print(f"wrong component named: {named}/{wrong_cases} = {named / max(1, wrong_cases):.3f}")
    for category in sorted(total):
        print(
            f"  {category:<14}{right[category]:>4}/{total[category]:<4}"
            f"{right[category] / total[category]:.3f}"
        )
    print(f"{len(cases) / elapsed:.1f} cases/s")
    if not args.quiet:
        for case, got, verdict in failures:
            print(f"\n[{case['id']}] {case_fact(case).to_string()}\n  evidence: {case['evidence']}")
            print(f"  expected {case['expected']} wrong={case.get('wrong')}\n  got      {got}")
            print("  " + verdict.rationale.replace("\n", "\n  "))


if __name__ == "__main__":
    main()
