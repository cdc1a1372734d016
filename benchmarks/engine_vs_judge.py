"""The offline engine against its own judge read alone, on the same held-out rows.

The engine (decomposer, value gates, the judge reading each fact's windows) must do at least
as well as the bare judge asked whether the claim is entailed by its evidence's best window:
the gates may add, never subtract. Two held-out sets:

- **FEVER-symmetric test** (the shared NLI pairs' ``test`` split, held out by premise in
  ``training/nli.py``; never trained or tuned on): claim against one Wikipedia sentence,
  gold "supported" when labelled entailed;
- **Factcheck-Bench held half** (``offline_verdicts.py``'s split, partial support left out):
  claim against its evidence passage, gold "supported" when completely supported.

Per set: balanced accuracy of "supported vs not", recall of supported, and false support on
the rest, for the bare judge at its card's ``entailed`` threshold (the best 1-3-sentence
window, ``sentence_judge.claim_probabilities``) and for the engine (the claim supported when
every fact is, after the grounding rule, as a run settles it).

Usage: python benchmarks/engine_vs_judge.py [--limit N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "training"))

import compare  # noqa: E402  (training/compare.py: the Factcheck-Bench held split)
import nli  # noqa: E402  (training/nli.py: the shared NLI pairs and their held-out split)
from offline_verdicts import claim_status, crude_fact  # noqa: E402
from sentence_judge import claim_probabilities  # noqa: E402

from triqua.core.verdicts.settling import settle  # noqa: E402
from triqua.engines.offline.decompose.decomposer import get_decomposer  # noqa: E402
from triqua.engines.offline.verify.reader import EntailmentReader  # noqa: E402
from triqua.engines.offline.verify.verifier import get_verifier  # noqa: E402
from triqua.models.entailment import ENTAILED  # noqa: E402
from triqua.schema import Evidence, Status  # noqa: E402


def fever_rows(limit: int) -> list[tuple[str, str, bool]]:
    """(claim, evidence, gold supported) of FEVER-symmetric's held-out test pairs."""
    rows = [
        (str(r["hypothesis"]), str(r["premise"]), int(str(r["label"])) == ENTAILED)
        for r in nli.nli_pairs()
        if str(r["source"]).startswith("nli-fever:") and r["split"] == "test"
    ]
    return rows[:limit] if limit else rows


def fcb_rows(limit: int) -> list[tuple[str, str, bool]]:
    """(claim, evidence, gold supported) of Factcheck-Bench's held half, no partial support."""
    return [
        (r["claim"], r["evidence"], r["stance"] == "completely-support")
        for r in compare.held_rows(limit)
    ]


def bare_judge(rows: list[tuple[str, str, bool]]) -> list[bool]:
    """The judge alone: the claim entailed by the best window at the card's threshold."""
    model = get_verifier().entailment
    assert model is not None, "the shipped entailment judge is missing"
    return [
        claim_probabilities(claim, passage)[0] >= model.thresholds.entailed
        for claim, passage, _ in rows
    ]


def engine(rows: list[tuple[str, str, bool]]) -> list[bool]:
    """The offline engine: every fact of the claim supported, as a run settles it."""
    verifier = get_verifier()
    model = verifier.entailment
    assert model is not None, "the shipped entailment judge is missing"
    reader = EntailmentReader(model, paraphrase=model.thresholds.supports)
    claims = [claim for claim, _, _ in rows]
    decomposed = get_decomposer().decompose_many(claims)
    called = []
    for (claim, passage, _), facts in zip(rows, decomposed, strict=True):
        facts = facts or crude_fact(claim)
        evidence = Evidence.build(document_id="row", text=passage, retriever="bench")
        verdicts = verifier.verify_many(facts, [evidence])
        settled = [
            settle(f, v, [evidence], reader=reader) for f, v in zip(facts, verdicts, strict=True)
        ]
        called.append(claim_status(settled) == Status.SUPPORTED)
    return called


def figures(rows: list[tuple[str, str, bool]], called: list[bool]) -> tuple[float, float, float]:
    """Balanced accuracy, recall of supported and false support on the rest."""
    gold = [g for _, _, g in rows]
    pos = [c for c, g in zip(called, gold, strict=True) if g]
    neg = [c for c, g in zip(called, gold, strict=True) if not g]
    recall = sum(pos) / max(1, len(pos))
    false_support = sum(neg) / max(1, len(neg))
    return (recall + 1 - false_support) / 2, recall, false_support


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=0, help="rows per set (0: all)")
    args = parser.parse_args()
    print(f"{'set':<26}{'reader':<12}{'rows':>6}{'bal. acc.':>11}{'recall':>9}{'false sup.':>12}")
    for name, rows in (
        ("FEVER-symmetric test", fever_rows(args.limit)),
        ("Factcheck-Bench held", fcb_rows(args.limit)),
    ):
        for reader, read in (("bare judge", bare_judge), ("engine", engine)):
            started = time.perf_counter()
            ba, recall, false_support = figures(rows, read(rows))
            print(
                f"{name:<26}{reader:<12}{len(rows):>6}{ba:>11.3f}{recall:>9.3f}"
                f"{false_support:>12.3f}   ({time.perf_counter() - started:.0f} s)"
            )


if __name__ == "__main__":
    main()
