"""Offline verifier against Factcheck-Bench subtask 3 (claim, evidence passage, stance).

Each claim is decomposed into TriQua facts by the offline rule decomposer; every fact is
verified against the one evidence passage; the claim is supported when all its facts are,
contradicted when any is, insufficient otherwise. Gold stances map as completely-support ->
supported, refute -> contradicted, irrelevant -> insufficient evidence; partially-support
claims are scored with TriQuaScore (they should land strictly between 0 and 1).

Usage: python benchmarks/offline_verdicts.py [--limit N] [--seed S] [--data PATH]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import time
from collections import Counter
from pathlib import Path

from triqua.engines.offline.decomposer import get_decomposer
from triqua.engines.offline.verifier import VERIFIER_REVISION, get_verifier
from triqua.metrics import score_facts
from triqua.schema import Evidence, Fact, Status, Verdict

DATA = Path("/work/shared/data/factcheck_bench/subtask3_claim_evidence_stance.jsonl")
GOLD = {
    "completely-support": Status.SUPPORTED,
    "refute": Status.CONTRADICTED,
    "irrelevant": Status.INSUFFICIENT,
}
ORDER = [Status.SUPPORTED, Status.CONTRADICTED, Status.INSUFFICIENT]


def claim_status(verdicts: list[Verdict]) -> Status:
    """Claim verdict from its facts' verdicts (no facts: insufficient evidence)."""
    statuses = [v.status for v in verdicts]
    if statuses and all(s == Status.SUPPORTED for s in statuses):
        return Status.SUPPORTED
    if Status.CONTRADICTED in statuses:
        return Status.CONTRADICTED
    return Status.INSUFFICIENT


def balanced_accuracy(pairs: list[tuple[bool, bool]]) -> float:
    """Mean of recall on positives and recall on negatives (gold, predicted)."""
    pos = [p for g, p in pairs if g]
    neg = [not p for g, p in pairs if not g]
    return (sum(pos) / max(1, len(pos)) + sum(neg) / max(1, len(neg))) / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--limit", type=int, default=0, help="rows to sample (0: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dump", type=Path, default=None, help="write per-row JSONL here")
    args = parser.parse_args()

    rows = [json.loads(line) for line in args.data.open(encoding="utf-8")]
    if args.limit:
        rows = random.Random(args.seed).sample(rows, min(args.limit, len(rows)))

    t0 = time.perf_counter()
    claims = list(dict.fromkeys(r["claim"] for r in rows))
    facts_of = dict(zip(claims, get_decomposer().decompose_many(claims), strict=True))
    t_decompose = time.perf_counter() - t0

    verifier = get_verifier()
    verifier.verify(Fact(subject="warm", relation="up", object="models"), [])
    results: list[tuple[str, Status, list[tuple[Fact, Verdict]]]] = []
    n_facts = 0
    t0 = time.perf_counter()
    for i, row in enumerate(rows):
        evidence = Evidence.build(document_id=f"row-{i}", text=row["evidence"], retriever="bench")
        pairs = [(f, verifier.verify(f, [evidence])) for f in facts_of[row["claim"]]]
        n_facts += len(pairs)
        results.append((row["stance"], claim_status([v for _, v in pairs]), pairs))
    t_verify = time.perf_counter() - t0
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    if args.dump:
        with args.dump.open("w", encoding="utf-8") as out:
            for row, (gold, pred, pairs) in zip(rows, results, strict=True):
                out.write(json.dumps({
                    "claim": row["claim"], "gold": gold, "pred": pred.value,
                    "facts": [f.to_string() for f, _ in pairs],
                    "units": [[u.status.value for u in v.unit_verdicts] for _, v in pairs],
                    "evidence": row["evidence"][:600],
                }) + "\n")

    print(f"verifier {VERIFIER_REVISION}; decomposer: triqua offline rule decomposer")
    print(f"rows {len(rows)}  claims {len(claims)}  facts verified {n_facts}")
    gold_counts = Counter(g for g, _, _ in results)
    print("gold stances:", dict(gold_counts))

    strict = [(g == "completely-support", p == Status.SUPPORTED)
              for g, p, _ in results if g != "partially-support"]
    loose = [(g == "completely-support", p == Status.SUPPORTED) for g, p, _ in results]
    print(f"balanced accuracy supported vs not (partial excluded): {balanced_accuracy(strict):.3f}")
    print(f"balanced accuracy supported vs not (partial = not):    {balanced_accuracy(loose):.3f}")

    print("\nconfusion (rows gold, columns predicted):")
    header = "".join(f"{s.value:>24}" for s in ORDER)
    print(f"{'':>20}{header}")
    for stance in [*GOLD, "partially-support"]:
        counts = Counter(p for g, p, _ in results if g == stance)
        print(f"{stance:>20}" + "".join(f"{counts[s]:>24}" for s in ORDER))
    three = [(GOLD[g], p) for g, p, _ in results if g in GOLD]
    print(f"3-way accuracy: {sum(g == p for g, p in three) / max(1, len(three)):.3f}")

    partial = [pairs for g, _, pairs in results if g == "partially-support"]
    scores = [score_facts(pairs).triqua_score for pairs in partial]
    between = sum(1 for s in scores if s is not None and 0 < s < 1)
    print(f"\npartially-support with 0 < TriQuaScore < 1: {between}/{len(partial)}"
          f" = {between / max(1, len(partial)):.3f}")
    dist = Counter("none" if s is None else "0" if s == 0 else "1" if s == 1 else "mid"
                   for s in scores)
    print("  score distribution:", dict(dist))

    print(f"\ndecomposition: {len(claims) / t_decompose:.1f} claims/s")
    print(f"verification: {n_facts / t_verify:.1f} facts/s ({t_verify:.1f} s), "
          f"{len(rows) / t_verify:.1f} rows/s; peak RSS {peak_mb:.0f} MB")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
