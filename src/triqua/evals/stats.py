"""Evaluation statistics: correlations, classification reports, calibration and coverage.

Correlations with gold scores, per-class classification reports, a calibration table
(Pr(correct | confidence) by confidence bin, with ECE), ElementCheck's Coverage and Overall,
VeriScore-style F1@K, and the per-fact cost rates every evaluation summary reports.

Used by the benchmark harnesses only. Everything is numpy: the two correlations are a few
lines each (Spearman's is Pearson's over average ranks, as SciPy computes it), so triqua
needs no SciPy (143 MB installed) for them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "calibration_table",
    "classification_report",
    "cohen_kappa",
    "coverage_overall",
    "definite_coverage_overall",
    "f1_at_k",
    "pearson_spearman_mae",
    "per_fact_rates",
]


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
    result["pearson"] = pearson(x, y)
    result["spearman"] = pearson(average_ranks(x), average_ranks(y))
    result["mae"] = float(np.abs(x - y).mean())
    return result


def pearson(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> float | None:
    """Pearson's r of two equally long samples; None when either is constant (undefined)."""
    dx, dy = x - x.mean(), y - y.mean()
    spread = math.sqrt(float(dx @ dx) * float(dy @ dy))
    if spread == 0.0:
        return None
    return _finite_or_none(max(-1.0, min(1.0, float(dx @ dy) / spread)))


def average_ranks(values: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Ranks from 1, ties given the mean of the ranks they span (SciPy's ``rankdata``)."""
    order = np.argsort(values, kind="mergesort")
    ordered = values[order]
    starts = np.r_[True, ordered[1:] != ordered[:-1]]
    first = np.flatnonzero(starts)  # where each run of equal values begins
    counts = np.diff(np.r_[first, len(values)])
    ranks = np.empty(len(values), dtype=float)
    ranks[order] = (first + (counts + 1) / 2)[np.cumsum(starts) - 1]
    return ranks


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


def calibration_table(
    confidences: Sequence[float], correct: Sequence[bool], bins: int = 10
) -> dict[str, Any]:
    """Accuracy by confidence bin, Pr(correct | confidence = p), and the expected calibration error.

    ``bins`` equal-width bins split [0, 1]; bin i holds confidences in [i/bins, (i+1)/bins),
    the last one also 1.0. Each bin reports its bounds, ``count``, ``mean_confidence`` and
    ``accuracy`` (both ``None`` when empty). ECE = Σ_b (n_b / N) · |accuracy_b − mean
    confidence_b|, ``None`` with no item. A well-calibrated judge right 80 % of the time
    when it says 0.8 has accuracy ≈ mean confidence in every bin.

    Raises:
        ValueError: when the sequences differ in length, ``bins`` < 1, or a confidence is
            NaN or outside [0, 1].
    """
    if len(confidences) != len(correct):
        raise ValueError(f"{len(confidences)} confidences but {len(correct)} correctness flags")
    if bins < 1:
        raise ValueError(f"bins must be at least 1, not {bins}")
    conf = np.array([float(c) for c in confidences], dtype=float)
    ok = np.array([bool(flag) for flag in correct], dtype=bool)
    if conf.size and (np.isnan(conf).any() or conf.min() < 0.0 or conf.max() > 1.0):
        raise ValueError("confidences must be numbers in [0, 1]")
    # A hair above the product keeps 0.57 * 100 = 56.99999... in the bin of 0.57.
    which = np.minimum(np.floor(conf * bins + 1e-9).astype(int), bins - 1)
    rows: list[dict[str, Any]] = []
    ece = 0.0
    for b in range(bins):
        members = which == b
        count = int(members.sum())
        mean_conf = float(conf[members].mean()) if count else None
        accuracy = float(ok[members].mean()) if count else None
        if mean_conf is not None and accuracy is not None:
            ece += count / conf.size * abs(accuracy - mean_conf)
        rows.append(
            {
                "lower": b / bins,
                "upper": (b + 1) / bins,
                "count": count,
                "mean_confidence": mean_conf,
                "accuracy": accuracy,
            }
        )
    return {
        "n": int(conf.size),
        "bins": rows,
        "ece": float(ece) if conf.size else None,
        "accuracy": float(ok.mean()) if conf.size else None,
        "mean_confidence": float(conf.mean()) if conf.size else None,
    }


def coverage_overall(
    gold_labels: Sequence[str], pred_labels: Sequence[str], covered: Sequence[bool]
) -> dict[str, Any]:
    """ElementCheck's Coverage, balanced accuracy of the covered rows, and Overall.

    Coverage is the share of all rows the checker covers: rows where it had something to
    check (at least one fact), whatever its verdict — "not enough evidence" is a verdict,
    not an abstention. Balanced accuracy is the mean recall over the gold classes among the
    covered rows (the caller passes binary labels: supported vs not supported). Overall =
    Coverage × balanced accuracy, so a checker that finds nothing to check in half the rows
    and is perfect on the rest scores 0.5. Values are ``None`` when undefined.

    Raises:
        ValueError: when the sequences differ in length.
    """
    if not len(gold_labels) == len(pred_labels) == len(covered):
        raise ValueError(
            f"{len(gold_labels)} gold labels, {len(pred_labels)} predictions and "
            f"{len(covered)} coverage flags"
        )
    kept = [(g, p) for g, p, c in zip(gold_labels, pred_labels, covered, strict=True) if c]
    labels = sorted({g for g, _ in kept} | {p for _, p in kept})
    report = classification_report([g for g, _ in kept], [p for _, p in kept], labels)
    coverage = _ratio(len(kept), len(gold_labels))
    balanced = report["balanced_accuracy"] if kept else None
    return {
        "n": len(gold_labels),
        "covered": len(kept),
        "coverage": coverage,
        "balanced_accuracy": balanced,
        "overall": None if coverage is None or balanced is None else coverage * balanced,
    }


def definite_coverage_overall(
    gold_labels: Sequence[str], pred_labels: Sequence[str], definite: Sequence[str]
) -> dict[str, Any]:
    """Selective coverage: the share of definite-gold rows given a definite verdict.

    Not ElementCheck's Coverage (see :func:`coverage_overall`): here "not enough evidence"
    counts as abstaining and only rows whose gold is definite are read. It says how often a
    checker commits when the answer is known. Balanced accuracy is the mean recall over the
    gold classes among the committed rows; Overall = coverage × balanced accuracy.

    Raises:
        ValueError: when the sequences differ in length or a gold label is not definite.
    """
    if len(gold_labels) != len(pred_labels):
        raise ValueError(f"{len(gold_labels)} gold labels but {len(pred_labels)} predictions")
    stray = sorted({g for g in gold_labels if g not in definite})
    if stray:
        raise ValueError(f"gold labels are not definite verdicts: {stray}")
    kept = [(g, p) for g, p in zip(gold_labels, pred_labels, strict=True) if p in definite]
    report = classification_report([g for g, _ in kept], [p for _, p in kept], list(definite))
    coverage = _ratio(len(kept), len(gold_labels))
    balanced = report["balanced_accuracy"]
    return {
        "n": len(gold_labels),
        "covered": len(kept),
        "coverage": coverage,
        "balanced_accuracy": balanced,
        "overall": None if coverage is None or balanced is None else coverage * balanced,
    }


def f1_at_k(
    supported: Sequence[int], total: Sequence[int], k: float | None = None
) -> dict[str, Any]:
    """VeriScore-style F1@K of each response, and their mean.

    For a response with S supported facts out of T: precision = S / T, recall@K =
    min(S / K, 1), F1@K their harmonic mean, and 0 when S = 0 (so a response with no fact
    scores 0). K is how many supported facts a user wants; by default the median number of
    facts per response. ``k`` is ``None`` (and every F1@K undefined) when that median is 0.

    Raises:
        ValueError: when the sequences differ in length, a count is negative, S > T, or
            ``k`` is not positive.
    """
    if len(supported) != len(total):
        raise ValueError(f"{len(supported)} supported counts but {len(total)} totals")
    if any(s < 0 or t < s for s, t in zip(supported, total, strict=True)):
        raise ValueError("supported counts must lie between 0 and the number of facts")
    if k is not None and not k > 0:
        raise ValueError(f"K must be positive, not {k}")
    chosen = k if k is not None else (float(np.median(total)) if total else None)
    if not chosen:
        return {"k": None, "n": len(total), "per_response": [None] * len(total), "mean": None}
    scores: list[float] = []
    for s, t in zip(supported, total, strict=True):
        if s == 0:
            scores.append(0.0)
            continue
        precision, recall = s / t, min(s / chosen, 1.0)
        scores.append(2 * precision * recall / (precision + recall))
    return {
        "k": chosen,
        "n": len(total),
        "per_response": scores,
        "mean": sum(scores) / len(scores) if scores else None,
    }


def per_fact_rates(
    facts: int, *, reverified: int | None, model_calls: int, search_calls: int
) -> dict[str, float | int | None]:
    """Re-verification trigger rate and model calls and searches per fact.

    ``reverified`` is how many facts a re-verification round judged again (rounds that
    stopped before judging do not count), ``None`` when the evaluation's
    path never runs it (the rate is then ``None``, not 0). Rates are ``None`` with no fact.
    """
    return {
        "facts": facts,
        "reverify_trigger_rate": None if reverified is None else _ratio(reverified, facts),
        "model_calls_per_fact": _ratio(model_calls, facts),
        "search_calls_per_fact": _ratio(search_calls, facts),
    }


def cohen_kappa(first: Sequence[object], second: Sequence[object]) -> float | None:
    """Cohen's κ between two raters' labels of the same items: (p_o - p_e) / (1 - p_e).

    Hand-written because scikit-learn is not a dependency (its ``cohen_kappa_score`` computes
    the same). ``None`` with no item or when chance agreement is 1 (both raters gave one and
    the same label to every item: κ is undefined).

    Raises:
        ValueError: when the two sequences differ in length.
    """
    if len(first) != len(second):
        raise ValueError(f"raters labelled {len(first)} and {len(second)} items")
    n = len(first)
    if not n:
        return None
    observed = sum(a == b for a, b in zip(first, second, strict=True)) / n
    labels = set(first) | set(second)
    expected = sum((list(first).count(x) / n) * (list(second).count(x) / n) for x in labels)
    if expected == 1:
        return None
    return (observed - expected) / (1 - expected)
