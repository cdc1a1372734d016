"""Could the entailment judge give a simple sentence its verdict whole? Its trade-off, measured.

The offline engine verifies a claim fact by fact (rules, gates, then the learned judge on the
units the rules leave open); a claim is supported when all its facts are. ElementCheck's
simple route judges the sentence whole instead. This benchmark measures what that would do
on Factcheck-Bench subtask 3: the engine's claim verdict, then the same verdict raised to
"supported" when the shipped judge finds the whole claim entailed (its largest entailed
probability over the passage's windows of one to three sentences, as the verifier reads
windows) at or above a threshold, optionally vetoed when its largest contradicted
probability reaches another. Printed per half (the judge trained on the tune half's
claims, so only the held half is honest): balanced accuracy (supported vs not, partial
support left out), recall of supported claims and false support on refuted and irrelevant
claims, for each threshold.

Measured (shipped judge ``minilm-nli-int8-9905b1fdcb3b``), held half, 1,336 rows: the engine
alone 0.631 (recall 0.283, false support on refuted 8.0 %, on irrelevant 1.6 %); raised at
0.5, 0.747 (recall 0.592) but false support on refuted 25.3 % and on irrelevant 8.6 %; at
0.7, 0.722 (18.7 %); at 0.9, 0.681 (13.3 %); at 0.99, 0.638 (8.0 %). A contradiction veto
trades recall for little: at 0.5 vetoed at 0.1, 0.699 with 16.0 %. No setting keeps false
support on refuted claims at or under 8 % above 0.64. The judge reads whole claims with more
recall than the rules, but it cannot tell a refuted claim from a supported one well enough
to be trusted with a sentence's verdict: the engine keeps its fact-level verdicts, and the
sentence verdict stays their combination.

Run: ``.venv/bin/python benchmarks/sentence_judge.py [--limit N] [--half held|tune|all]``
(about 12 minutes on two cores for all rows).
"""

from __future__ import annotations

import argparse
import json
import random

from offline_verdicts import DATA, crude_fact, half_of, verify_rows
from shared_data import require

from triqua.engines.offline.decompose.decomposer import get_decomposer
from triqua.engines.offline.verify.verifier import get_verifier
from triqua.models.entailment import get_entailment
from triqua.schema import Status
from triqua.sentences import sentence_spans

#: Sentences of a passage read (windows of one to three of them), as a long page is cut.
MAX_SENTENCES = 40
THRESHOLDS = (0.5, 0.7, 0.8, 0.9, 0.95, 0.99)
VETOES = (1.01, 0.5, 0.2, 0.1)


def claim_probabilities(claim: str, passage: str) -> tuple[float, float]:
    """The judge's largest entailed and contradicted probabilities of ``claim`` over windows."""
    model = get_entailment()
    assert model is not None, "the shipped entailment judge is missing"
    sentences = [passage[a:b] for a, b in sentence_spans(passage)][:MAX_SENTENCES]
    windows = [
        " ".join(sentences[i : i + k])
        for i in range(len(sentences))
        for k in (1, 2, 3)
        if i + k <= len(sentences)
    ] or [passage[:1000]]
    probabilities = model.predict([(window, claim) for window in windows])
    return float(probabilities[:, 0].max()), float(probabilities[:, 2].max())


def figures(outcomes: list[tuple[str, bool]]) -> tuple[float, float, float, float]:
    """Balanced accuracy, recall of supported, false support on refuted and on irrelevant."""

    def share(stance: str) -> float:
        picked = [s for g, s in outcomes if g == stance]
        return sum(picked) / max(1, len(picked))

    recall = share("completely-support")
    negatives = [not s for g, s in outcomes if g in ("refute", "irrelevant")]
    specificity = sum(negatives) / max(1, len(negatives))
    return (recall + specificity) / 2, recall, share("refute"), share("irrelevant")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0, help="rows to sample (0: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--half", choices=["tune", "held", "all"], default="all")
    args = parser.parse_args()
    rows = [json.loads(line) for line in require(DATA).open(encoding="utf-8")]
    if args.half != "all":
        rows = [r for r in rows if half_of(r["claim"]) == args.half]
    if args.limit:
        rows = random.Random(args.seed).sample(rows, min(args.limit, len(rows)))
    claims = list(dict.fromkeys(r["claim"] for r in rows))
    facts_of = dict(zip(claims, get_decomposer().decompose_many(claims), strict=True))
    for claim, facts in facts_of.items():
        facts_of[claim] = facts or crude_fact(claim)
    verifier = get_verifier("shipped")
    verifier.warm_up()
    verdicts = verify_rows(verifier, rows, facts_of)
    judged = []
    for row, (_, status, _) in zip(rows, verdicts, strict=True):
        if row["stance"] != "partially-support":
            entailed, contradicted = claim_probabilities(row["claim"], row["evidence"])
            judged.append((half_of(row["claim"]), row["stance"], status, entailed, contradicted))
    model = get_entailment()
    print(f"rows {len(judged)} (partial support left out); judge {model and model.revision}")
    header = ("half", "raise at", "veto at", "BA", "recall", "FS ref", "FS irr")
    print(" ".join(f"{h:>8}" for h in header))
    for half in ("tune", "held"):
        mine = [j for j in judged if j[0] == half]
        if not mine:
            continue
        base = figures([(g, s is Status.SUPPORTED) for _, g, s, _, _ in mine])
        print(f"{half:>8} {'engine':>8} {'':>8} " + " ".join(f"{x:>8.3f}" for x in base))
        for raise_at in THRESHOLDS:
            for veto in VETOES:
                raised = [
                    s is Status.INSUFFICIENT and e >= raise_at and c < veto
                    for _, _, s, e, c in mine
                ]
                outcomes = [
                    (g, s is Status.SUPPORTED or up)
                    for (_, g, s, _, _), up in zip(mine, raised, strict=True)
                ]
                shown = "-" if veto > 1 else f"{veto:.2f}"
                print(
                    f"{half:>8} {raise_at:>8.2f} {shown:>8} "
                    + " ".join(f"{x:>8.3f}" for x in figures(outcomes))
                )


if __name__ == "__main__":
    main()
