"""TriQuaScore and evaluation statistics under their historical import path.

Run-time scoring lives in :mod:`triqua.core.verdicts.scoring`; evaluation statistics in
:mod:`triqua.evals.stats`, loaded only when one of its names is used (module ``__getattr__``),
so that importing this module loads no numpy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from triqua.core.verdicts.scoring import (
    RiskCoverage,
    citation_completeness,
    label_units,
    link_correctness,
    normalize,
    risk_coverage_curve,
    score_facts,
    selective_risk,
    unit_key,
)

if TYPE_CHECKING:
    from triqua.evals.stats import classification_report, pearson_spearman_mae

__all__ = [
    "RiskCoverage",
    "citation_completeness",
    "classification_report",
    "label_units",
    "link_correctness",
    "normalize",
    "pearson_spearman_mae",
    "risk_coverage_curve",
    "score_facts",
    "selective_risk",
    "unit_key",
]

_EVAL_STATS = frozenset({"classification_report", "pearson_spearman_mae"})


def __getattr__(name: str) -> Any:
    """Load an evaluation statistic from :mod:`triqua.evals.stats` on first use."""
    if name not in _EVAL_STATS:
        raise AttributeError(f"module 'triqua.metrics' has no attribute {name!r}")
    return getattr(importlib.import_module("triqua.evals.stats"), name)
