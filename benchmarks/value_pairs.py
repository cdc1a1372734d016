"""How a judge reads the value pairs: the share judged entailed per kind and label.

The value pairs (``training/value_pairs.py``) rewrite a value in real sentences: "64.5
million" for "64,500,000", 1.2 km for 1,200 m, "more than 300" for 412, "the nineteenth
century" for 1850, and rivals of each. A judge that reads values as triqua's value reader
does finds the entailed rows entailed and the others not. Per kind and gold label, this
prints how many pairs the generator yields (all splits) and, on a seeded sample of them
(``--split``: all, train or dev), the share the judge finds entailed at its card's
``supports`` threshold (what the offline verifier reads) and its mean entailed and
contradicted probabilities.

Usage: python benchmarks/value_pairs.py [--judge shipped] [--per 300] [--split all] [--seed 13]
       [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "training"))

from value_pairs import value_pairs  # noqa: E402

from triqua.models.entailment import CONTRADICTED, ENTAILED, get_entailment  # noqa: E402

LABELS = ("entailed", "neutral", "contradicted")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--judge", default="shipped")
    parser.add_argument("--per", type=int, default=300, help="pairs judged per kind and label")
    parser.add_argument("--split", choices=["all", "train", "dev"], default="all")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    judge = get_entailment(args.judge)
    if judge is None:
        raise SystemExit("a learned judge is needed")
    rows = value_pairs(args.seed)
    made = Counter((str(r["source"]).split(":")[0], int(str(r["label"]))) for r in rows)
    pool: dict[tuple[str, int], list[dict[str, object]]] = defaultdict(list)
    for row in rows:
        if args.split in ("all", row["split"]):
            pool[(str(row["source"]).split(":")[0], int(str(row["label"])))].append(row)
    rng = random.Random(args.seed)
    threshold = judge.thresholds.supports
    figures = []
    for key in sorted(made):
        sample = pool.get(key, [])
        sample = rng.sample(sample, min(args.per, len(sample)))
        probs = judge.predict([(str(r["premise"]), str(r["hypothesis"])) for r in sample])
        entailed = probs[:, ENTAILED] if len(sample) else []
        figures.append(
            {
                "kind": key[0],
                "label": LABELS[key[1]],
                "pairs": made[key],
                "judged": len(sample),
                "entailed_share": round(float((entailed >= threshold).mean()), 3)
                if len(sample)
                else None,
                "mean_entailed": round(float(probs[:, ENTAILED].mean()), 3)
                if len(sample)
                else None,
                "mean_contradicted": round(float(probs[:, CONTRADICTED].mean()), 3)
                if len(sample)
                else None,
            }
        )
    if args.json:
        print(json.dumps({"supports": threshold, "figures": figures}, indent=1))
        return 0
    print(f"judge {args.judge}; entailed at supports >= {threshold}; sample {args.per}")
    head = ("pairs", "judged", "entailed", "p(e)", "p(c)")
    print(f"{'kind':17} {'gold':13} " + " ".join(f"{h:>{max(6, len(h))}}" for h in head))
    for f in figures:
        share = "-" if f["entailed_share"] is None else f"{f['entailed_share']:.3f}"
        pe = "-" if f["mean_entailed"] is None else f"{f['mean_entailed']:.3f}"
        pc = "-" if f["mean_contradicted"] is None else f"{f['mean_contradicted']:.3f}"
        print(
            f"{f['kind']:17} {f['label']:13} {f['pairs']:>6} {f['judged']:>6} {share:>8}"
            f" {pe:>6} {pc:>6}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
