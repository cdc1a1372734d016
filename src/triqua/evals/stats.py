"""Evaluation statistics: correlations with gold scores and per-class classification reports.

Used by the benchmark harnesses only; scipy is imported inside the function that needs it, so
that importing triqua (or running a check) never loads it.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["classification_report", "pearson_spearman_mae"]


def _ratio(numerator: int, denominator: int) -> float | None:
    """``numerator / denominator``, or ``None`` when the denominator is zero."""
    return numerator / denominator if denominator else None


def _finite_or_none(value: float) -> float | None:
    """``value`` as a float, or ``None`` when it is NaN (e.g. a correlation of constants)."""
    return None if math.isnan(value) else float(value)


def pearson_spearman_mae(
    pred: Sequence[float | None], gold: Sequence[float]
) -> dict[str, float | int | None]:
    """Pearson and Spearman correlation and mean absolute error of predictions vs gold.

    Pairs whose prediction is ``None`` are dropped (``n`` counts those kept). With fewer than
    two pairs, or constant inputs for a correlation, the value is ``None``.

    Raises:
        ValueError: when the two sequences differ in length.
    """
    if len(pred) != len(gold):
        raise ValueError(f"{len(pred)} predictions but {len(gold)} gold values")
    from scipy import stats

    kept = [(p, g) for p, g in zip(pred, gold, strict=True) if p is not None]
    result: dict[str, float | int | None] = {
        "n": len(kept),
        "pearson": None,
        "spearman": None,
        "mae": None,
    }
    if len(kept) < 2:
        return result
    x = np.array([p for p, _ in kept], dtype=float)
    y = np.array([g for _, g in kept], dtype=float)
    with warnings.catch_warnings():
        # Constant input makes a correlation undefined; scipy warns and returns NaN.
        warnings.simplefilter("ignore", stats.ConstantInputWarning)
        result["pearson"] = _finite_or_none(stats.pearsonr(x, y).statistic)
        result["spearman"] = _finite_or_none(stats.spearmanr(x, y).statistic)
    result["mae"] = float(np.abs(x - y).mean())
    return result


def classification_report(
    gold_labels: Sequence[str], pred_labels: Sequence[str], labels: Sequence[str]
) -> dict[str, Any]:
    """Per-class precision, recall and F1, macro F1, balanced accuracy and confusion matrix.

    Computed with numpy so that scoring needs no scikit-learn. Undefined values are ``None``:
    precision of a class never predicted, recall of a class absent from gold, F1 of a class
    absent from both. Macro F1 averages the defined F1 values; balanced accuracy averages
    recall over classes present in gold. The matrix has gold labels as rows and predictions
    as columns, in the order of ``labels``.

    Raises:
        ValueError: when the sequences differ in length or hold a label not in ``labels``.
    """
    if len(gold_labels) != len(pred_labels):
        raise ValueError(f"{len(gold_labels)} gold labels but {len(pred_labels)} predictions")
    index = {label: i for i, label in enumerate(labels)}
    unknown = sorted({str(x) for x in [*gold_labels, *pred_labels] if x not in index})
    if unknown:
        raise ValueError(f"labels not in the label list: {unknown}")
    matrix = np.zeros((len(labels), len(labels)), dtype=int)
    if gold_labels:
        rows = np.array([index[g] for g in gold_labels])
        cols = np.array([index[p] for p in pred_labels])
        np.add.at(matrix, (rows, cols), 1)

    per_class: dict[str, dict[str, float | int | None]] = {}
    for i, label in enumerate(labels):
        tp = int(matrix[i, i])
        predicted, support = int(matrix[:, i].sum()), int(matrix[i, :].sum())
        per_class[str(label)] = {
            "precision": _ratio(tp, predicted),
            "recall": _ratio(tp, support),
            "f1": _ratio(2 * tp, predicted + support),
            "support": support,
        }
    f1s = [c["f1"] for c in per_class.values() if c["f1"] is not None]
    recalls = [c["recall"] for c in per_class.values() if c["recall"] is not None]
    total = int(matrix.sum())
    return {
        "labels": [str(label) for label in labels],
        "per_class": per_class,
        "macro_f1": float(np.mean(f1s)) if f1s else None,
        "balanced_accuracy": float(np.mean(recalls)) if recalls else None,
        "accuracy": _ratio(int(np.trace(matrix)), total),
        "confusion_matrix": matrix.tolist(),
        "n": total,
    }
