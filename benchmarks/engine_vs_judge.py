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

``--dev`` runs the dev rows instead (FEVER-symmetric ``dev``, Factcheck-Bench's dev claims,
``gate_ablation.fcb_dev``): the rows a change is chosen on; the held rows are only reported.
``--diff`` lists the rows where the two disagree, with each fact the engine does not support,
its verdict's reason, quote and grounding, and its cause (``claim_losses.fact_cause``).

Usage: python benchmarks/engine_vs_judge.py [--limit N] [--dev] [--diff]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "training"))

import compare  # noqa: E402  (training/compare.py: the Factcheck-Bench held split)
import gate_ablation as ablation  # noqa: E402  (the Factcheck-Bench dev claims)
import nli  # noqa: E402  (training/nli.py: the shared NLI pairs and their held-out split)
from claim_losses import fact_cause  # noqa: E402
from offline_verdicts import claim_status, crude_fact  # noqa: E402
from sentence_judge import claim_probabilities  # noqa: E402

from triqua.core.reading.analysis import analyse  # noqa: E402
from triqua.core.reading.name_match import name_match  # noqa: E402
from triqua.core.verdicts.settling import settle  # noqa: E402
from triqua.engines.offline.decompose.decomposer import get_decomposer  # noqa: E402
from triqua.engines.offline.verify.verifier import get_verifier  # noqa: E402
from triqua.models.entailment import ENTAILED  # noqa: E402
from triqua.models.reader import EntailmentReader  # noqa: E402
from triqua.schema import Evidence, Fact, Status, Verdict  # noqa: E402
from triqua.sentences import sentence_spans  # noqa: E402


def fever_rows(limit: int, split: str = "test") -> list[tuple[str, str, bool]]:
    """(claim, evidence, gold supported) of FEVER-symmetric's pairs of one held-out split."""
    rows = [
        (str(r["hypothesis"]), str(r["premise"]), int(str(r["label"])) == ENTAILED)
        for r in nli.nli_pairs()
        if str(r["source"]).startswith("nli-fever:") and r["split"] == split
    ]
    return rows[:limit] if limit else rows


def fcb_rows(limit: int) -> list[tuple[str, str, bool]]:
    """(claim, evidence, gold supported) of Factcheck-Bench's held half, no partial support."""
    return [
        (r["claim"], r["evidence"], r["stance"] == "completely-support")
        for r in compare.held_rows(limit)
    ]


def bare_judge(rows: list[tuple[str, str, bool]]) -> list[float]:
    """The judge alone: the claim's entailed probability in its best window."""
    return [claim_probabilities(claim, passage)[0] for claim, passage, _ in rows]


def engine(rows: list[tuple[str, str, bool]]) -> list[list[tuple[Fact, Verdict]]]:
    """The offline engine: each claim's facts and their verdicts, as a run settles them."""
    verifier = get_verifier()
    model = verifier.entailment
    assert model is not None, "the shipped entailment judge is missing"
    reader = EntailmentReader(model, paraphrase=model.thresholds.supports)
    claims = [claim for claim, _, _ in rows]
    decomposed = get_decomposer().decompose_many(claims)
    read = []
    for (claim, passage, _), facts in zip(rows, decomposed, strict=True):
        facts = facts or crude_fact(claim)
        evidence = Evidence.build(document_id="row", text=passage, retriever="bench")
        verdicts = verifier.verify_many(facts, [evidence])
        read.append(
            [
                (f, settle(f, v, [evidence], reader=reader))
                for f, v in zip(facts, verdicts, strict=True)
            ]
        )
    return read


def supported(read: list[tuple[Fact, Verdict]]) -> bool:
    """The claim supported: it has facts and every one is supported."""
    return claim_status([v for _, v in read]) == Status.SUPPORTED


def names_subject(read: list[tuple[Fact, Verdict]], passage: str) -> bool:
    """Whether the evidence names the claim's subject (its first fact's) in some sentence.

    Evidence that only refers to it ("She also starred in …", an excerpt cut from a longer
    text) supports no named subject on the engine, by design: the bare judge cannot tell.
    """
    if not read:
        return False
    subject = analyse(read[0][0].subject)
    return any(name_match(subject, analyse(passage[a:b])) > 0 for a, b in sentence_spans(passage))


def figures(rows: list[tuple[str, str, bool]], called: list[bool]) -> tuple[float, float, float]:
    """Balanced accuracy, recall of supported and false support on the rest."""
    gold = [g for _, _, g in rows]
    pos = [c for c, g in zip(called, gold, strict=True) if g]
    neg = [c for c, g in zip(called, gold, strict=True) if not g]
    recall = sum(pos) / max(1, len(pos))
    false_support = sum(neg) / max(1, len(neg))
    return (recall + 1 - false_support) / 2, recall, false_support


def diff(
    rows: list[tuple[str, str, bool]],
    scores: list[float],
    read: list[list[tuple[Fact, Verdict]]],
    threshold: float,
) -> None:
    """The rows where the engine and the bare judge disagree, the engine's reading of each."""
    model = get_verifier().entailment
    assert model is not None, "the shipped entailment judge is missing"
    reader = EntailmentReader(model, paraphrase=model.thresholds.supports)
    for (claim, passage, gold), score, facts in zip(rows, scores, read, strict=True):
        by_judge, by_engine = score >= threshold, supported(facts)
        if by_judge == by_engine:
            continue
        right = "judge" if by_judge == gold else "engine"
        print(f"\n[{right} right] gold {'S' if gold else '-'}  judge {score:.2f}  {claim}")
        print(f"    evidence: {passage[:300]}")
        evidence = [Evidence.build(document_id="row", text=passage, retriever="bench")]
        for fact, verdict in facts:
            print(
                f"    fact ({fact.subject} | {fact.relation} | {fact.object})"
                + "".join(f" [{q.label}: {q.value}]" for q in fact.qualifiers)
                + f" -> {verdict.status.value}: {str(verdict.rationale)[:100]}"
            )
            for unit in verdict.unit_verdicts:
                print(
                    f"      {unit.status.value:<22}{unit.unit[:70]}  quote {unit.quote!r:.120}"
                    + (f"  grounding: {unit.grounding}" if unit.grounding else "")
                )
            if verdict.status != Status.SUPPORTED and gold:
                cause, detail = fact_cause(fact, evidence, model, reader)
                print(f"      cause {cause}: {detail}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=0, help="rows per set (0: all)")
    parser.add_argument("--dev", action="store_true", help="the dev rows, not the held ones")
    parser.add_argument("--diff", action="store_true", help="list the rows where they disagree")
    parser.add_argument("--only", choices=("fever", "fcb"), help="one set only")
    args = parser.parse_args()
    model = get_verifier().entailment
    assert model is not None, "the shipped entailment judge is missing"
    threshold = model.thresholds.entailed
    sets = (
        (
            ("FEVER-symmetric dev", "fever", fever_rows(args.limit, "dev")),
            ("Factcheck-Bench dev", "fcb", ablation.fcb_dev(args.limit)),
        )
        if args.dev
        else (
            ("FEVER-symmetric test", "fever", fever_rows(args.limit)),
            ("Factcheck-Bench held", "fcb", fcb_rows(args.limit)),
        )
    )
    print(f"{'set':<26}{'reader':<12}{'rows':>6}{'bal. acc.':>11}{'recall':>9}{'false sup.':>12}")
    for name, key, rows in sets:
        if args.only and key != args.only:
            continue
        started = time.perf_counter()
        scores = bare_judge(rows)
        took = [time.perf_counter() - started]
        read = engine(rows)
        took.append(time.perf_counter() - started - took[0])
        calls = ([s >= threshold for s in scores], [supported(r) for r in read])
        for reader, called, seconds in zip(("bare judge", "engine"), calls, took, strict=True):
            ba, recall, false_support = figures(rows, called)
            print(
                f"{name:<26}{reader:<12}{len(rows):>6}{ba:>11.3f}{recall:>9.3f}"
                f"{false_support:>12.3f}   ({seconds:.0f} s)",
                flush=True,
            )
        named = [names_subject(r, passage) for r, (_, passage, _) in zip(read, rows, strict=True)]
        for label, keep in (("  names subject", True), ("  never names it", False)):
            picked = [k for k, n in enumerate(named) if n == keep]
            part = [rows[k] for k in picked]
            for reader, called in zip(("bare judge", "engine"), calls, strict=True):
                ba, recall, false_support = figures(part, [called[k] for k in picked])
                print(
                    f"{label:<26}{reader:<12}{len(part):>6}{ba:>11.3f}{recall:>9.3f}"
                    f"{false_support:>12.3f}"
                )
        if args.diff:
            diff(rows, scores, read, threshold)


if __name__ == "__main__":
    main()
