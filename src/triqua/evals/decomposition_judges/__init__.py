"""Rule judges of decomposition quality (TriQua §4.2), so diagnostics run without a model.

Three criteria are judged per fact:

* ``entailed``: the source sentence entails the fact. Offline this is token containment: the
  share of each element's content words found in the source sentence (names may also come
  from the text before it: a resolved pronoun's antecedent) must reach ``threshold``.
* ``decontextualised``: the fact stands alone: no unresolved pronoun or demonstrative, no
  relative time ("last year", "recently") and no bare comparative ("larger" without "than").
* ``qualifiers_ok``: no qualifier modifies another qualifier, states a general property of an
  entity, or has a preposition as its label.

Each verdict names the offending elements (``(s, r, o)`` or ``(label, value)``) so that rates
can be broken down per qualifier label. The package has one module per criterion
(``entailment``, ``decontextualisation``, ``qualifiers``) and ``verdicts`` for their types.
"""

from __future__ import annotations

from triqua.evals.decomposition_judges.decontextualisation import judge_decontextualised
from triqua.evals.decomposition_judges.entailment import containment, judge_entailed
from triqua.evals.decomposition_judges.qualifiers import judge_qualifiers
from triqua.evals.decomposition_judges.verdicts import (
    CRITERIA,
    DEFAULT_CONTAINMENT_THRESHOLD,
    Criterion,
    CriterionVerdict,
    FactDiagnosis,
)
from triqua.schema import Fact

__all__ = [
    "CRITERIA",
    "DEFAULT_CONTAINMENT_THRESHOLD",
    "Criterion",
    "CriterionVerdict",
    "FactDiagnosis",
    "containment",
    "judge_decontextualised",
    "judge_entailed",
    "judge_qualifiers",
    "rule_diagnosis",
]


def rule_diagnosis(
    fact: Fact,
    source: str,
    context: str = "",
    threshold: float = DEFAULT_CONTAINMENT_THRESHOLD,
) -> FactDiagnosis:
    """All three rule judges on one fact."""
    return FactDiagnosis(
        verdicts={
            "entailed": judge_entailed(fact, source, context, threshold),
            "decontextualised": judge_decontextualised(fact),
            "qualifiers_ok": judge_qualifiers(fact),
        }
    )
