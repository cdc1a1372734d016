"""Verdicts: one per unit, settled, withheld, re-verified, and scored.

Settling under the grounding rule (``settling``), abstention by failure costs
(``abstention``), re-verification rounds (``reverification``), and TriQuaScore with its
companions over the settled verdicts (``scoring``).
"""
