"""Does re-verification change outcomes when the first pass is starved of evidence?

Every Factcheck-Bench claim is checked through the whole graph on the offline engine
against one corpus of all the benchmark's evidence passages (BM25, one index shared by
every check), reading only ``--top-k`` passages per query (default 2: a starved first
pass), every fact on the element-level route (``--top-k 5 --routing auto``: the defaults,
only complex sentences re-verified). The same claims run twice in this process:
without re-verification (``reverify_rounds`` 0) and with it (``--rounds``, default 2), so
the only difference is what the rounds search and judge. Reported: rounds run, rounds that
found nothing new (counted apart), facts and units whose verdict re-verification changed
(also as a share of the facts that entered a round), complex sentences verified element by
element, and claim-level balanced accuracy (supported vs not) against the gold stances,
where a claim is gold-supported when one of its passages completely supports it, and
gold-not-supported when its passages only refute it or are irrelevant (partially supported
claims are left out).

Run: ``.venv/bin/python benchmarks/reverification.py [--limit N] [--top-k 2] [--rounds 2]
[--routing always_element]``
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from typing import Any

from offline_verdicts import DATA, balanced_accuracy
from shared_data import require

import triqua
from triqua.runtime.resources import register_retriever
from triqua.schema import Document, Report, Status
from triqua.tools.supplied import SuppliedRetriever


def gold_of(stances: list[str]) -> bool | None:
    """True: some passage completely supports the claim; False: none supports it at all."""
    if "completely-support" in stances:
        return True
    if "partially-support" in stances:
        return None
    return False


def claim_supported(report: Report) -> bool:
    """A claim is supported when it has facts and every one of them is."""
    return bool(report.records) and all(
        r.verdict.status is Status.SUPPORTED for r in report.records
    )


def run(
    claims: list[str], retriever: str, top_k: int, rounds: int, routing: str = "always_element"
) -> list[Report]:
    """Each claim checked offline under ``routing``, with ``rounds`` rounds."""
    settings: dict[str, Any] = {
        "retriever": retriever,
        "max_results": top_k,
        "routing": routing,
        "reverify_rounds": rounds,
        "cache": False,
        "max_searches": 200,
    }
    return [triqua.check(claim, **settings) for claim in claims]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=200, help="claims to sample (0: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--top-k", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--routing",
        default="always_element",
        help="routing setting (auto: the defaults, only complex sentences re-verified)",
    )
    args = parser.parse_args()

    stances: dict[str, list[str]] = {}
    passages: dict[str, None] = {}
    for line in require(DATA).open(encoding="utf-8"):
        row = json.loads(line)
        stances.setdefault(row["claim"], []).append(row["stance"])
        passages[row["evidence"]] = None
    claims = [c for c in stances if gold_of(stances[c]) is not None]
    if args.limit:
        claims = random.Random(args.seed).sample(claims, min(args.limit, len(claims)))
    corpus = SuppliedRetriever([Document(text=t, source=f"p{i}") for i, t in enumerate(passages)])
    name = register_retriever("factcheck-bench-corpus", corpus)
    print(
        f"{len(claims)} claims; corpus of {len(passages)} passages ({corpus.passage_count} "
        f"indexed); top-k {args.top_k}; routing {args.routing}; rounds 0 vs {args.rounds}"
    )
    t0 = time.perf_counter()
    without = run(claims, name, args.top_k, 0, args.routing)
    t1 = time.perf_counter()
    with_rounds = run(claims, name, args.top_k, args.rounds, args.routing)
    t2 = time.perf_counter()

    rounds = [r for report in with_rounds for rec in report.records for r in rec.rounds]
    judged = [r for r in rounds if r.unit_verdicts]
    reasons = Counter(r.stop_reason for r in rounds if not r.unit_verdicts)
    facts = changed_facts = units = changed_units = entered = changed_entered = 0
    moves: Counter[tuple[str, str]] = Counter()
    for before, after in zip(without, with_rounds, strict=True):
        for a, b in zip(before.records, after.records, strict=True):
            facts += 1
            changed_facts += a.verdict.status is not b.verdict.status
            if b.rounds:
                entered += 1
                changed_entered += a.verdict.status is not b.verdict.status
            if a.verdict.status is not b.verdict.status:
                moves[(a.verdict.status.value, b.verdict.status.value)] += 1
            pairs = zip(a.verdict.unit_verdicts, b.verdict.unit_verdicts, strict=False)
            for ua, ub in pairs:
                units += 1
                changed_units += ua.status is not ub.status
    gold = [gold_of(stances[c]) is True for c in claims]
    ba = [
        balanced_accuracy(list(zip(gold, map(claim_supported, reports), strict=True)))
        for reports in (without, with_rounds)
    ]
    print(
        f"rounds run: {len(rounds)}; judged: {len(judged)}; ended without judging: {dict(reasons)}"
    )
    print(
        f"facts changed by re-verification: {changed_facts}/{facts}; units: {changed_units}/{units}"
    )
    print(
        f"facts that entered a round: {entered}; their verdicts changed: {changed_entered} "
        f"({changed_entered / max(1, entered):.1%})"
    )
    for (a, b), count in sorted(moves.items()):
        print(f"  {a:>22} -> {b:<22} {count}")
    complex_sentences = [s for r in with_rounds for s in r.sentences if s.route == "complex"]
    print(
        "complex sentences verified element by element: "
        f"{sum(bool(s.elements) for s in complex_sentences)} of {len(complex_sentences)}"
    )
    print(f"claim balanced accuracy: without {ba[0]:.3f}, with {ba[1]:.3f} ({ba[1] - ba[0]:+.3f})")
    print(f"wall: without {t1 - t0:.0f} s (models loading), with {t2 - t1:.0f} s")


if __name__ == "__main__":
    main()
