"""Offline verifier against Factcheck-Bench subtask 3 (claim, evidence passage, stance).

Each claim is decomposed into TriQua facts by the offline rule decomposer (a claim it
yields no fact for becomes one crude fact: the words before its root verb as subject, the
verb as relation, the rest as object); every fact is
verified against the one evidence passage; the claim is supported when all its facts are,
contradicted when any is, insufficient otherwise. Gold stances map as completely-support ->
supported, refute -> contradicted, irrelevant -> insufficient evidence; partially-support
claims are scored with TriQuaScore (they should land strictly between 0 and 1).

Claims are split in two halves by a hash of their text: thresholds are tuned on the
"tune" half only, and every figure is printed for the "held" half and the whole file too,
so a rule that only fits the tuning half shows. ``--half`` runs one half alone.

With ``--speed N`` it measures throughput instead: N facts, each verified against 5 short
passages (the first two sentences of up to 5 evidence passages gathered for its claim,
padded with random ones), with cold caches.

``--verifier`` picks the judge ("shipped", "rules", "nli:<folder>"); ``--baseline JUDGE``
also runs the same rows with another judge in the same process and prints its by-half
figures beside (e.g. ``--baseline rules``: the rules alone, no learned judge).

Usage: python benchmarks/offline_verdicts.py [--limit N] [--seed S] [--speed N] [--data PATH]
       [--half tune|held|all] [--dump PATH] [--verifier JUDGE] [--baseline JUDGE] [--rival T]
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import random
import resource
import sys
import time
from collections import Counter
from pathlib import Path

from shared_data import data_file, require

from triqua.core.reading.analysis import analyse
from triqua.core.verdicts.settling import settle
from triqua.engines.offline.decompose.decomposer import get_decomposer
from triqua.engines.offline.verify.verifier import AlignmentVerifier, get_verifier
from triqua.engines.second_opinion import EntailmentReader
from triqua.metrics import score_facts
from triqua.models.vectors import sentence_vectors
from triqua.nlp.pipeline import load_nlp
from triqua.schema import Evidence, Fact, Status, Verdict

DATA = data_file("factcheck_bench/subtask3_claim_evidence_stance.jsonl")
GOLD = {
    "completely-support": Status.SUPPORTED,
    "refute": Status.CONTRADICTED,
    "irrelevant": Status.INSUFFICIENT,
}
ORDER = [Status.SUPPORTED, Status.CONTRADICTED, Status.INSUFFICIENT]


def crude_fact(claim: str) -> list[Fact]:
    """One fact from a claim's parse: the words before the root verb, the verb, the rest."""
    doc = load_nlp()(claim)
    root = next((t for t in doc if t.dep_ == "ROOT" and t.pos_ in ("VERB", "AUX")), None)
    if root is None:
        return []
    verb = [t for t in root.children if t.dep_ in ("aux", "auxpass", "neg") and t.i < root.i]
    start = min([t.i for t in verb] + [root.i])
    subject = doc[:start].text.strip()
    rest = doc[root.i + 1 :].text.rstrip(" .!")
    if not subject:
        return []
    relation = " ".join([*(t.text for t in verb), root.text])
    return [Fact(subject=subject, relation=relation, object=rest, source_text=claim)]


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


def half_of(claim: str) -> str:
    """The half a claim belongs to: "tune" or "held", by a stable hash of its text."""
    return "tune" if hashlib.sha1(claim.encode("utf-8")).digest()[0] % 2 == 0 else "held"


def figures(results: list[tuple[str, Status]]) -> dict[str, float]:
    """Balanced accuracy, recalls and false-support rate of (gold stance, predicted) pairs."""
    strict = [
        (g == "completely-support", p == Status.SUPPORTED)
        for g, p in results
        if g != "partially-support"
    ]
    refuted = [p for g, p in results if g == "refute"]
    irrelevant = [p for g, p in results if g == "irrelevant"]
    supported = [p for g, p in results if g == "completely-support"]

    def share(preds: list[Status], status: Status) -> float:
        return sum(p == status for p in preds) / max(1, len(preds))

    return {
        "rows": len(results),
        "balanced accuracy": balanced_accuracy(strict),
        "recall of supported": share(supported, Status.SUPPORTED),
        "false support on refuted": share(refuted, Status.SUPPORTED),
        "false support on irrelevant": share(irrelevant, Status.SUPPORTED),
        "refuted found contradicted": share(refuted, Status.CONTRADICTED),
    }


def print_splits(rows: list[dict[str, str]], results: list[tuple[str, Status]]) -> None:
    """One column of figures per half and one for everything that was run."""
    columns: dict[str, list[tuple[str, Status]]] = {"tune": [], "held": [], "all": results}
    for row, result in zip(rows, results, strict=True):
        columns[half_of(row["claim"])].append(result)
    shown = {name: figures(rs) for name, rs in columns.items() if rs}
    print(f"{'':>30}" + "".join(f"{name:>10}" for name in shown))
    for key in next(iter(shown.values())):
        cells = "".join(
            f"{f[key]:>10.0f}" if key == "rows" else f"{f[key]:>10.3f}" for f in shown.values()
        )
        print(f"{key:>30}{cells}")


def speed(rows: list[dict[str, str]], n_facts: int, seed: int) -> None:
    """Facts per second with 5 short passages per fact, caches cold."""
    from triqua.engines.offline.verify import verifier as verifier_module
    from triqua.nlp import passages as evidence_module

    rng = random.Random(seed)
    by_claim: dict[str, list[str]] = {}
    for row in rows:
        by_claim.setdefault(row["claim"], []).append(row["evidence"])
    claims = list(by_claim)
    rng.shuffle(claims)
    facts = [
        (fs[0], claim)
        for claim, fs in zip(claims, get_decomposer().decompose_many(claims), strict=True)
        if fs
    ][:n_facts]

    def short(text: str) -> str:
        return " ".join(piece.text for piece in evidence_module.split(text)[:2])

    jobs = []
    for fact, claim in facts:
        texts = by_claim[claim][:5]
        texts += [rows[rng.randrange(len(rows))]["evidence"] for _ in range(5 - len(texts))]
        jobs.append(
            (
                fact,
                [
                    Evidence.build(document_id=f"p{j}", text=short(t), retriever="bench")
                    for j, t in enumerate(texts)
                ],
            )
        )
    verifier = verifier_module.AlignmentVerifier()
    verifier.warm_up()
    sentence_vectors().clear()
    evidence_module.split.cache_clear()
    evidence_module.entities.cache_clear()
    analyse.cache_clear()
    chars = sum(len(e.text) for _, evs in jobs for e in evs) / max(1, 5 * len(jobs))
    t0 = time.perf_counter()
    c0 = time.process_time()
    for fact, evidence in jobs:
        verifier.verify(fact, evidence)
    elapsed = time.perf_counter() - t0
    cpu = time.process_time() - c0
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{len(jobs)} facts x 5 passages ({chars:.0f} chars each on average), cold caches: "
        f"{len(jobs) / elapsed:.1f} facts/s wall, {len(jobs) / cpu:.1f} facts per CPU second "
        f"(all threads); peak RSS {peak_mb:.0f} MB"
    )


def verify_rows(
    verifier: AlignmentVerifier, rows: list[dict[str, str]], facts_of: dict[str, list[Fact]]
) -> list[tuple[str, Status, list[tuple[Fact, Verdict]]]]:
    """Each row's gold stance, claim verdict and (fact, verdict) pairs."""
    results = []
    for i, row in enumerate(rows):
        evidence = Evidence.build(document_id=f"row-{i}", text=row["evidence"], retriever="bench")
        facts = facts_of[row["claim"]]
        verdicts = verifier.verify_many(facts, [evidence])
        # Settled as a run settles them: the grounding rule, read by the judge's reader.
        model = verifier.entailment
        own = model.thresholds.supports if model is not None else None
        reader = EntailmentReader(model, paraphrase=own) if model is not None else None
        verdicts = [
            settle(f, v, [evidence], reader=reader) for f, v in zip(facts, verdicts, strict=True)
        ]
        pairs = list(zip(facts, verdicts, strict=True))
        results.append((row["stance"], claim_status([v for _, v in pairs]), pairs))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--limit", type=int, default=0, help="rows to sample (0: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dump", type=Path, default=None, help="write per-row JSONL here")
    parser.add_argument("--speed", type=int, default=0, help="measure facts/s on N facts")
    parser.add_argument("--half", choices=["tune", "held", "all"], default="all")
    parser.add_argument("--verifier", default="shipped", help="judge setting to measure")
    parser.add_argument("--baseline", default=None, help="judge setting to compare with")
    parser.add_argument(
        "--rival", type=float, default=None, help="override the card's rival threshold (tuning)"
    )
    args = parser.parse_args()

    rows = [json.loads(line) for line in require(args.data).open(encoding="utf-8")]
    if args.half != "all":
        rows = [r for r in rows if half_of(r["claim"]) == args.half]
    if args.speed:
        speed(rows, args.speed, args.seed)
        return
    if args.limit:
        rows = random.Random(args.seed).sample(rows, min(args.limit, len(rows)))

    t0 = time.perf_counter()
    claims = list(dict.fromkeys(r["claim"] for r in rows))
    facts_of = dict(zip(claims, get_decomposer().decompose_many(claims), strict=True))
    crude = [c for c, fs in facts_of.items() if not fs]
    for claim in crude:
        facts_of[claim] = crude_fact(claim)
    t_decompose = time.perf_counter() - t0

    verifier = get_verifier(args.verifier)
    if args.rival is not None and verifier.entailment is not None:
        limits = verifier.entailment.thresholds
        verifier.entailment.thresholds = dataclasses.replace(limits, rival=args.rival)
    verifier.warm_up()
    t0 = time.perf_counter()
    c0 = time.process_time()
    results = verify_rows(verifier, rows, facts_of)
    n_facts = sum(len(pairs) for _, _, pairs in results)
    t_verify = time.perf_counter() - t0
    c_verify = time.process_time() - c0
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    if args.dump:
        with args.dump.open("w", encoding="utf-8") as out:
            for row, (gold, pred, pairs) in zip(rows, results, strict=True):
                out.write(
                    json.dumps(
                        {
                            "claim": row["claim"],
                            "gold": gold,
                            "pred": pred.value,
                            "facts": [f.to_string() for f, _ in pairs],
                            "units": [[u.status.value for u in v.unit_verdicts] for _, v in pairs],
                            "record": [json.loads(v.raw_output or "{}") for _, v in pairs],
                            "evidence": row["evidence"][:600],
                        }
                    )
                    + "\n"
                )

    print(f"verifier {verifier.revision}; decomposer: triqua offline rule decomposer")
    print(
        f"rows {len(rows)}  claims {len(claims)}  facts verified {n_facts}  "
        f"claims with the crude fallback fact: {len(crude)}"
    )
    gold_counts = Counter(g for g, _, _ in results)
    print("gold stances:", dict(gold_counts))

    strict = [
        (g == "completely-support", p == Status.SUPPORTED)
        for g, p, _ in results
        if g != "partially-support"
    ]
    loose = [(g == "completely-support", p == Status.SUPPORTED) for g, p, _ in results]
    print(f"balanced accuracy supported vs not (partial excluded): {balanced_accuracy(strict):.3f}")
    print(f"balanced accuracy supported vs not (partial = not):    {balanced_accuracy(loose):.3f}")

    refuted = [p for g, p, _ in results if g == "refute"]
    false_support = sum(p == Status.SUPPORTED for p in refuted) / max(1, len(refuted))
    print(f"false support on refuted claims: {false_support:.3f}")
    print("\nconfusion (rows gold, columns predicted):")
    header = "".join(f"{s.value:>24}" for s in ORDER)
    print(f"{'':>20}{header}")
    for stance in [*GOLD, "partially-support"]:
        counts = Counter(p for g, p, _ in results if g == stance)
        print(f"{stance:>20}" + "".join(f"{counts[s]:>24}" for s in ORDER))
    three = [(GOLD[g], p) for g, p, _ in results if g in GOLD]
    print(f"3-way accuracy: {sum(g == p for g, p in three) / max(1, len(three)):.3f}")
    print("\nby half (claims split by hash; thresholds are tuned on 'tune' only):")
    print_splits(rows, [(g, p) for g, p, _ in results])
    if args.baseline:
        baseline = get_verifier(args.baseline)
        print(f"\nbaseline {baseline.revision}, same rows, same process:")
        t1 = time.perf_counter()
        base_results = verify_rows(baseline, rows, facts_of)
        t_base = time.perf_counter() - t1
        print_splits(rows, [(g, p) for g, p, _ in base_results])
        print(f"verification wall time, measured / baseline: {t_verify / max(t_base, 1e-9):.2f}x")

    partial = [pairs for g, _, pairs in results if g == "partially-support"]
    scores = [score_facts(pairs).triqua_score for pairs in partial]
    between = sum(1 for s in scores if s is not None and 0 < s < 1)
    print(
        f"\npartially-support with 0 < TriQuaScore < 1: {between}/{len(partial)}"
        f" = {between / max(1, len(partial)):.3f}"
    )
    dist = Counter(
        "none" if s is None else "0" if s == 0 else "1" if s == 1 else "mid" for s in scores
    )
    print("  score distribution:", dict(dist))

    print(f"\ndecomposition: {len(claims) / t_decompose:.1f} claims/s")
    print(
        f"verification: {n_facts / t_verify:.1f} facts/s wall ({t_verify:.1f} s), "
        f"{n_facts / c_verify:.1f} facts per CPU second ({c_verify:.1f} s CPU, all threads), "
        f"{len(rows) / t_verify:.1f} rows/s; peak RSS {peak_mb:.0f} MB"
    )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
