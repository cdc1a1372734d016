"""Fit the offline verifier's scorer (``engines/offline/data/scorer.json``) on the tune half.

Every claim of the shared Factcheck-Bench file is decomposed and verified against each of
its evidence passages with the rules alone (the scorer switched off); for each fact whose
base the rules leave undecided, the features of every sentence the scorer would judge are
collected (``AlignmentVerifier.scorer_candidates``). A strongly L2-regularised logistic
regression is fitted on the tune half only (claims split by hash, as in
``offline_verdicts.py``): each fact is one example, labelled by its claim's stance
(completely-support vs refute/irrelevant; partial support left out), represented by its
best-scoring sentence (refitted twice, starting from the closest by cosine). The threshold
is the one that maximises the tune half's balanced accuracy with false support on refuted
claims at most ``--max-false-support`` (tune half). Claim verdicts are then simulated exactly for
tune, held and all, and the weights written with a revision derived from their values.

Plain numpy Newton steps: no fitting library is needed.

Usage: python benchmarks/fit_offline_scorer.py [--write] [--l2 X] [--cache PATH]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from offline_verdicts import DATA, crude_fact, half_of

from triqua.engines.offline.decomposer import get_decomposer
from triqua.engines.offline.scorer import _PATH, FEATURES, ScorerModel
from triqua.engines.offline.verifier import AlignmentVerifier
from triqua.schema import Evidence, Status

Candidates = list[tuple[dict[str, float], bool]]
#: Per row: gold stance, half, and per fact (rule status, candidates or None).
Row = tuple[str, str, list[tuple[str, Candidates | None]]]


def collect(data: Path) -> list[Row]:
    """Rule verdicts and scorer candidates of every fact of every row."""
    rows = [json.loads(line) for line in data.open(encoding="utf-8")]
    claims = list(dict.fromkeys(r["claim"] for r in rows))
    facts_of = dict(zip(claims, get_decomposer().decompose_many(claims), strict=True))
    for claim, facts in facts_of.items():
        if not facts:
            facts_of[claim] = crude_fact(claim)
    never = ScorerModel(revision="off", weights=(0.0,) * len(FEATURES), bias=0.0, threshold=2.0)
    verifier = AlignmentVerifier(scorer=never)
    out: list[Row] = []
    for i, row in enumerate(rows):
        evidence = [Evidence.build(document_id=f"row-{i}", text=row["evidence"], retriever="fit")]
        facts = facts_of[row["claim"]]
        verdicts = verifier.verify_many(facts, evidence, per_unit=False)
        candidates = verifier.scorer_candidates(facts, evidence)
        out.append(
            (
                row["stance"],
                half_of(row["claim"]),
                [(v.status.value, c) for v, c in zip(verdicts, candidates, strict=True)],
            )
        )
    return out


def matrix(cands: Candidates) -> np.ndarray:
    """Feature rows of a fact's candidates, in ``FEATURES`` order."""
    return np.array([[f[name] for name in FEATURES] for f, _ in cands], dtype=float)


def fit(x: np.ndarray, y: np.ndarray, w: np.ndarray, l2: float) -> np.ndarray:
    """L2-regularised logistic regression by Newton steps; returns [bias, *weights]."""
    xb = np.hstack([np.ones((len(x), 1)), x])
    beta = np.zeros(xb.shape[1])
    reg = np.full(xb.shape[1], l2)
    reg[0] = 1e-6
    for _ in range(50):
        p = 1 / (1 + np.exp(-(xb @ beta)))
        grad = xb.T @ (w * (p - y)) + reg * beta
        hess = (xb * (w * p * (1 - p))[:, None]).T @ xb + np.diag(reg)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    return beta


def fact_supported(status: str, cands: Candidates | None, beta: np.ndarray, thr: float) -> bool:
    """Whether a fact ends supported under the scorer (rules first)."""
    if status == Status.SUPPORTED.value:
        return True
    if status == Status.CONTRADICTED.value or not cands:
        return False
    scores = 1 / (1 + np.exp(-(beta[0] + matrix(cands) @ beta[1:])))
    return any(s >= thr and ok for s, (_, ok) in zip(scores, cands, strict=True))


def figures(rows: list[Row], beta: np.ndarray, thr: float) -> dict[str, float]:
    """Balanced accuracy and false-support rates of the simulated claim verdicts."""
    by: dict[str, list[bool]] = {"completely-support": [], "refute": [], "irrelevant": []}
    for gold, _, facts in rows:
        if gold in by:
            by[gold].append(bool(facts) and all(fact_supported(s, c, beta, thr) for s, c in facts))
    rec = float(np.mean(by["completely-support"]))
    fs_ref = float(np.mean(by["refute"]))
    fs_irr = float(np.mean(by["irrelevant"]))
    spec = 1 - (sum(by["refute"]) + sum(by["irrelevant"])) / (
        len(by["refute"]) + len(by["irrelevant"])
    )
    return {"ba": (rec + spec) / 2, "recall": rec, "fs_refuted": fs_ref, "fs_irrelevant": fs_irr}


def examples(rows: list[Row], beta: np.ndarray | None) -> tuple[np.ndarray, ...]:
    """One example per undecided fact: its best candidate (by score, or cosine at first)."""
    xs, ys, ws = [], [], []
    for gold, half, facts in rows:
        if half != "tune" or gold == "partially-support":
            continue
        open_facts = [c for s, c in facts if s == Status.INSUFFICIENT.value and c]
        for cands in open_facts:
            m = matrix(cands)
            if beta is None:
                best = int(np.argmax(m[:, FEATURES.index("cosine")]))
            else:
                best = int(np.argmax(m @ beta[1:]))
            xs.append(m[best])
            ys.append(1.0 if gold == "completely-support" else 0.0)
            ws.append(1.0 / len(open_facts))
    return np.array(xs), np.array(ys), np.array(ws)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/triqua_scorer_rows.pkl"))
    parser.add_argument("--refresh", action="store_true", help="recollect even if cached")
    parser.add_argument("--l2", type=float, default=1.0)
    # Issue 13's aim: false support on refuted claims at most 8 %. Since facts keep their
    # restrictors ("once", "the first", "held that") the rules alone reach 5.8 % on the
    # tune half, so the scorer may add support while the tune half stays under 8 %.
    parser.add_argument("--max-false-support", type=float, default=0.08)
    parser.add_argument("--write", action="store_true", help="write data/scorer.json")
    args = parser.parse_args()

    if args.cache.exists() and not args.refresh:
        rows: list[Row] = pickle.loads(args.cache.read_bytes())
    else:
        rows = collect(args.data)
        args.cache.write_bytes(pickle.dumps(rows))
    tune = [r for r in rows if r[1] == "tune"]

    beta = None
    for _ in range(3):
        x, y, w = examples(rows, beta)
        beta = fit(x, y, w, args.l2)
    assert beta is not None
    print(f"{len(x)} tune examples ({int(y.sum())} from supported claims), l2 {args.l2}")
    for name, value in zip(("bias", *FEATURES), beta, strict=True):
        print(f"  {name:>16} {value:+.3f}")

    off = figures(tune, beta, 2.0)
    print(f"rules alone on tune: {off}")
    best_thr, best = 2.0, off
    for thr in np.arange(0.30, 0.96, 0.01):
        f = figures(tune, beta, float(thr))
        if f["fs_refuted"] <= args.max_false_support and f["ba"] > best["ba"]:
            best_thr, best = float(thr), f
    print(f"threshold {best_thr:.2f}")
    for name in ("tune", "held", "all"):
        part = rows if name == "all" else [r for r in rows if r[1] == name]
        f = figures(part, beta, best_thr)
        print(f"  {name:>5}: " + "  ".join(f"{k} {v:.3f}" for k, v in f.items()))

    if args.write:
        weights = {n: round(float(v), 4) for n, v in zip(FEATURES, beta[1:], strict=True)}
        digest = hashlib.sha1(
            json.dumps([weights, round(float(beta[0]), 4), best_thr]).encode()
        ).hexdigest()[:8]
        payload = {
            "revision": f"scorer/{digest}",
            "note": (
                "Logistic weights over the features of engines/offline/scorer.py, fitted on "
                "the tune half of Factcheck-Bench by benchmarks/fit_offline_scorer.py "
                f"(l2 {args.l2}, false support on refuted at most {args.max_false_support})."
            ),
            "weights": weights,
            "bias": round(float(beta[0]), 4),
            "threshold": round(best_thr, 2),
        }
        _PATH.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {_PATH} ({payload['revision']})")


if __name__ == "__main__":
    main()
