"""Metrics of a claim-verification run: triqua against the direct baseline.

The 3-way view (per-class precision, recall, F1, confusion), the binary supported-vs-not view,
ElementCheck's Coverage and Overall, each system's calibration, the cost per fact, and how the
partially supported rows were judged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from triqua.evals.claims import ClaimOutcome
from triqua.evals.claims_data import LABELS, PARTIAL
from triqua.evals.slices import NO_QUALIFIER, Dimension, share, slice_by
from triqua.evals.stats import (
    calibration_table,
    classification_report,
    coverage_overall,
    definite_coverage_overall,
    per_fact_rates,
)
from triqua.schema import Status

__all__ = [
    "BINARY_LABELS",
    "CLAIM_COLUMNS",
    "DEFINITE",
    "NOT_SUPPORTED",
    "claim_metric",
    "claim_slices",
    "summarize_claims",
]

#: The binary view's classes: supported, and everything else (partial rows included).
NOT_SUPPORTED = "not_supported"
BINARY_LABELS = (Status.SUPPORTED.value, NOT_SUPPORTED)
#: The verdicts the selective (definite-verdict) coverage counts as committing.
DEFINITE = (Status.SUPPORTED.value, Status.CONTRADICTED.value)


def _score_band(score: float | None) -> str:
    if score is None:
        return "undefined"
    if score <= 0.0:
        return "0"
    return "1" if score >= 1.0 else "between"


def _binary(label: str) -> str:
    return label if label == Status.SUPPORTED.value else NOT_SUPPORTED


def _calibration(rows: Sequence[ClaimOutcome], system: str, bins: int) -> dict[str, Any]:
    """Calibration of ``system``'s confidence on the 3-way rows that carry one."""
    scored = [(getattr(o, f"{system}_confidence"), getattr(o, system) == o.gold) for o in rows]
    kept = [(c, ok) for c, ok in scored if c is not None]
    table = calibration_table([c for c, _ in kept], [ok for _, ok in kept], bins)
    table["without_confidence"] = len(scored) - len(kept)
    return table


def summarize_claims(outcomes: Sequence[ClaimOutcome], *, bins: int = 10) -> dict[str, Any]:
    """Metrics for triqua and the direct baseline, and how partial rows were judged.

    The 3-way metrics use rows whose gold is a status. The binary view (supported vs not
    supported) also takes partial rows, as not supported: the claim as a whole does not
    hold. ElementCheck's Coverage and Overall read every row that did not fail: covered
    when the system had a fact to check (the direct baseline always has the claim), scored
    on the binary view. The selective "definite" coverage reads rows whose gold is
    supported or contradicted, with insufficient evidence as the abstention. Calibration
    bins each 3-way row by the system's confidence in its verdict (``bins`` bins) against
    whether the verdict equals gold. Rows that failed (``error``) are counted and left out
    of every metric.
    """
    ok = [o for o in outcomes if o.error is None]
    three = [o for o in ok if o.gold in LABELS]
    partial = [o for o in ok if o.gold == PARTIAL]
    gold = [o.gold for o in three]
    names = ("triqua", "direct")
    systems = {
        name: classification_report(gold, [getattr(o, name) for o in three], LABELS)
        for name in names
    }
    two = [*three, *partial]
    binary = {
        name: classification_report(
            [_binary(o.gold) for o in two], [_binary(getattr(o, name)) for o in two], BINARY_LABELS
        )
        for name in names
    }
    coverage = {
        name: coverage_overall(
            [_binary(o.gold) for o in ok],
            [_binary(getattr(o, name)) for o in ok],
            [o.facts > 0 if name == "triqua" else True for o in ok],
        )
        for name in names
    }
    definite = [o for o in three if o.gold in DEFINITE]
    definite_coverage = {
        name: definite_coverage_overall(
            [o.gold for o in definite], [getattr(o, name) for o in definite], DEFINITE
        )
        for name in names
    }
    calibration = {name: _calibration(three, name, bins) for name in names}
    reverified = [o.reverified for o in ok]
    cost = per_fact_rates(
        sum(o.facts for o in ok),
        reverified=None if any(r is None for r in reverified) else sum(r or 0 for r in reverified),
        model_calls=sum(o.model_calls for o in ok),
        search_calls=sum(o.search_calls for o in ok),
    )
    bands = Counter(_score_band(o.triqua_score) for o in partial)
    return {
        "rows": len(outcomes),
        "errors": len(outcomes) - len(ok),
        "gold_counts": dict(Counter(o.gold for o in ok)),
        "three_way_rows": len(three),
        "facts_per_claim": (sum(o.facts for o in ok) / len(ok)) if ok else None,
        "claims_without_facts": sum(o.facts == 0 for o in ok),
        "systems": systems,
        "binary_rows": len(two),
        "binary": binary,
        "coverage": coverage,
        "definite_coverage": definite_coverage,
        "calibration": calibration,
        "cost": cost,
        "partial": {
            "rows": len(partial),
            "triqua": {s: sum(o.triqua == s for o in partial) for s in LABELS},
            "direct": {s: sum(o.direct == s for o in partial) for s in LABELS},
            "triqua_score_bands": {b: bands[b] for b in ("undefined", "0", "between", "1")},
            "between_share": (bands["between"] / len(partial)) if partial else None,
        },
    }


def claim_metric(rows: Sequence[ClaimOutcome]) -> dict[str, Any]:
    """Accuracy of triqua and of the direct baseline on the rows of one slice.

    ``rows`` are claim outcomes (``gold``, ``triqua``, ``direct``). Accuracy is over rows
    whose gold is a verdict status; a partial row counts in the binary accuracy only
    (supported vs not, a partial claim being not supported).
    """
    three = [r for r in rows if r.gold in LABELS]
    supported = Status.SUPPORTED.value

    def binary(label: str) -> bool:
        return label == supported

    out: dict[str, Any] = {"three_way": len(three)}
    for system in ("triqua", "direct"):
        out[f"{system}_accuracy"] = share(
            sum(getattr(r, system) == r.gold for r in three), len(three)
        )
        out[f"{system}_binary_accuracy"] = share(
            sum(binary(getattr(r, system)) == binary(r.gold) for r in rows), len(rows)
        )
    return out


#: The columns of the claim-row tables.
CLAIM_COLUMNS = (
    ("3-way rows", "three_way"),
    ("triqua accuracy", "triqua_accuracy"),
    ("direct accuracy", "direct_accuracy"),
    ("triqua binary acc.", "triqua_binary_accuracy"),
    ("direct binary acc.", "direct_binary_accuracy"),
)

#: The slicing dimensions of claim rows.
CLAIM_DIMENSIONS: dict[str, Dimension[ClaimOutcome]] = {
    "gold": lambda r: (r.gold,),
    "verdict": lambda r: (r.triqua,),
    "route": lambda r: (r.route,),
    "mode": lambda r: (r.mode,),
    "qualifier_label": lambda r: r.qualifier_labels or (NO_QUALIFIER,),
}


def claim_slices(rows: Sequence[ClaimOutcome]) -> dict[str, list[dict[str, Any]]]:
    """Claim rows that did not fail, by gold label, triqua's verdict, route, mode and label.

    By gold label, a system's accuracy is its recall of that label; by triqua's verdict,
    triqua's accuracy is its precision for that verdict (and the direct baseline's accuracy
    is on the same rows).
    """
    ok = [r for r in rows if r.error is None]
    return slice_by(ok, CLAIM_DIMENSIONS, claim_metric)
