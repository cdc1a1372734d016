"""Pick the shipped judge's thresholds on the dev split and write its card (triqua's venv).

Runs the int8 ONNX judge exactly as the verifier does (``EntailmentModel``) over the dev
pairs of ``pairs.jsonl`` (Factcheck-Bench tune-half dev claims and held-out bio topics;
never the test half) and chooses:

- ``entailed`` (a whole claim, or a paraphrase under the strict grounding rule, against
  one window): the lowest threshold that calls at most ``--max-false-support`` of the
  contradicted dev pairs entailed;
- ``supports`` (the offline verifier's unit threshold, behind its gates): the one of
  ``SUPPORTS_TRIED`` with the best balanced accuracy of the offline verifier itself
  (decomposer, gates and judge) on the dev claims of Factcheck-Bench's tune half (claims
  never trained on; the test half is never read), or ``entailed`` with ``--select pairs``;
- ``veto`` (the second opinion on an LLM's "supported"): the entailment probability that
  ``--veto-keeps`` (99 %) of the truly entailed dev pairs reach, so a veto rarely hits a true
  support.

The card (``entailment.json`` beside the model, ``data/`` by default) records the
thresholds, the labels, the revision (a hash of the model file) and the dev and test
figures at those thresholds; ``grounding``, ``rival``, ``judged`` and ``judged_some``, chosen
by their own benchmarks on the judge in place, and the training record (when
``training/build/model/training.json`` is absent) are kept from the card it replaces.

Usage: python training/calibrate.py [--pairs training/build/pairs.jsonl]
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from triqua.evals.data import eval_data_dir
from triqua.models.entailment import (
    CONTRADICTED,
    ENTAILED,
    EntailmentModel,
    Thresholds,
)

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "src" / "triqua" / "models" / "data"
LABELS = {0: "entailed", 1: "neutral", 2: "contradicted"}


def load(path: Path, split: str) -> list[dict[str, object]]:
    """The rows of one split."""
    rows = [json.loads(line) for line in path.open(encoding="utf-8")]
    return [r for r in rows if r["split"] == split]


def balanced(gold: np.ndarray, predicted: np.ndarray) -> float:
    """Mean recall of the positive and the negative class."""
    pos = predicted[gold].mean() if gold.any() else 0.0
    neg = (~predicted[~gold]).mean() if (~gold).any() else 0.0
    return float((pos + neg) / 2)


def choose_entailed(p: np.ndarray, labels: np.ndarray, max_false: float) -> float:
    """The lowest entailed threshold whose false support on contradicted pairs is in bounds."""
    contradicted = labels == CONTRADICTED
    for t in np.arange(0.30, 0.99, 0.01):
        if not contradicted.any() or (p[contradicted] >= t).mean() <= max_false:
            return round(float(t), 2)
    return 0.99


def dev_claims(pairs_path: Path) -> list[dict[str, str]]:
    """Factcheck-Bench rows of the dev claims (tune half, not trained on)."""
    claims = {
        str(r["hypothesis"]) for r in load(pairs_path, "dev") if str(r["source"]).startswith("fcb:")
    }
    shared = eval_data_dir() / "factcheck_bench"
    path = shared / "subtask3_claim_evidence_stance.jsonl"
    return [r for r in map(json.loads, path.open(encoding="utf-8")) if r["claim"] in claims]


def verifier_balanced_accuracy(model: EntailmentModel, rows: list[dict[str, str]]) -> float:
    """Claim-level balanced accuracy (supported vs not; partial support left out)."""
    from triqua.engines.offline.decompose.decomposer import get_decomposer
    from triqua.engines.offline.verify.verifier import AlignmentVerifier
    from triqua.schema import Evidence, Status

    verifier = AlignmentVerifier(entailment=model)
    claims = sorted({r["claim"] for r in rows})
    facts = dict(zip(claims, get_decomposer().decompose_many(claims), strict=True))
    gold, called = [], []
    for i, row in enumerate(rows):
        if row["stance"] == "partially-support" or not facts[row["claim"]]:
            continue
        evidence = Evidence.build(document_id=f"r{i}", text=row["evidence"], retriever="dev")
        verdicts = verifier.verify_many(facts[row["claim"]], [evidence])
        gold.append(row["stance"] == "completely-support")
        called.append(all(v.status == Status.SUPPORTED for v in verdicts))
    return balanced(np.array(gold), np.array(called))


#: The offline verifier's unit thresholds tried on the dev claims (``supports``).
SUPPORTS_TRIED = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


def choose_supports(model: EntailmentModel, rows: list[dict[str, str]], entailed: float) -> float:
    """The unit threshold with the best verifier balanced accuracy on the dev claims ``rows``.

    The verifier supports a unit at ``supports`` only behind its value and statement gates,
    which hold the false supports a low threshold would let through; the dev claims (never
    trained on, never reported) pick the point.
    """
    best, chosen = -1.0, SUPPORTS_TRIED[0]
    for t in SUPPORTS_TRIED:
        model.thresholds = Thresholds(entailed=entailed, veto=0.0, supports=t)
        score = verifier_balanced_accuracy(model, rows)  # judged pairs are cached
        print(f"  supports {t:.2f}: dev claims balanced accuracy {score:.3f}")
        if score > best:
            best, chosen = score, t
    return chosen


#: Thresholds chosen by other benchmarks on the judge in place, kept from the card replaced.
KEPT = ("grounding", "rival", "judged", "judged_some")


def _previous_card(card: Path) -> dict[str, object]:
    """The card at ``card`` (or the shipped one): its thresholds in ``KEPT`` and its training."""
    source = card if card.is_file() else DATA / "entailment.json"
    return dict(json.loads(source.read_text(encoding="utf-8")))


def figures(probabilities: np.ndarray, labels: np.ndarray, thresholds: Thresholds) -> dict:
    """Balanced accuracy, false support, and contradiction precision/recall at argmax."""
    entailed = probabilities[:, ENTAILED] >= thresholds.entailed
    contradicted = probabilities.argmax(axis=1) == CONTRADICTED
    is_contra = labels == CONTRADICTED
    vetoed = probabilities[:, ENTAILED] < thresholds.veto
    return {
        "vetoed_entailed": round(float(vetoed[labels == ENTAILED].mean()), 3)
        if (labels == ENTAILED).any()
        else None,
        "vetoed_not_entailed": round(float(vetoed[labels != ENTAILED].mean()), 3)
        if (labels != ENTAILED).any()
        else None,
        "pairs": len(labels),
        "balanced_accuracy": round(balanced(labels == ENTAILED, entailed), 3),
        "false_support_on_contradicted": round(float(entailed[is_contra].mean()), 3)
        if is_contra.any()
        else None,
        "contradiction_precision": round(float(is_contra[contradicted].mean()), 3)
        if contradicted.any()
        else None,
        "contradiction_recall": round(float(contradicted[is_contra].mean()), 3)
        if is_contra.any()
        else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=Path, default=ROOT / "training" / "build" / "pairs.jsonl")
    parser.add_argument("--model", type=Path, default=DATA / "entailment.onnx")
    parser.add_argument("--max-false-support", type=float, default=0.05)
    parser.add_argument("--veto-keeps", type=float, default=0.99)
    parser.add_argument(
        "--select",
        choices=["verifier", "pairs"],
        default="verifier",
        help="choose the entailed threshold by the offline verifier's balanced accuracy on "
        "the dev claims, or by the judge's own on the dev pairs",
    )
    args = parser.parse_args()
    model = EntailmentModel(
        args.model, DATA / "minilm_tokenizer.json", LABELS, revision="calibrating"
    )
    results = {}
    for split in ("dev", "test"):
        rows = load(args.pairs, split)
        probabilities = model.predict([(str(r["premise"]), str(r["hypothesis"])) for r in rows])
        labels = np.array([int(r["label"]) for r in rows])  # type: ignore[call-overload]
        results[split] = (probabilities, labels, rows)
    p, labels, _ = results["dev"]
    entailed_p = p[labels == ENTAILED, ENTAILED]
    # ``entailed`` (a whole claim or a paraphrase against one window): the lowest threshold
    # that calls at most ``--max-false-support`` of the contradicted dev pairs entailed.
    entailed = round(float(choose_entailed(p[:, ENTAILED], labels, args.max_false_support)), 2)
    if args.select == "verifier":
        claims = dev_claims(args.pairs)
        print(f"{len(claims)} Factcheck-Bench dev rows; supports tried: {SUPPORTS_TRIED}")
        supports = choose_supports(model, claims, entailed)
    else:
        supports = entailed
    thresholds = Thresholds(
        entailed=entailed,
        veto=round(float(np.quantile(entailed_p, 1 - args.veto_keeps)), 3),
        supports=supports,
    )
    # Chosen by their own benchmarks on the judge in place (``grounding_rule.py --write-card``
    # and the hand-written cases for ``rival``): kept from the card being replaced.
    previous = _previous_card(args.model.with_suffix(".json"))
    read = previous.get("thresholds", {})
    assert isinstance(read, dict)
    kept = {k: float(read[k]) for k in KEPT if k in read}
    digest = hashlib.sha256(args.model.read_bytes()).hexdigest()[:12]
    training = ROOT / "training" / "build" / "model" / "training.json"
    card: dict[str, Any] = {
        "revision": f"minilm-nli-int8-{digest}",
        "about": "all-MiniLM-L6-v2 fine-tuned as a 3-way entailment cross-encoder by "
        "training/ (see training/MODEL_CARD.md); int8 ONNX; thresholds from the dev split.",
        "id2label": {str(k): v for k, v in LABELS.items()},
        "max_tokens": 256,
        "thresholds": {
            "entailed": thresholds.entailed,
            "veto": thresholds.veto,
            "supports": thresholds.supports,
            **kept,
        },
        "threshold_selection": f"entailed and veto: calibrate.py on the dev pairs (at most "
        f"{args.max_false_support:.0%} of contradicted dev pairs entailed); supports: "
        + (
            "the offline verifier's balanced accuracy on Factcheck-Bench's dev claims, "
            f"{SUPPORTS_TRIED[0]}-{SUPPORTS_TRIED[-1]} tried"
            if args.select == "verifier"
            else "entailed"
        )
        + "; grounding and rival kept from the previous card; judged and judged_some (the "
        "default grounding rule's bars for a window writing none / some of a unit's words): "
        "benchmarks/grounding_rule.py --write-card on the annotated tune half and the lies of "
        "the even seeds of 40; each pair judged in a forward pass of its own",
        "figures": {},
        "training": json.loads(training.read_text())
        if training.is_file()
        else previous.get("training"),
    }
    for split, (probabilities, labels, rows) in results.items():
        card["figures"][split] = figures(probabilities, labels, thresholds)
        sources = sorted({str(r["source"]).split(":")[0] for r in rows})
        for source in sources:
            keep = np.array([str(r["source"]).split(":")[0] == source for r in rows])
            card["figures"][f"{split}:{source}"] = figures(
                probabilities[keep], labels[keep], thresholds
            )
    args.model.with_suffix(".json").write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in card.items() if k != "training"}, indent=2))


if __name__ == "__main__":
    main()
