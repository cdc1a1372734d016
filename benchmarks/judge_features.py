"""Dump what the offline verifier sees for each Factcheck-Bench fact, to tune its decision.

For every claim of Factcheck-Bench subtask 3 the offline decomposer's facts are aligned with
the claim's evidence passage as the verifier aligns them; for each fact the dump records the
rules' finding on the base triple and, for every candidate window the verifier reads (the
aligned sentences alone and with a neighbour), the judge's best entailed and contradicted
probabilities over the fact written as a sentence and its source sentence, and whether the
window passes the gates. ``judge_policy.py``
reads the dump and prints each decision rule's figures per half, so thresholds are chosen on
the tune half in seconds instead of one full run each.

Usage: python benchmarks/judge_features.py --out /tmp/features.jsonl [--limit N]
       [--verifier JUDGE]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from typing import Any

from offline_verdicts import DATA, crude_fact, half_of, verify_rows
from sentence_judge import claim_probabilities
from shared_data import require

from triqua.engines.offline.alignment import align
from triqua.engines.offline.decompose.decomposer import get_decomposer
from triqua.engines.offline.verify.base_rules import judge_base
from triqua.engines.offline.verify.reading import read
from triqua.engines.offline.verify.verifier import get_verifier
from triqua.models.entailment import EntailmentModel, Thresholds
from triqua.schema import Evidence, Status


class AllWindows:
    """The judge with unreachable thresholds, so every window of the cascade is read.

    (A contradiction threshold of 1.0 keeps windows that fail the gates in the reading.)
    """

    def __init__(self, model: EntailmentModel) -> None:
        self.model = model
        self.thresholds = Thresholds(entailed=1.01, supports=1.01, contradicted=1.0)
        self.revision = model.revision

    def predict(self, pairs: Sequence[tuple[str, str]]) -> Any:
        return self.model.predict(pairs)


def main() -> None:
    """Write one JSON line per row: gold, half, the engine's verdict and per-fact features."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--verifier", default="shipped")
    parser.add_argument("--no-engine", action="store_true", help="skip today's verdicts")
    parser.add_argument("--bare", action="store_true", help="also the claim against every window")
    args = parser.parse_args()
    rows = [json.loads(line) for line in require(DATA).open(encoding="utf-8")]
    if args.limit:
        rows = random.Random(args.seed).sample(rows, min(args.limit, len(rows)))
    claims = list(dict.fromkeys(r["claim"] for r in rows))
    facts_of = dict(zip(claims, get_decomposer().decompose_many(claims), strict=True))
    for claim, facts in facts_of.items():
        facts_of[claim] = facts or crude_fact(claim)
    verifier = get_verifier(args.verifier)
    verifier.warm_up()
    model = verifier.entailment
    assert model is not None
    every = AllWindows(model)
    t0 = time.perf_counter()
    if args.no_engine:
        engine = [
            (r["stance"], Status.INSUFFICIENT, [(f, None) for f in facts_of[r["claim"]]])
            for r in rows
        ]
    else:
        engine = verify_rows(verifier, rows, facts_of)
    with open(args.out, "w", encoding="utf-8") as out:
        for i, (row, (gold, status, pairs)) in enumerate(zip(rows, engine, strict=True)):
            ev = Evidence.build(document_id=f"row-{i}", text=row["evidence"], retriever="b")
            aligned = align([f for f, _ in pairs], [ev])
            facts = []
            for (fact, verdict), found in zip(pairs, aligned, strict=True):
                rules, _ = judge_base(fact, found.parts, found.top)
                readings = read(fact, found.parts, found.read, found.by_place, [ev.text], every)
                feats = [
                    {
                        "size": r.window.size,
                        "rank": found.read.index(r.window.anchor),
                        "gate": r.gated,
                        "entailed": round(r.entailed, 4),
                        "contradicted": round(r.contradicted, 4),
                    }
                    for r in readings
                ]
                facts.append(
                    {
                        "fact": fact.to_string(),
                        "n_qualifiers": len(fact.qualifiers),
                        "engine": verdict.status.value if verdict else None,
                        "units": [u.status.value for u in verdict.unit_verdicts] if verdict else [],
                        "rules_base": rules.status.value,
                        "windows": feats,
                    }
                )
            line = {
                "half": half_of(row["claim"]),
                "gold": gold,
                "engine": status.value,
                "facts": facts,
            }
            if args.bare:
                line["bare"] = claim_probabilities(row["claim"], row["evidence"])
            out.write(json.dumps(line) + "\n")
    print(f"{len(rows)} rows in {time.perf_counter() - t0:.0f} s; judge {model.revision}")


if __name__ == "__main__":
    main()
