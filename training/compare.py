"""Compare entailment judges on the same held-out rows, in one process (triqua's venv).

Each judge is an int8 ONNX file with its card (``.json`` beside it: labels, thresholds).
Figures, per judge:

- NLI test pairs of ``pairs.jsonl`` (SNLI, MultiNLI; held out by premise): three-way
  balanced accuracy (mean recall of entailed, neutral, contradicted at argmax);
- FEVER-symmetric test pairs: AUC of the entailed probability (entailed vs contradicted),
  balanced accuracy at the card's ``entailed`` threshold, and contradicted recall at argmax;
- the negation probe (``benchmarks/data/negation_probe.jsonl``, "X is not Y." against
  "X is Y."): the share judged not entailed at the threshold, the share contradicted at
  argmax, and the largest entailed probability;
- Factcheck-Bench's held half, the judge alone (as ``benchmarks/sentence_judge.py`` reads
  it: the claim against every window of one to three sentences of its passage, the largest
  entailed probability): AUC (supported vs refuted and irrelevant), and at the card's
  threshold balanced accuracy, recall of supported and false support on refuted and on
  irrelevant claims (partial support left out).

Usage: python training/compare.py OLD.onnx NEW.onnx [--pairs training/build/pairs.jsonl]
       [--fcb-limit N]
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import numpy as np

from triqua.evals.data import eval_data_dir
from triqua.models.entailment import CONTRADICTED, ENTAILED, EntailmentModel, Thresholds
from triqua.sentences import sentence_spans

ROOT = Path(__file__).resolve().parents[1]
TOKENIZER = ROOT / "src" / "triqua" / "models" / "data" / "minilm_tokenizer.json"
PROBE = ROOT / "benchmarks" / "data" / "negation_probe.jsonl"
FCB = eval_data_dir() / "factcheck_bench" / "subtask3_claim_evidence_stance.jsonl"
MAX_SENTENCES = 40


def judge(path: Path) -> EntailmentModel:
    """The judge in ``path`` with the thresholds of its card."""
    card = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    labels = {int(k): v for k, v in card["id2label"].items()}
    return EntailmentModel(
        path,
        TOKENIZER,
        labels,
        revision=card["revision"],
        thresholds=Thresholds(**card["thresholds"]),
        max_tokens=card.get("max_tokens", 256),
    )


def auc(scores: np.ndarray, positive: np.ndarray) -> float:
    """Area under the ROC curve (the Mann-Whitney statistic, ties counted half)."""
    pos, neg = scores[positive], scores[~positive]
    if not len(pos) or not len(neg):
        return float("nan")
    greater = (pos[:, None] > neg[None, :]).sum()
    ties = (pos[:, None] == neg[None, :]).sum()
    return float((greater + 0.5 * ties) / (len(pos) * len(neg)))


def balanced(gold: np.ndarray, called: np.ndarray) -> float:
    """Mean recall of the positive and the negative class."""
    return float((called[gold].mean() + (~called[~gold]).mean()) / 2)


def three_way(p: np.ndarray, labels: np.ndarray) -> float:
    """Mean per-class recall at argmax over the classes present."""
    predicted = p.argmax(axis=1)
    return float(np.mean([(predicted[labels == c] == c).mean() for c in np.unique(labels)]))


def nli_figures(model: EntailmentModel, rows: list[dict]) -> dict[str, float]:
    """Three-way figures per NLI kind and FEVER-symmetric's binary ones."""
    out: dict[str, float] = {}
    t = model.thresholds.entailed
    for kind in ("nli-snli", "nli-mnli", "nli-fever"):
        mine = [r for r in rows if str(r["source"]).startswith(kind + ":")]
        if not mine:
            continue
        p = model.predict([(r["premise"], r["hypothesis"]) for r in mine])
        labels = np.array([r["label"] for r in mine])
        out[f"{kind} rows"] = len(mine)
        out[f"{kind} 3-way balanced accuracy"] = three_way(p, labels)
        gold = labels == ENTAILED
        out[f"{kind} entailed-vs-not AUC"] = auc(p[:, ENTAILED], gold)
        out[f"{kind} entailed-vs-not balanced accuracy @t"] = balanced(gold, p[:, ENTAILED] >= t)
        contra = labels == CONTRADICTED
        out[f"{kind} contradicted recall (argmax)"] = float(
            (p[contra].argmax(axis=1) == CONTRADICTED).mean()
        )
    return out


def probe_figures(model: EntailmentModel) -> dict[str, float]:
    """The negation probe: "X is not Y." must not entail "X is Y."."""
    rows = [json.loads(line) for line in PROBE.open(encoding="utf-8")]
    p = model.predict([(r["premise"], r["hypothesis"]) for r in rows])
    return {
        "negation probe pairs": len(rows),
        "negation probe not entailed @t": float(
            (p[:, ENTAILED] < model.thresholds.entailed).mean()
        ),
        "negation probe contradicted (argmax)": float((p.argmax(axis=1) == CONTRADICTED).mean()),
        "negation probe max p(entailed)": float(p[:, ENTAILED].max()),
    }


def fcb_figures(model: EntailmentModel, rows: list[dict]) -> dict[str, float]:
    """The judge alone on Factcheck-Bench's held half: claim against its best window."""
    best = []
    for row in rows:
        passage = row["evidence"]
        sentences = [passage[a:b] for a, b in sentence_spans(passage)][:MAX_SENTENCES]
        windows = [
            " ".join(sentences[i : i + k])
            for i in range(len(sentences))
            for k in (1, 2, 3)
            if i + k <= len(sentences)
        ] or [passage[:1000]]
        best.append(float(model.predict([(w, row["claim"]) for w in windows])[:, ENTAILED].max()))
    scores = np.array(best)
    stance = np.array([r["stance"] for r in rows])
    gold = stance == "completely-support"
    called = scores >= model.thresholds.entailed
    return {
        "fcb held rows": len(rows),
        "fcb held AUC": auc(scores, gold),
        "fcb held balanced accuracy @t": balanced(gold, called),
        "fcb held recall of supported @t": float(called[gold].mean()),
        "fcb held false support on refuted @t": float(called[stance == "refute"].mean()),
        "fcb held false support on irrelevant @t": float(called[stance == "irrelevant"].mean()),
    }


def held_rows(limit: int) -> list[dict]:
    """Factcheck-Bench held-half rows (``benchmarks/offline_verdicts.py``'s split), no partial."""
    rows = [
        r
        for r in map(json.loads, FCB.open(encoding="utf-8"))
        if hashlib.sha1(r["claim"].encode("utf-8")).digest()[0] % 2 == 1
        and r["stance"] != "partially-support"
    ]
    return rows[:limit] if limit else rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("models", type=Path, nargs="+", help="ONNX files with cards beside")
    parser.add_argument("--pairs", type=Path, default=ROOT / "training" / "build" / "pairs.jsonl")
    parser.add_argument("--fcb-limit", type=int, default=0, help="held rows read (0: all)")
    parser.add_argument("--out", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    test = [
        r
        for r in map(json.loads, args.pairs.open(encoding="utf-8"))
        if r["split"] == "test" and str(r["source"]).startswith("nli-")
    ]
    fcb = held_rows(args.fcb_limit)
    results = {}
    for path in args.models:
        model = judge(path)
        figures = {"entailed threshold": model.thresholds.entailed}
        figures |= nli_figures(model, test) | probe_figures(model) | fcb_figures(model, fcb)
        results[f"{model.revision} ({path})"] = figures
        print(f"== {model.revision} ({path})", flush=True)
        for name, value in figures.items():
            print(
                f"  {name:48} {value:.3f}" if isinstance(value, float) else f"  {name:48} {value}"
            )
    if args.out:
        args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
