"""Reranked retrieval on Factcheck-Bench: verdict figures with and without reranking.

A sample of claims is taken from Factcheck-Bench subtask 3; every evidence passage of every
sampled claim is written to a file and ingested (chunked, ``--chunk-size`` characters) into
one temporary embedded Chroma collection, so each claim's passages compete with the other
claims' passages. Each claim is decomposed by the offline rule decomposer (the crude
fallback fact of ``offline_verdicts.py`` when it yields none); each fact searches the
collection through the run's retriever as ``triqua check --retriever chroma`` builds it
(``build_resources``), once with ``--no-rerank`` (Chroma's top ``--top-k``) and once with
reranking (Chroma's top ``--candidates``, reranked by MiniLM, best ``--top-k`` kept); the
offline verifier judges the fact on what was kept. No re-verification rounds.

Claim gold: supported when some passage completely supports it and none refutes it, refuted
when some refutes it and none completely supports it; claims with both, or with only
partial support, are left out of the two figures. Also printed: how often a passage with a
stance on the fact's own claim (support, partial support or refute) is among those kept,
and the time retrieval took with and without reranking (same process, same collection).

Usage: python benchmarks/rerank.py [--claims N] [--seed S] [--top-k K] [--candidates N]
       [--chunk-size C] [--data PATH]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from offline_verdicts import DATA, balanced_accuracy, claim_status, crude_fact

from triqua.context import Context
from triqua.engines.offline.decompose.decomposer import get_decomposer
from triqua.engines.offline.verify.verifier import get_verifier
from triqua.runtime.resources import build_resources
from triqua.schema import Fact, Status
from triqua.tools.ingest import ingest_paths

STANCE_CODE = {
    "completely-support": "S",
    "partially-support": "P",
    "refute": "R",
    "irrelevant": "I",
}


def claim_gold(stances: set[str]) -> str | None:
    """The claim's gold label for the figures (None: left out)."""
    if "completely-support" in stances and "refute" not in stances:
        return "supported"
    if "refute" in stances and "completely-support" not in stances:
        return "refuted"
    if stances <= {"irrelevant"}:
        return "unsupported"
    return None


def run(
    facts_of: dict[str, list[Fact]],
    claim_index: dict[str, int],
    context: Context,
) -> tuple[dict[str, Status], float, float, float]:
    """Verdict per claim, stance-passage hit rate, retrieval seconds and verify seconds."""
    resources = build_resources(context, [])
    retriever = resources.retriever
    verifier = get_verifier()
    verdicts: dict[str, Status] = {}
    hits = total = 0
    t_search = t_verify = 0.0
    for claim, facts in facts_of.items():
        own = f"c{claim_index[claim]:04d}-"
        fact_verdicts = []
        for fact in facts:
            t0 = time.perf_counter()
            found = retriever.search(fact.query(), context.max_results).evidence
            t_search += time.perf_counter() - t0
            total += 1
            hits += any(
                Path(e.source or "").name.startswith(own) and Path(e.source or "").stem[-1] != "I"
                for e in found
            )
            t0 = time.perf_counter()
            fact_verdicts.extend(verifier.verify_many([fact], found))
            t_verify += time.perf_counter() - t0
        verdicts[claim] = claim_status(fact_verdicts)
    return verdicts, hits / max(1, total), t_search, t_verify


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--claims", type=int, default=150, help="claims sampled (0: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--top-k", type=int, default=5)
    parser.add_argument("--candidates", type=int, default=10)
    parser.add_argument("--chunk-size", type=int, default=400)
    args = parser.parse_args()

    rows = [json.loads(line) for line in args.data.open(encoding="utf-8")]
    passages: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for row in rows:
        passages[row["claim"]].append((row["evidence"], row["stance"]))
    claims = sorted(passages)
    if args.claims:
        claims = random.Random(args.seed).sample(claims, min(args.claims, len(claims)))
    claim_index = {claim: i for i, claim in enumerate(claims)}
    gold = {c: claim_gold({s for _, s in passages[c]}) for c in claims}

    t0 = time.perf_counter()
    found = get_decomposer().decompose_many(claims)
    facts_of = {c: fs or crude_fact(c) for c, fs in zip(claims, found, strict=True)}
    t_decompose = time.perf_counter() - t0

    with tempfile.TemporaryDirectory(prefix="triqua-rerank-") as tmp:
        corpus = Path(tmp) / "corpus"
        corpus.mkdir()
        for claim in claims:
            for j, (text, stance) in enumerate(passages[claim]):
                name = f"c{claim_index[claim]:04d}-p{j:02d}-{STANCE_CODE[stance]}.txt"
                (corpus / name).write_text(text, encoding="utf-8")
        t0 = time.perf_counter()
        store = Path(tmp) / "chroma"
        summary = ingest_paths([corpus], "fcb-rerank", chunk_size=args.chunk_size, path=store)
        t_ingest = time.perf_counter() - t0
        base = {
            "retriever": "chroma",
            "collection": "fcb-rerank",
            "chroma_path": str(store),
            "max_results": args.top_k,
            "cache": False,
        }
        plain = Context(**base, rerank=False)
        reranked = Context(**base, rerank=True, candidates=args.candidates)
        # Warm both paths (model loads, collection open, verifier) before timing either.
        for context in (plain, reranked):
            warm = build_resources(context, []).retriever.search("warm up", args.top_k)
        get_verifier().verify_many(next(fs for fs in facts_of.values() if fs), warm.evidence)
        outcomes = {
            "no rerank": run(facts_of, claim_index, plain),
            "rerank": run(facts_of, claim_index, reranked),
        }

    n_facts = sum(len(fs) for fs in facts_of.values())
    counts = {label: sum(g == label for g in gold.values()) for label in ("supported", "refuted")}
    print(
        f"claims {len(claims)} (seed {args.seed}; gold: {counts['supported']} supported, "
        f"{counts['refuted']} refuted, {sum(g is None for g in gold.values())} left out), "
        f"facts {n_facts}; passages {sum(len(passages[c]) for c in claims)} ingested as "
        f"{summary.collection_count} chunks of <= "
        f"{args.chunk_size} chars in {t_ingest:.1f} s; decomposition {t_decompose:.1f} s"
    )
    print(f"top-k {args.top_k}; reranking: Chroma top-{args.candidates}, MiniLM, best {args.top_k}")
    print(f"{'':>34}{'no rerank':>12}{'rerank':>12}")
    table: dict[str, list[str]] = defaultdict(list)
    for verdicts, hit_rate, t_search, t_verify in outcomes.values():
        scored = [
            (gold[c] == "supported", verdicts[c] == Status.SUPPORTED)
            for c in claims
            if gold[c] in ("supported", "refuted", "unsupported")
        ]
        refuted = [verdicts[c] for c in claims if gold[c] == "refuted"]
        supported = [verdicts[c] for c in claims if gold[c] == "supported"]
        table["balanced accuracy (supported vs not)"].append(f"{balanced_accuracy(scored):.3f}")
        table["recall of supported"].append(
            f"{sum(v == Status.SUPPORTED for v in supported) / max(1, len(supported)):.3f}"
        )
        table["false support on refuted"].append(
            f"{sum(v == Status.SUPPORTED for v in refuted) / max(1, len(refuted)):.3f}"
        )
        table["facts with a stance passage kept"].append(f"{hit_rate:.3f}")
        table["retrieval ms per fact"].append(f"{1000 * t_search / max(1, n_facts):.1f}")
        # Verification time is not compared: the second pass reuses the verifier's caches.
        del t_verify
    for key, cells in table.items():
        print(f"{key:>34}" + "".join(f"{c:>12}" for c in cells))
    plain_s, rerank_s = outcomes["no rerank"][2], outcomes["rerank"][2]
    print(f"retrieval time with reranking / without: {rerank_s / max(1e-9, plain_s):.2f}x")


if __name__ == "__main__":
    main()
